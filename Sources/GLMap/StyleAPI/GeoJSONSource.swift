import Foundation
import GLMapCore
import GLMapGeoJSON

/// The data of a `GeoJSONSource`.
public enum GeoJSONSourceData: Equatable, Sendable {
    /// Features decoded in Swift: handed to the renderer without a JSON round trip.
    case featureCollection(FeatureCollection)
    /// One feature.
    case feature(Feature)
    /// One geometry (a feature without properties).
    case geometry(Geometry)
    /// Inline GeoJSON text (starting with `{`), or a file path (relative to the working directory)
    /// or a `file://` URL.
    case string(String)
    /// A `file://` URL of a GeoJSON file (glmap reads no network URLs).
    case url(URL)
    /// No features.
    case empty

    /// The features when they were built in Swift (nil for text, paths and URLs).
    var collection: GLMapGeoJSON.FeatureCollection? {
        switch self {
        case .featureCollection(let c): return c.model
        case .feature(let f): return GLMapGeoJSON.FeatureCollection(features: [f.model])
        case .geometry(let g): return GLMapGeoJSON.FeatureCollection(features: [GLMapGeoJSON.Feature(geometry: g.model)])
        case .empty: return GLMapGeoJSON.FeatureCollection(features: [])
        case .string, .url: return nil
        }
    }

    /// The style JSON `data` member: GeoJSON for Swift values, the text or path as written otherwise.
    /// `placeholder` puts an empty collection in place of Swift-built features (for validation).
    func json(placeholder: Bool) throws -> JSONValue {
        switch self {
        case .featureCollection, .feature, .geometry, .empty:
            if placeholder { return ["type": "FeatureCollection", "features": []] }
            switch self {
            case .featureCollection(let c): return c.json
            case .feature(let f): return f.json
            case .geometry(let g): return g.json
            default: return ["type": "FeatureCollection", "features": []]
            }
        case .string(let s):
            if s.drop(while: { $0.isWhitespace }).first == "{" {
                do {
                    return try JSONParser.parse(s)
                } catch let e as JSONSyntaxError {
                    throw StyleError(file: nil, issues: [StyleIssue(path: "", message: "GeoJSON string: invalid JSON at \(e.line):\(e.column): \(e.message)")])
                }
            }
            return .string(s)
        case .url(let u):
            return .string(u.isFileURL ? u.path : u.absoluteString)
        }
    }
}

/// A GeoJSON source: features to draw, and the options glmap's tiling uses.
public struct GeoJSONSource: Equatable, Sendable {
    /// The source id layers refer to.
    public var id: String
    /// The features (nil: none yet).
    public var data: GeoJSONSourceData?
    /// `maxzoom` (default 18): features are tiled up to this zoom and over-scaled past it.
    public var maxzoom: Double?
    /// `buffer` in tile pixels (default 128, at most 512).
    public var buffer: Double?
    /// `tolerance`: simplification tolerance in tile pixels (default 0.375).
    public var tolerance: Double?
    /// `lineMetrics`: keep line distances for `line-gradient` (default false).
    public var lineMetrics: Bool?

    /// A source with no data yet.
    public init(id: String) { self.id = id }

    /// The source as a style JSON object.
    func styleJSONObject(placeholder: Bool) throws -> JSONObject {
        var o = JSONObject()
        o["type"] = "geojson"
        o["data"] = try (data ?? .empty).json(placeholder: placeholder)
        if let maxzoom { o["maxzoom"] = .number(maxzoom) }
        if let buffer { o["buffer"] = .number(buffer) }
        if let tolerance { o["tolerance"] = .number(tolerance) }
        if let lineMetrics { o["lineMetrics"] = .bool(lineMetrics) }
        return o
    }
}
