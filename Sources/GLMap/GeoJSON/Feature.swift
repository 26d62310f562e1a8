import GLMapCore
import GLMapGeoJSON

/// A GeoJSON feature id: a string or a number.
public enum FeatureIdentifier: Equatable, Hashable, Sendable, Codable {
    /// A string id.
    case string(String)
    /// A numeric id.
    case number(Double)

    /// Decodes a string or a number.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Double.self) { self = .number(n) } else { self = .string(try c.decode(String.self)) }
    }

    /// Encodes the string or number.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let s): try c.encode(s)
        case .number(let n): try c.encode(n)
        }
    }

    var json: JSONValue {
        switch self {
        case .string(let s): return .string(s)
        case .number(let n): return .number(n)
        }
    }
}

/// A GeoJSON feature: a geometry (nil when unlocated) with an id and properties.
public struct Feature: Equatable, Sendable {
    /// The feature's `id` (what `["id"]` reads).
    public var identifier: FeatureIdentifier?
    /// The feature's `properties` (what `["get", name]` reads).
    public var properties: JSONObject?
    /// Where the feature is (nil: unlocated).
    public var geometry: Geometry?

    /// A feature with `geometry`, no id and no properties.
    public init(geometry: Geometry?) { self.geometry = geometry }

    /// A feature from a geometry value such as `Point` or `Polygon`.
    public init(geometry: Point) { self.init(geometry: .point(geometry)) }

    /// The feature as a GeoJSON object.
    var json: JSONValue {
        var o = JSONObject([("type", "Feature")])
        if let identifier { o["id"] = identifier.json }
        o["properties"] = .object(properties ?? JSONObject())
        o["geometry"] = geometry?.json ?? .null
        return .object(o)
    }

    /// The feature in glmap's internal model.
    var model: GLMapGeoJSON.Feature {
        GLMapGeoJSON.Feature(id: identifier?.json, properties: properties ?? JSONObject(), geometry: geometry?.model)
    }
}

extension Feature: Codable {
    private enum Keys: String, CodingKey { case type, id, properties, geometry }

    /// Decodes a GeoJSON `Feature` object (`geometry` and `properties` may be null).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let type = try c.decode(String.self, forKey: .type)
        guard type == "Feature" else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "expected \"Feature\", found \"\(type)\"")
        }
        identifier = try c.decodeIfPresent(FeatureIdentifier.self, forKey: .id)
        properties = try c.decodeIfPresent(JSONObject.self, forKey: .properties)
        geometry = try c.decodeIfPresent(Geometry.self, forKey: .geometry)
    }

    /// Encodes as a GeoJSON `Feature` object.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode("Feature", forKey: .type)
        try c.encodeIfPresent(identifier, forKey: .id)
        try c.encode(properties ?? JSONObject(), forKey: .properties)
        if let geometry { try c.encode(geometry, forKey: .geometry) } else { try c.encodeNil(forKey: .geometry) }
    }
}

/// A GeoJSON `FeatureCollection`.
public struct FeatureCollection: Equatable, Sendable {
    /// The features in draw order.
    public var features: [Feature]

    /// A collection of `features`.
    public init(features: [Feature]) { self.features = features }

    /// The collection as a GeoJSON object.
    var json: JSONValue {
        .object(JSONObject([("type", "FeatureCollection"), ("features", .array(features.map(\.json)))]))
    }

    /// The collection in glmap's internal model (no JSON in between).
    var model: GLMapGeoJSON.FeatureCollection {
        GLMapGeoJSON.FeatureCollection(features: features.map(\.model))
    }
}

extension FeatureCollection: Codable {
    private enum Keys: String, CodingKey { case type, features }

    /// Decodes a GeoJSON `FeatureCollection` object.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let type = try c.decode(String.self, forKey: .type)
        guard type == "FeatureCollection" else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "expected \"FeatureCollection\", found \"\(type)\"")
        }
        features = try c.decode([Feature].self, forKey: .features)
    }

    /// Encodes as a GeoJSON `FeatureCollection` object.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode("FeatureCollection", forKey: .type)
        try c.encode(features, forKey: .features)
    }
}
