// Style expressions — contract
//
// Inputs:  a style-spec JSON value for a property (an expression array, a bare literal, or a legacy
//          function object `{"type", "stops", …}`) and the `PropertySpec` it is compiled for.
// Outputs: a `StyleExpression`: a typed tree, parsed and type-checked once, with every constant
//          sub-expression folded to a literal; `evaluate(_:)` gives a `Value` per feature and zoom.
// Invariants:
//  - Parsing, type checking, implicit assertions/coercions, constant folding, the zoom-curve rule and
//    the property permission checks follow maplibre-style-spec (expression/index.ts,
//    parsing_context.ts); a constant sub-expression that fails to evaluate is a compile error.
//  - Colours are premultiplied `Color`s; interpolation runs on straight components; `to-rgba` gives
//    straight 0…255 channels and 0…1 alpha.
//  - Evaluation has no fallback to a default: every failure is thrown as `ExpressionEvaluationError`
//    (callers such as layers decide on defaults). Filters turn failures into `false`.
//  - A compiled expression is immutable and may be evaluated from several threads at once.
// Limits: no `collator`, `format`, `image`, `number-format`, `distance`,
//         `split`/`join`; `within` works on unrounded Web Mercator
//         positions without antimeridian wrapping; object values do not keep key order, so
//         `to-string` of an object writes keys in JavaScript's integer-first, then sorted, order.

import GLMapCore

/// Compile errors: every rejected sub-expression with its index path (`""` is the root, `[1][0]` …).
public struct ExpressionErrors: Error, GLMapError {
    /// Every rejected sub-expression: its index path and the specification's message, in parse order.
    public var errors: [(key: String, message: String)]

    /// Creates the errors from (index path, message) pairs.
    public init(_ errors: [(key: String, message: String)]) { self.errors = errors }
    init(_ message: String, key: String = "") { self.errors = [(key, message)] }

    /// Always `.invalidInput`: an expression that does not compile is bad style input.
    public var kind: FailureKind { .invalidInput }

    /// The errors joined by `; `, each prefixed with its index path when it has one.
    public var description: String {
        errors.map { $0.key.isEmpty ? $0.message : "\($0.key): \($0.message)" }.joined(separator: "; ")
    }
}

/// A compiled style expression for one property. Immutable; safe to evaluate from several threads.
public final class StyleExpression: Sendable {
    let root: ExprNode

    /// The type of the root after implicit assertions/coercions ("number", "array<number, 2>", …).
    public let type: ExpressionType
    /// True when nothing in the expression reads the feature.
    public let isFeatureConstant: Bool
    /// True when the expression does not read the feature's state (`feature-state`).
    public let isStateConstant: Bool
    /// True when the expression does not read `zoom`.
    public let isZoomConstant: Bool
    /// True when the expression does not read `line-progress`.
    public let isLineProgressConstant: Bool
    /// The stop inputs of the top-level zoom curve (empty when zoom-constant).
    public let zoomStops: [Double]
    /// True when the zoom curve is an `interpolate` (false for `step` or no curve).
    public let zoomCurveInterpolates: Bool
    /// The top-level zoom curve's interpolation (nil for `step` or no curve).
    let zoomInterpolation: Interpolation?

    init(root: ExprNode, zoomCurve: ExprNode?) {
        self.root = root
        self.type = root.type
        self.isFeatureConstant = ExpressionAnalysis.isFeatureConstant(root)
        self.isStateConstant = ExpressionAnalysis.isStateConstant(root)
        self.isZoomConstant = ExpressionAnalysis.isGlobalPropertyConstant(root, zoom: true, lineProgress: false)
        self.isLineProgressConstant = ExpressionAnalysis.isGlobalPropertyConstant(root, zoom: false, lineProgress: true)
        switch zoomCurve?.op {
        case .step(_, let labels, _)?:
            zoomStops = labels; zoomCurveInterpolates = false; zoomInterpolation = nil
        case .interpolate(_, let interpolation, _, let labels, _)?:
            zoomStops = labels; zoomCurveInterpolates = true; zoomInterpolation = interpolation
        default:
            zoomStops = []; zoomCurveInterpolates = false; zoomInterpolation = nil
        }
    }

    /// How far `zoom` is from `lower` to `upper` along the zoom curve's interpolation (linear,
    /// exponential, cubic-bezier), clamped to 0…1; 0 for a `step` curve or none. MapLibre mixes a
    /// data-and-zoom ("composite") value between its values at the bracketing integer zooms by
    /// this factor.
    public func interpolationFactor(zoom: Double, lower: Double, upper: Double) -> Double {
        guard let i = zoomInterpolation, upper > lower else { return 0 }
        let t = i.factor(zoom, lower, upper)
        return t.isFinite ? Swift.min(1, Swift.max(0, t)) : 0
    }

    /// The stop inputs of the expression when its root is an `interpolate` (MapLibre's
    /// `Interpolate.labels`, which GL JS reads to build `color-relief-color`'s ramp); nil otherwise.
    public var interpolateStops: [Double]? {
        if case .interpolate(_, _, _, let labels, _) = root.op { return labels }
        return nil
    }

    /// Every expression operator glmap parses and evaluates (special forms and compound operators).
    public static var operators: Set<String> {
        ParsingContext.specialForms.union(CompoundOperator.all.keys)
    }

    /// The interpolation types `interpolate` accepts as its first argument.
    public static let interpolationTypes: Set<String> = ["linear", "exponential", "cubic-bezier"]

    /// Operators of the legacy filter syntax that are not expression operators.
    public static let legacyFilterOperators: Set<String> = ["!in", "!has", "none"]

    /// The value, when the whole expression folded to a constant.
    public var constantValue: Value? { root.literalValue }

    /// Compiles JSON (expression, literal, or legacy function object) for a property spec
    /// (nil spec = the harness default: data-driven, interpolated, zoom+feature, no type).
    public static func compile(_ json: JSONValue, spec: PropertySpec?) -> Result<StyleExpression, ExpressionErrors> {
        var expressionJSON = json
        if case .object(let function) = json {
            switch LegacyFunction.convert(function, spec: spec ?? PropertySpec(type: .value)) {
            case .success(let converted): expressionJSON = converted
            case .failure(let e): return .failure(e)
            }
        }
        var expected: ExpressionType?
        if let spec, case let t = ExpressionType(spec.type), t != .value { expected = t }
        if spec?.type == .colorArray { expected = .color }
        var context = ParsingContext(expectedType: expected)
        let coerced = spec.map { [.string, .formatted, .resolvedImage].contains($0.type) } ?? false
        let annotation: TypeAnnotation? = coerced ? .coerce : nil
        var parsed = context.parseHere(expressionJSON, annotation: annotation)
        if parsed == nil && spec?.type == .colorArray {
            // A colour (strings read as colours, zoom curves between colours) or else an array of them.
            let array = ParsingContext(expectedType: nil)
            if let root = array.parseHere(expressionJSON, annotation: nil) { context = array; parsed = root }
        }
        guard let root = parsed else {
            return .failure(ExpressionErrors(context.errors.list))
        }

        let featureConstant = ExpressionAnalysis.isFeatureConstant(root)
        if !featureConstant && !(spec?.featureAllowed ?? true) {
            return .failure(ExpressionErrors("data expressions not supported"))
        }
        let zoomConstant = ExpressionAnalysis.isGlobalPropertyConstant(root, zoom: true, lineProgress: false)
        if !zoomConstant && !(spec?.zoomAllowed ?? true) {
            return .failure(ExpressionErrors("zoom expressions not supported"))
        }
        var curveNode: ExprNode?
        switch ExpressionAnalysis.findZoomCurve(root) {
        case .error(let message):
            return .failure(ExpressionErrors(message))
        case .none:
            if !zoomConstant { return .failure(ExpressionErrors(ExpressionAnalysis.zoomPlacementMessage)) }
        case .curve(let node):
            curveNode = node
            if case .interpolate = node.op, !(spec?.interpolated ?? true) {
                return .failure(ExpressionErrors("\"interpolate\" expressions cannot be used with this property"))
            }
        }
        if let spec, !spec.lineProgressAllowed,
           !ExpressionAnalysis.isGlobalPropertyConstant(root, zoom: false, lineProgress: true) {
            return .failure(ExpressionErrors("\"line-progress\" may only be used with the line-gradient property"))
        }
        return .success(StyleExpression(root: root, zoomCurve: curveNode))
    }

    /// Evaluates for one feature and zoom; throws `ExpressionEvaluationError` (no default fallback).
    public func evaluate(_ context: EvaluationContext) throws(ExpressionEvaluationError) -> Value {
        try root.evaluate(context)
    }
}
