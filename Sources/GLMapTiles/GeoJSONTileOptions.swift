import GLMapCore
import GLMapGeoJSON

/// geojson-vt's options, in its units (tile units, not pixels), as MapLibre GL JS passes them.
///
/// `GeoJSONTileOptions.mapLibre(…)` turns a GeoJSON source's style values into these the way GL JS's
/// `GeoJSONSource` does (pixels × 8192 / 512); the memberwise values are geojson-vt's own.
public struct GeoJSONTileOptions: Sendable, Equatable {
    /// Deepest zoom tiles are cut at (the source's `maxzoom`, 0…24; GL JS default 18): nothing is
    /// simplified there and deeper tiles are not built (the renderer over-scales this zoom's tiles).
    public var maxZoom: Int
    /// Deepest zoom of the index built up front (geojson-vt's `indexMaxZoom`, 5 in GL JS).
    public var indexMaxZoom: Int
    /// A tile of the up-front index with at most this many points is not cut further until a
    /// deeper tile is asked for (geojson-vt's `indexMaxPoints`, 100000 in GL JS).
    public var indexMaxPoints: Int
    /// Simplification tolerance in tile units (GL JS: the source's `tolerance` px × 16, default 6).
    public var tolerance: Double
    /// Units per tile side (8192 in GL JS).
    public var extent: Int
    /// Tile units kept past each tile edge (GL JS: the source's `buffer` px × 16, default 2048).
    public var buffer: Double
    /// Keep line distances: every line piece becomes a LineString feature of its own with
    /// `mapbox_clip_start`/`mapbox_clip_end` (its share of the whole line) in its properties.
    public var lineMetrics: Bool
    /// Replace every feature's id by its index in the (filtered) collection.
    public var generateId: Bool
    /// Replace every feature's id by this property's value. GL JS never sets it for geojson-vt
    /// (it resolves a source's `promoteId` when it reads features), so it is nil there.
    public var promoteId: String?
    /// Rewind polygon rings before tiling as GL JS's worker does (`@mapbox/geojson-rewind` with
    /// outer rings clockwise, holes counter-clockwise); false gives geojson-vt on its own.
    public var rewind: Bool

    /// Options with geojson-vt's meaning; the defaults are what GL JS passes for a source that sets nothing.
    public init(maxZoom: Int = 18, indexMaxZoom: Int = 5, indexMaxPoints: Int = 100_000,
                tolerance: Double = 6, extent: Int = TileExtent.extent, buffer: Double = 2048,
                lineMetrics: Bool = false, generateId: Bool = false, promoteId: String? = nil,
                rewind: Bool = true) {
        (self.maxZoom, self.indexMaxZoom, self.indexMaxPoints) = (maxZoom, indexMaxZoom, indexMaxPoints)
        (self.tolerance, self.extent, self.buffer, self.lineMetrics) = (tolerance, extent, buffer, lineMetrics)
        (self.generateId, self.promoteId, self.rewind) = (generateId, promoteId, rewind)
    }

    /// The options GL JS's `GeoJSONSource` hands geojson-vt for a source's style values (nil:
    /// absent): `maxzoom` (default 18, a fraction dropped as geojson-vt's `1 << maxZoom` drops
    /// it), `buffer` px (default 128) and `tolerance` px (default 0.375) times 8192/512,
    /// `lineMetrics`, `generateId`.
    public static func mapLibre(maxzoom: Double? = nil, buffer: Double? = nil, tolerance: Double? = nil,
                                lineMetrics: Bool = false, generateId: Bool = false) -> GeoJSONTileOptions {
        let scale = Double(TileExtent.extent) / 512
        let z = maxzoom.map { $0.isFinite ? Int(max(-1, min(25, $0.rounded(.towardZero)))) : 25 } ?? 18
        return GeoJSONTileOptions(maxZoom: z, tolerance: (tolerance ?? 0.375) * scale,
                                  buffer: (buffer ?? 128) * scale, lineMetrics: lineMetrics, generateId: generateId)
    }
}

/// Why a GeoJSON source could not be tiled; GL JS fails the same source (its worker throws).
public struct GeoJSONTilingError: GLMapError, Equatable, Sendable {
    /// What is wrong, naming the option or the feature (its index in the collection).
    public var message: String
    /// Always `.invalidInput` (exit code 2).
    public var kind: FailureKind { .invalidInput }
    /// The message.
    public var description: String { message }
    /// An error with this message.
    public init(_ message: String) { self.message = message }
}
