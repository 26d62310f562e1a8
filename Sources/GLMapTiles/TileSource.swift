// Tile sources — contract
// Input: a `TileSourceDescription` (the style's vector / raster / raster-dem source), a
// `ResourceLoader` (every fetch goes through it) and the input limits. Opening resolves where
// tiles come from, once:
// - `url` of a TileJSON: fetched through the loader; its `tiles` (required: a TileJSON without
//   them is an error), minzoom, maxzoom, attribution, bounds, scheme, tileSize, encoding and
//   vector_layers, each overridden by the style's own value where the style sets one (GL JS's
//   loadTileJSON); relative tile templates resolve against the TileJSON's location;
// - `mbtiles://PATH` / `pmtiles://PATH` (as `url` or as the one `tiles` entry): the archive is
//   opened (PATH relative to the loader's base folder), its metadata (MBTiles `metadata`, PMTiles
//   header + JSON) standing in for the TileJSON;
// - `tiles` templates: used as they are (TileURLTemplate fills them).
// Loading (`VectorTileSource.load(tiles:)`, `RasterTileSource`, `RasterDEMTileSource`): every
// tile of the call is fetched concurrently (network) and decoded concurrently; tiles outside the
// zoom range or `bounds` are never requested (`.missing`). Per tile: `.loaded`, `.empty` (HTTP 204,
// an empty file or archive entry), `.missing` (404, absent from the archive or folder), or
// `.failed(message)` naming the source id, tile z/x/y and what is wrong (the loader's message,
// corrupt gzip, a decompression bomb past `InputLimits.maxTileBytes`, corrupt protobuf, a
// truncated PNG/JPEG/WebP, …). Fetched bytes larger than `maxTileBytes` fail too. gzip/zlib
// tiles are inflated first. Decode warnings (clamped coordinates, dropped features) come back
// through `load(tiles:warnings:)`, one line per tile and kind, prefixed like failures.
// Thread-safe; nothing is cached between calls (the renderer keeps what it needs).
import Foundation
import GLMapArchives
import GLMapCore

/// Where a source's tiles come from, resolved when it is opened (see the contract above).
public final class TileSource: Sendable {
    /// The style's description of the source.
    public let description: TileSourceDescription
    /// The source id (for messages).
    public var id: String { description.id }
    /// Tile URL templates (empty for an archive).
    public let templates: [String]
    /// The archive the tiles come from, if any: "mbtiles" or "pmtiles" and its path.
    public let archivePath: String?
    /// Lowest zoom with tiles.
    public let minzoom: Double
    /// Deepest zoom with tiles (deeper views over-scale it).
    public let maxzoom: Double
    /// The area with tiles (nil: the whole world).
    public let bounds: TileBounds?
    /// Row numbering of the templates.
    public let scheme: TileScheme
    /// Tile side in CSS pixels.
    public let tileSize: Int
    /// The attribution text (the style's, else the TileJSON's or archive's).
    public let attribution: String?
    /// The vector layer ids the TileJSON or archive lists (nil when it lists none).
    public let vectorLayerIDs: [String]?
    /// The device pixel ratio that fills {ratio}.
    public let pixelRatio: Double

    let loader: ResourceLoader
    let limits: InputLimits
    let archive: TileArchiveHandle?

    /// Opens a source that must be of `type` (a raster layer's source, say); throws
    /// `TileSourceError` naming `sources.ID.type` otherwise, or when the source cannot be opened.
    public convenience init(_ description: TileSourceDescription, expecting type: TileSourceType, loader: ResourceLoader,
                            limits: InputLimits = .default, pixelRatio: Double = 1) throws(TileSourceError) {
        guard description.type == type else {
            let article = "aeiou".contains(type.rawValue.first ?? "x") ? "an" : "a"
            throw TileSourceError(path: "sources.\(description.id).type", message: "expected \(article) \(type.rawValue) source, found \(description.type.rawValue)")
        }
        try self.init(description, loader: loader, limits: limits, pixelRatio: pixelRatio)
    }

    /// Opens the source: fetches its TileJSON or opens its archive (see the contract). Throws
    /// `TileSourceError` naming the source and the URL or file when that fails.
    public init(_ description: TileSourceDescription, loader: ResourceLoader, limits: InputLimits = .default,
                pixelRatio: Double = 1) throws(TileSourceError) {
        (self.description, self.loader, self.limits, self.pixelRatio) = (description, loader, limits, pixelRatio)
        let at = "sources.\(description.id)"
        var info = TileSetInfo()
        var archive: TileArchiveHandle?
        var archivePath: String?
        if let one = description.tiles?.first, description.tiles?.count == 1, let kind = TileArchiveHandle.kind(of: one) {
            archivePath = TileArchiveHandle.path(of: one, kind: kind, loader: loader)
            (archive, info) = try TileArchiveHandle.open(kind: kind, path: archivePath!, source: at, limits: limits)
        } else if let url = description.url, description.type != .image {
            if let kind = TileArchiveHandle.kind(of: url) {
                archivePath = TileArchiveHandle.path(of: url, kind: kind, loader: loader)
                (archive, info) = try TileArchiveHandle.open(kind: kind, path: archivePath!, source: at, limits: limits)
            } else {
                info = try TileSource.tileJSON(url, loader: loader, source: at, limits: limits)
            }
        }
        self.archive = archive
        self.archivePath = archivePath
        // The style's own values win over the TileJSON's / archive's (GL JS's loadTileJSON).
        let explicit = description.explicitKeys
        if let t = description.tiles, explicit.contains("tiles"), archive == nil {
            templates = t
        } else {
            templates = info.tiles ?? []
        }
        if archive == nil && templates.isEmpty {
            throw TileSourceError(path: at, message: "no tile URL templates (\"tiles\")")
        }
        minzoom = explicit.contains("minzoom") ? description.minzoom ?? 0 : info.minzoom ?? 0
        maxzoom = explicit.contains("maxzoom") ? description.maxzoom ?? 22 : info.maxzoom ?? 22
        if minzoom > maxzoom {
            throw TileSourceError(path: at, message: "minzoom \(JSONValue.formatNumber(minzoom)) is greater than maxzoom \(JSONValue.formatNumber(maxzoom))")
        }
        let b = explicit.contains("bounds") ? description.bounds : info.bounds
        bounds = b.map(TileBounds.init)
        scheme = explicit.contains("scheme") ? description.scheme : info.scheme ?? .xyz
        tileSize = Int((explicit.contains("tileSize") ? description.tileSize : info.tileSize) ?? 512)
        attribution = description.attribution ?? info.attribution
        vectorLayerIDs = info.vectorLayerIDs
        let encoding = explicit.contains("encoding") || description.type != .vector ? description.vectorEncoding : info.encoding ?? "mvt"
        if description.type == .vector && encoding == "mlt" {
            throw TileSourceError(path: "\(at).encoding", message: "MapLibre Tile (mlt) encoding is not supported; glmap reads Mapbox Vector Tiles (mvt)")
        }
    }

    /// Whether `tile` may be requested: inside the zoom range and `bounds`.
    public func covers(_ tile: CanonicalTileID) -> Bool {
        guard Double(tile.z) >= minzoom.rounded(.down), Double(tile.z) <= maxzoom else { return false }
        return bounds?.contains(tile) ?? true
    }

    /// The URL of `tile` (nil for an archive source).
    public func url(for tile: CanonicalTileID) -> String? {
        archive == nil ? TileURLTemplate.url(templates, tile: tile, scheme: scheme, pixelRatio: pixelRatio) : nil
    }

    /// "source \"ID\" tile z/x/y: " — the prefix of every message about one tile.
    public func prefix(_ tile: CanonicalTileID) -> String { "source \"\(id)\" tile \(tile): " }

    /// The tiles' bytes, inflated when gzip/zlib, fetched concurrently; `.loaded` holds the bytes.
    public func fetch(_ tiles: [CanonicalTileID]) -> [CanonicalTileID: TileLoadResult<[UInt8]>] {
        var out: [CanonicalTileID: TileLoadResult<[UInt8]>] = [:]
        var wanted: [CanonicalTileID] = []
        for t in tiles where out[t] == nil {
            if covers(t) { out[t] = .missing; wanted.append(t) } else { out[t] = .missing }
        }
        guard !wanted.isEmpty else { return out }
        let raw: [ResourceResult]
        if let archive {
            raw = concurrentMap(wanted) { t in archive.read(t) }
        } else {
            raw = loader.load(wanted.map { url(for: $0)! })
        }
        for (t, r) in zip(wanted, raw) {
            switch r {
            case .notFound: out[t] = .missing
            case .noContent: out[t] = .empty
            case .failed(let m): out[t] = .failed(prefix(t) + m)
            case .data(let bytes):
                guard bytes.count <= limits.maxTileBytes else {
                    out[t] = .failed(prefix(t) + "the tile is \(bytes.count) bytes, more than \(limits.maxTileBytes) (limit InputLimits.maxTileBytes)")
                    continue
                }
                do {
                    let inflated = try Decompression.inflateIfCompressed(bytes, limit: limits.maxTileBytes, limitName: "limit InputLimits.maxTileBytes")
                    out[t] = inflated.isEmpty ? .empty : .loaded(inflated)
                } catch {
                    out[t] = .failed(prefix(t) + error.description)
                }
            }
        }
        return out
    }

    /// Fetches and decodes `tiles` concurrently with `decode` (bytes → data, or a message).
    func load<D: Sendable>(_ tiles: [CanonicalTileID], warnings: inout [String],
                           decode: @Sendable (CanonicalTileID, [UInt8]) -> (Result<D, Failure>, [String])) -> [CanonicalTileID: TileLoadResult<D>] {
        let fetched = fetch(tiles)
        let keys = Array(fetched.keys).sorted()
        let decoded = concurrentMap(keys) { t -> (TileLoadResult<D>, [String]) in
            switch fetched[t]! {
            case .loaded(let bytes):
                let (r, w) = decode(t, bytes)
                switch r {
                case .success(let d): return (.loaded(d), w.map { prefix(t) + $0 })
                case .failure(let f): return (.failed(prefix(t) + f.message), w.map { prefix(t) + $0 })
                }
            case .empty: return (.empty, [])
            case .missing: return (.missing, [])
            case .failed(let m): return (.failed(m), [])
            }
        }
        var out: [CanonicalTileID: TileLoadResult<D>] = [:]
        for (t, (r, w)) in zip(keys, decoded) {
            out[t] = r
            warnings += w
        }
        return out
    }

    /// A decoder's failure message.
    struct Failure: Error { var message: String }

    // MARK: TileJSON

    static func tileJSON(_ url: String, loader: ResourceLoader, source: String, limits: InputLimits) throws(TileSourceError) -> TileSetInfo {
        let bytes: [UInt8]
        switch loader.load(url) {
        case .data(let b): bytes = b
        case .notFound: throw TileSourceError(path: source + ".url", message: "the TileJSON \(url) was not found")
        case .noContent: throw TileSourceError(path: source + ".url", message: "the TileJSON \(url) is empty")
        case .failed(let m): throw TileSourceError(path: source + ".url", message: "cannot fetch the TileJSON: \(m)")
        }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes, limits: limits) } catch {
            throw TileSourceError(path: source + ".url", message: "the TileJSON \(url) is not JSON: \(error)")
        }
        guard let o = json.objectValue else { throw TileSourceError(path: source + ".url", message: "the TileJSON \(url) is not a JSON object") }
        var info = TileSetInfo(json: o)
        guard let tiles = info.tiles, !tiles.isEmpty else {
            throw TileSourceError(path: source + ".url", message: "the TileJSON \(url) has no \"tiles\" (an array of tile URL templates)")
        }
        // Relative templates resolve against the TileJSON's own location.
        let location = loader.target(of: url)
        info.tiles = tiles.map { t in
            if t.contains("://") || t.hasPrefix("/") { return t }
            switch location {
            case .network(let u): return ResourceLoader.join(url: u, relative: t)
            case .file(let p): return PathText.directory(of: p).isEmpty ? t : PathText.directory(of: p) + "/" + t
            default: return t
            }
        }
        return info
    }
}

/// What a TileJSON or an archive's metadata says about a tile set.
struct TileSetInfo: Sendable {
    var tiles: [String]?
    var minzoom: Double?
    var maxzoom: Double?
    var bounds: [Double]?
    var center: [Double]?
    var scheme: TileScheme?
    var tileSize: Double?
    var attribution: String?
    var encoding: String?
    var format: String?
    var vectorLayerIDs: [String]?

    init() {}

    /// From TileJSON members (numbers as numbers or numeric strings, as archives write them).
    init(json o: JSONObject) {
        func num(_ k: String) -> Double? {
            switch o[k] {
            case .number(let n)?: return n.isFinite ? n : nil
            case .string(let s)?: return Double(s.trimmingCharacters(in: .whitespaces))
            default: return nil
            }
        }
        func nums(_ k: String) -> [Double]? {
            switch o[k] {
            case .array(let a)?: let v = a.compactMap(\.numberValue); return v.count == a.count ? v : nil
            case .string(let s)?: let v = s.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }; return v.isEmpty ? nil : v
            default: return nil
            }
        }
        tiles = o["tiles"]?.arrayValue?.compactMap(\.stringValue)
        minzoom = num("minzoom")
        maxzoom = num("maxzoom")
        if let b = nums("bounds"), b.count == 4, b[0] < b[2], b[1] < b[3] { bounds = b }   // tilemaker writes 0,0,0,0
        if let c = nums("center"), c.count >= 2 { center = c }
        scheme = o["scheme"]?.stringValue.flatMap(TileScheme.init(rawValue:))
        tileSize = num("tileSize") ?? num("tile_size")
        attribution = o["attribution"]?.stringValue
        encoding = o["encoding"]?.stringValue
        format = o["format"]?.stringValue
        var layers = o["vector_layers"]
        if layers == nil, let s = o["json"]?.stringValue, let inner = try? JSONParser.parse(s) { layers = inner["vector_layers"] }
        vectorLayerIDs = layers?.arrayValue?.compactMap { $0["id"]?.stringValue }
    }
}

/// An open MBTiles or PMTiles archive a source reads tiles from.
enum TileArchiveHandle: Sendable {
    case mbtiles(MBTilesReader)
    case pmtiles(PMTilesReader)

    static func kind(of reference: String) -> TileArchiveKind? {
        let l = reference.lowercased()
        if l.hasPrefix("mbtiles://") { return .mbtiles }
        if l.hasPrefix("pmtiles://") { return .pmtiles }
        return nil
    }

    /// The file of `mbtiles://PATH` / `pmtiles://PATH`, relative paths against the loader's base folder.
    static func path(of reference: String, kind: TileArchiveKind, loader: ResourceLoader) -> String {
        let rest = String(reference.dropFirst(10))
        if rest.hasPrefix("/") { return rest }
        switch loader.target(of: rest) {
        case .file(let p): return p
        default: return rest
        }
    }

    static func open(kind: TileArchiveKind, path: String, source: String, limits: InputLimits) throws(TileSourceError) -> (TileArchiveHandle, TileSetInfo) {
        do {
            switch kind {
            case .mbtiles:
                let r = try MBTilesReader(path: path)
                var m: [(String, JSONValue)] = r.metadata.map { ($0.key, JSONValue.string($0.value)) }
                m.sort { $0.0 < $1.0 }
                var info = TileSetInfo(json: JSONObject(m))
                if info.minzoom == nil || info.maxzoom == nil, let z = try r.zoomRange() {
                    info.minzoom = info.minzoom ?? Double(z.lowerBound)
                    info.maxzoom = info.maxzoom ?? Double(z.upperBound)
                }
                return (.mbtiles(r), info)
            case .pmtiles:
                let r = try PMTilesReader(path: path, limits: limits)
                guard r.tileCompression == .none || r.tileCompression == .gzip || r.tileCompression == .unknown else {
                    throw TileSourceError(path: source, message: "\(path): PMTiles tile compression \(r.tileCompression) is not supported (glmap reads none and gzip)")
                }
                var info = TileSetInfo(json: r.metadata)
                let h = r.header
                info.minzoom = Double(h.minZoom)
                info.maxzoom = Double(h.maxZoom)
                if h.minLon < h.maxLon && h.minLat < h.maxLat { info.bounds = [h.minLon, h.minLat, h.maxLon, h.maxLat] }
                info.center = [h.centerLon, h.centerLat, Double(h.centerZoom)]
                return (.pmtiles(r), info)
            }
        } catch let e as TileSourceError {
            throw e
        } catch {
            throw TileSourceError(path: source, message: "cannot open the \(kind.rawValue) archive: \(error)")
        }
    }

    func read(_ t: CanonicalTileID) -> ResourceResult {
        do {
            let bytes: [UInt8]?
            switch self {
            case .mbtiles(let r): bytes = try r.tile(z: t.z, x: t.x, y: t.y)
            case .pmtiles(let r): bytes = try r.tile(z: t.z, x: t.x, y: t.y)
            }
            guard let bytes else { return .notFound }
            return bytes.isEmpty ? .noContent : .data(bytes)
        } catch {
            return .failed("\(error)")
        }
    }
}
