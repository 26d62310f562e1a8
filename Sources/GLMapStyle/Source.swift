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

    /// Creates a source with the spec defaults: maxzoom 18, no line metrics, tolerance 0.375, buffer 128.
    public init(id: String, data: GeoJSONData, maxzoom: Double = 18, lineMetrics: Bool = false,
                tolerance: Double = 0.375, buffer: Double = 128) {
        self.id = id
        self.data = data
        self.maxzoom = maxzoom
        self.lineMetrics = lineMetrics
        self.tolerance = tolerance
        self.buffer = buffer
    }
}
