import GLMapCore

/// One row of a property table (`FillProperties`, `LightProperties`, …): the spec name, where it
/// lives, and its spec definition. The generated tables declare their rows as `PropertyKey<T>`,
/// this class with the Swift type of the value, so evaluated values are read through them typed;
/// code that does not care about the type (validation, lists of rows) uses them as `StyleProperty`.
/// Rows are immutable.
public class StyleProperty: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The style-spec name, e.g. "fill-color".
    public let name: String
    /// `layout` (true) or `paint` (false; also every key of a source or root object).
    public let isLayout: Bool
    /// Type, default, range and how it may vary (data-driven, zoom…), as the spec defines them.
    public let spec: PropertySpec

    /// Creates a row: the spec name, paint (default) or layout, and its definition.
    public init(_ name: String, layout: Bool = false, _ spec: PropertySpec) {
        self.name = name
        self.isLayout = layout
        self.spec = spec
    }

    /// The GPU input the value is drawn through (uniform when constant, attribute when
    /// data-driven), as the shaders declare it (`GPUBinding`); nil for properties no shader reads.
    public var gpu: GPUBinding? { GPUBinding.binding(of: name) }

    /// The spec name.
    public var description: String { name }

    /// Rows are equal when their names are (a name appears once per table).
    public static func == (a: StyleProperty, b: StyleProperty) -> Bool { a.name == b.name }
    /// Hashes the name.
    public func hash(into h: inout Hasher) { h.combine(name) }
}

/// A typed row: a `StyleProperty` that carries the Swift type `T` of its value, so
/// `StyleEvaluator.value(LineProperties.lineWidth, layer)` is a `Double` and
/// `StyleEvaluator.value(LineProperties.lineCap, layer)` a `LineCap`. `T` is optional exactly when the
/// spec gives the property no default (`FillProperties.fillOutlineColor: PropertyKey<Color?>`).
public final class PropertyKey<T: PropertyValueType>: StyleProperty, @unchecked Sendable {
    /// The spec default as `T` (nil for optional `T` without a default).
    public let defaultValue: T

    /// Creates a typed row. The spec default must be a value of `T`, or `T` optional when the
    /// default is none or an expression (a color ramp's: its value depends on the ramp's
    /// parameter). A generated table that breaks this is a generator bug, caught by the tests that
    /// read every row.
    public override init(_ name: String, layout: Bool = false, _ spec: PropertySpec) {
        let d = spec.defaultValue.map { StyleEvaluator.defaultValue(type: spec.type, json: $0) } ?? .null
        guard let typed = T(evaluated: d) ?? (spec.kind == .colorRamp ? T(evaluated: .null) : nil) else {
            preconditionFailure("\(name): the spec default \(spec.defaultValue?.jsonText ?? "null") is not a \(T.self)")
        }
        defaultValue = typed
        super.init(name, layout: layout, spec)
    }

    /// The Swift value of an evaluated style value, or the default when `v` is not a `T`.
    public func typed(_ v: Value) -> T { T(evaluated: v) ?? defaultValue }
}
