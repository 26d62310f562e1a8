import Foundation
import GLMapCore

// Compound operators — contract
// Every fixed-signature expression operator (the specification's "compound expressions": `+`,
// `get`, `rgba`, `all`, …) is declared once, in `CompoundOperator.all`: its name, result type,
// accepted argument lists, what it reads besides its arguments, and how it evaluates (as
// maplibre-native's `define("+", …)` declares each with its signature and body). The parser looks
// names up there and type-checks against the overloads (ExpressionParser.swift), the analyses ask
// `reads` (ExpressionAnalysis.swift), and evaluation calls `evaluate` (Expression+Evaluate.swift).
// Threading: the table is immutable; evaluation closures capture nothing.

/// One accepted argument list of a compound operator.
enum Signature: Sendable {
    case fixed([ExpressionType])
    case varargs(ExpressionType)

    func parameter(_ i: Int) -> ExpressionType {
        switch self {
        case .fixed(let p): return p[i]
        case .varargs(let t): return t
        }
    }

    var description: String {
        switch self {
        case .fixed(let p): return "(" + p.map { $0.description }.joined(separator: ", ") + ")"
        case .varargs(let t): return "(\(t)...)"
        }
    }
}

/// What a compound operator reads besides its arguments, for `ExpressionAnalysis`.
enum CompoundDependency: Sendable {
    /// Only its arguments.
    case none
    /// The feature (`properties`, `geometry-type`, `id`).
    case feature
    /// The feature when called without an object argument (`get`, `has`).
    case featureUnlessObjectGiven
    /// The camera zoom.
    case zoom
    /// The feature's runtime state (`feature-state`): a feature read that filters and layout
    /// properties may not use.
    case featureState
    /// The position along the line (`line-progress`).
    case lineProgress
    /// The heatmap's kernel density (`heatmap-density`).
    case heatmapDensity
    /// The elevation of a DEM pixel (`elevation`, in `color-relief-color`).
    case elevation
    /// Nothing, but it must not be folded at parse time (`error` throws when evaluated).
    case neverConstant
}

/// A compound operator: name, result type, signatures, dependency and evaluation, declared once.
struct CompoundOperator: Sendable {
    /// Evaluates the operator on its argument nodes; `key` locates the node in error messages.
    typealias Evaluate = @Sendable (_ args: [ExprNode], _ ctx: EvaluationContext, _ key: String)
        throws(ExpressionEvaluationError) -> Value

    let name: String
    let type: ExpressionType
    let overloads: [Signature]
    let reads: CompoundDependency
    /// The direct node for a call with one literal string argument (`["get", "name"]`), if any.
    let literalKeyForm: (@Sendable (String) -> ExprOp)?
    let evaluate: Evaluate

    /// Whether a call with `argumentCount` arguments reads the feature.
    func readsFeature(argumentCount: Int) -> Bool {
        switch reads {
        case .feature, .featureState: return true
        case .featureUnlessObjectGiven: return argumentCount == 1
        case .none, .zoom, .lineProgress, .heatmapDensity, .elevation, .neverConstant: return false
        }
    }
}

extension CompoundOperator {
    /// Every compound operator, by name.
    ///
    /// Long by design: it is the declaration table, one `define` (or `constant`/`unary`) per
    /// operator with its body beside its signature, so nothing about an operator lives elsewhere.
    static let all: [String: CompoundOperator] = {
        var table: [String: CompoundOperator] = [:]
        func define(_ name: String, _ type: ExpressionType, _ overloads: Signature..., reads: CompoundDependency = .none,
                    literalKeyForm: (@Sendable (String) -> ExprOp)? = nil, _ evaluate: @escaping Evaluate) {
            table[name] = CompoundOperator(name: name, type: type, overloads: overloads, reads: reads,
                                           literalKeyForm: literalKeyForm, evaluate: evaluate)
        }
        let n = ExpressionType.number, s = ExpressionType.string, b = ExpressionType.boolean

        // Types, colours and errors.
        define("error", .error, .fixed([s]), reads: .neverConstant) { args, ctx, key throws(ExpressionEvaluationError) in
            throw ExpressionEvaluationError(try args[0].evaluate(ctx).displayString, key: key)
        }
        define("image", .resolvedImage, .fixed([s])) { args, ctx, _ throws(ExpressionEvaluationError) in
            let name = try args[0].evaluate(ctx).displayString
            return name.isEmpty ? .null : .image(name)
        }
        define("is-supported-script", b, .fixed([s])) { args, ctx, _ throws(ExpressionEvaluationError) in
            // GL JS with the RTL plugin loaded: scripts that need complex shaping (Indic, Sinhala,
            // Tibetan, Myanmar, Khmer) are not; the first UTF-16 unit of each character decides.
            let text = try args[0].evaluate(ctx).displayString
            for scalar in text.unicodeScalars {
                let unit = scalar.value > 0xFFFF ? 0xD800 + ((scalar.value - 0x10000) >> 10) : scalar.value
                if (0x0900...0x0DFF).contains(unit) || (0x0F00...0x109F).contains(unit) || (0x1780...0x17FF).contains(unit) {
                    return .boolean(false)
                }
            }
            return .boolean(true)
        }
        define("typeof", s, .fixed([.value])) { args, ctx, _ throws(ExpressionEvaluationError) in
            .string(try args[0].evaluate(ctx).expressionType.description)
        }
        define("to-rgba", .array(n, length: 4), .fixed([.color])) { args, ctx, _ throws(ExpressionEvaluationError) in
            guard case .color(let c) = try args[0].evaluate(ctx) else { return .null }
            let s = c.straight
            return .array([.number(s.r * 255), .number(s.g * 255), .number(s.b * 255), .number(s.a)])
        }
        define("rgb", .color, .fixed([n, n, n])) { args, ctx, key throws(ExpressionEvaluationError) in
            try evaluateRGBA(args, ctx, key)
        }
        define("rgba", .color, .fixed([n, n, n, n])) { args, ctx, key throws(ExpressionEvaluationError) in
            try evaluateRGBA(args, ctx, key)
        }

        // The feature and the camera.
        define("has", b, .fixed([s]), .fixed([s, .object]), reads: .featureUnlessObjectGiven,
               literalKeyForm: { .hasProperty($0) }) { args, ctx, _ throws(ExpressionEvaluationError) in
            guard case .string(let k) = try args[0].evaluate(ctx) else { return .boolean(false) }
            if args.count == 2 {
                guard case .object(let o) = try args[1].evaluate(ctx) else { return .boolean(false) }
                return .boolean(o[k] != nil)
            }
            return .boolean(ctx.feature?.properties[k] != nil)
        }
        define("get", .value, .fixed([s]), .fixed([s, .object]), reads: .featureUnlessObjectGiven,
               literalKeyForm: { .getProperty($0) }) { args, ctx, _ throws(ExpressionEvaluationError) in
            guard case .string(let k) = try args[0].evaluate(ctx) else { return .null }
            if args.count == 2 {
                guard case .object(let o) = try args[1].evaluate(ctx) else { return .null }
                return o[k] ?? .null
            }
            return ctx.feature?.properties[k].map(Value.init(json:)) ?? .null
        }
        define("properties", .object, .fixed([]), reads: .feature) { _, ctx, _ throws(ExpressionEvaluationError) in
            guard let p = ctx.feature?.properties else { return .object([:]) }
            return Value(json: .object(p))
        }
        define("geometry-type", s, .fixed([]), reads: .feature) { _, ctx, _ throws(ExpressionEvaluationError) in
            ctx.feature?.geometryType.map(Value.string) ?? .null
        }
        define("id", .value, .fixed([]), reads: .feature) { _, ctx, _ throws(ExpressionEvaluationError) in
            ctx.feature?.id.map(Value.init(json:)) ?? .null
        }
        define("feature-state", .value, .fixed([s]), reads: .featureState) { args, ctx, _ throws(ExpressionEvaluationError) in
            guard case .string(let k) = try args[0].evaluate(ctx) else { return .null }
            return ctx.feature?.state[k].map(Value.init(json:)) ?? .null
        }
        define("zoom", n, .fixed([]), reads: .zoom) { _, ctx, _ throws(ExpressionEvaluationError) in
            guard let z = ctx.zoom else {
                throw ExpressionEvaluationError("The expression depends on zoom, but no zoom was given.")
            }
            return .number(z)
        }
        define("line-progress", n, .fixed([]), reads: .lineProgress) { _, ctx, _ throws(ExpressionEvaluationError) in
            .number(ctx.lineProgress ?? 0)
        }
        define("heatmap-density", n, .fixed([]), reads: .heatmapDensity) { _, ctx, _ throws(ExpressionEvaluationError) in
            .number(ctx.heatmapDensity ?? 0)
        }
        define("elevation", n, .fixed([]), reads: .elevation) { _, ctx, _ throws(ExpressionEvaluationError) in
            .number(ctx.elevation ?? 0)
        }
        // The value a cluster property has accumulated so far (clusterProperties' reduce step).
        define("accumulated", .value, .fixed([]), reads: .neverConstant) { _, ctx, _ throws(ExpressionEvaluationError) in
            ctx.accumulated.map(Value.init(json:)) ?? .null
        }

        // Arithmetic.
        define("+", n, .varargs(n)) { args, ctx, _ throws(ExpressionEvaluationError) in
            var sum = 0.0
            for i in args.indices { sum += try args.number(i, ctx) }
            return .number(sum)
        }
        define("*", n, .varargs(n)) { args, ctx, _ throws(ExpressionEvaluationError) in
            var product = 1.0
            for i in args.indices { product *= try args.number(i, ctx) }
            return .number(product)
        }
        define("-", n, .fixed([n, n]), .fixed([n])) { args, ctx, _ throws(ExpressionEvaluationError) in
            if args.count == 2 { return .number(try args.number(0, ctx) - args.number(1, ctx)) }
            return .number(-(try args.number(0, ctx)))
        }
        define("/", n, .fixed([n, n])) { args, ctx, _ throws(ExpressionEvaluationError) in
            .number(try args.number(0, ctx) / args.number(1, ctx))
        }
        define("%", n, .fixed([n, n])) { args, ctx, _ throws(ExpressionEvaluationError) in
            .number(try args.number(0, ctx).truncatingRemainder(dividingBy: args.number(1, ctx)))
        }
        define("^", n, .fixed([n, n])) { args, ctx, _ throws(ExpressionEvaluationError) in
            let base = try args.number(0, ctx), exponent = try args.number(1, ctx)
            if exponent.isNaN || (Swift.abs(base) == 1 && exponent.isInfinite) { return .number(.nan) }
            return .number(Foundation.pow(base, exponent))
        }
        func constant(_ name: String, _ value: Double) {
            define(name, n, .fixed([])) { _, _, _ throws(ExpressionEvaluationError) in .number(value) }
        }
        constant("ln2", M_LN2)
        constant("pi", Double.pi)
        constant("e", M_E)
        func unary(_ name: String, _ f: @escaping @Sendable (Double) -> Double) {
            define(name, n, .fixed([n])) { args, ctx, _ throws(ExpressionEvaluationError) in .number(f(try args.number(0, ctx))) }
        }
        unary("sqrt") { $0.squareRoot() }
        unary("log10") { Foundation.log($0) / M_LN10 }
        unary("ln") { Foundation.log($0) }
        unary("log2") { Foundation.log($0) / M_LN2 }
        unary("sin") { Foundation.sin($0) }
        unary("cos") { Foundation.cos($0) }
        unary("tan") { Foundation.tan($0) }
        unary("asin") { Foundation.asin($0) }
        unary("acos") { Foundation.acos($0) }
        unary("atan") { Foundation.atan($0) }
        unary("abs") { Swift.abs($0) }
        unary("round") { $0 < 0 ? -ColorSpaces.jsRound(-$0) : ColorSpaces.jsRound($0) }
        unary("floor") { $0.rounded(.down) }
        unary("ceil") { $0.rounded(.up) }
        define("min", n, .varargs(n)) { args, ctx, _ throws(ExpressionEvaluationError) in
            try extremum(args, ctx, smallest: true)
        }
        define("max", n, .varargs(n)) { args, ctx, _ throws(ExpressionEvaluationError) in
            try extremum(args, ctx, smallest: false)
        }

        // Logic.
        define("all", b, .fixed([b, b]), .varargs(b)) { args, ctx, _ throws(ExpressionEvaluationError) in
            for arg in args where !(try arg.evaluate(ctx).truthy) { return .boolean(false) }
            return .boolean(true)
        }
        define("any", b, .fixed([b, b]), .varargs(b)) { args, ctx, _ throws(ExpressionEvaluationError) in
            for arg in args where try arg.evaluate(ctx).truthy { return .boolean(true) }
            return .boolean(false)
        }
        define("!", b, .fixed([b])) { args, ctx, _ throws(ExpressionEvaluationError) in
            .boolean(!(try args[0].evaluate(ctx).truthy))
        }

        // Strings.
        define("upcase", s, .fixed([s])) { args, ctx, _ throws(ExpressionEvaluationError) in
            .string((try args[0].evaluate(ctx).string ?? "").uppercased())
        }
        define("downcase", s, .fixed([s])) { args, ctx, _ throws(ExpressionEvaluationError) in
            .string((try args[0].evaluate(ctx).string ?? "").lowercased())
        }
        define("concat", s, .varargs(.value)) { args, ctx, _ throws(ExpressionEvaluationError) in
            var out = ""
            for arg in args { out += try arg.evaluate(ctx).displayString }
            return .string(out)
        }
        return table
    }()

    /// `rgb` and `rgba`: channels checked as the specification's `validateRGBA`.
    private static func evaluateRGBA(_ args: [ExprNode], _ ctx: EvaluationContext, _ key: String) throws(ExpressionEvaluationError) -> Value {
        let r = try args[0].evaluate(ctx), g = try args[1].evaluate(ctx), b = try args[2].evaluate(ctx)
        let a: Value? = args.count == 4 ? try args[3].evaluate(ctx) : nil
        if let failure = ExprNode.validateRGBA(r, g, b, a) { throw ExpressionEvaluationError(failure, key: key) }
        return .color(Color(r: r.number! / 255, g: g.number! / 255, b: b.number! / 255, a: a?.number ?? 1))
    }

    /// `min` / `max`: NaN if any argument is NaN; -0 below +0 (JavaScript's `Math.min`/`max`).
    private static func extremum(_ args: [ExprNode], _ ctx: EvaluationContext, smallest: Bool) throws(ExpressionEvaluationError) -> Value {
        var result = smallest ? Double.infinity : -Double.infinity
        var sawNaN = false
        for i in args.indices {
            let v = try args.number(i, ctx)
            if v.isNaN { sawNaN = true; continue }
            if smallest ? (v < result || (v == 0 && result == 0 && v.sign == .minus))
                        : (v > result || (v == 0 && result == 0 && v.sign == .plus)) {
                result = v
            }
        }
        return .number(sawNaN ? .nan : result)
    }
}

extension Array where Element == ExprNode {
    /// Argument `i` evaluated as a number (NaN when it is not one).
    @inline(__always)
    func number(_ i: Int, _ ctx: EvaluationContext) throws(ExpressionEvaluationError) -> Double {
        try self[i].evaluate(ctx).number ?? .nan
    }
}
