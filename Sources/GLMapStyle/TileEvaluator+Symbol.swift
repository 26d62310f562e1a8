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
        var e = self
        e.tileZoomOverride = Double(tile.overscaledZ)
        var input = TileInput(tile: tile, features: features, needsGeometry: layer.needsGeometry)
        if let id = layer.source, featureStates.hasState(source: id) {
            let states = featureStates, promoteId = sources[id]?.promoteId, sourceLayer = layer.sourceLayer
            input.state = { f in
                let context = FeatureContext(id: f.id, properties: f.properties)
                guard let featureID = FeatureStates.geoJSONFeatureID(context, promoteId: promoteId) else { return JSONObject() }
                return states.state(source: id, sourceLayer: sourceLayer, featureID: featureID)
            }
        }
        var out: [FilteredFeature] = []
        for f in features {
            let c = input.context(f)
            guard e.passes(layer, c) else { continue }
            out.append(FilteredFeature(feature: f, context: c))
        }
        return out
    }
}
