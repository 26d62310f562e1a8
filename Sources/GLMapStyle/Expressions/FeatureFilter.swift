import GLMapCore
import GLMapGeoJSON

/// A layer filter: a legacy filter (`["==", "$type", "Polygon"]`, `["in", "class", "a", "b"]`, …)
/// or an expression filter, told apart by MapLibre's `isExpressionFilter` rule.
///
/// Legacy filters are evaluated directly (strict JavaScript comparisons, a missing property matches
/// nothing, `$type` folds Multi* types into their base type). Expression filters are compiled as
/// boolean expressions; an evaluation error or a null result counts as `false`, as in MapLibre.
public struct FeatureFilter: Sendable {
    enum Kind: Sendable {
        case legacy(LegacyFilter)
        case expression(ExprNode)
    }

    let kind: Kind

    /// True when the filter needs feature geometry (it uses `within`).
    public let needsGeometry: Bool
    /// True when the result does not depend on the feature.
    public let isFeatureConstant: Bool
    /// True when the result does not depend on zoom.
    public let isZoomConstant: Bool
    /// For a legacy filter that reads nothing of the feature but its `$type`: its result for
    /// Point, LineString and Polygon (in that order), so tiles can filter without a context.
    let typeOnlyResults: [Bool]?

    /// The filter that accepts every feature (a layer without `filter`).
    public static let passAll = FeatureFilter(kind: .legacy(.constant(true)), needsGeometry: false,
                                              isFeatureConstant: true, isZoomConstant: true)

    init(kind: Kind, needsGeometry: Bool, isFeatureConstant: Bool, isZoomConstant: Bool) {
        (self.kind, self.needsGeometry, self.isFeatureConstant) = (kind, needsGeometry, isFeatureConstant)
        self.isZoomConstant = isZoomConstant
        if case .legacy(let f) = kind, f.readsTypeOnly {
            typeOnlyResults = [FeatureGeometryType.point, .lineString, .polygon].map {
                f.evaluate(EvaluationContext(feature: FeatureContext(geometryType: $0.rawValue)))
            }
        } else {
            typeOnlyResults = nil
        }
    }

    /// The filter's result for a feature of type `t` when it reads nothing else of the feature
    /// (a legacy `$type` filter); nil when it must be evaluated with the feature.
    @inline(__always)
    public func result(forTypeOnly t: FeatureGeometryType) -> Bool? {
        guard let r = typeOnlyResults else { return nil }
        switch t {
        case .point: return r[0]
        case .lineString: return r[1]
        case .polygon: return r[2]
        }
    }

    /// Legacy filter or expression filter (MapLibre's isExpressionFilter rule decides which).
    public static func compile(_ json: JSONValue) -> Result<FeatureFilter, ExpressionErrors> {
        if json.isNull { return .success(passAll) }
        if case .array(let a) = json, a.first == "none", isExpressionFilter(json) {
            // "none" is not an expression operator: it negates each (expression) child.
            if let mixed = findMixedLegacyFilter(json) { return .failure(mixedError(mixed)) }
            let negated: [JSONValue] = ["all"] + a.dropFirst().map { ["!", $0] }
            return compileExpression(.array(negated))
        }
        if !isExpressionFilter(json) {
            let problems = LegacyFilterValidation.problems(json)
            if !problems.isEmpty { return .failure(ExpressionErrors(problems)) }
            do {
                let legacy = try LegacyFilter(json)
                return .success(FeatureFilter(kind: .legacy(legacy), needsGeometry: false,
                                              isFeatureConstant: legacy.isFeatureConstant, isZoomConstant: true))
            } catch let e as ExpressionErrors {
                return .failure(e)
            } catch {
                return .failure(ExpressionErrors("\(error)"))
            }
        }
        if let mixed = findMixedLegacyFilter(json) { return .failure(mixedError(mixed)) }
        return compileExpression(json)
    }

    private static func compileExpression(_ json: JSONValue) -> Result<FeatureFilter, ExpressionErrors> {
        let context = ParsingContext(expectedType: .boolean)
        guard let root = context.parseHere(json) else { return .failure(ExpressionErrors(context.errors.list)) }
        if !ExpressionAnalysis.isStateConstant(root) {
            return .failure(ExpressionErrors("\"feature-state\" data expressions are not supported with filters."))
        }
        return .success(FeatureFilter(kind: .expression(root), needsGeometry: readsGeometry(root),
                                      isFeatureConstant: ExpressionAnalysis.isFeatureConstant(root),
                                      isZoomConstant: ExpressionAnalysis.isGlobalPropertyConstant(root, zoom: true, lineProgress: false)))
    }

    /// Whether an expression reads the feature's geometry (`within`).
    static func readsGeometry(_ node: ExprNode) -> Bool {
        if case .within = node.op { return true }
        if case .varRef(_, let bound) = node.op { return readsGeometry(bound) }
        var found = false
        node.forEachChild { if !found && readsGeometry($0) { found = true } }
        return found
    }

    /// Whether the feature passes; evaluation errors give `false`.
    public func evaluate(_ context: EvaluationContext) -> Bool {
        switch kind {
        case .legacy(let filter):
            return filter.evaluate(context)
        case .expression(let root):
            guard let v = try? root.evaluate(context) else { return false }
            if case .boolean(let b) = v { return b }
            return false
        }
    }

    // MARK: telling legacy and expression filters apart

    /// MapLibre's `isExpressionFilter`.
    static func isExpressionFilter(_ filter: JSONValue) -> Bool {
        if case .bool = filter { return true }
        guard case .array(let f) = filter, let first = f.first else { return false }
        func isArray(_ i: Int) -> Bool { i < f.count && f[i].arrayValue != nil }
        switch first {
        case "has":
            return f.count >= 2 && f[1] != "$id" && f[1] != "$type"
        case "in":
            return f.count >= 3 && (f[1].stringValue == nil || isArray(2))
        case "!in", "!has":
            return false
        case "==", "!=", ">", ">=", "<", "<=":
            return f.count != 3 || isArray(1) || isArray(2)
        case "none":
            for child in f.dropFirst() {
                if case .bool = child { continue }
                if isExpressionFilter(child) && !isLegacyHas(child) { return true }
            }
            return false
        case "any", "all":
            // An expression when every child is one (MapLibre's rule); a child that can only be an
            // expression also makes it one, so a legacy sibling is reported as mixing. `["has", k]`
            // reads the same in both syntaxes, so beside legacy siblings it is legacy.
            var hasLegacy = false
            for child in f.dropFirst() {
                if case .bool = child { continue }
                if isLegacyHas(child) { continue }
                if isExpressionFilter(child) { return true }
                hasLegacy = true
            }
            return !hasLegacy
        default:
            return true
        }
    }

    /// `["has", key]` with a string key: the same filter in legacy and expression syntax.
    static func isLegacyHas(_ filter: JSONValue) -> Bool {
        guard case .array(let f) = filter, f.count == 2, f[0] == "has", let key = f[1].stringValue else { return false }
        return key != "$id" && key != "$type"
    }

    /// A legacy filter nested inside an expression's `all`/`any`/`none`/`!`/`case` conditions.
    static func findMixedLegacyFilter(_ filter: JSONValue) -> JSONValue? {
        guard case .array(let f) = filter, let op = f.first?.stringValue else { return nil }
        func check(_ i: Int) -> JSONValue? {
            guard i < f.count, case .array = f[i] else { return nil }
            if !isExpressionFilter(f[i]) { return f[i] }
            return findMixedLegacyFilter(f[i])
        }
        switch op {
        case "all", "any", "none":
            for i in stride(from: 1, to: f.count, by: 1) { if let m = check(i) { return m } }
        case "!":
            return check(1)
        case "case":
            for i in stride(from: 1, to: max(1, f.count - 1), by: 2) { if let m = check(i) { return m } }
        default:
            break
        }
        return nil
    }

    private static func mixedError(_ legacy: JSONValue) -> ExpressionErrors {
        ExpressionErrors("Mixing deprecated filter syntax with expression syntax is not supported. Convert \(legacy.jsonText) to expression syntax.")
    }
}

/// A pre-expression filter, evaluated directly with MapLibre's legacy semantics.
indirect enum LegacyFilter: Sendable {
    /// What a comparison reads: a property, the feature id (`$id`) or the geometry type (`$type`).
    enum Subject: Sendable {
        case property(String)
        case id
        case type
    }

    case constant(Bool)
    case compare(ComparisonOp, Subject, JSONValue)
    case isIn(Subject, [JSONValue])
    case has(Subject)
    case not(LegacyFilter)
    case all([LegacyFilter])
    case any([LegacyFilter])

    /// Converts filter JSON; booleans and unknown operators pass everything, as upstream.
    init(_ json: JSONValue) throws {
        guard case .array(let f) = json, let first = f.first else {
            // A non-array (null, a boolean inside a legacy "all") converts to `true` upstream.
            self = .constant(true)
            return
        }
        guard case .string(let op) = first else { self = .constant(true); return }
        if f.count <= 1 {
            self = .constant(op != "any")
            return
        }
        func subject(_ v: JSONValue) throws -> Subject {
            switch v {
            case "$id": return .id
            case "$type": return .type
            case .string(let s): return .property(s)
            default: throw ExpressionErrors("A legacy filter's key must be a string, found \(v.jsonText).", key: "[1]")
            }
        }
        switch op {
        case "==", "!=", "<", "<=", ">", ">=":
            let s = try subject(f[1])
            let value = f.count > 2 ? f[2] : .null
            let cmp = ComparisonOp(rawValue: op)!
            if case .type = s, cmp.isOrdering {
                throw ExpressionErrors("\"$type\" cannot be use with operator \"\(op)\"")
            }
            if cmp == .ne {
                self = .not(.compare(.eq, s, value))
            } else {
                self = .compare(cmp, s, value)
            }
        case "all":
            self = .all(try f.dropFirst().map { try LegacyFilter($0) })
        case "any":
            self = .any(try f.dropFirst().map { try LegacyFilter($0) })
        case "none":
            self = .all(try f.dropFirst().map { .not(try LegacyFilter($0)) })
        case "in", "!in":
            let s = try subject(f[1])
            let values = Array(f.dropFirst(2))
            let filter: LegacyFilter = values.isEmpty ? .constant(false) : .isIn(s, values)
            self = op == "in" ? filter : .not(filter)
        case "has", "!has":
            let s = try subject(f[1])
            let filter: LegacyFilter
            if case .type = s { filter = .constant(true) } else { filter = .has(s) }
            self = op == "has" ? filter : .not(filter)
        default:
            self = .constant(true)
        }
    }

    var isFeatureConstant: Bool {
        switch self {
        case .constant: return true
        case .not(let f): return f.isFeatureConstant
        case .all(let fs), .any(let fs): return fs.allSatisfy { $0.isFeatureConstant }
        default: return false
        }
    }

    /// Whether the filter reads nothing of the feature but `$type`.
    var readsTypeOnly: Bool {
        switch self {
        case .constant: return true
        case .compare(_, let s, _), .isIn(let s, _), .has(let s):
            if case .type = s { return true }
            return false
        case .not(let f): return f.readsTypeOnly
        case .all(let fs), .any(let fs): return fs.allSatisfy { $0.readsTypeOnly }
        }
    }

    /// The value a subject reads; nil for a missing property (JavaScript's `undefined`).
    @inline(__always)
    private static func read(_ s: Subject, _ ctx: EvaluationContext) -> JSONValue? {
        switch s {
        case .property(let k): return ctx.feature?.properties[k]
        case .id: return ctx.feature?.id ?? .null
        case .type: return ctx.feature?.dollarType.map(JSONValue.string) ?? .null
        }
    }

    func evaluate(_ ctx: EvaluationContext) -> Bool {
        switch self {
        case .constant(let b):
            return b
        case .compare(let op, let s, let value):
            guard let a = LegacyFilter.read(s, ctx) else { return false }
            return LegacyFilter.compare(op, a, value)
        case .isIn(let s, let values):
            guard let a = LegacyFilter.read(s, ctx) else { return false }
            for v in values where LegacyFilter.compare(.eq, a, v) { return true }
            return false
        case .has(let s):
            switch s {
            case .property(let k): return ctx.feature?.properties[k] != nil
            case .id: return !(ctx.feature?.id ?? .null).isNull
            case .type: return true
            }
        case .not(let f):
            return !f.evaluate(ctx)
        case .all(let fs):
            for f in fs where !f.evaluate(ctx) { return false }
            return true
        case .any(let fs):
            for f in fs where f.evaluate(ctx) { return true }
            return false
        }
    }

    /// The same result as `evaluate(_:)` for a tile feature, read straight from its parts (its
    /// type, id and properties) without building an evaluation context: a tile's features are
    /// filtered by every layer of their source layer, and most fail.
    func evaluate(tileType: FeatureGeometryType, id: JSONValue?, properties: JSONObject) -> Bool {
        switch self {
        case .constant(let b):
            return b
        case .compare(let op, let s, let value):
            guard let a = LegacyFilter.read(s, tileType, id, properties) else { return false }
            return LegacyFilter.compare(op, a, value)
        case .isIn(let s, let values):
            guard let a = LegacyFilter.read(s, tileType, id, properties) else { return false }
            for v in values where LegacyFilter.compare(.eq, a, v) { return true }
            return false
        case .has(let s):
            switch s {
            case .property(let k): return properties[k] != nil
            case .id: return !(id ?? .null).isNull
            case .type: return true
            }
        case .not(let f):
            return !f.evaluate(tileType: tileType, id: id, properties: properties)
        case .all(let fs):
            for f in fs where !f.evaluate(tileType: tileType, id: id, properties: properties) { return false }
            return true
        case .any(let fs):
            for f in fs where f.evaluate(tileType: tileType, id: id, properties: properties) { return true }
            return false
        }
    }

    /// What a subject reads of a tile feature (tile features have no Multi* types).
    @inline(__always)
    private static func read(_ s: Subject, _ type: FeatureGeometryType, _ id: JSONValue?, _ properties: JSONObject) -> JSONValue? {
        switch s {
        case .property(let k): return properties[k]
        case .id: return id ?? .null
        case .type: return .string(type.rawValue)
        }
    }

    /// `typeof a === typeof b && a OP b` (strict equality for `==`), on JSON values.
    static func compare(_ op: ComparisonOp, _ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return op.apply(x, y)
        case (.string(let x), .string(let y)):
            return op.applyUTF16(x, y)
        case (.bool(let x), .bool(let y)):
            return op.apply(x ? 1 : 0, y ? 1 : 0)
        case (.null, .null):
            // JavaScript: null === null, null <= null and null >= null are true; < and > are false.
            return op == .eq || op == .le || op == .ge
        default:
            return op == .ne
        }
    }
}
