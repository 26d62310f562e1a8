import Foundation
import GLMapArchives
import GLMapCore

/// What a tile set on disk covers — for `--fit` and `--source ID=FILE`: an MBTiles file (its
/// metadata, else its `tiles` table), a PMTiles archive (its header) or a folder of `z/x/y.ext`
/// tiles (the zoom folders present, and the tile range at the deepest zoom).
public struct TileSetSummary: Sendable, Equatable {
    /// West, south, east, north in degrees (nil when unknown, e.g. tilemaker's 0,0,0,0).
    public var bounds: [Double]?
    /// Longitude, latitude and zoom a viewer opens at (nil when the set does not say).
    public var center: [Double]?
    /// Lowest zoom with tiles.
    public var minzoom: Int
    /// Deepest zoom with tiles.
    public var maxzoom: Int
    /// The tile format ("pbf", "png", "jpg", "webp", …) when known.
    public var format: String?
    /// The vector layer ids the metadata lists (nil when it lists none).
    public var vectorLayerIDs: [String]?

    /// Reads the summary of `path` (.mbtiles, .pmtiles, or a folder); throws naming the path.
    public static func read(_ path: String, limits: InputLimits = .default) throws -> TileSetSummary {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw IOFailure(path: path, message: "no such file or folder") }
        if isDir.boolValue { return try folder(path) }
        switch TileArchiveKind(path: path) {
        case .mbtiles?:
            let r = try MBTilesReader(path: path)
            var m = r.metadata.map { ($0.key, JSONValue.string($0.value)) }
            m.sort { $0.0 < $1.0 }
            let info = TileSetInfo(json: JSONObject(m))
            var lo = info.minzoom.map { Int($0) }, hi = info.maxzoom.map { Int($0) }
            if lo == nil || hi == nil, let z = try r.zoomRange() { lo = lo ?? z.lowerBound; hi = hi ?? z.upperBound }
            var bounds = info.bounds
            if bounds == nil, let z = try r.zoomRange()?.upperBound { bounds = try r.tileBounds(zoom: z) }
            return TileSetSummary(bounds: bounds, center: info.center, minzoom: lo ?? 0, maxzoom: hi ?? 0,
                                  format: info.format, vectorLayerIDs: info.vectorLayerIDs)
        case .pmtiles?:
            let r = try PMTilesReader(path: path, limits: limits)
            let h = r.header
            let info = TileSetInfo(json: r.metadata)
            let format: String? = [.mvt: "pbf", .png: "png", .jpeg: "jpg", .webp: "webp", .avif: "avif", .mlt: "mlt"][r.tileType] ?? info.format
            return TileSetSummary(bounds: h.minLon < h.maxLon && h.minLat < h.maxLat ? [h.minLon, h.minLat, h.maxLon, h.maxLat] : nil,
                                  center: [h.centerLon, h.centerLat, Double(h.centerZoom)], minzoom: Int(h.minZoom), maxzoom: Int(h.maxZoom),
                                  format: format, vectorLayerIDs: info.vectorLayerIDs)
        case nil:
            throw InputFailure("\(path): expected an .mbtiles or .pmtiles archive or a folder of z/x/y tiles")
        }
    }

    static func folder(_ path: String) throws -> TileSetSummary {
        let fm = FileManager.default
        let zooms = ((try? fm.contentsOfDirectory(atPath: path)) ?? []).compactMap { Int($0) }.filter { (0...CanonicalTileID.maxZoom).contains($0) }.sorted()
        guard let lo = zooms.first, let hi = zooms.last else {
            throw InputFailure("\(path): no zoom folders (expected z/x/y files such as 0/0/0.pbf)")
        }
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        var format: String?
        for xName in (try? fm.contentsOfDirectory(atPath: "\(path)/\(hi)")) ?? [] {
            guard let x = Int(xName) else { continue }
            for f in (try? fm.contentsOfDirectory(atPath: "\(path)/\(hi)/\(xName)")) ?? [] {
                let stem = f.split(separator: ".", maxSplits: 1)
                guard let s = stem.first, let y = Int(s.split(separator: "@").first ?? s) else { continue }
                if format == nil, stem.count == 2 { format = String(stem[1]) }
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        var bounds: [Double]?
        if minX <= maxX {
            let n = Double(1 << hi)
            let nw = WebMercator.unproject(x: Double(minX) / n, y: Double(minY) / n)
            let se = WebMercator.unproject(x: Double(maxX + 1) / n, y: Double(maxY + 1) / n)
            bounds = [nw.lon, se.lat, se.lon, nw.lat]
        }
        return TileSetSummary(bounds: bounds, center: nil, minzoom: lo, maxzoom: hi, format: format, vectorLayerIDs: nil)
    }
}

extension MBTilesReader {
    /// The box covered by the tiles at `zoom` (from the table, TMS rows), nil when there are none.
    func tileBounds(zoom: Int) throws -> [Double]? {
        guard let r = try tileRange(zoom: zoom) else { return nil }
        let n = Double(1 << zoom)
        // TMS rows: the highest row is the northernmost.
        let nw = WebMercator.unproject(x: Double(r.minX) / n, y: Double((1 << zoom) - 1 - r.maxRow) / n)
        let se = WebMercator.unproject(x: Double(r.maxX + 1) / n, y: Double((1 << zoom) - r.minRow) / n)
        return [nw.lon, se.lat, se.lon, nw.lat]
    }
}
