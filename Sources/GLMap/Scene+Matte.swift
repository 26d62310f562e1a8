import GLMapCore
import GLMapStyle

extension Scene {
    /// The opaque colour a JPEG of this scene is composited on at `zoom`: the bottom `background`
    /// layer's colour (its alpha dropped), or white when no background layer is drawn there or
    /// its colour is fully transparent.
    public func matte(zoom: Double) -> Color {
        let evaluator = StyleEvaluator(zoom: max(0, zoom), globalState: style.globalState, sources: style.sources)
        for layer in style.layers where layer.type == .background && layer.isDrawn(atZoom: max(0, zoom)) {
            let b = evaluator.evaluateBackground(layer)
            guard b.color.a > 0 else { return .white }
            return Color(r: b.color.r / b.color.a, g: b.color.g / b.color.a, b: b.color.b / b.color.a, a: 1)
        }
        return .white
    }
}
