import GLMapStyle

/// A `circle` layer with every circle property glmap draws, typed (MapLibre style spec names in lowerCamelCase).
/// Unset properties (nil) use the spec default. Each property is bound to its row of `CircleProperties`.
public struct CircleLayer: Layer, Equatable {
    /// The layer's unique id in the style.
    public var id: String
    /// The layer type: always `.circle`.
    public var type: LayerType { .circle }
    /// The id of the source whose features are drawn.
    public var source: String?
    /// Which features are drawn (an expression or a legacy filter such as `["==", "$type", "Polygon"]`).
    public var filter: Exp?
    /// The lowest zoom at which the layer is drawn (inclusive).
    public var minZoom: Double?
    /// The zoom from which the layer is no longer drawn (exclusive).
    public var maxZoom: Double?
    /// `visibility` (layout): whether the layer is drawn: `.visible` (default) or `.none`.
    public var visibility: Value<Visibility>?
    /// `circle-sort-key` (layout): circles with lower keys draw first; unset keeps source order.
    public var circleSortKey: Value<Double>?
    /// `circle-radius` (paint): radius in CSS pixels, ≥ 0 (default 5).
    public var circleRadius: Value<Double>?
    /// `circle-color` (paint): fill colour (default black).
    public var circleColor: Value<StyleColor>?
    /// `circle-blur` (paint): blur as a fraction of the radius (default 0; 1 blurs from the centre).
    public var circleBlur: Value<Double>?
    /// `circle-opacity` (paint): 0…1 (default 1).
    public var circleOpacity: Value<Double>?
    /// `circle-translate` (paint): [x, y] offset in CSS pixels (default [0, 0]).
    public var circleTranslate: Value<[Double]>?
    /// `circle-translate-anchor` (paint): the frame of `circle-translate`: map (default) or viewport.
    public var circleTranslateAnchor: Value<CircleTranslateAnchor>?
    /// `circle-pitch-scale` (paint): map (default: circles shrink with distance) or viewport.
    public var circlePitchScale: Value<CirclePitchScale>?
    /// `circle-pitch-alignment` (paint): viewport (default: circles face the screen) or map.
    public var circlePitchAlignment: Value<CirclePitchAlignment>?
    /// `circle-stroke-width` (paint): stroke width in CSS pixels outside the radius, ≥ 0 (default 0).
    public var circleStrokeWidth: Value<Double>?
    /// `circle-stroke-color` (paint): stroke colour (default black).
    public var circleStrokeColor: Value<StyleColor>?
    /// `circle-stroke-opacity` (paint): stroke opacity 0…1 (default 1).
    public var circleStrokeOpacity: Value<Double>?

    /// A circle layer drawing the features of `source`.
    public init(id: String, source: String) { self.id = id; self.source = source }
    /// A circle layer without a source yet (set `source` before adding it).
    public init(id: String) { self.id = id }

    /// Each typed property with the row of `CircleProperties` it stands for.
    public static var properties: [LayerPropertyBinding<CircleLayer>] {
        [
            .init(\.visibility, StyleProperty.visibility),
            .init(\.circleSortKey, CircleProperties.sortKey),
            .init(\.circleRadius, CircleProperties.radius),
            .init(\.circleColor, CircleProperties.color),
            .init(\.circleBlur, CircleProperties.blur),
            .init(\.circleOpacity, CircleProperties.opacity),
            .init(\.circleTranslate, CircleProperties.translate),
            .init(\.circleTranslateAnchor, CircleProperties.translateAnchor),
            .init(\.circlePitchScale, CircleProperties.pitchScale),
            .init(\.circlePitchAlignment, CircleProperties.pitchAlignment),
            .init(\.circleStrokeWidth, CircleProperties.strokeWidth),
            .init(\.circleStrokeColor, CircleProperties.strokeColor),
            .init(\.circleStrokeOpacity, CircleProperties.strokeOpacity),
        ]
    }
}

extension CircleLayer {
    /// A copy with `circle-sort-key` set to a constant.
    public func circleSortKey(_ constant: Double) -> Self { var l = self; l.circleSortKey = .constant(constant); return l }
    /// A copy with `circle-sort-key` set to an expression.
    public func circleSortKey(_ expression: Exp) -> Self { var l = self; l.circleSortKey = .expression(expression); return l }
    /// A copy with `circle-radius` set to a constant.
    public func circleRadius(_ constant: Double) -> Self { var l = self; l.circleRadius = .constant(constant); return l }
    /// A copy with `circle-radius` set to an expression.
    public func circleRadius(_ expression: Exp) -> Self { var l = self; l.circleRadius = .expression(expression); return l }
    /// A copy with `circle-color` set to a constant.
    public func circleColor(_ constant: StyleColor) -> Self { var l = self; l.circleColor = .constant(constant); return l }
    /// A copy with `circle-color` set to an expression.
    public func circleColor(_ expression: Exp) -> Self { var l = self; l.circleColor = .expression(expression); return l }
    /// A copy with `circle-blur` set to a constant.
    public func circleBlur(_ constant: Double) -> Self { var l = self; l.circleBlur = .constant(constant); return l }
    /// A copy with `circle-blur` set to an expression.
    public func circleBlur(_ expression: Exp) -> Self { var l = self; l.circleBlur = .expression(expression); return l }
    /// A copy with `circle-opacity` set to a constant.
    public func circleOpacity(_ constant: Double) -> Self { var l = self; l.circleOpacity = .constant(constant); return l }
    /// A copy with `circle-opacity` set to an expression.
    public func circleOpacity(_ expression: Exp) -> Self { var l = self; l.circleOpacity = .expression(expression); return l }
    /// A copy with `circle-translate` set to a constant.
    public func circleTranslate(_ constant: [Double]) -> Self { var l = self; l.circleTranslate = .constant(constant); return l }
    /// A copy with `circle-translate` set to an expression.
    public func circleTranslate(_ expression: Exp) -> Self { var l = self; l.circleTranslate = .expression(expression); return l }
    /// A copy with `circle-translate-anchor` set to a constant.
    public func circleTranslateAnchor(_ constant: CircleTranslateAnchor) -> Self { var l = self; l.circleTranslateAnchor = .constant(constant); return l }
    /// A copy with `circle-translate-anchor` set to an expression.
    public func circleTranslateAnchor(_ expression: Exp) -> Self { var l = self; l.circleTranslateAnchor = .expression(expression); return l }
    /// A copy with `circle-pitch-scale` set to a constant.
    public func circlePitchScale(_ constant: CirclePitchScale) -> Self { var l = self; l.circlePitchScale = .constant(constant); return l }
    /// A copy with `circle-pitch-scale` set to an expression.
    public func circlePitchScale(_ expression: Exp) -> Self { var l = self; l.circlePitchScale = .expression(expression); return l }
    /// A copy with `circle-pitch-alignment` set to a constant.
    public func circlePitchAlignment(_ constant: CirclePitchAlignment) -> Self { var l = self; l.circlePitchAlignment = .constant(constant); return l }
    /// A copy with `circle-pitch-alignment` set to an expression.
    public func circlePitchAlignment(_ expression: Exp) -> Self { var l = self; l.circlePitchAlignment = .expression(expression); return l }
    /// A copy with `circle-stroke-width` set to a constant.
    public func circleStrokeWidth(_ constant: Double) -> Self { var l = self; l.circleStrokeWidth = .constant(constant); return l }
    /// A copy with `circle-stroke-width` set to an expression.
    public func circleStrokeWidth(_ expression: Exp) -> Self { var l = self; l.circleStrokeWidth = .expression(expression); return l }
    /// A copy with `circle-stroke-color` set to a constant.
    public func circleStrokeColor(_ constant: StyleColor) -> Self { var l = self; l.circleStrokeColor = .constant(constant); return l }
    /// A copy with `circle-stroke-color` set to an expression.
    public func circleStrokeColor(_ expression: Exp) -> Self { var l = self; l.circleStrokeColor = .expression(expression); return l }
    /// A copy with `circle-stroke-opacity` set to a constant.
    public func circleStrokeOpacity(_ constant: Double) -> Self { var l = self; l.circleStrokeOpacity = .constant(constant); return l }
    /// A copy with `circle-stroke-opacity` set to an expression.
    public func circleStrokeOpacity(_ expression: Exp) -> Self { var l = self; l.circleStrokeOpacity = .expression(expression); return l }
}
