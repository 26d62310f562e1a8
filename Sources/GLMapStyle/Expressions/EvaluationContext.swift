import GLMapCore
import GLMapGeoJSON

/// What an expression may read while evaluating.
public struct EvaluationContext: Sendable {
    /// The zoom level; zoom-dependent expressions fail to evaluate without it.
    public var zoom: Double?
    /// The feature; nil when evaluating without a feature (feature reads then see no properties).
    public var feature: FeatureContext?
    /// The style root `state` values (read by `global-state`).
    public var globalState: JSONObject
    /// Position along a line in 0…1, for `line-gradient` (`line-progress`); nil reads as 0.
    public var lineProgress: Double?
    /// The kernel density, for `heatmap-color` (`heatmap-density`); nil reads as 0.
    public var heatmapDensity: Double?
    /// Elevation in metres of a DEM pixel, for `color-relief-color` (`elevation`); nil reads as 0.
    public var elevation: Double?
    /// The value a cluster property has accumulated so far (`accumulated`, in a source's
    /// `clusterProperties` reduce expressions); nil reads as null.
    public var accumulated: JSONValue?

    /// Creates a context; every part is optional.
    public init(zoom: Double? = nil, feature: FeatureContext? = nil, globalState: JSONObject = JSONObject(),
                lineProgress: Double? = nil) {
        (self.zoom, self.feature, self.globalState, self.lineProgress) = (zoom, feature, globalState, lineProgress)
    }
}

/// The parts of a feature an expression may read. Cheap to build: it shares the property storage.
public struct FeatureContext: Sendable {
    /// The feature id (nil when absent; `["id"]` then gives null).
    public var id: JSONValue?
    /// The feature's GeoJSON `properties` (read by `get`, `has`, `properties`).
    public var properties: JSONObject
    /// "Point", "LineString", "Polygon" or the raw GeoJSON type string ("MultiPolygon", …).
    public var geometryType: String?
    /// The geometry in longitude/latitude, needed only by `within`.
    public var geometry: Geometry?
    /// The feature's runtime state (`feature-state` reads it): set through the style API by
    /// source, source layer and feature id, empty when none was set.
    public var state: JSONObject = JSONObject()

    /// Creates a feature context.
    public init(id: JSONValue? = nil, properties: JSONObject = JSONObject(), geometryType: String? = nil,
                geometry: Geometry? = nil) {
        self.id = id
        self.properties = properties
        self.geometryType = geometryType ?? geometry?.typeName
        self.geometry = geometry
    }

    /// A context reading a decoded GeoJSON feature.
    public init(_ feature: Feature) {
        self.init(id: feature.id, properties: feature.properties, geometryType: feature.geometry?.typeName,
                  geometry: feature.geometry)
    }

    /// The specification's `$type`: Multi* types fold into their base type.
    var dollarType: String? {
        guard let t = geometryType else { return nil }
        if t.utf8.starts(with: "Multi".utf8) { return String(t.dropFirst(5)) }
        return t
    }
}

/// An expression failed while evaluating (wrong run-time type, bad colour string, index out of range, …).
public struct ExpressionEvaluationError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong, in the specification's words.
    public var message: String
    /// Index path of the failing sub-expression (`[1][2]`), empty for the root or when unknown.
    public var key: String
    /// Creates an error with its message and the failing sub-expression's index path.
    public init(_ message: String, key: String = "") { self.message = message; self.key = key }
    /// The message, prefixed with the index path when there is one (`[1][2]: …`).
    public var description: String { key.isEmpty ? message : "\(key): \(message)" }
}
