import GLMapCore

/// Errors collected while parsing; shared by every context derived from one parse.
final class ParseErrorList {
    var list: [(key: String, message: String)] = []
    var isEmpty: Bool { list.isEmpty }
}

/// `let` bindings visible to a sub-expression.
final class BindingScope {
    let parent: BindingScope?
    let bindings: [(String, ExprNode)]

    init(parent: BindingScope?, bindings: [(String, ExprNode)]) {
        self.parent = parent
        self.bindings = bindings
    }

    func lookup(_ name: String) -> ExprNode? {
        if let hit = bindings.last(where: { $0.0 == name }) { return hit.1 }
        return parent?.lookup(name)
    }
}

/// How an expected type is enforced when the parsed type is not statically known.
enum TypeAnnotation {
    /// A run-time assertion (`number`, `string`, …).
    case assert
    /// A converting coercion (`to-string`, `to-color`, …).
    case coerce
    /// Nothing (used by `coalesce`, which annotates itself).
    case omit
}

/// State while parsing one point of an expression tree: its index path, expected type, bindings.
struct ParsingContext {
    var path: [Int]
    var key: String
    var scope: BindingScope?
    var expectedType: ExpressionType?
    let errors: ParseErrorList

    init(path: [Int] = [], expectedType: ExpressionType? = nil, scope: BindingScope? = nil,
         errors: ParseErrorList = ParseErrorList()) {
        self.path = path
        self.key = path.map { "[\($0)]" }.joined()
        self.scope = scope
        self.expectedType = expectedType
        self.errors = errors
    }

    /// A context for the child at `index` (nil keeps this path), with its own expected type.
    func concat(_ index: Int?, _ expected: ExpressionType? = nil, bindings: [(String, ExprNode)]? = nil) -> ParsingContext {
        let newPath = index.map { path + [$0] } ?? path
        let newScope = bindings.map { BindingScope(parent: scope, bindings: $0) } ?? scope
        return ParsingContext(path: newPath, expectedType: expected, scope: newScope, errors: errors)
    }

    /// Records an error at this node, or at a child of it (`keys` are further indices).
    func error(_ message: String, _ keys: Int...) {
        errors.list.append((key + keys.map { "[\($0)]" }.joined(), message))
    }

    /// Records a subtype mismatch; returns true when there was one.
    @discardableResult
    func checkSubtype(_ expected: ExpressionType, _ actual: ExpressionType) -> Bool {
        if let message = expected.subtypeError(actual) {
            error(message)
            return true
        }
        return false
    }

    /// Parses the argument at `index` with an expected type (index 0 parses in this context, as upstream).
    func parse(_ json: JSONValue, _ index: Int, _ expected: ExpressionType? = nil,
               bindings: [(String, ExprNode)]? = nil, annotation: TypeAnnotation? = nil) -> ExprNode? {
        if index != 0 {
            return concat(index, expected, bindings: bindings).parseHere(json, annotation: annotation)
        }
        return parseHere(json, annotation: annotation)
    }

    /// Parses `json` at this context: dispatch, type annotation, constant folding.
    func parseHere(_ json: JSONValue, annotation: TypeAnnotation? = nil) -> ExprNode? {
        let array: [JSONValue]
        switch json {
        case .null, .bool, .number, .string:
            array = ["literal", json]
        case .array(let a):
            array = a
        case .object:
            error("Bare objects invalid. Use [\"literal\", {...}] instead.")
            return nil
        }
        guard let first = array.first else {
            error("Expected an array with at least one element. If you wanted a literal array, use [\"literal\", []].")
            return nil
        }
        guard case .string(let op) = first else {
            error("Expression name must be a string, but found \(ParsingContext.jsTypeof(first)) instead. If you wanted a literal array, use [\"literal\", [...]].", 0)
            return nil
        }
        guard ParsingContext.isKnownOperator(op) else {
            error("Unknown expression \"\(op)\". If you wanted a literal array, use [\"literal\", [...]].", 0)
            return nil
        }
        guard var parsed = parseOperator(op, array) else { return nil }

        if let expected = expectedType {
            let actual = parsed.type
            let assertable: Bool
            switch expected {
            case .string, .number, .boolean, .object, .array: assertable = true
            default: assertable = false
            }
            if assertable && actual == .value {
                parsed = annotate(parsed, expected, annotation ?? .assert)
            } else if (expected == .color || expected == .formatted || expected == .resolvedImage) && (actual == .value || actual == .string) {
                parsed = annotate(parsed, expected, annotation ?? .coerce)
            } else if checkSubtype(expected, actual) {
                return nil
            }
        }

        if !parsed.isLiteral && ExpressionAnalysis.isConstant(parsed) {
            do {
                let value = try parsed.evaluate(EvaluationContext())
                parsed = ExprNode(parsed.type, .literal(value), key: key)
            } catch {
                self.error(error.message)
                return nil
            }
        }
        return parsed
    }

    private func annotate(_ node: ExprNode, _ type: ExpressionType, _ how: TypeAnnotation) -> ExprNode {
        switch how {
        case .assert: return ExprNode(type, .assertion([node]), key: key)
        case .coerce: return ExprNode(type, .coercion([node]), key: key)
        case .omit: return node
        }
    }

    /// JavaScript's `typeof` for a JSON value.
    static func jsTypeof(_ v: JSONValue) -> String {
        switch v {
        case .null, .array, .object: return "object"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        }
    }

    static let specialForms: Set<String> = [
        "==", "!=", ">", "<", ">=", "<=", "array", "at", "boolean", "case", "coalesce", "in", "index-of",
        "interpolate", "interpolate-hcl", "interpolate-lab", "length", "let", "literal", "match", "number",
        "object", "slice", "step", "string", "to-boolean", "to-color", "to-number", "to-string", "var",
        "within", "global-state", "format",
    ]

    static func isKnownOperator(_ op: String) -> Bool {
        specialForms.contains(op) || CompoundOperator.all[op] != nil
    }

    private func parseOperator(_ op: String, _ args: [JSONValue]) -> ExprNode? {
        switch op {
        case "literal": return parseLiteral(args)
        case "array", "boolean", "number", "string", "object": return parseAssertion(op, args)
        case "to-boolean", "to-color", "to-number", "to-string": return parseCoercion(op, args)
        case "==", "!=", ">", "<", ">=", "<=": return parseComparison(ComparisonOp(rawValue: op)!, args)
        case "at": return parseAt(args)
        case "in": return parseIn(args)
        case "index-of": return parseIndexOf(args)
        case "slice": return parseSlice(args)
        case "length": return parseLength(args)
        case "case": return parseCase(args)
        case "match": return parseMatch(args)
        case "coalesce": return parseCoalesce(args)
        case "step": return parseStep(args)
        case "interpolate", "interpolate-hcl", "interpolate-lab": return parseInterpolate(op, args)
        case "let": return parseLet(args)
        case "var": return parseVar(args)
        case "within": return parseWithin(args)
        case "global-state": return parseGlobalState(args)
        case "format": return parseFormat(args)
        default: return parseCompound(op, args)
        }
    }

    // MARK: format

    /// `["format", content, options?, content, options?, …]`: text (or image) sections with
    /// `font-scale`, `text-font`, `text-color` and `vertical-align` options (MapLibre's
    /// `FormatExpression.parse`).
    private func parseFormat(_ args: [JSONValue]) -> ExprNode? {
        guard args.count >= 2 else {
            error("Expected at least one argument.")
            return nil
        }
        if case .object = args[1] {
            error("First argument must be an image or text section.")
            return nil
        }
        var sections: [FormatSectionNode] = []
        var nextTokenMayBeObject = false
        var i = 1
        while i < args.count {
            let arg = args[i]
            if nextTokenMayBeObject, case .object(let options) = arg {
                nextTokenMayBeObject = false
                var scale: ExprNode?, font: ExprNode?, color: ExprNode?, align: ExprNode?
                if let v = options["font-scale"] {
                    guard let p = parse(v, 1, .number) else { return nil }
                    scale = p
                }
                if let v = options["text-font"] {
                    guard let p = parse(v, 1, .array(.string, length: nil)) else { return nil }
                    font = p
                }
                if let v = options["text-color"] {
                    guard let p = parse(v, 1, .color) else { return nil }
                    color = p
                }
                if let v = options["vertical-align"] {
                    if case .string(let a) = v, !["bottom", "center", "top"].contains(a) {
                        error("'vertical-align' must be one of: 'bottom', 'center', 'top' but found '\(a)' instead.")
                        return nil
                    }
                    guard let p = parse(v, 1, .string) else { return nil }
                    align = p
                }
                let last = sections.removeLast()
                sections.append(FormatSectionNode(content: last.content, scale: scale, font: font, color: color, verticalAlign: align))
            } else {
                guard let content = parse(arg, 1, .value) else { return nil }
                switch content.type {
                case .string, .value, .null, .resolvedImage: break
                default:
                    error("Formatted text type must be 'string', 'value', 'image' or 'null'.")
                    return nil
                }
                nextTokenMayBeObject = true
                sections.append(FormatSectionNode(content: content, scale: nil, font: nil, color: nil, verticalAlign: nil))
            }
            i += 1
        }
        return ExprNode(.formatted, .format(sections), key: key)
    }

    // MARK: literal, assertions, coercions

    private func parseLiteral(_ args: [JSONValue]) -> ExprNode? {
        guard args.count == 2 else {
            error("'literal' expression requires exactly one argument, but found \(args.count - 1) instead.")
            return nil
        }
        let value = Value(json: args[1])
        var type = value.expressionType
        // An empty array takes the expected array type when that has no other length.
        if case .array(_, 0) = type, case .array(_, let n)? = expectedType, n == nil || n == 0 {
            type = expectedType!
        }
        return ExprNode(type, .literal(value), key: key)
    }

    private func parseAssertion(_ name: String, _ args: [JSONValue]) -> ExprNode? {
        guard args.count >= 2 else {
            error("Expected at least one argument.")
            return nil
        }
        var i = 1
        let type: ExpressionType
        if name == "array" {
            var itemType = ExpressionType.value
            if args.count > 2 {
                switch args[1] {
                case .string("string"): itemType = .string
                case .string("number"): itemType = .number
                case .string("boolean"): itemType = .boolean
                default:
                    error("The item type argument of \"array\" must be one of string, number, boolean", 1)
                    return nil
                }
                i += 1
            }
            var length: Int?
            if args.count > 3 {
                switch args[2] {
                case .null: break
                case .number(let n) where n >= 0 && n == n.rounded(.down) && n < 1e15:
                    length = Int(n)
                default:
                    error("The length argument to \"array\" must be a positive integer literal", 2)
                    return nil
                }
                i += 1
            }
            type = .array(itemType, length: length)
        } else {
            switch name {
            case "string": type = .string
            case "number": type = .number
            case "boolean": type = .boolean
            default: type = .object
            }
        }
        guard let parsed = parseValues(args, from: i) else { return nil }
        return ExprNode(type, .assertion(parsed), key: key)
    }

    private func parseCoercion(_ name: String, _ args: [JSONValue]) -> ExprNode? {
        guard args.count >= 2 else {
            error("Expected at least one argument.")
            return nil
        }
        if (name == "to-boolean" || name == "to-string") && args.count != 2 {
            error("Expected one argument.")
            return nil
        }
        let type: ExpressionType
        switch name {
        case "to-boolean": type = .boolean
        case "to-color": type = .color
        case "to-number": type = .number
        default: type = .string
        }
        guard let parsed = parseValues(args, from: 1) else { return nil }
        return ExprNode(type, .coercion(parsed), key: key)
    }

    /// Arguments `start…` parsed as values; nil when one fails.
    private func parseValues(_ args: [JSONValue], from start: Int) -> [ExprNode]? {
        var parsed: [ExprNode] = []
        for i in stride(from: start, to: args.count, by: 1) {
            guard let input = parse(args[i], i, .value) else { return nil }
            parsed.append(input)
        }
        return parsed
    }

    // MARK: compound operators

    private func parseCompound(_ name: String, _ args: [JSONValue]) -> ExprNode? {
        guard let definition = CompoundOperator.all[name] else { return nil }
        let argc = args.count - 1
        let overloads = definition.overloads.filter {
            if case .fixed(let p) = $0 { return p.count == argc }
            return true
        }
        var lastErrors = ParseErrorList()
        for signature in overloads {
            // A fresh error list per signature, so a later success is not polluted.
            let signatureContext = ParsingContext(path: path, expectedType: nil, scope: scope, errors: ParseErrorList())
            lastErrors = signatureContext.errors
            var parsedArgs: [ExprNode] = []
            var failed = false
            for i in stride(from: 1, to: args.count, by: 1) {
                guard let p = signatureContext.parse(args[i], 1 + parsedArgs.count, signature.parameter(i - 1)) else {
                    failed = true
                    break
                }
                parsedArgs.append(p)
            }
            if failed { continue }
            if case .fixed(let params) = signature, params.count != parsedArgs.count {
                signatureContext.error("Expected \(params.count) arguments, but found \(parsedArgs.count) instead.")
                continue
            }
            for (i, arg) in parsedArgs.enumerated() {
                signatureContext.concat(i + 1).checkSubtype(signature.parameter(i), arg.type)
            }
            if signatureContext.errors.isEmpty {
                return makeCompound(definition, parsedArgs)
            }
        }
        if overloads.count == 1 {
            errors.list.append(contentsOf: lastErrors.list)
        } else {
            let listed = overloads.isEmpty ? definition.overloads : overloads
            let signatures = listed.map { $0.description }.joined(separator: " | ")
            var actualTypes: [String] = []
            for i in stride(from: 1, to: args.count, by: 1) {
                guard let p = parse(args[i], 1 + actualTypes.count) else { return nil }
                actualTypes.append(p.type.description)
            }
            error("Expected arguments of type \(signatures), but found (\(actualTypes.joined(separator: ", "))) instead.")
        }
        return nil
    }

    private func makeCompound(_ definition: CompoundOperator, _ args: [ExprNode]) -> ExprNode {
        // Direct property reads for the common `["get", "name"]` / `["has", "name"]`.
        if args.count == 1, case .string(let name)? = args[0].literalValue, let direct = definition.literalKeyForm {
            return ExprNode(definition.type, direct(name), key: key)
        }
        return ExprNode(definition.type, .compound(definition, args), key: key)
    }
}
