import GLMapCore

/// A position in longitude/latitude degrees (any extra coordinates such as altitude are dropped).
public struct Position: Equatable, Sendable {
    /// Longitude in degrees (past ±180 it lies on another world copy).
    public var lon: Double
    /// Latitude in degrees.
    public var lat: Double
    /// A position at `lon`, `lat` degrees.
    public init(_ lon: Double, _ lat: Double) { self.lon = lon; self.lat = lat }
}

/// A GeoJSON geometry (RFC 7946), all seven types.
public indirect enum Geometry: Equatable, Sendable {
    /// A `Point`.
    case point(Position)
    /// A `MultiPoint`.
    case multiPoint([Position])
    /// A `LineString`.
    case lineString([Position])
    /// A `MultiLineString`: one array of positions per line.
    case multiLineString([[Position]])
    /// Rings: the first is the outer ring, the rest are holes.
    case polygon([[Position]])
    /// A `MultiPolygon`: one array of rings per polygon.
    case multiPolygon([[[Position]]])
    /// A `GeometryCollection`.
    case geometryCollection([Geometry])

    /// The RFC 7946 type name ("Point", "MultiPolygon", …).
    public var typeName: String { type.name }

    /// The GeoJSON `type` of this geometry.
    var type: GeoJSONType {
        switch self {
        case .point: return .point
        case .multiPoint: return .multiPoint
        case .lineString: return .lineString
        case .multiLineString: return .multiLineString
        case .polygon: return .polygon
        case .multiPolygon: return .multiPolygon
        case .geometryCollection: return .geometryCollection
        }
    }

    /// The style spec's `$type`: "Point", "LineString" or "Polygon" (Multi* fold into the base type).
    /// A GeometryCollection reports the type of its first member (nil when empty).
    public var filterType: FeatureGeometryType? {
        switch self {
        case .point, .multiPoint: return .point
        case .lineString, .multiLineString: return .lineString
        case .polygon, .multiPolygon: return .polygon
        case .geometryCollection(let g): return g.first?.filterType
        }
    }
}

/// The three geometry classes the style specification filters on.
public enum FeatureGeometryType: String, Sendable {
    /// Point and MultiPoint.
    case point = "Point"
    /// LineString and MultiLineString.
    case lineString = "LineString"
    /// Polygon and MultiPolygon.
    case polygon = "Polygon"
}

/// A GeoJSON feature: geometry (nil for `"geometry": null`), optional id, properties.
public struct Feature: Equatable, Sendable {
    /// The feature's `id` (a number or string), nil when absent.
    public var id: JSONValue?
    /// The feature's `properties` (empty for `null` or absent).
    public var properties: JSONObject
    /// The geometry; nil for `"geometry": null`.
    public var geometry: Geometry?

    /// Creates a feature; no id and no properties unless given.
    public init(id: JSONValue? = nil, properties: JSONObject = JSONObject(), geometry: Geometry?) {
        self.id = id
        self.properties = properties
        self.geometry = geometry
    }
}

/// A collection of features. A bare Feature or Geometry document decodes to a one-element collection.
public struct FeatureCollection: Equatable, Sendable {
    /// The features in document order.
    public var features: [Feature]
    /// A collection of `features`.
    public init(features: [Feature]) { self.features = features }
}

extension Geometry {
    /// The number of positions, counting each ring's closing repeat of its first position.
    public var vertexCount: Int {
        switch self {
        case .point: return 1
        case .multiPoint(let l), .lineString(let l): return l.count
        case .multiLineString(let r), .polygon(let r): return r.reduce(0) { $0 + $1.count }
        case .multiPolygon(let p): return p.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
        case .geometryCollection(let g): return g.reduce(0) { $0 + $1.vertexCount }
        }
    }
}

extension FeatureCollection {
    /// The number of positions in all features' geometries.
    public var vertexCount: Int { features.reduce(0) { $0 + ($1.geometry?.vertexCount ?? 0) } }
}
