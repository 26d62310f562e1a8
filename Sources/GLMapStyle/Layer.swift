import GLMapCore

/// A property value as written in the style, compiled for its property.
public struct PropertyValue: Sendable {
    /// The JSON as written.
    public let json: JSONValue
    /// The compiled expression (literals fold to constants).
    public let expression: StyleExpression
}

/// A style layer: what to draw (type, source, filter) and how (paint/layout values).
public struct Layer: Sendable {
    /// The layer's `id`, unique in the style.
    public var id: String
    /// The layer's `type`.
    public var type: LayerType
    /// The source id (nil for background layers).
    public var source: String?
    /// The compiled `filter` (expression or legacy filter); nil draws every feature.
    public var filter: FeatureFilter?
    /// Drawn at zooms in `minzoom ..< maxzoom` (spec semantics).
    public var minzoom: Double
    /// Upper zoom bound, exclusive, 0…24 (default 24).
    public var maxzoom: Double
    /// `layout.visibility` is "visible".
    public var isVisible: Bool
    /// Values set in the style, by property name. Unset properties use the spec default.
    public var values: [String: PropertyValue]
    /// The vector tile layer the layer draws (`source-layer`; GeoJSON sources have one layer and ignore it).
    public var sourceLayer: String? = nil
    /// The `filter` as written (nil: none); layers with equal layout-affecting members share
    /// symbol placement as GL JS's `groupByLayout` groups them.
    public var filterJSON: JSONValue? = nil

    /// Whether the layer is drawn at `zoom` (visibility and zoom range).
    public func isDrawn(atZoom zoom: Double) -> Bool {
        isVisible && zoom >= minzoom && zoom < maxzoom
    }

    /// The value set for `property`, or nil when the default applies.
    public func value(_ property: StyleProperty) -> PropertyValue? { values[property.name] }
}
