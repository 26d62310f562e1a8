import GLMapStyle

/// A `background` layer with every background property glmap draws, typed (MapLibre style spec names in lowerCamelCase).
/// Unset properties (nil) use the spec default. Each property is bound to its row of `BackgroundProperties`.
public struct BackgroundLayer: Layer, Equatable {
    /// The layer's unique id in the style.
    public var id: String
    /// The layer type: always `.background`.
    public var type: LayerType { .background }
    /// Background layers have no source.
    public var source: String? { get { nil } set {} }
    /// Background layers have no filter.
    public var filter: Exp? { get { nil } set {} }
    /// The lowest zoom at which the layer is drawn (inclusive).
    public var minZoom: Double?
    /// The zoom from which the layer is no longer drawn (exclusive).
    public var maxZoom: Double?
    /// `visibility` (layout): whether the layer is drawn: `.visible` (default) or `.none`.
    public var visibility: Value<Visibility>?
    /// `background-color` (paint): the colour over the whole frame (default black).
    public var backgroundColor: Value<StyleColor>?
    /// `background-opacity` (paint): 0…1 (default 1).
    public var backgroundOpacity: Value<Double>?

    /// A background layer.
    public init(id: String) { self.id = id }

    /// Each typed property with the row of `BackgroundProperties` it stands for.
    public static var properties: [LayerPropertyBinding<BackgroundLayer>] {
        [
            .init(\.visibility, StyleProperty.visibility),
            .init(\.backgroundColor, BackgroundProperties.color),
            .init(\.backgroundOpacity, BackgroundProperties.opacity),
        ]
    }
}

extension BackgroundLayer {
    /// A copy with `background-color` set to a constant.
    public func backgroundColor(_ constant: StyleColor) -> Self { var l = self; l.backgroundColor = .constant(constant); return l }
    /// A copy with `background-color` set to an expression.
    public func backgroundColor(_ expression: Exp) -> Self { var l = self; l.backgroundColor = .expression(expression); return l }
    /// A copy with `background-opacity` set to a constant.
    public func backgroundOpacity(_ constant: Double) -> Self { var l = self; l.backgroundOpacity = .constant(constant); return l }
    /// A copy with `background-opacity` set to an expression.
    public func backgroundOpacity(_ expression: Exp) -> Self { var l = self; l.backgroundOpacity = .expression(expression); return l }
}
