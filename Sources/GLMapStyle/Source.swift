import GLMapCore

/// Where a GeoJSON source's data comes from.
public enum GeoJSONData: Equatable, Sendable {
    /// GeoJSON written inline in the style.
    case inline(JSONValue)
    /// A reference: a path relative to the style file, `file://…`, or `local://…` (render-test form).
    case reference(String)
    /// A `data` value that cannot be GeoJSON (e.g. a number): the source loads as empty with a
    /// warning, like any source whose data cannot be used. The message says what was found.
    case unusable(String)
}

/// A style source. glmap draws `geojson` sources.
public struct Source: Equatable, Sendable {
    /// The source's id: the key under the style's `sources`.
    public var id: String
    /// The source's `data`: inline GeoJSON, a reference to a file, or an unusable value.
    public var data: GeoJSONData
    /// The source's `maxzoom` (default 18): MapLibre over-scales deeper zooms from this level.
    public var maxzoom: Double
    /// Whether line distances are kept for `line-gradient` (`lineMetrics`).
    public var lineMetrics: Bool
    /// Simplification tolerance in tile pixels (`tolerance`, default 0.375).
    public var tolerance: Double
    /// Tile buffer in tile pixels (`buffer`, default 128).
    public var buffer: Double
    /// The source's `attribution` text (HTML allowed, as in the spec), if any.
    public var attribution: String? = nil
    /// The feature property that serves as the feature id (`promoteId`), e.g. for feature state.
    public var promoteId: String? = nil
    /// `generateId`: features get their index as id.
    public var generateId = false
    /// `cluster`: points are clustered (supercluster) instead of tiled one by one.
    public var cluster = false
    /// `clusterRadius` in pixels (nil: 50).
    public var clusterRadius: Double?
    /// `clusterMaxZoom` (nil: maxzoom − 1).
    public var clusterMaxZoom: Double?
    /// `clusterMinPoints` (nil: 2).
    public var clusterMinPoints: Double?
    /// `clusterProperties`: each property's name, map expression and reduce expression (which
    /// reads `["accumulated"]` and the mapped value as `["get", name]`).
    public var clusterProperties: [(name: String, map: StyleExpression, reduce: StyleExpression)] = []
    /// The source's `filter` (kept features pass it, evaluated at zoom 0).
    public var filter: FeatureFilter?

    /// Sources are equal when their loading values are (cluster expressions by name).
    public static func == (a: Source, b: Source) -> Bool {
        a.id == b.id && a.data == b.data && a.maxzoom == b.maxzoom && a.lineMetrics == b.lineMetrics && a.tolerance == b.tolerance
            && a.buffer == b.buffer && a.attribution == b.attribution && a.promoteId == b.promoteId && a.generateId == b.generateId
            && a.cluster == b.cluster && a.clusterRadius == b.clusterRadius && a.clusterMaxZoom == b.clusterMaxZoom
            && a.clusterMinPoints == b.clusterMinPoints && a.clusterProperties.map(\.name) == b.clusterProperties.map(\.name)
    }

    /// Creates a source with the spec defaults: maxzoom 18, no line metrics, tolerance 0.375, buffer 128.
    public init(id: String, data: GeoJSONData, maxzoom: Double = 18, lineMetrics: Bool = false,
                tolerance: Double = 0.375, buffer: Double = 128) {
        (self.id, self.data, self.maxzoom, self.lineMetrics) = (id, data, maxzoom, lineMetrics)
        (self.tolerance, self.buffer) = (tolerance, buffer)
    }
}

/// A source loaded tile by tile (`vector`, `raster`, `raster-dem`) or as one image (`image`): its
/// type and the object the style gives (URLs as written; the scene resolves them).
public struct TileSourceSpec: Sendable {
    /// The source's id.
    public var id: String
    /// `vector`, `raster`, `raster-dem` or `image`.
    public var type: SourceType
    /// The source object as written in the style.
    public var json: JSONObject

    /// A tile source of `type` described by `json`.
    public init(id: String, type: SourceType, json: JSONObject) {
        (self.id, self.type, self.json) = (id, type, json)
    }
}
