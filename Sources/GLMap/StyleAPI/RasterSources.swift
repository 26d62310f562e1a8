import Foundation
import GLMapCore

/// A `raster` source: picture tiles (PNG, JPEG or WebP) from `tiles` URL templates, a TileJSON
/// `url`, or an MBTiles / PMTiles archive (`mbtiles://PATH`, `pmtiles://PATH`); a `RasterLayer`
/// draws it.
public struct RasterSource: Equatable, Sendable {
    /// The source id layers refer to.
    public var id: String
    /// Tile URL templates (`{z}`, `{x}`, `{y}`, …) or one archive reference.
    public var tiles: [String]?
    /// A TileJSON URL or an archive reference (used when `tiles` is nil).
    public var url: String?
    /// Tile side in CSS pixels (default 512).
    public var tileSize: Double?
    /// Lowest zoom with tiles (default 0).
    public var minzoom: Double?
    /// Deepest zoom with tiles (default 22): deeper views magnify these tiles.
    public var maxzoom: Double?
    /// The area with tiles, [west, south, east, north] in degrees (tiles outside are never requested).
    public var bounds: [Double]?
    /// Row numbering of the templates (default `.xyz`).
    public var scheme: SourceScheme?
    /// Attribution text.
    public var attribution: String?

    /// A source with no tiles yet (set `tiles` or `url` before adding it).
    public init(id: String) { self.id = id }

    /// The source as a style JSON object.
    func styleJSONObject() -> JSONObject {
        var o = JSONObject()
        o["type"] = "raster"
        RasterSource.tileMembers(&o, tiles: tiles, url: url, tileSize: tileSize, minzoom: minzoom, maxzoom: maxzoom,
                                 bounds: bounds, scheme: scheme, attribution: attribution)
        return o
    }

    /// The members raster and raster-dem sources share.
    static func tileMembers(_ o: inout JSONObject, tiles: [String]?, url: String?, tileSize: Double?, minzoom: Double?,
                            maxzoom: Double?, bounds: [Double]?, scheme: SourceScheme?, attribution: String?) {
        if let tiles { o["tiles"] = .array(tiles.map(JSONValue.string)) }
        if let url { o["url"] = .string(url) }
        if let tileSize { o["tileSize"] = .number(tileSize) }
        if let minzoom { o["minzoom"] = .number(minzoom) }
        if let maxzoom { o["maxzoom"] = .number(maxzoom) }
        if let bounds { o["bounds"] = .array(bounds.map(JSONValue.number)) }
        if let scheme { o["scheme"] = .string(scheme.rawValue) }
        if let attribution { o["attribution"] = .string(attribution) }
    }
}

/// A `raster-dem` source: elevation tiles (Mapbox Terrain-RGB, Terrarium or custom factors) that
/// `HillshadeLayer` and `ColorReliefLayer` draw.
public struct RasterDemSource: Equatable, Sendable {
    /// The source id layers refer to.
    public var id: String
    /// Tile URL templates or one archive reference.
    public var tiles: [String]?
    /// A TileJSON URL or an archive reference (used when `tiles` is nil).
    public var url: String?
    /// Tile side in CSS pixels (default 512).
    public var tileSize: Double?
    /// Lowest zoom with tiles (default 0).
    public var minzoom: Double?
    /// Deepest zoom with tiles (default 22).
    public var maxzoom: Double?
    /// The area with tiles, [west, south, east, north] in degrees.
    public var bounds: [Double]?
    /// Row numbering of the templates (default `.xyz`).
    public var scheme: SourceScheme?
    /// Attribution text.
    public var attribution: String?
    /// How colours encode metres (default `.mapbox`).
    public var encoding: RasterDEMSourceEncoding?
    /// `.custom` encoding: metres = r·redFactor + g·greenFactor + b·blueFactor − baseShift.
    public var redFactor: Double?
    /// See `redFactor`.
    public var greenFactor: Double?
    /// See `redFactor`.
    public var blueFactor: Double?
    /// See `redFactor`.
    public var baseShift: Double?

    /// A source with no tiles yet (set `tiles` or `url` before adding it).
    public init(id: String) { self.id = id }

    /// The source as a style JSON object.
    func styleJSONObject() -> JSONObject {
        var o = JSONObject()
        o["type"] = "raster-dem"
        RasterSource.tileMembers(&o, tiles: tiles, url: url, tileSize: tileSize, minzoom: minzoom, maxzoom: maxzoom,
                                 bounds: bounds, scheme: scheme, attribution: attribution)
        if let encoding { o["encoding"] = .string(encoding.rawValue) }
        for (k, v) in [("redFactor", redFactor), ("greenFactor", greenFactor), ("blueFactor", blueFactor), ("baseShift", baseShift)] {
            if let v { o[k] = .number(v) }
        }
        return o
    }
}

/// An `image` source: one picture placed on four corners (top left, top right, bottom right,
/// bottom left, as [longitude, latitude]); a `RasterLayer` draws it.
public struct ImageSource: Equatable, Sendable {
    /// The source id layers refer to.
    public var id: String
    /// The picture: a file path (relative to the working directory) or URL.
    public var url: String?
    /// The four corners as [longitude, latitude].
    public var coordinates: [[Double]]

    /// An image source of `url` on `coordinates`.
    public init(id: String, url: String? = nil, coordinates: [[Double]]) {
        self.id = id
        self.url = url
        self.coordinates = coordinates
    }

    /// The source as a style JSON object.
    func styleJSONObject() -> JSONObject {
        var o = JSONObject()
        o["type"] = "image"
        if let url { o["url"] = .string(url) }
        o["coordinates"] = .array(coordinates.map { .array($0.map(JSONValue.number)) })
        return o
    }
}

extension Snapshotter {
    /// Adds a raster source; throws when its id is taken or an option is invalid.
    public func addSource(_ source: RasterSource) throws {
        try addSource(withId: source.id, properties: source.styleJSONObject())
    }

    /// Adds a raster-dem source; throws when its id is taken or an option is invalid.
    public func addSource(_ source: RasterDemSource) throws {
        try addSource(withId: source.id, properties: source.styleJSONObject())
    }

    /// Adds an image source; throws when its id is taken or an option is invalid.
    public func addSource(_ source: ImageSource) throws {
        try addSource(withId: source.id, properties: source.styleJSONObject())
    }
}
