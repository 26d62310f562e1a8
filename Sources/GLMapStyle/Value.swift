import GLMapCore

/// A run-time value of the style expression language.
public enum Value: Equatable, Sendable {
    /// `null`, also what reading a missing feature property gives.
    case null
    /// A boolean.
    case boolean(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// A colour, premultiplied.
    case color(Color)
    /// An array of values.
    case array([Value])
    /// An object; keys are unordered.
    case object([String: Value])
    /// A `formatted` value (what `format` builds; `text-field`).
    case formatted(Formatted)
    /// A `resolvedImage`: an image name (what `image` gives; `icon-image`).
    case image(String)

    /// Converts decoded JSON (a feature property, a literal) to a `Value`.
    public init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .boolean(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let a): self = .array(a.map(Value.init(json:)))
        case .object(let o):
            var d: [String: Value] = [:]
            for (k, v) in o.pairs { d[k] = Value(json: v) }
            self = .object(d)
        }
    }

    /// The number, if this is one.
    public var number: Double? { if case .number(let n) = self { return n }; return nil }
    /// The string, if this is one.
    public var string: String? { if case .string(let s) = self { return s }; return nil }
    /// The boolean, if this is one.
    public var boolean: Bool? { if case .boolean(let b) = self { return b }; return nil }
    /// The colour, if this is one.
    public var color: Color? { if case .color(let c) = self { return c }; return nil }
    /// The array, if this is one.
    public var array: [Value]? { if case .array(let a) = self { return a }; return nil }
    /// Whether this is the number NaN (GL JS evaluates such a property to its default).
    public var isNaN: Bool { if case .number(let n) = self { return n.isNaN }; return false }
}
