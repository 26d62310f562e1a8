// INTERIM: tree-walking stand-in replaced by the `geojson` branch's decoder at merge. Same API.
import GLMapCore

public struct GeoJSONError: GLMapError {
    public var message: String
    public var kind: FailureKind { .invalidInput }
    public var description: String { message }
}

public enum GeoJSONDecoder {
    public static func decode(_ bytes: [UInt8], file: String? = nil) throws -> FeatureCollection {
        do { return try decode(try JSONParser.parse(bytes), path: "") }
        catch let e as JSONSyntaxError { throw GeoJSONError(message: "\(file ?? "geojson"):\(e)") }
    }
    public static func decode(_ json: JSONValue, path: String) throws -> FeatureCollection {
        guard let t = json["type"]?.stringValue else { throw GeoJSONError(message: "\(path): missing type") }
        switch t {
        case "FeatureCollection":
            return FeatureCollection(features: try (json["features"]?.arrayValue ?? []).map { try feature($0) })
        case "Feature": return FeatureCollection(features: [try feature(json)])
        default: return FeatureCollection(features: [Feature(geometry: try geometry(json))])
        }
    }
    static func feature(_ j: JSONValue) throws -> Feature {
        let g = j["geometry"].flatMap { $0.isNull ? nil : $0 }
        return Feature(id: j["id"], properties: j["properties"]?.objectValue ?? JSONObject(), geometry: try g.map(geometry))
    }
    static func pos(_ j: JSONValue) throws -> Position {
        guard let a = j.arrayValue, a.count >= 2, let x = a[0].numberValue, let y = a[1].numberValue else { throw GeoJSONError(message: "bad position") }
        return Position(x, y)
    }
    static func geometry(_ j: JSONValue) throws -> Geometry {
        let c = j["coordinates"] ?? .null
        func l1(_ v: JSONValue) throws -> [Position] { try (v.arrayValue ?? []).map(pos) }
        func l2(_ v: JSONValue) throws -> [[Position]] { try (v.arrayValue ?? []).map(l1) }
        switch j["type"]?.stringValue ?? "" {
        case "Point": return .point(try pos(c))
        case "MultiPoint": return .multiPoint(try l1(c))
        case "LineString": return .lineString(try l1(c))
        case "MultiLineString": return .multiLineString(try l2(c))
        case "Polygon": return .polygon(try l2(c))
        case "MultiPolygon": return .multiPolygon(try (c.arrayValue ?? []).map(l2))
        case "GeometryCollection": return .geometryCollection(try (j["geometries"]?.arrayValue ?? []).map(geometry))
        default: throw GeoJSONError(message: "unknown geometry type")
        }
    }
}
