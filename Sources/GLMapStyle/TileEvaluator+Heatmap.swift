import GLMapCore
import GLMapTiles

extension StyleEvaluator {
    /// A `heatmap` layer over one tile: every point of every passing feature that lies inside the
    /// tile square [0, 8192) (as MapLibre's circle-based heatmap bucket keeps them), with weight
    /// and radius per feature; intensity, opacity and the colour ramp layer-wide.
    func evaluateHeatmap(_ layer: Layer, tile: TileInput) -> EvaluatedHeatmapLayer {
        typealias P = HeatmapProperties
        let weightOf = numberGetter(P.heatmapWeight, layer), radiusOf = numberGetter(P.heatmapRadius, layer)
        let intensity = number(P.heatmapIntensity, layer)
        let extent = Int16(TileExtent.extent)
        let perFeature = layer.values.values.contains { !$0.expression.isFeatureConstant }
        let empty = FeatureContext()
        var features: [EvaluatedHeatmapPoint] = []
        for f in tile.features {
            var context: FeatureContext?
            guard passes(layer, f, tile, context: &context) else { continue }
            let c = perFeature ? (context ?? tile.context(f)) : empty
            var centers: [Double] = []
            for ring in f.geometry {
                for p in ring where p.x >= 0 && p.x < extent && p.y >= 0 && p.y < extent {
                    centers.append(Double(p.x)); centers.append(Double(p.y))
                }
            }
            if centers.isEmpty { continue }
            let weight = weightOf(c)
            guard weight.isFinite, weight > 0 else { continue }
            var point = EvaluatedHeatmapPoint(centers: centers, weight: weight, radius: radiusOf(c), intensity: intensity)
            point.index = f.index
            features.append(point)
        }
        var result = EvaluatedHeatmapLayer(id: layer.id, intensity: intensity, opacity: number(P.heatmapOpacity, layer),
                                           ramp: heatmapRamp(layer), features: features)
        result.paint = PaintSource(layer: layer, globalState: globalState, tileZoom: tileZoom)
        return result
    }

    /// The layer's `heatmap-color` (or the spec default) as a ramp.
    func heatmapRamp(_ layer: Layer) -> ColorRamp {
        if let e = layer.values[HeatmapProperties.heatmapColor.name]?.expression { return ColorRamp(heatmapColor: e) }
        return StyleEvaluator.defaultHeatmapRamp
    }

    /// The ramp of the spec's default `heatmap-color`.
    static let defaultHeatmapRamp: ColorRamp = {
        let p = HeatmapProperties.heatmapColor
        guard let json = p.spec.defaultValue, case .success(let e) = StyleExpression.compile(json, spec: p.spec) else {
            return ColorRamp(transparentWidth: ColorRamp.defaultWidth)
        }
        return ColorRamp(heatmapColor: e)
    }()
}
