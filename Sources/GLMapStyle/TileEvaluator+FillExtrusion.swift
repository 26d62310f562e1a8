import GLMapTiles

extension StyleEvaluator {
    /// A `fill-extrusion` layer over one tile: every passing feature's rings grouped into
    /// polygons (MapLibre's `classifyRings`, 500 rings at most), polygons with a roof, lines with
    /// walls only, points dropped (their rings have no area); paint per feature. Heights and bases
    /// that are not finite read as 0 (the shader clamps negative ones to the ground).
    func evaluateFillExtrusion(_ layer: Layer, tile: TileInput) -> EvaluatedFillExtrusionLayer {
        typealias P = FillExtrusionProperties
        let colorOf = colorGetter(P.fillExtrusionColor, layer), heightOf = numberGetter(P.fillExtrusionHeight, layer), baseOf = numberGetter(P.fillExtrusionBase, layer)
        let patternOf = patternGetter(P.fillExtrusionPattern, layer)
        let opacity = number(P.fillExtrusionOpacity, layer)
        var features: [EvaluatedFillExtrusion] = []
        forEachPassing(layer, tile) { f, c in
            if f.type == .point { return }
            let polygons = TileRings.classify(f.geometry.map(flatCoordinates), maxRings: TileRings.earcutMaxRings)
            if polygons.isEmpty { return }
            let pattern = patternOf?(c)
            if patternOf != nil && pattern == nil { return }   // a missing image draws nothing
            let height = heightOf(c), base = baseOf(c)
            var e = EvaluatedFillExtrusion(polygons: polygons, hasRoof: f.type == .polygon, color: colorOf(c),
                                           height: height.isFinite ? height : 0, base: base.isFinite ? base : 0,
                                           opacity: opacity, pattern: pattern)
            e.index = f.index
            features.append(e)
        }
        var result = EvaluatedFillExtrusionLayer(
            id: layer.id, opacity: opacity, translate: pair(P.fillExtrusionTranslate, layer), translateAnchor: value(P.fillExtrusionTranslateAnchor, layer),
            verticalGradient: value(P.fillExtrusionVerticalGradient, layer), features: features)
        result.light = light
        result.patterned = patternOf != nil
        if result.patterned { result.patternAtlas = patternAtlas }
        result.paint = PaintSource(layer: layer, globalState: globalState, tileZoom: tileZoom)
        return result
    }
}

extension StyleEvaluator {
    /// The style's root `light` (its compiled values, `StyleDocument.rootObjects["light"]`) at the
    /// frame zoom; unset or failing values take the spec defaults.
    public func evaluateLight(_ values: [String: PropertyValue]?) -> EvaluatedLight {
        typealias L = LightProperties
        func read(_ p: StyleProperty) -> Value {
            if let e = values?[p.name]?.expression {
                if let c = e.constantValue { return c }
                if let v = try? e.evaluate(EvaluationContext(zoom: zoom, feature: nil, globalState: globalState)), v != .null { return v }
            }
            return StyleEvaluator.defaultValue(p)
        }
        var light = EvaluatedLight.default
        light.anchor = L.anchor.typed(read(L.anchor))
        let position = (read(L.position).array ?? []).compactMap(\.number)
        if position.count == 3, position.allSatisfy(\.isFinite) { light.position = position }
        light.color = read(L.color).color ?? .white
        if let i = read(L.intensity).number, i.isFinite { light.intensity = min(1, max(0, i)) }
        return light
    }
}
