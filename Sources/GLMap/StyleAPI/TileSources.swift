import Foundation
import GLMapCore
import GLMapStyle

/// A style source as the Mapbox Maps SDK's `Source` protocol models one: an id, a type, and the
/// style JSON object it stands for (`Codable` through that object).
public protocol Source: Sendable {
    /// The source's id in the style.
    var id: String { get }
    /// The source's `type`.
    var type: SourceType { get }
    /// The source as a style JSON object (without its id).
    func styleJSONObject() throws -> JSONObject
}

/// The members tile sources share (`url` TileJSON or archive, `tiles` templates, zoom range…),
/// written into their style objects.
private func tileMembers(url: String?, tiles: [String]?, minzoom: Double?, maxzoom: Double?, bounds: [Double]?,
                         scheme: SourceScheme?, attribution: String?, tileSize: Double?) -> [(String, JSONValue)] {
    var m: [(String, JSONValue)] = []
    if let url { m.append(("url", .string(url))) }
    if let tiles { m.append(("tiles", .array(tiles.map(JSONValue.string)))) }
    if let minzoom { m.append(("minzoom", .number(minzoom))) }
    if let maxzoom { m.append(("maxzoom", .number(maxzoom))) }
    if let bounds { m.append(("bounds", .array(bounds.map(JSONValue.number)))) }
    if let scheme { m.append(("scheme", .string(scheme.rawValue))) }
    if let attribution { m.append(("attribution", .string(attribution))) }
    if let tileSize { m.append(("tileSize", .number(tileSize))) }
    return m
}

/// A `vector` source: Mapbox Vector Tiles from `url` (a TileJSON, `mbtiles://PATH`,
/// `pmtiles://PATH`) or `tiles` URL templates (`{z}`, `{x}`, `{y}`, `{quadkey}`, `{bbox-epsg-3857}`;
/// relative paths, `file://`, http(s)).
public struct VectorSource: Source, Equatable, Codable {
    /// The source's id.
    public var id: String
    /// Always `.vector`.
    public var type: SourceType { .vector }
    /// A TileJSON URL or an archive (`mbtiles://PATH`, `pmtiles://PATH`).
    public var url: String?
    /// Tile URL templates.
    public var tiles: [String]?
    /// Shallowest zoom with tiles (default 0).
    public var minzoom: Double?
    /// Deepest zoom with tiles (default 22); deeper views over-scale these.
    public var maxzoom: Double?
    /// [west, south, east, north]: tiles outside are never requested.
    public var bounds: [Double]?
    /// `xyz` (default) or `tms` rows.
    public var scheme: SourceScheme?
    /// Attribution text (HTML allowed).
    public var attribution: String?
    /// The feature property used as the feature id (feature state).
    public var promoteId: String?

    /// A vector source with the given id (set `url` or `tiles`).
    public init(id: String) { self.id = id }

    /// The source as a style JSON object.
    public func styleJSONObject() throws -> JSONObject {
        var m: [(String, JSONValue)] = [("type", "vector")]
        m += tileMembers(url: url, tiles: tiles, minzoom: minzoom, maxzoom: maxzoom, bounds: bounds, scheme: scheme,
                         attribution: attribution, tileSize: nil)
        if let promoteId { m.append(("promoteId", .string(promoteId))) }
        return JSONObject(m)
    }
}

/// A `raster` source: image tiles (PNG, JPEG, WebP) from `url` or `tiles`.
public struct RasterSource: Source, Equatable, Codable {
    /// The source's id.
    public var id: String
    /// Always `.raster`.
    public var type: SourceType { .raster }
    /// A TileJSON URL or an archive (`mbtiles://PATH`, `pmtiles://PATH`).
    public var url: String?
    /// Tile URL templates (`{ratio}` becomes `@2x` at pixel ratios above 1).
    public var tiles: [String]?
    /// Tile size in CSS pixels (default 512).
    public var tileSize: Double?
    /// Shallowest zoom with tiles (default 0).
    public var minzoom: Double?
    /// Deepest zoom with tiles (default 22).
    public var maxzoom: Double?
    /// [west, south, east, north]: tiles outside are never requested.
    public var bounds: [Double]?
    /// `xyz` (default) or `tms` rows.
    public var scheme: SourceScheme?
    /// Attribution text (HTML allowed).
    public var attribution: String?

    /// A raster source with the given id (set `url` or `tiles`).
    public init(id: String) { self.id = id }

    /// The source as a style JSON object.
    public func styleJSONObject() throws -> JSONObject {
        JSONObject([("type", "raster")] + tileMembers(url: url, tiles: tiles, minzoom: minzoom, maxzoom: maxzoom, bounds: bounds,
                                                        scheme: scheme, attribution: attribution, tileSize: tileSize))
    }
}

/// A `raster-dem` source: elevation tiles (`mapbox` or `terrarium` encoding, or `custom` with
/// its factors) for hillshade and color-relief layers.
public struct RasterDemSource: Source, Equatable, Codable {
    /// The source's id.
    public var id: String
    /// Always `.rasterDEM`.
    public var type: SourceType { .rasterDEM }
    /// A TileJSON URL or an archive (`mbtiles://PATH`, `pmtiles://PATH`).
    public var url: String?
    /// Tile URL templates.
    public var tiles: [String]?
    /// Tile size in CSS pixels (default 512).
    public var tileSize: Double?
    /// Shallowest zoom with tiles (default 0).
    public var minzoom: Double?
    /// Deepest zoom with tiles (default 22).
    public var maxzoom: Double?
    /// [west, south, east, north]: tiles outside are never requested.
    public var bounds: [Double]?
    /// Attribution text (HTML allowed).
    public var attribution: String?
    /// `mapbox` (default), `terrarium` or `custom`.
    public var encoding: RasterDEMSourceEncoding?
    /// `custom` encoding: elevation = (R · red + G · green + B · blue) · 256⁰… as the spec defines.
    public var redFactor, greenFactor, blueFactor, baseShift: Double?

    /// A raster-dem source with the given id (set `url` or `tiles`).
    public init(id: String) { self.id = id }

    /// The source as a style JSON object.
    public func styleJSONObject() throws -> JSONObject {
        var m: [(String, JSONValue)] = [("type", "raster-dem")]
        m += tileMembers(url: url, tiles: tiles, minzoom: minzoom, maxzoom: maxzoom, bounds: bounds, scheme: nil,
                         attribution: attribution, tileSize: tileSize)
        if let encoding { m.append(("encoding", .string(encoding.rawValue))) }
        for (name, v) in [("redFactor", redFactor), ("greenFactor", greenFactor), ("blueFactor", blueFactor), ("baseShift", baseShift)] {
            if let v { m.append((name, .number(v))) }
        }
        return JSONObject(m)
    }
}

/// An `image` source: one image placed by its four corners ([longitude, latitude], clockwise from
/// the top left).
public struct ImageSource: Source, Equatable, Codable {
    /// The source's id.
    public var id: String
    /// Always `.image`.
    public var type: SourceType { .image }
    /// The image: a path, `file://` or http(s) URL.
    public var url: String
    /// The corners: top left, top right, bottom right, bottom left.
    public var coordinates: [[Double]]

    /// An image source.
    public init(id: String, url: String, coordinates: [[Double]]) {
        self.id = id
        self.url = url
        self.coordinates = coordinates
    }

    /// The source as a style JSON object.
    public func styleJSONObject() throws -> JSONObject {
        JSONObject([("type", "image"), ("url", .string(url)), ("coordinates", .array(coordinates.map { .array($0.map(JSONValue.number)) }))])
    }
}

extension GeoJSONSource: Source {
    /// Always `.geojson`.
    public var type: SourceType { .geojson }
    /// The source as a style JSON object (Swift-built features written out as GeoJSON).
    public func styleJSONObject() throws -> JSONObject { try styleJSONObject(placeholder: false) }
}

extension Snapshotter {
    /// Adds any source (`VectorSource`, `RasterSource`, `RasterDemSource`, `ImageSource`,
    /// `GeoJSONSource`); throws when its id is taken or it is invalid.
    public func addSource(_ source: any Source) throws {
        if let g = source as? GeoJSONSource { return try addSource(g) }
        try addSource(withId: source.id, properties: try source.styleJSONObject())
    }
}

extension SourceScheme: Codable {}
extension RasterDEMSourceEncoding: Codable {}
