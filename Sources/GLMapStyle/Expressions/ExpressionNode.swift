import GLMapCore

/// One node of a compiled expression tree. Immutable after parsing; shared freely (a `var` points at
/// the node its `let` bound).
final class ExprNode: Sendable {
    /// The static type after type checking.
    let type: ExpressionType
    let op: ExprOp
    /// Index path from the root (`[1][2]`), used in run-time error messages.
    let key: String

    init(_ type: ExpressionType, _ op: ExprOp, key: String) {
        self.type = type
        self.op = op
        self.key = key
    }

    /// The value when this node is a literal.
    var literalValue: Value? {
        if case .literal(let v) = op { return v }
        return nil
    }

    var isLiteral: Bool {
        if case .literal = op { return true }
        return false
    }

    /// Calls `body` for each direct child, in the specification's `eachChild` order.
    func forEachChild(_ body: (ExprNode) -> Void) {
        switch op {
        case .literal, .getProperty, .hasProperty, .varRef, .within, .globalState:
            break
        case .assertion(let args), .coercion(let args), .compound(_, let args), .coalesce(let args):
            args.forEach(body)
        case .comparison(_, let a, let b, _), .at(let a, let b), .inOp(let a, let b):
            body(a); body(b)
        case .indexOf(let a, let b, let c), .slice(let a, let b, let c):
            body(a); body(b); if let c { body(c) }
        case .length(let a):
            body(a)
        case .caseOp(let branches, let otherwise):
            for (test, out) in branches { body(test); body(out) }
            body(otherwise)
        case .match(_, let input, let outputs, let otherwise):
            body(input); outputs.forEach(body); body(otherwise)
        case .step(let input, _, let outputs):
            body(input); outputs.forEach(body)
        case .interpolate(_, _, let input, _, let outputs):
            body(input); outputs.forEach(body)
        case .letOp(let bindings, let result):
            for (_, b) in bindings { body(b) }
            body(result)
        case .format(let sections):
            for section in sections {
                body(section.content)
                for option in [section.scale, section.font, section.color, section.verticalAlign] { if let option { body(option) } }
            }
        }
    }
}

/// The operation a node performs.
enum ExprOp {
    case literal(Value)
    /// `number`, `string`, `boolean`, `object`, `array`: the first argument of the node's type wins.
    case assertion([ExprNode])
    /// `to-boolean`, `to-number`, `to-string`, `to-color` (by the node's type).
    case coercion([ExprNode])
    /// Fixed-signature operators (`+`, `get`, `rgba`, `all`, …; see `CompoundOperator`).
    case compound(CompoundOperator, [ExprNode])
    /// `["get", "name"]` with a literal name: a direct property read.
    case getProperty(String)
    /// `["has", "name"]` with a literal name.
    case hasProperty(String)
    case comparison(ComparisonOp, ExprNode, ExprNode, untyped: Bool)
    case at(ExprNode, ExprNode)
    case inOp(ExprNode, ExprNode)
    case indexOf(ExprNode, ExprNode, ExprNode?)
    case slice(ExprNode, ExprNode, ExprNode?)
    case length(ExprNode)
    case caseOp([(ExprNode, ExprNode)], ExprNode)
    case match(MatchTable, ExprNode, [ExprNode], ExprNode)
    case coalesce([ExprNode])
    case step(ExprNode, [Double], [ExprNode])
    case interpolate(ColorInterpolationSpace, Interpolation, ExprNode, [Double], [ExprNode])
    case letOp([(String, ExprNode)], ExprNode)
    case varRef(String, ExprNode)
    case within(WithinRegion)
    case globalState(String)
    /// `format`: sections of text (or images) with their options.
    case format([FormatSectionNode])
}

/// One section of a `format` expression: its content and options (nil: not given).
struct FormatSectionNode {
    let content: ExprNode
    let scale: ExprNode?
    let font: ExprNode?
    let color: ExprNode?
    let verticalAlign: ExprNode?
}

/// `==`, `!=`, `<`, `<=`, `>`, `>=`.
enum ComparisonOp: String {
    case eq = "==", ne = "!=", lt = "<", le = "<=", gt = ">", ge = ">="

    var isOrdering: Bool { self != .eq && self != .ne }

    /// `x OP y`.
    @inline(__always)
    func apply<T: Comparable>(_ x: T, _ y: T) -> Bool {
        switch self {
        case .eq: return x == y
        case .ne: return x != y
        case .lt: return x < y
        case .le: return x <= y
        case .gt: return x > y
        case .ge: return x >= y
        }
    }

    /// `x OP y` for strings as JavaScript orders them: by UTF-16 code units.
    func applyUTF16(_ x: String, _ y: String) -> Bool {
        if self == .eq { return x == y }
        if self == .ne { return x != y }
        let lt = x.utf16.lexicographicallyPrecedes(y.utf16)
        let eq = !lt && x == y
        switch self {
        case .eq: return eq
        case .ne: return !eq
        case .lt: return lt
        case .le: return lt || eq
        case .gt: return !lt && !eq
        case .ge: return !lt
        }
    }
}

/// The branch table of a `match`: labels are all numbers or all strings.
struct MatchTable {
    var inputIsNumber: Bool
    var numbers: [Double: Int] = [:]
    var strings: [String: Int] = [:]

    /// The output index for a run-time input, or nil for the fallback.
    func lookup(_ v: Value) -> Int? {
        switch v {
        case .number(let n): return inputIsNumber ? numbers[n] : nil
        case .string(let s): return inputIsNumber ? nil : strings[s]
        default: return nil
        }
    }
}
