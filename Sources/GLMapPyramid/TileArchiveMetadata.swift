import GLMap
import GLMapBatch
import Foundation
import GLMapImageFormats
import GLMapArchives
import GLMapCore
import GLMapStyle

/// What an MBTiles `metadata` table and a PMTiles / TileJSON metadata object say about a pyramid.
public struct TileArchiveMetadata: Equatable, Sendable {
    /// The tileset's name (the style's `name`, else the style file's stem).
    public var name: String
    /// A free-text description, if given.
    public var description: String?
    /// The sources' `attribution`s, distinct, joined with " | " (as MapLibre shows them).
    public var attribution: String?
    /// The tiles' image format.
    public var format: ImageFormat.Kind
    /// West, south, east, north (west > east crosses the antimeridian).
    public var bounds: LngLatBounds
    /// The view a viewer opens at: longitude and latitude in degrees, an integer zoom.
    public var center: (lon: Double, lat: Double, zoom: Int)
    /// The lowest tile zoom.
    public var minzoom: Int
    /// The deepest tile zoom.
    public var maxzoom: Int
    /// Tile side in CSS pixels (256 or 512; default 256).
    public var tileSize: Int
    /// Device pixels per CSS pixel (default 1): a tile image is `tileSize · scale` pixels a side.
    public var scale: Double

    /// Field-by-field equality (a tuple member keeps it from being synthesised).
    public static func == (a: TileArchiveMetadata, b: TileArchiveMetadata) -> Bool {
        a.name == b.name && a.description == b.description && a.attribution == b.attribution && a.format == b.format
            && a.bounds == b.bounds && a.center == b.center && a.minzoom == b.minzoom && a.maxzoom == b.maxzoom
            && a.tileSize == b.tileSize && a.scale == b.scale
    }

    /// Creates metadata; a 256-px tile at scale 1 unless given.
    public init(name: String, description: String? = nil, attribution: String? = nil, format: ImageFormat.Kind,
                bounds: LngLatBounds, center: (lon: Double, lat: Double, zoom: Int), minzoom: Int, maxzoom: Int,
                tileSize: Int = 256, scale: Double = 1) {
        self.name = name; self.description = description; self.attribution = attribution; self.format = format
        self.bounds = bounds; self.center = center; self.minzoom = minzoom; self.maxzoom = maxzoom
        self.tileSize = tileSize; self.scale = scale
    }

    /// The metadata of a pyramid of `style`: its `name` (else `fallbackName`), its sources'
    /// attributions, the pyramid's box and zooms, and the style's center when it lies in the box
    /// (its zoom clamped to the pyramid's), else the box's center at the lowest zoom.
    public static func from(style: StyleDocument, fallbackName: String, pyramid: Pyramid, tileSize: Int, ratio: Double,
                            format: ImageFormat.Kind, description: String? = nil) -> TileArchiveMetadata {
        let b = pyramid.bbox
        var seen: Set<String> = []
        let attributions = style.sources.keys.sorted().compactMap { style.sources[$0]?.attribution }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
        let bounds = LngLatBounds(west: b.west, south: b.south, east: b.east, north: b.north)
        let inBox: Bool = {
            let lon = style.center.lon, lat = style.center.lat
            let lonIn = b.west <= b.east ? (b.west...b.east).contains(lon) : (lon >= b.west || lon <= b.east)
            return style.hasCenter && lonIn && (b.south...b.north).contains(lat)
        }()
        let z = pyramid.zooms
        let center: (lon: Double, lat: Double, zoom: Int)
        if inBox {
            center = (style.center.lon, style.center.lat, min(max(Int(style.zoom.rounded(.down)), z.lowerBound), z.upperBound))
        } else {
            var lon = (b.west + bounds.unwrappedEast) / 2
            if lon > 180 { lon -= 360 }
            center = (lon, (b.south + b.north) / 2, z.lowerBound)
        }
        // Degrees to 6 decimals (as MBTiles writes them), so metadata read back from either format
        // is the metadata written (merging shards then rebuilds the one-process archive exactly).
        func r6(_ v: Double) -> Double { Double(Self.f(v)) ?? v }
        let rounded = LngLatBounds(west: r6(bounds.west), south: r6(bounds.south), east: r6(bounds.east), north: r6(bounds.north))
        return TileArchiveMetadata(name: style.name ?? fallbackName, description: description,
                                   attribution: attributions.isEmpty ? nil : attributions.joined(separator: " | "),
                                   format: format, bounds: rounded, center: (r6(center.lon), r6(center.lat), center.zoom), minzoom: z.lowerBound, maxzoom: z.upperBound,
                                   tileSize: tileSize, scale: ratio)
    }

    static func f(_ v: Double) -> String { String(format: "%.6f", v) }
    var scaleText: String { scale == scale.rounded() ? String(Int(scale)) : String(scale) }

    /// MBTiles 1.3 `metadata` rows.
    public var mbtilesRows: [(String, String)] {
        var rows: [(String, String)] = [
            ("name", name), ("format", format.tileFormat), ("type", "baselayer"), ("version", "1.0"),
            ("minzoom", String(minzoom)), ("maxzoom", String(maxzoom)),
            ("bounds", [bounds.west, bounds.south, bounds.east, bounds.north].map(Self.f).joined(separator: ",")),
            ("center", [Self.f(center.lon), Self.f(center.lat), String(center.zoom)].joined(separator: ",")),
            ("tile_size", String(tileSize)), ("scale", scaleText),
        ]
        if let attribution { rows.append(("attribution", attribution)) }
        if let description { rows.append(("description", description)) }
        return rows
    }

    /// The TileJSON-style metadata object a PMTiles archive carries (keys sorted, so equal
    /// metadata gives equal bytes).
    public var json: [UInt8] {
        var o: [String: Any] = [
            "name": name, "format": format.tileFormat, "type": "baselayer", "version": "1.0",
            "minzoom": minzoom, "maxzoom": maxzoom,
            "bounds": [bounds.west, bounds.south, bounds.east, bounds.north],
            "center": [center.lon, center.lat, Double(center.zoom)],
            "tile_size": tileSize, "scale": scale,
        ]
        if let attribution { o["attribution"] = attribution }
        if let description { o["description"] = description }
        let data = (try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])) ?? Data("{}".utf8)
        return [UInt8](data)
    }

    /// The PMTiles header fields this metadata sets.
    func apply(to h: inout PMTiles.Header) {
        h.tileType = PMTiles.tileType(format)
        h.minZoom = UInt8(minzoom); h.maxZoom = UInt8(maxzoom)
        h.minLon = bounds.west; h.minLat = bounds.south; h.maxLon = bounds.east; h.maxLat = bounds.north
        h.centerZoom = UInt8(center.zoom); h.centerLon = center.lon; h.centerLat = center.lat
    }

    /// Reads metadata back from name → value strings (MBTiles rows, or PMTiles JSON values).
    public init(strings m: [String: String], path: String) throws {
        func num(_ s: String?) -> [Double] { (s ?? "").split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) } }
        let b = num(m["bounds"]), c = num(m["center"])
        guard let minz = m["minzoom"].flatMap({ Int($0) }), let maxz = m["maxzoom"].flatMap({ Int($0) }), b.count == 4 else {
            throw InputFailure("\(path): the archive's metadata lacks minzoom, maxzoom or bounds")
        }
        let kind: ImageFormat.Kind = try ImageFormat.Kind.parse(m["format"] ?? "png")
        self.init(name: m["name"] ?? "", description: m["description"], attribution: m["attribution"], format: kind,
                  bounds: LngLatBounds(west: b[0], south: b[1], east: b[2], north: b[3]),
                  center: c.count == 3 ? (c[0], c[1], Int(c[2])) : ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2, minz),
                  minzoom: minz, maxzoom: maxz, tileSize: m["tile_size"].flatMap { Int($0) } ?? 256,
                  scale: m["scale"].flatMap { Double($0) } ?? 1)
    }
}
