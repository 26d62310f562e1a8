import GLMapCore

/// One row of a layer's property table: the spec name, where it lives, and its spec definition.
public struct StyleProperty: Hashable, Sendable {
    /// The style-spec name, e.g. "fill-color".
    public let name: String
    /// `layout` or `paint`.
    public let isLayout: Bool
    /// Type, default, range and how it may vary (data-driven, zoom…).
    public let spec: PropertySpec
    /// The GPU input the value is drawn through (uniform when constant, attribute when
    /// data-driven); nil for properties that are not shader inputs (layout, enums, translate…).
    public let gpu: GPUBinding?

    /// Creates a row: the spec name, paint (default) or layout, its definition and GPU input.
    public init(_ name: String, layout: Bool = false, _ spec: PropertySpec, gpu: GPUBinding? = nil) {
        self.name = name
        self.isLayout = layout
        self.spec = spec
        self.gpu = gpu
    }

    /// Rows are equal when their names are (a name appears once per table).
    public static func == (a: StyleProperty, b: StyleProperty) -> Bool { a.name == b.name }
    /// Hashes the name.
    public func hash(into h: inout Hasher) { h.combine(name) }

    // Shorthands for the tables.
    static func paint(_ name: String, _ type: PropertyType, _ kind: PropertyKind, default d: JSONValue?,
                      min: Double? = nil, max: Double? = nil, interpolated: Bool = true, zoom: Bool = true,
                      lineProgress: Bool = false, gpu: (name: String, programs: [String])? = nil) -> StyleProperty {
        StyleProperty(name, PropertySpec(type: type, kind: kind, zoomAllowed: zoom, interpolated: interpolated,
                                         defaultValue: d, minimum: min, maximum: max,
                                         lineProgressAllowed: lineProgress),
                      gpu: gpu.map { GPUBinding($0.name, components: type == .color ? 4 : 1, programs: $0.programs) })
    }

    static func layout(_ name: String, _ type: PropertyType, _ kind: PropertyKind, default d: JSONValue?,
                       min: Double? = nil, max: Double? = nil, interpolated: Bool = false) -> StyleProperty {
        StyleProperty(name, layout: true, PropertySpec(type: type, kind: kind, interpolated: interpolated,
                                                       defaultValue: d, minimum: min, maximum: max))
    }

    /// `visibility`, shared by every layer type (not an expression: "visible" or "none").
    public static let visibility = StyleProperty("visibility", layout: true,
        PropertySpec(type: .enum(["visible", "none"]), kind: .constant, zoomAllowed: false,
                     interpolated: false, defaultValue: "visible"))
}
