import GLMapCore
import GLMapTiles

/// A tile feature that passed a layer's filter, with the context its expressions read.
public struct FilteredFeature: Sendable {
    /// The feature (geometry in tile units).
    public var feature: TileFeature
    /// What expressions read from it: id, properties, geometry type, state, geometry for `within`.
    public var context: FeatureContext
}

extension StyleEvaluator {
    /// The features of one tile that pass `layer`'s filter at the tile's overscaled zoom, in tile
    /// order, each with its expression context (state from `featureStates`, longitude/latitude
    /// geometry when the layer reads it). Symbol layout evaluates its own values from these
    /// (GLMapText's `SymbolLayout`), as the other layer types' `evaluate` does internally.
    public func filteredFeatures(_ layer: Layer, tile: OverscaledTileID, features: [TileFeature]) -> [FilteredFeature] {
        let (e, input) = onTile(layer, tile: tile, features: features)
        var out: [FilteredFeature] = []
        for f in features {
            let c = input.context(f)
            guard e.passes(layer, c) else { continue }
            out.append(FilteredFeature(feature: f, context: c))
        }
        return out
    }
}
