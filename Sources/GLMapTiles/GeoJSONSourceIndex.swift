import GLMapCore
import GLMapGeoJSON

/// A GeoJSON source's style values that decide its tiles (absent values: nil), in the style's units.
public struct GeoJSONSourceOptions: Sendable {
    /// `maxzoom` (default 18): tiles exist up to it; deeper views over-scale its tiles.
    public var maxzoom: Double?
    /// `buffer` in pixels of a 512-px tile (default 128).
    public var buffer: Double?
    /// `tolerance` in pixels (default 0.375).
    public var tolerance: Double?
    /// `lineMetrics` (default false).
    public var lineMetrics: Bool
    /// `generateId` (default false).
    public var generateId: Bool
    /// `cluster` (default false): points go through supercluster instead of geojson-vt.
    public var cluster: Bool
    /// `clusterRadius` in pixels (default 50).
    public var clusterRadius: Double?
    /// `clusterMaxZoom` (default maxzoom − 1).
    public var clusterMaxZoom: Double?
    /// `clusterMinPoints` (default 2).
    public var clusterMinPoints: Double?
    /// `clusterProperties`, each as its map and reduce closures.
    public var clusterProperties: [ClusterProperty]
    /// `filter`: a feature is kept when this returns true (GL JS evaluates it at zoom 0).
    public var filter: (@Sendable (Feature) -> Bool)?

    /// Source options; every value defaults as in the style specification.
    public init(maxzoom: Double? = nil, buffer: Double? = nil, tolerance: Double? = nil, lineMetrics: Bool = false,
                generateId: Bool = false, cluster: Bool = false, clusterRadius: Double? = nil,
                clusterMaxZoom: Double? = nil, clusterMinPoints: Double? = nil,
                clusterProperties: [ClusterProperty] = [], filter: (@Sendable (Feature) -> Bool)? = nil) {
        (self.maxzoom, self.buffer, self.tolerance, self.lineMetrics) = (maxzoom, buffer, tolerance, lineMetrics)
        (self.generateId, self.cluster, self.clusterRadius) = (generateId, cluster, clusterRadius)
        (self.clusterMaxZoom, self.clusterMinPoints) = (clusterMaxZoom, clusterMinPoints)
        (self.clusterProperties, self.filter) = (clusterProperties, filter)
    }
}

/// What GL JS's GeoJSON worker builds for a source: geojson-vt's tile index, or supercluster's
/// point index when the source clusters. Tiles deeper than the source's `maxzoom` are never asked
/// for by GL JS (it over-scales the maxzoom tile) and come back nil here.
public enum GeoJSONSourceIndex: Sendable {
    /// geojson-vt (`cluster` false).
    case tiles(GeoJSONTileIndex)
    /// supercluster (`cluster` true).
    case clusters(SuperclusterIndex, maxZoom: Int)

    /// Indexes `collection` as GL JS indexes a source with `source`'s values.
    public init(_ collection: FeatureCollection, source: GeoJSONSourceOptions) throws {
        if source.cluster {
            let options = SuperclusterOptions.mapLibre(maxzoom: source.maxzoom, clusterRadius: source.clusterRadius,
                                                       clusterMaxZoom: source.clusterMaxZoom,
                                                       clusterMinPoints: source.clusterMinPoints,
                                                       generateId: source.generateId,
                                                       clusterProperties: source.clusterProperties)
            let maxZoom = GeoJSONTileOptions.mapLibre(maxzoom: source.maxzoom).maxZoom
            self = .clusters(try SuperclusterIndex(collection, options: options, filter: source.filter), maxZoom: maxZoom)
        } else {
            var options = GeoJSONTileOptions.mapLibre(maxzoom: source.maxzoom, buffer: source.buffer,
                                                      tolerance: source.tolerance, lineMetrics: source.lineMetrics,
                                                      generateId: source.generateId)
            // No index up front: a still frame asks for a few tiles, and geojson-vt cuts the same
            // tiles by drilling down from z0 as from its index (GeoJSONTileRealDataTests checks
            // it); building GL JS's index to z5 was half of a large source's parse.
            options.indexMaxZoom = 0
            self = .tiles(try GeoJSONTileIndex(collection, options: options, filter: source.filter))
        }
    }

    /// The deepest zoom tiles are built at (the source's `maxzoom`).
    public var maxZoom: Int {
        switch self {
        case .tiles(let index): return index.options.maxZoom
        case .clusters(_, let maxZoom): return maxZoom
        }
    }

    /// The tile as geojson-vt or supercluster returns it (nil: nothing there, or deeper than `maxZoom`).
    public func tile(_ id: CanonicalTileID) -> GeoJSONTile? {
        guard id.z <= maxZoom else { return nil }
        switch self {
        case .tiles(let index): return index.tile(id)
        case .clusters(let index, _): return index.tile(id)
        }
    }

    /// The tile as GL JS's worker hands it to buckets (see `GeoJSONTile.vectorTileData`).
    public func vectorTile(_ id: CanonicalTileID) -> VectorTileData? {
        guard id.z <= maxZoom else { return nil }
        switch self {
        case .tiles(let index): return index.vectorTile(id)
        case .clusters(let index, _): return index.vectorTile(id)
        }
    }
}
