import GLMapCore

/// A run-time value of the style expression language.
public enum Value: Equatable, Sendable {
    case null
    case boolean(Bool)
    case number(Double)
    case string(String)
    case color(Color)
    case array([Value])
    case object([String: Value])

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
            for (k, v) in o.values { d[k] = Value(json: v) }
            self = .object(d)
        }
    }

    public var number: Double? { if case .number(let n) = self { return n }; return nil }
    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var boolean: Bool? { if case .boolean(let b) = self { return b }; return nil }
    public var color: Color? { if case .color(let c) = self { return c }; return nil }
    public var array: [Value]? { if case .array(let a) = self { return a }; return nil }
}
