import GLMapStyle

/// A `line` layer with every line property glmap draws, typed (MapLibre style spec names in lowerCamelCase).
/// Unset properties (nil) use the spec default. Each property is bound to its row of `LineProperties`.
public struct LineLayer: Layer, Equatable {
    /// The layer's unique id in the style.
    public var id: String
    /// The layer type: always `.line`.
    public var type: LayerType { .line }
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
    /// `line-cap` (layout): line ends: butt (default), round or square.
    public var lineCap: Value<LineCap>?
    /// `line-join` (layout): vertices: bevel, round or miter (default).
    public var lineJoin: Value<LineJoin>?
    /// `line-miter-limit` (layout): sharper miters are drawn as bevels (default 2).
    public var lineMiterLimit: Value<Double>?
    /// `line-round-limit` (layout): flatter round joins are drawn as miters (default 1.05).
    public var lineRoundLimit: Value<Double>?
    /// `line-sort-key` (layout): lines with lower keys draw first; unset keeps source order.
    public var lineSortKey: Value<Double>?
    /// `line-opacity` (paint): 0…1 (default 1).
    public var lineOpacity: Value<Double>?
    /// `line-color` (paint): stroke colour (default black).
    public var lineColor: Value<StyleColor>?
    /// `line-translate` (paint): [x, y] offset in CSS pixels (default [0, 0]).
    public var lineTranslate: Value<[Double]>?
    /// `line-translate-anchor` (paint): the frame of `line-translate`: map (default) or viewport.
    public var lineTranslateAnchor: Value<LineTranslateAnchor>?
    /// `line-width` (paint): stroke width in CSS pixels, ≥ 0 (default 1).
    public var lineWidth: Value<Double>?
    /// `line-gap-width` (paint): when > 0, two strokes this many CSS pixels apart (default 0).
    public var lineGapWidth: Value<Double>?
    /// `line-offset` (paint): CSS pixels to the right of the line's direction (default 0).
    public var lineOffset: Value<Double>?
    /// `line-blur` (paint): blur in CSS pixels, ≥ 0 (default 0).
    public var lineBlur: Value<Double>?
    /// `line-dasharray` (paint): dash and gap lengths in line widths, ≥ 0; unset: solid.
    public var lineDasharray: Value<[Double]>?
    /// `line-gradient` (paint): a colour ramp over `line-progress` (`Exp.Operator.lineProgress`); needs the source's `lineMetrics`.
    public var lineGradient: Value<StyleColor>?

    /// A line layer drawing the features of `source`.
    public init(id: String, source: String) { self.id = id; self.source = source }
    /// A line layer without a source yet (set `source` before adding it).
    public init(id: String) { self.id = id }

    /// Each typed property with the row of `LineProperties` it stands for.
    public static var properties: [LayerPropertyBinding<LineLayer>] {
        [
            .init(\.visibility, StyleProperty.visibility),
            .init(\.lineCap, LineProperties.cap),
            .init(\.lineJoin, LineProperties.join),
            .init(\.lineMiterLimit, LineProperties.miterLimit),
            .init(\.lineRoundLimit, LineProperties.roundLimit),
            .init(\.lineSortKey, LineProperties.sortKey),
            .init(\.lineOpacity, LineProperties.opacity),
            .init(\.lineColor, LineProperties.color),
            .init(\.lineTranslate, LineProperties.translate),
            .init(\.lineTranslateAnchor, LineProperties.translateAnchor),
            .init(\.lineWidth, LineProperties.width),
            .init(\.lineGapWidth, LineProperties.gapWidth),
            .init(\.lineOffset, LineProperties.offset),
            .init(\.lineBlur, LineProperties.blur),
            .init(\.lineDasharray, LineProperties.dasharray),
            .init(\.lineGradient, LineProperties.gradient),
        ]
    }
}

extension LineLayer {
    /// A copy with `line-cap` set to a constant.
    public func lineCap(_ constant: LineCap) -> Self { var l = self; l.lineCap = .constant(constant); return l }
    /// A copy with `line-cap` set to an expression.
    public func lineCap(_ expression: Exp) -> Self { var l = self; l.lineCap = .expression(expression); return l }
    /// A copy with `line-join` set to a constant.
    public func lineJoin(_ constant: LineJoin) -> Self { var l = self; l.lineJoin = .constant(constant); return l }
    /// A copy with `line-join` set to an expression.
    public func lineJoin(_ expression: Exp) -> Self { var l = self; l.lineJoin = .expression(expression); return l }
    /// A copy with `line-miter-limit` set to a constant.
    public func lineMiterLimit(_ constant: Double) -> Self { var l = self; l.lineMiterLimit = .constant(constant); return l }
    /// A copy with `line-miter-limit` set to an expression.
    public func lineMiterLimit(_ expression: Exp) -> Self { var l = self; l.lineMiterLimit = .expression(expression); return l }
    /// A copy with `line-round-limit` set to a constant.
    public func lineRoundLimit(_ constant: Double) -> Self { var l = self; l.lineRoundLimit = .constant(constant); return l }
    /// A copy with `line-round-limit` set to an expression.
    public func lineRoundLimit(_ expression: Exp) -> Self { var l = self; l.lineRoundLimit = .expression(expression); return l }
    /// A copy with `line-sort-key` set to a constant.
    public func lineSortKey(_ constant: Double) -> Self { var l = self; l.lineSortKey = .constant(constant); return l }
    /// A copy with `line-sort-key` set to an expression.
    public func lineSortKey(_ expression: Exp) -> Self { var l = self; l.lineSortKey = .expression(expression); return l }
    /// A copy with `line-opacity` set to a constant.
    public func lineOpacity(_ constant: Double) -> Self { var l = self; l.lineOpacity = .constant(constant); return l }
    /// A copy with `line-opacity` set to an expression.
    public func lineOpacity(_ expression: Exp) -> Self { var l = self; l.lineOpacity = .expression(expression); return l }
    /// A copy with `line-color` set to a constant.
    public func lineColor(_ constant: StyleColor) -> Self { var l = self; l.lineColor = .constant(constant); return l }
    /// A copy with `line-color` set to an expression.
    public func lineColor(_ expression: Exp) -> Self { var l = self; l.lineColor = .expression(expression); return l }
    /// A copy with `line-translate` set to a constant.
    public func lineTranslate(_ constant: [Double]) -> Self { var l = self; l.lineTranslate = .constant(constant); return l }
    /// A copy with `line-translate` set to an expression.
    public func lineTranslate(_ expression: Exp) -> Self { var l = self; l.lineTranslate = .expression(expression); return l }
    /// A copy with `line-translate-anchor` set to a constant.
    public func lineTranslateAnchor(_ constant: LineTranslateAnchor) -> Self { var l = self; l.lineTranslateAnchor = .constant(constant); return l }
    /// A copy with `line-translate-anchor` set to an expression.
    public func lineTranslateAnchor(_ expression: Exp) -> Self { var l = self; l.lineTranslateAnchor = .expression(expression); return l }
    /// A copy with `line-width` set to a constant.
    public func lineWidth(_ constant: Double) -> Self { var l = self; l.lineWidth = .constant(constant); return l }
    /// A copy with `line-width` set to an expression.
    public func lineWidth(_ expression: Exp) -> Self { var l = self; l.lineWidth = .expression(expression); return l }
    /// A copy with `line-gap-width` set to a constant.
    public func lineGapWidth(_ constant: Double) -> Self { var l = self; l.lineGapWidth = .constant(constant); return l }
    /// A copy with `line-gap-width` set to an expression.
    public func lineGapWidth(_ expression: Exp) -> Self { var l = self; l.lineGapWidth = .expression(expression); return l }
    /// A copy with `line-offset` set to a constant.
    public func lineOffset(_ constant: Double) -> Self { var l = self; l.lineOffset = .constant(constant); return l }
    /// A copy with `line-offset` set to an expression.
    public func lineOffset(_ expression: Exp) -> Self { var l = self; l.lineOffset = .expression(expression); return l }
    /// A copy with `line-blur` set to a constant.
    public func lineBlur(_ constant: Double) -> Self { var l = self; l.lineBlur = .constant(constant); return l }
    /// A copy with `line-blur` set to an expression.
    public func lineBlur(_ expression: Exp) -> Self { var l = self; l.lineBlur = .expression(expression); return l }
    /// A copy with `line-dasharray` set to a constant.
    public func lineDasharray(_ constant: [Double]) -> Self { var l = self; l.lineDasharray = .constant(constant); return l }
    /// A copy with `line-dasharray` set to an expression.
    public func lineDasharray(_ expression: Exp) -> Self { var l = self; l.lineDasharray = .expression(expression); return l }
    /// A copy with `line-gradient` set to a constant.
    public func lineGradient(_ constant: StyleColor) -> Self { var l = self; l.lineGradient = .constant(constant); return l }
    /// A copy with `line-gradient` set to an expression.
    public func lineGradient(_ expression: Exp) -> Self { var l = self; l.lineGradient = .expression(expression); return l }
}
