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
        var features: [EvaluatedHeatmapPoint] = []
        forEachPassing(layer, tile) { f, c in
            let centers = f.pointsInsideTile()
            if centers.isEmpty { return }
            let weight = weightOf(c)
            guard weight.isFinite, weight > 0 else { return }
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
