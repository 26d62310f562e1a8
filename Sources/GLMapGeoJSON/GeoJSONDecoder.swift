// GeoJSON decoder — contract
// Input: one GeoJSON text (RFC 7946) as UTF-8 bytes, or a JSON tree already parsed (a style's
// inline `data`). The document is a FeatureCollection, a Feature, or a bare geometry of any of
// the seven types.
// Output: a `FeatureCollection` (a bare Feature or geometry becomes a one-feature collection),
// or a `GeoJSONError` naming the file, line:column of the offending value (byte input), the JSON
// path, what was expected and what was found.
// Invariants:
// - Members may come in any order (`type` after `coordinates` is fine). Unknown members (`bbox`,
//   `crs`, foreign members) are checked for JSON syntax and skipped.
// - Positions keep their first two numbers (lon, lat); extra ones (altitude) are checked to be
//   numbers and dropped. Numbers are correctly rounded doubles; one that overflows (1e999) is an
//   error. Rings are kept as given (closure and length are not checked; the tessellator copes).
// - `geometry: null` gives a feature without geometry; `properties` is an object or null (null and
//   missing give no properties); `id` is kept when it is a number or a string, ignored otherwise.
// - Required members are required: `type` everywhere, `features`, `geometry` (null when
//   unlocated, as RFC 7946 says), `geometries`, `coordinates`; `features` holds Feature objects
//   only, `geometry` and `geometries` geometry objects only. `type` names are case-sensitive.
// - Both entry points give the same result and the same messages for the same document.
// - Byte input is decoded in one pass straight into the model: no JSON tree is built except for
//   `properties` and `id`. When `type` comes after a member whose meaning depends on it, that
//   member is decoded the only way a valid document allows (coordinates by their bracket depth);
//   only coordinates whose depth turns out wrong for `type` are decoded again (linear: they hold
//   no objects). A valid document is read once whatever its member order.
// Limits (`InputLimits`, default `.default`): nesting deeper than `maxNestingDepth`, strings longer
// than `maxStringBytes`, more than `maxFeaturesPerSource` features or `maxPositionsPerSource`
// positions, and truncated input are errors located like any other, never crashes. Feature and
// position counts fail as soon as they pass the limit (the element one past it is named). Errors in the JSON text come in document order; a structural error inside a
// member read before `type` is reported once `type` is known, so a later syntax error can come
// first. Such a failing member is skipped from its start, so an invalid document nested N deep
// with `type` last at every level may be scanned up to N times (never more). Decoding recurses
// per nesting level (about 2 KB of stack per GeometryCollection level in release builds).
// Threads: no shared mutable state; decode on any thread.

import GLMapCore

/// Decodes GeoJSON (RFC 7946) into `FeatureCollection`s.
public enum GeoJSONDecoder {
    /// Decodes a GeoJSON text (FeatureCollection, Feature, or bare Geometry) from UTF-8 bytes.
    public static func decode(_ bytes: [UInt8], file: String? = nil,
                              limits: InputLimits = .default) throws -> FeatureCollection {
        try bytes.withUnsafeBufferPointer { buf in
            guard var decoder = ByteDecoder(buf, limits: limits) else {
                throw GeoJSONError(file: file, line: 1, column: 1, path: "",
                                   message: "\(GeoJSONMessage.notAnObject), found end of input")
            }
            defer { decoder.release() }
            do throws(GeoJSONFailure) {
                return try decoder.decodeDocument()
            } catch {
                throw decoder.publicError(error, file: file)
            }
        }
    }

    /// Decodes GeoJSON already parsed as JSON (inline `data` in a style); `path` prefixes error
    /// locations, e.g. "sources.points.data".
    public static func decode(_ json: JSONValue, path: String,
                              limits: InputLimits = .default) throws -> FeatureCollection {
        do throws(GeoJSONFailure) {
            return try TreeDecoder(limits: limits).decodeDocument(json)
        } catch {
            throw GeoJSONError(path: error.pathText(prefix: path), message: error.message)
        }
    }
}

/// The `type` values of RFC 7946.
enum GeoJSONType: UInt8 {
    case featureCollection, feature
    case point, multiPoint, lineString, multiLineString, polygon, multiPolygon, geometryCollection

    /// The name as written in GeoJSON.
    var name: String {
        switch self {
        case .featureCollection: return "FeatureCollection"
        case .feature: return "Feature"
        case .point: return "Point"
        case .multiPoint: return "MultiPoint"
        case .lineString: return "LineString"
        case .multiLineString: return "MultiLineString"
        case .polygon: return "Polygon"
        case .multiPolygon: return "MultiPolygon"
        case .geometryCollection: return "GeometryCollection"
        }
    }

    /// How many array levels `coordinates` has (1 for a position); 0 for types without coordinates.
    var coordinateLevels: Int {
        switch self {
        case .point: return 1
        case .multiPoint, .lineString: return 2
        case .multiLineString, .polygon: return 3
        case .multiPolygon: return 4
        case .featureCollection, .feature, .geometryCollection: return 0
        }
    }

    var isGeometry: Bool { self != .featureCollection && self != .feature }

    static let all: [GeoJSONType] = [
        .featureCollection, .feature, .point, .multiPoint, .lineString, .multiLineString,
        .polygon, .multiPolygon, .geometryCollection,
    ]

    /// Looks a type name up by its UTF-8 bytes (case-sensitive, as RFC 7946 requires).
    static func named(_ text: UnsafeBufferPointer<UInt8>) -> GeoJSONType? {
        for t in all where t.nameBytes.count == text.count {
            if t.nameBytes.withUnsafeBufferPointer({ $0.elementsEqual(text) }) { return t }
        }
        return nil
    }

    static func named(_ text: String) -> GeoJSONType? {
        var s = text
        return s.withUTF8 { named($0) }
    }

    private static let allNameBytes: [[UInt8]] = all.map { Array($0.name.utf8) }
    private var nameBytes: [UInt8] { GeoJSONType.allNameBytes[Int(rawValue)] }

    static let unknownTypeHint =
        "expected one of FeatureCollection, Feature, Point, MultiPoint, LineString, MultiLineString, "
        + "Polygon, MultiPolygon, GeometryCollection"
}

/// Which GeoJSON objects a place in the document accepts.
enum GeoJSONExpectation {
    case any, feature, geometry

    /// Whether `type` is accepted here.
    func accepts(_ type: GeoJSONType) -> Bool {
        switch self {
        case .any: return true
        case .feature: return type == .feature
        case .geometry: return type.isGeometry
        }
    }

    /// The message for an object of the wrong type here.
    func mismatch(_ type: GeoJSONType) -> String {
        switch self {
        case .any: return "unexpected type '\(type.name)'"
        case .feature: return "expected type 'Feature', found '\(type.name)'"
        case .geometry: return "expected a geometry type (Point, …, GeometryCollection), found '\(type.name)'"
        }
    }
}

/// One decoded GeoJSON object.
enum GeoJSONObject {
    case collection([Feature])
    case feature(Feature)
    case geometry(Geometry)

    /// The document as a collection.
    var asCollection: FeatureCollection {
        switch self {
        case .collection(let features): return FeatureCollection(features: features)
        case .feature(let f): return FeatureCollection(features: [f])
        case .geometry(let g): return FeatureCollection(features: [Feature(geometry: g)])
        }
    }
}

/// A Feature `id` is kept when it is a number or a string (as MapLibre does).
@inline(__always)
func featureID(_ value: JSONValue?) -> JSONValue? {
    switch value {
    case .number?, .string?: return value
    default: return nil
    }
}

/// "a string", "an object", … for messages.
func describeKind(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
}
