import GLMapStyle

/// A `fill` layer with every fill property glmap draws, typed (MapLibre style spec names in lowerCamelCase).
/// Unset properties (nil) use the spec default. Each property is bound to its row of `FillProperties`.
public struct FillLayer: Layer, Equatable {
    /// The layer's unique id in the style.
    public var id: String
    /// The layer type: always `.fill`.
    public var type: LayerType { .fill }
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
    /// `fill-sort-key` (layout): fills with lower keys draw first; unset keeps source order.
    public var fillSortKey: Value<Double>?
    /// `fill-antialias` (paint): whether the 1-pixel antialiasing outline is drawn (default true).
    public var fillAntialias: Value<Bool>?
    /// `fill-opacity` (paint): 0…1 (default 1), applied to the outline too.
    public var fillOpacity: Value<Double>?
    /// `fill-color` (paint): fill colour (default black).
    public var fillColor: Value<StyleColor>?
    /// `fill-outline-color` (paint): the antialiasing outline's colour; unset uses `fill-color`.
    public var fillOutlineColor: Value<StyleColor>?
    /// `fill-translate` (paint): [x, y] offset in CSS pixels (default [0, 0]).
    public var fillTranslate: Value<[Double]>?
    /// `fill-translate-anchor` (paint): the frame of `fill-translate`: map (default) or viewport.
    public var fillTranslateAnchor: Value<FillTranslateAnchor>?

    /// A fill layer drawing the features of `source`.
    public init(id: String, source: String) { self.id = id; self.source = source }
    /// A fill layer without a source yet (set `source` before adding it).
    public init(id: String) { self.id = id }

    /// Each typed property with the row of `FillProperties` it stands for.
    public static var properties: [LayerPropertyBinding<FillLayer>] {
        [
            .init(\.visibility, StyleProperty.visibility),
            .init(\.fillSortKey, FillProperties.sortKey),
            .init(\.fillAntialias, FillProperties.antialias),
            .init(\.fillOpacity, FillProperties.opacity),
            .init(\.fillColor, FillProperties.color),
            .init(\.fillOutlineColor, FillProperties.outlineColor),
            .init(\.fillTranslate, FillProperties.translate),
            .init(\.fillTranslateAnchor, FillProperties.translateAnchor),
        ]
    }
}

extension FillLayer {
    /// A copy with `fill-sort-key` set to a constant.
    public func fillSortKey(_ constant: Double) -> Self { var l = self; l.fillSortKey = .constant(constant); return l }
    /// A copy with `fill-sort-key` set to an expression.
    public func fillSortKey(_ expression: Exp) -> Self { var l = self; l.fillSortKey = .expression(expression); return l }
    /// A copy with `fill-antialias` set to a constant.
    public func fillAntialias(_ constant: Bool) -> Self { var l = self; l.fillAntialias = .constant(constant); return l }
    /// A copy with `fill-antialias` set to an expression.
    public func fillAntialias(_ expression: Exp) -> Self { var l = self; l.fillAntialias = .expression(expression); return l }
    /// A copy with `fill-opacity` set to a constant.
    public func fillOpacity(_ constant: Double) -> Self { var l = self; l.fillOpacity = .constant(constant); return l }
    /// A copy with `fill-opacity` set to an expression.
    public func fillOpacity(_ expression: Exp) -> Self { var l = self; l.fillOpacity = .expression(expression); return l }
    /// A copy with `fill-color` set to a constant.
    public func fillColor(_ constant: StyleColor) -> Self { var l = self; l.fillColor = .constant(constant); return l }
    /// A copy with `fill-color` set to an expression.
    public func fillColor(_ expression: Exp) -> Self { var l = self; l.fillColor = .expression(expression); return l }
    /// A copy with `fill-outline-color` set to a constant.
    public func fillOutlineColor(_ constant: StyleColor) -> Self { var l = self; l.fillOutlineColor = .constant(constant); return l }
    /// A copy with `fill-outline-color` set to an expression.
    public func fillOutlineColor(_ expression: Exp) -> Self { var l = self; l.fillOutlineColor = .expression(expression); return l }
    /// A copy with `fill-translate` set to a constant.
    public func fillTranslate(_ constant: [Double]) -> Self { var l = self; l.fillTranslate = .constant(constant); return l }
    /// A copy with `fill-translate` set to an expression.
    public func fillTranslate(_ expression: Exp) -> Self { var l = self; l.fillTranslate = .expression(expression); return l }
    /// A copy with `fill-translate-anchor` set to a constant.
    public func fillTranslateAnchor(_ constant: FillTranslateAnchor) -> Self { var l = self; l.fillTranslateAnchor = .constant(constant); return l }
    /// A copy with `fill-translate-anchor` set to an expression.
    public func fillTranslateAnchor(_ expression: Exp) -> Self { var l = self; l.fillTranslateAnchor = .expression(expression); return l }
}
