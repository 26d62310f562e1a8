// Exp — a style expression written in Swift.
// An `Exp` is an operator and its arguments; it encodes to the style spec's JSON array form
// (`["==", "$type", "Polygon"]`, `["interpolate", ["linear"], ["zoom"], 10, 1, 16, 4]`). It is not
// checked when built: a layer holding it is validated (with the CLI's JSON-path messages) when it
// is added to a `Snapshotter`. Legacy filters (`["==", "$type", "Polygon"]`) are written the same way.
import GLMapCore
import GLMapStyle

/// A style expression: an operator applied to arguments (encodes to `[op, args…]`).
public struct Exp: Equatable, Sendable {
    /// The operator name as the style spec spells it (`"=="`, `"get"`, `"interpolate"`, …).
    public var operatorName: String
    /// The arguments after the operator.
    public var arguments: [Argument]

    /// An expression from an operator and its arguments.
    public init(operator op: Operator, arguments: [Argument] = []) {
        self.operatorName = op.rawValue
        self.arguments = arguments
    }

    /// An expression whose arguments come from a result builder: `Exp(.eq) { "$type"; "Polygon" }`.
    public init(_ op: Operator, @ExpressionArgumentBuilder arguments: () -> [Argument]) {
        self.init(operator: op, arguments: arguments())
    }

    /// An expression with no arguments: `Exp(.zoom)`, `Exp(.linear)`.
    public init(_ op: Operator) {
        self.init(operator: op, arguments: [])
    }

    init(operatorName: String, arguments: [Argument]) {
        self.operatorName = operatorName
        self.arguments = arguments
    }

    /// The operator, when it is one glmap knows.
    public var `operator`: Operator? { Operator(rawValue: operatorName) }

    /// The expression as style JSON text.
    public var jsonText: String { json.jsonText }

    var json: JSONValue { .array([.string(operatorName)] + arguments.map(\.json)) }

    /// Reads an expression back from style JSON (an array whose first element is a string).
    init?(json: JSONValue) {
        guard case .array(let a) = json, case .string(let op)? = a.first else { return nil }
        self.init(operatorName: op, arguments: a.dropFirst().map(Argument.init(json:)))
    }
}

extension Exp {
    /// One argument of an expression.
    public indirect enum Argument: Equatable, Sendable {
        /// A number literal.
        case number(Double)
        /// A string literal.
        case string(String)
        /// A boolean literal.
        case boolean(Bool)
        /// `null`.
        case null
        /// A nested expression.
        case expression(Exp)
        /// A JSON array (a `match` label list, a literal's value, a dash pattern…).
        case array([Argument])
        /// A JSON object (a literal's value, interpolation options such as `{"space": …}`).
        case object([String: Argument])

        var json: JSONValue {
            switch self {
            case .number(let n): return .number(n)
            case .string(let s): return .string(s)
            case .boolean(let b): return .bool(b)
            case .null: return .null
            case .expression(let e): return e.json
            case .array(let a): return .array(a.map(\.json))
            case .object(let o): return .object(JSONObject(o.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) }))
            }
        }

        init(json: JSONValue) {
            switch json {
            case .null: self = .null
            case .bool(let b): self = .boolean(b)
            case .number(let n): self = .number(n)
            case .string(let s): self = .string(s)
            case .array(let a):
                if case .string(let op)? = a.first, Operator(rawValue: op) != nil {
                    self = .expression(Exp(operatorName: op, arguments: a.dropFirst().map(Argument.init(json:))))
                } else {
                    self = .array(a.map(Argument.init(json:)))
                }
            case .object(let o):
                var d: [String: Argument] = [:]
                for (k, v) in o.pairs { d[k] = Argument(json: v) }
                self = .object(d)
            }
        }
    }
}

/// Something that can stand as one or more expression arguments in an `Exp { … }` builder.
public protocol ExpressionArgumentConvertible {
    /// The arguments this value contributes (a stops dictionary contributes each key and value).
    var expressionArguments: [Exp.Argument] { get }
}

extension Exp: ExpressionArgumentConvertible {
    /// This value as one argument.
    public var expressionArguments: [Exp.Argument] { [.expression(self)] }
}
extension Exp.Argument: ExpressionArgumentConvertible {
    /// This value as one argument.
    public var expressionArguments: [Exp.Argument] { [self] }
}
extension Double: ExpressionArgumentConvertible {
    /// This value as one argument.
    public var expressionArguments: [Exp.Argument] { [.number(self)] }
}
extension Int: ExpressionArgumentConvertible {
    /// This value as one argument.
    public var expressionArguments: [Exp.Argument] { [.number(Double(self))] }
}
extension String: ExpressionArgumentConvertible {
    /// This value as one argument.
    public var expressionArguments: [Exp.Argument] { [.string(self)] }
}
extension Bool: ExpressionArgumentConvertible {
    /// This value as one argument.
    public var expressionArguments: [Exp.Argument] { [.boolean(self)] }
}
extension StyleColor: ExpressionArgumentConvertible {
    /// This value as one argument.
    public var expressionArguments: [Exp.Argument] { [.string(rawValue)] }
}
extension Exp.Operator: ExpressionArgumentConvertible {
    /// An operator on its own is a zero-argument expression (`.zoom` → `["zoom"]`, `.linear` → `["linear"]`).
    /// This value as one argument.
    public var expressionArguments: [Exp.Argument] { [.expression(Exp(self))] }
}
extension Array: ExpressionArgumentConvertible where Element: ExpressionArgumentConvertible {
    /// An array is one JSON array argument (a `match` label list or a literal's value).
    /// This value as one argument.
    public var expressionArguments: [Exp.Argument] { [.array(flatMap(\.expressionArguments))] }
}
extension Dictionary: ExpressionArgumentConvertible where Key: ExpressionArgumentConvertible & Comparable,
                                                            Value: ExpressionArgumentConvertible {
    /// A dictionary of stops contributes `key, value` pairs in ascending key order.
    public var expressionArguments: [Exp.Argument] {
        sorted { $0.key < $1.key }.flatMap { $0.key.expressionArguments + $0.value.expressionArguments }
    }
}

/// Builds the argument list of an `Exp` from the statements of a closure.
@resultBuilder
public enum ExpressionArgumentBuilder {
    /// One statement: its arguments.
    public static func buildExpression(_ value: any ExpressionArgumentConvertible) -> [Exp.Argument] {
        value.expressionArguments
    }
    /// All statements in order.
    public static func buildBlock(_ parts: [Exp.Argument]...) -> [Exp.Argument] { parts.flatMap { $0 } }
    /// An `if` without `else`.
    public static func buildOptional(_ part: [Exp.Argument]?) -> [Exp.Argument] { part ?? [] }
    /// The `if` branch.
    public static func buildEither(first part: [Exp.Argument]) -> [Exp.Argument] { part }
    /// The `else` branch.
    public static func buildEither(second part: [Exp.Argument]) -> [Exp.Argument] { part }
    /// A `for` loop.
    public static func buildArray(_ parts: [[Exp.Argument]]) -> [Exp.Argument] { parts.flatMap { $0 } }
}
