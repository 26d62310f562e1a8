// GeoJSON geometry types (RFC 7946) for the Swift API: Codable with JSONDecoder/JSONEncoder, and
// converted straight to glmap's internal model (`GLMapGeoJSON.Geometry`) for rendering.
import GLMapCore
import GLMapGeoJSON

/// A GeoJSON `Point`.
public struct Point: Equatable, Sendable {
    /// The positions (GeoJSON `coordinates`).
    public var coordinates: LocationCoordinate2D
    /// A point at `coordinates`.
    public init(_ coordinates: LocationCoordinate2D) { self.coordinates = coordinates }
}

/// A GeoJSON `MultiPoint`.
public struct MultiPoint: Equatable, Sendable {
    /// The positions (GeoJSON `coordinates`).
    public var coordinates: [LocationCoordinate2D]
    /// Points at `coordinates`.
    public init(_ coordinates: [LocationCoordinate2D]) { self.coordinates = coordinates }
}

/// A GeoJSON `LineString`.
public struct LineString: Equatable, Sendable {
    /// The positions (GeoJSON `coordinates`).
    public var coordinates: [LocationCoordinate2D]
    /// A line through `coordinates`.
    public init(_ coordinates: [LocationCoordinate2D]) { self.coordinates = coordinates }
}

/// A GeoJSON `MultiLineString`.
public struct MultiLineString: Equatable, Sendable {
    /// The positions (GeoJSON `coordinates`).
    public var coordinates: [[LocationCoordinate2D]]
    /// Lines through each array of `coordinates`.
    public init(_ coordinates: [[LocationCoordinate2D]]) { self.coordinates = coordinates }
}

/// A GeoJSON `Polygon`: the outer ring first, then holes.
public struct Polygon: Equatable, Sendable {
    /// The positions (GeoJSON `coordinates`).
    public var coordinates: [[LocationCoordinate2D]]
    /// A polygon from its rings (outer ring first, then holes).
    public init(_ coordinates: [[LocationCoordinate2D]]) { self.coordinates = coordinates }
}

/// A GeoJSON `MultiPolygon`.
public struct MultiPolygon: Equatable, Sendable {
    /// The positions (GeoJSON `coordinates`).
    public var coordinates: [[[LocationCoordinate2D]]]
    /// Polygons from their rings.
    public init(_ coordinates: [[[LocationCoordinate2D]]]) { self.coordinates = coordinates }
}

/// A GeoJSON `GeometryCollection`.
public struct GeometryCollection: Equatable, Sendable {
    /// The member geometries.
    public var geometries: [Geometry]
    /// A collection of `geometries`.
    public init(geometries: [Geometry]) { self.geometries = geometries }
}

/// Any GeoJSON geometry.
public indirect enum Geometry: Equatable, Sendable {
    /// A `Point`.
    case point(Point)
    /// A `LineString`.
    case lineString(LineString)
    /// A `Polygon`.
    case polygon(Polygon)
    /// A `MultiPoint`.
    case multiPoint(MultiPoint)
    /// A `MultiLineString`.
    case multiLineString(MultiLineString)
    /// A `MultiPolygon`.
    case multiPolygon(MultiPolygon)
    /// A `GeometryCollection`.
    case geometryCollection(GeometryCollection)

    /// The geometry as a GeoJSON object.
    var json: JSONValue {
        func p(_ c: LocationCoordinate2D) -> JSONValue { [.number(c.longitude), .number(c.latitude)] }
        func object(_ type: String, _ coordinates: JSONValue) -> JSONValue {
            .object(JSONObject([("type", .string(type)), ("coordinates", coordinates)]))
        }
        switch self {
        case .point(let g): return object("Point", p(g.coordinates))
        case .multiPoint(let g): return object("MultiPoint", .array(g.coordinates.map(p)))
        case .lineString(let g): return object("LineString", .array(g.coordinates.map(p)))
        case .multiLineString(let g): return object("MultiLineString", .array(g.coordinates.map { .array($0.map(p)) }))
        case .polygon(let g): return object("Polygon", .array(g.coordinates.map { .array($0.map(p)) }))
        case .multiPolygon(let g):
            return object("MultiPolygon", .array(g.coordinates.map { .array($0.map { .array($0.map(p)) }) }))
        case .geometryCollection(let g):
            return .object(JSONObject([("type", "GeometryCollection"), ("geometries", .array(g.geometries.map(\.json)))]))
        }
    }

    /// The geometry in glmap's internal model (no JSON in between).
    var model: GLMapGeoJSON.Geometry {
        func p(_ c: LocationCoordinate2D) -> Position { Position(c.longitude, c.latitude) }
        switch self {
        case .point(let g): return .point(p(g.coordinates))
        case .multiPoint(let g): return .multiPoint(g.coordinates.map(p))
        case .lineString(let g): return .lineString(g.coordinates.map(p))
        case .multiLineString(let g): return .multiLineString(g.coordinates.map { $0.map(p) })
        case .polygon(let g): return .polygon(g.coordinates.map { $0.map(p) })
        case .multiPolygon(let g): return .multiPolygon(g.coordinates.map { $0.map { $0.map(p) } })
        case .geometryCollection(let g): return .geometryCollection(g.geometries.map(\.model))
        }
    }
}

extension Geometry: Codable {
    private enum Keys: String, CodingKey { case type, coordinates, geometries }

    /// Decodes any GeoJSON geometry object by its `type`.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "Point": self = .point(Point(try c.decode(LocationCoordinate2D.self, forKey: .coordinates)))
        case "MultiPoint": self = .multiPoint(MultiPoint(try c.decode([LocationCoordinate2D].self, forKey: .coordinates)))
        case "LineString": self = .lineString(LineString(try c.decode([LocationCoordinate2D].self, forKey: .coordinates)))
        case "MultiLineString": self = .multiLineString(MultiLineString(try c.decode([[LocationCoordinate2D]].self, forKey: .coordinates)))
        case "Polygon": self = .polygon(Polygon(try c.decode([[LocationCoordinate2D]].self, forKey: .coordinates)))
        case "MultiPolygon": self = .multiPolygon(MultiPolygon(try c.decode([[[LocationCoordinate2D]]].self, forKey: .coordinates)))
        case "GeometryCollection": self = .geometryCollection(GeometryCollection(geometries: try c.decode([Geometry].self, forKey: .geometries)))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown GeoJSON geometry type \"\(type)\"")
        }
    }

    /// Encodes as a GeoJSON geometry object.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .point(let g): try c.encode("Point", forKey: .type); try c.encode(g.coordinates, forKey: .coordinates)
        case .multiPoint(let g): try c.encode("MultiPoint", forKey: .type); try c.encode(g.coordinates, forKey: .coordinates)
        case .lineString(let g): try c.encode("LineString", forKey: .type); try c.encode(g.coordinates, forKey: .coordinates)
        case .multiLineString(let g): try c.encode("MultiLineString", forKey: .type); try c.encode(g.coordinates, forKey: .coordinates)
        case .polygon(let g): try c.encode("Polygon", forKey: .type); try c.encode(g.coordinates, forKey: .coordinates)
        case .multiPolygon(let g): try c.encode("MultiPolygon", forKey: .type); try c.encode(g.coordinates, forKey: .coordinates)
        case .geometryCollection(let g): try c.encode("GeometryCollection", forKey: .type); try c.encode(g.geometries, forKey: .geometries)
        }
    }
}
