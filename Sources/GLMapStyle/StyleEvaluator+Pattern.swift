// `*-pattern` evaluation — contract
// Input: a layer's `*-pattern` value, the frame zoom (and the tile zoom, per tile), the images of
// the pattern atlas (`StyleEvaluator.patternImages`). Output: per feature, the cross-faded pair
// of images (`EvaluatedPattern`) or nil when an image it needs is missing (MapLibre then draws
// nothing for it: `isPatternMissing`, `patternsLoaded`, unset pattern attributes).
// Rules, as GL JS's CrossFaded properties give them on a still frame (fade finished):
// - feature-constant values: `to` at the zoom, `from` one zoom below (between integer zooms) or
//   above (on one), at the zoom itself (`fill-`, `line-`, `fill-extrusion-pattern`) or at whole
//   zooms (`background-pattern`, MapLibre's CrossFadedProperty); a missing one of the two takes the
//   other's place (`updatePatternPositionsInProgram`);
// - feature-dependent values read at one zoom: `from` = `to` = the feature's value;
// - feature- and zoom-dependent values: per feature at the tile zoom z and z ∓ 1, all three
//   present; GL JS's composite binder hands the shader z's image as `from` and z ∓ 1's as `to`.
// Never throws; a value that fails to evaluate is a missing image.

extension StyleEvaluator {
    /// A getter of `property`'s pattern per feature, nil when the layer does not set it.
    /// `wholeZooms`: read feature-constant values at whole zooms (`background-pattern`).
    func patternGetter(_ property: StyleProperty, _ layer: Layer, wholeZooms: Bool = false) -> ((FeatureContext) -> EvaluatedPattern?)? {
        guard let value = layer.values[property.name] else { return nil }
        let e = value.expression
        let images = patternImages, state = globalState
        let zoomingIn = zoom > zoom.rounded(.down)
        func name(_ z: Double, _ f: FeatureContext?) -> String? {
            (try? e.evaluate(EvaluationContext(zoom: z, feature: f, globalState: state))).flatMap(ResolvedImage.init(evaluated:))?.name
        }
        func image(_ n: String?) -> PatternImage? { n.flatMap { images[$0] } }
        if e.isFeatureConstant {
            let toZoom = wholeZooms ? zoom.rounded(.down) : zoom
            let fromZoom = wholeZooms ? (zoomingIn ? zoom - 1 : zoom + 1).rounded(.down) : (zoomingIn ? zoom - 1 : zoom + 1)
            let to = image(name(toZoom, nil)), from = image(name(fromZoom, nil))
            var result: EvaluatedPattern?
            if let a = from ?? to, let b = to ?? from { result = EvaluatedPattern(from: a, to: b) }
            return { _ in result }
        }
        if e.isZoomConstant {
            return { [zoom] f in image(name(zoom, f)).map { EvaluatedPattern(from: $0, to: $0) } }
        }
        let z = tileZoom
        return { f in
            guard let mid = image(name(z, f)), let low = image(name(z - 1, f)), let high = image(name(z + 1, f)) else { return nil }
            return EvaluatedPattern(from: mid, to: zoomingIn ? low : high)
        }
    }

    /// The names a feature-constant pattern value needs at the frame zoom (`from` and `to`), for
    /// warnings about missing images; empty for data-driven values.
    public func patternNames(_ property: StyleProperty, _ layer: Layer, wholeZooms: Bool = false) -> [String] {
        guard let e = layer.values[property.name]?.expression, e.isFeatureConstant else { return [] }
        let zoomingIn = zoom > zoom.rounded(.down)
        let zooms = wholeZooms ? [zoom.rounded(.down), (zoomingIn ? zoom - 1 : zoom + 1).rounded(.down)] : [zoom, zoomingIn ? zoom - 1 : zoom + 1]
        return zooms.compactMap { (try? e.evaluate(EvaluationContext(zoom: $0, feature: nil, globalState: globalState))).flatMap(ResolvedImage.init(evaluated:))?.name }
    }
}
