import GLMapCore

/// Parsing of the operators with their own typing rules (the specification's "special forms").
extension ParsingContext {
    func parseComparison(_ op: ComparisonOp, _ args: [JSONValue]) -> ExprNode? {
        guard args.count == 3 || args.count == 4 else {
            error("Expected two or three arguments.")
            return nil
        }
        func comparable(_ t: ExpressionType) -> Bool {
            switch t {
            case .string, .number, .value: return true
            case .boolean, .null: return !op.isOrdering
            default: return false
            }
        }
        guard var lhs = parse(args[1], 1, .value) else { return nil }
        guard comparable(lhs.type) else {
            concat(1).error("\"\(op.rawValue)\" comparisons are not supported for type '\(lhs.type)'.")
            return nil
        }
        guard var rhs = parse(args[2], 2, .value) else { return nil }
        guard comparable(rhs.type) else {
            concat(2).error("\"\(op.rawValue)\" comparisons are not supported for type '\(rhs.type)'.")
            return nil
        }
        if !lhs.type.sameKind(rhs.type) && lhs.type != .value && rhs.type != .value {
            error("Cannot compare types '\(lhs.type)' and '\(rhs.type)'.")
            return nil
        }
        if op.isOrdering {
            if lhs.type == .value && rhs.type != .value {
                lhs = ExprNode(rhs.type, .assertion([lhs]), key: lhs.key)
            } else if lhs.type != .value && rhs.type == .value {
                rhs = ExprNode(lhs.type, .assertion([rhs]), key: rhs.key)
            }
        }
        if args.count == 4 {
            error("Collators are not supported by glmap.", 3)
            return nil
        }
        let untyped = lhs.type == .value || rhs.type == .value
        return ExprNode(.boolean, .comparison(op, lhs, rhs, untyped: untyped), key: key)
    }

    func parseAt(_ args: [JSONValue]) -> ExprNode? {
        guard hasArguments(args, 2) else { return nil }
        let index = parse(args[1], 1, .number)
        let input = parse(args[2], 2, .array(expectedType ?? .value, length: nil))
        guard let index, let input else { return nil }
        guard case .array(let item, _) = input.type else { return nil }
        return ExprNode(item, .at(index, input), key: key)
    }

    func parseIn(_ args: [JSONValue]) -> ExprNode? {
        guard hasArguments(args, 2), let (needle, haystack) = parseNeedleAndHaystack(args) else { return nil }
        return ExprNode(.boolean, .inOp(needle, haystack), key: key)
    }

    func parseIndexOf(_ args: [JSONValue]) -> ExprNode? {
        guard hasArguments(args, 2, 3), let (needle, haystack) = parseNeedleAndHaystack(args),
              let from = parseOptional(args, 3, .number) else { return nil }
        return ExprNode(.number, .indexOf(needle, haystack, from), key: key)
    }

    /// `in` and `index-of`: the needle (a boolean, string, number or null) and the haystack.
    private func parseNeedleAndHaystack(_ args: [JSONValue]) -> (ExprNode, ExprNode)? {
        let needle = parse(args[1], 1, .value)
        let haystack = parse(args[2], 2, .value)
        guard let needle, let haystack else { return nil }
        switch needle.type {
        case .boolean, .string, .number, .null, .value: return (needle, haystack)
        default:
            error("Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead")
            return nil
        }
    }

    func parseSlice(_ args: [JSONValue]) -> ExprNode? {
        guard hasArguments(args, 2, 3) else { return nil }
        let input = parse(args[1], 1, .value)
        let begin = parse(args[2], 2, .number)
        guard let input, let begin else { return nil }
        guard isArrayOrString(input.type, "Expected first argument to be of type array or string, but found \(input.type) instead"),
              let end = parseOptional(args, 3, .number) else { return nil }
        return ExprNode(input.type, .slice(input, begin, end), key: key)
    }

    func parseLength(_ args: [JSONValue]) -> ExprNode? {
        guard hasArguments(args, 1), let input = parse(args[1], 1) else { return nil }
        guard isArrayOrString(input.type, "Expected argument of type string or array, but found \(input.type) instead.") else { return nil }
        return ExprNode(.number, .length(input), key: key)
    }

    /// True unless the operator has another number of arguments than `counts` (then false, after
    /// the specification's "Expected 2 or 3 arguments, but found 1 instead.").
    private func hasArguments(_ args: [JSONValue], _ counts: Int...) -> Bool {
        let n = args.count - 1
        if counts.contains(n) { return true }
        let expected = counts.map(String.init).joined(separator: " or ")
        error("Expected \(expected) argument\(counts == [1] ? "" : "s"), but found \(n) instead.")
        return false
    }

    /// Argument `i` parsed as `type`: `.some(nil)` when it is not given, nil when it fails to parse.
    private func parseOptional(_ args: [JSONValue], _ i: Int, _ type: ExpressionType) -> ExprNode?? {
        guard i < args.count else { return .some(nil) }
        guard let node = parse(args[i], i, type) else { return nil }
        return .some(node)
    }

    /// Whether `type` may be an array or a string; otherwise false after `message`.
    private func isArrayOrString(_ type: ExpressionType, _ message: @autoclosure () -> String) -> Bool {
        switch type {
        case .array, .string, .value: return true
        default:
            error(message())
            return false
        }
    }

    /// The expected output type for branching forms: the context's, unless it is `value`.
    private var branchOutputType: ExpressionType? {
        if let t = expectedType, t != .value { return t }
        return nil
    }

    func parseCase(_ args: [JSONValue]) -> ExprNode? {
        guard args.count >= 4 else {
            error("Expected at least 3 arguments, but found only \(args.count - 1).")
            return nil
        }
        guard args.count % 2 == 0 else {
            error("Expected an odd number of arguments.")
            return nil
        }
        var outputType = branchOutputType
        var branches: [(ExprNode, ExprNode)] = []
        var i = 1
        while i < args.count - 1 {
            guard let test = parse(args[i], i, .boolean) else { return nil }
            guard let result = parse(args[i + 1], i + 1, outputType) else { return nil }
            branches.append((test, result))
            outputType = outputType ?? result.type
            i += 2
        }
        guard let otherwise = parse(args[args.count - 1], args.count - 1, outputType) else { return nil }
        return ExprNode(outputType ?? otherwise.type, .caseOp(branches, otherwise), key: key)
    }

    func parseMatch(_ args: [JSONValue]) -> ExprNode? {
        guard args.count >= 5 else {
            error("Expected at least 4 arguments, but found only \(args.count - 1).")
            return nil
        }
        guard args.count % 2 == 1 else {
            error("Expected an even number of arguments.")
            return nil
        }
        var inputType: ExpressionType?
        var outputType = branchOutputType
        var table = MatchTable(inputIsNumber: false)
        var seen = Set<String>()
        var outputs: [ExprNode] = []
        var i = 2
        while i < args.count - 1 {
            let labels: [JSONValue]
            if case .array(let a) = args[i] { labels = a } else { labels = [args[i]] }
            let labelContext = concat(i)
            if labels.isEmpty {
                labelContext.error("Expected at least one branch label.")
                return nil
            }
            for label in labels {
                let labelKey: String
                switch label {
                case .number(let n):
                    if Swift.abs(n) > 9007199254740991 {
                        labelContext.error("Branch labels must be integers no larger than 9007199254740991.")
                        return nil
                    }
                    if n.rounded(.down) != n {
                        labelContext.error("Numeric branch labels must be integer values.")
                        return nil
                    }
                    labelKey = Value.numberString(n)
                case .string(let s):
                    labelKey = s
                default:
                    labelContext.error("Branch labels must be numbers or strings.")
                    return nil
                }
                let labelType: ExpressionType = label.numberValue != nil ? .number : .string
                if let t = inputType {
                    if labelContext.checkSubtype(t, labelType) { return nil }
                } else {
                    inputType = labelType
                    table.inputIsNumber = labelType == .number
                }
                if seen.contains(labelKey) {
                    labelContext.error("Branch labels must be unique.")
                    return nil
                }
                seen.insert(labelKey)
                switch label {
                case .number(let n): table.numbers[n] = outputs.count
                case .string(let s): table.strings[s] = outputs.count
                default: break
                }
            }
            // Upstream parses the output with the label's index as its key.
            guard let result = parse(args[i + 1], i, outputType) else { return nil }
            outputType = outputType ?? result.type
            outputs.append(result)
            i += 2
        }
        guard let input = parse(args[1], 1, .value) else { return nil }
        guard let otherwise = parse(args[args.count - 1], args.count - 1, outputType) else { return nil }
        if input.type != .value, let t = inputType, concat(1).checkSubtype(t, input.type) { return nil }
        return ExprNode(outputType ?? otherwise.type, .match(table, input, outputs, otherwise), key: key)
    }

    func parseCoalesce(_ args: [JSONValue]) -> ExprNode? {
        guard args.count >= 2 else {
            error("Expected at least one argument.")
            return nil
        }
        var outputType = branchOutputType
        var parsed: [ExprNode] = []
        for arg in args.dropFirst() {
            guard let p = parse(arg, 1 + parsed.count, outputType, annotation: .omit) else { return nil }
            outputType = outputType ?? p.type
            parsed.append(p)
        }
        // Arguments were parsed without annotations (so a null can fall through); when one would
        // have needed one, the whole coalesce is typed `value` and gets annotated by its parent.
        let needsAnnotation = expectedType.map { e in parsed.contains { !e.isSupertype(of: $0.type) } } ?? false
        return ExprNode(needsAnnotation ? .value : (outputType ?? .value), .coalesce(parsed), key: key)
    }

    func parseStep(_ args: [JSONValue]) -> ExprNode? {
        guard args.count - 1 >= 4 else {
            error("Expected at least 4 arguments, but found only \(args.count - 1).")
            return nil
        }
        guard (args.count - 1) % 2 == 0 else {
            error("Expected an even number of arguments.")
            return nil
        }
        guard let input = parse(args[1], 1, .number) else { return nil }
        var outputType = branchOutputType
        var labels: [Double] = []
        var outputs: [ExprNode] = []
        var i = 1
        while i < args.count {
            let label: Double
            if i == 1 {
                label = -.infinity
            } else {
                guard case .number(let n) = args[i] else {
                    error("Input/output pairs for \"step\" expressions must be defined using literal numeric values (not computed expressions) for the input values.", i)
                    return nil
                }
                label = n
            }
            if let last = labels.last, last >= label {
                error("Input/output pairs for \"step\" expressions must be arranged with input values in strictly ascending order.", i)
                return nil
            }
            guard let parsed = parse(args[i + 1], i + 1, outputType) else { return nil }
            outputType = outputType ?? parsed.type
            labels.append(label)
            outputs.append(parsed)
            i += 2
        }
        return ExprNode(outputType ?? .value, .step(input, labels, outputs), key: key)
    }

    func parseInterpolate(_ op: String, _ args: [JSONValue]) -> ExprNode? {
        guard args.count > 1, case .array(let interpolationJSON) = args[1], !interpolationJSON.isEmpty else {
            error("Expected an interpolation type expression.", 1)
            return nil
        }
        let interpolation: Interpolation
        switch interpolationJSON[0] {
        case .string("linear"):
            interpolation = .linear
        case .string("exponential"):
            guard interpolationJSON.count > 1, case .number(let base) = interpolationJSON[1] else {
                error("Exponential interpolation requires a numeric base.", 1, 1)
                return nil
            }
            interpolation = .exponential(base: base)
        case .string("cubic-bezier"):
            let points = interpolationJSON.dropFirst().compactMap { $0.numberValue }
            guard interpolationJSON.count == 5, points.count == 4, points.allSatisfy({ $0 >= 0 && $0 <= 1 }) else {
                error("Cubic bezier interpolation requires four numeric arguments with values between 0 and 1.", 1)
                return nil
            }
            interpolation = .cubicBezier(UnitBezier(points[0], points[1], points[2], points[3]))
        default:
            let name: String
            switch interpolationJSON[0] {
            case .string(let s): name = s
            default: name = interpolationJSON[0].jsonText
            }
            error("Unknown interpolation type \(name)", 1, 0)
            return nil
        }
        guard args.count - 1 >= 4 else {
            error("Expected at least 4 arguments, but found only \(args.count - 1).")
            return nil
        }
        guard (args.count - 1) % 2 == 0 else {
            error("Expected an even number of arguments.")
            return nil
        }
        guard let input = parse(args[2], 2, .number) else { return nil }
        let space: ColorInterpolationSpace = op == "interpolate-hcl" ? .hcl : op == "interpolate-lab" ? .lab : .rgb
        var outputType: ExpressionType? = space != .rgb ? .color : branchOutputType
        var labels: [Double] = []
        var outputs: [ExprNode] = []
        var i = 3
        while i < args.count {
            guard case .number(let label) = args[i] else {
                error("Input/output pairs for \"interpolate\" expressions must be defined using literal numeric values (not computed expressions) for the input values.", i)
                return nil
            }
            if let last = labels.last, last >= label {
                error("Input/output pairs for \"interpolate\" expressions must be arranged with input values in strictly ascending order.", i)
                return nil
            }
            guard let parsed = parse(args[i + 1], i + 1, outputType) else { return nil }
            outputType = outputType ?? parsed.type
            labels.append(label)
            outputs.append(parsed)
            i += 2
        }
        let type = outputType ?? .value
        switch type {
        case .number, .color: break
        case .array(.number, let n) where n != nil: break
        default:
            error("Type \(type) is not interpolatable.")
            return nil
        }
        return ExprNode(type, .interpolate(space, interpolation, input, labels, outputs), key: key)
    }

    func parseLet(_ args: [JSONValue]) -> ExprNode? {
        guard args.count >= 4 else {
            error("Expected at least 3 arguments, but found \(args.count - 1) instead.")
            return nil
        }
        var bindings: [(String, ExprNode)] = []
        var i = 1
        while i < args.count - 1 {
            guard case .string(let name) = args[i] else {
                error("Expected string, but found \(ParsingContext.jsTypeof(args[i])) instead.", i)
                return nil
            }
            if name.unicodeScalars.contains(where: { !($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")) }) {
                error("Variable names must contain only alphanumeric characters or '_'.", i)
                return nil
            }
            guard let value = parse(args[i + 1], i + 1) else { return nil }
            bindings.append((name, value))
            i += 2
        }
        guard let result = parse(args[args.count - 1], args.count - 1, expectedType, bindings: bindings) else { return nil }
        return ExprNode(result.type, .letOp(bindings, result), key: key)
    }

    func parseVar(_ args: [JSONValue]) -> ExprNode? {
        guard args.count == 2, case .string(let name) = args[1] else {
            error("'var' expression requires exactly one string literal argument.")
            return nil
        }
        guard let bound = scope?.lookup(name) else {
            error("Unknown variable \"\(name)\". Make sure \"\(name)\" has been bound in an enclosing \"let\" expression before using it.", 1)
            return nil
        }
        return ExprNode(bound.type, .varRef(name, bound), key: key)
    }

    func parseWithin(_ args: [JSONValue]) -> ExprNode? {
        guard args.count == 2 else {
            error("'within' expression requires exactly one argument, but found \(args.count - 1) instead.")
            return nil
        }
        guard let region = WithinRegion(geoJSON: args[1]) else {
            error("'within' expression requires valid geojson object that contains polygon geometry type.")
            return nil
        }
        return ExprNode(.boolean, .within(region), key: key)
    }

    func parseGlobalState(_ args: [JSONValue]) -> ExprNode? {
        guard args.count == 2 else {
            error("Expected 1 argument, but found \(args.count - 1) instead.")
            return nil
        }
        switch args[1] {
        case .string(let name):
            return ExprNode(.value, .globalState(name), key: key)
        case .null:
            error("Global state property must be defined.")
        default:
            error("Global state property must be string, but found \(ParsingContext.jsTypeof(args[1])) instead.")
        }
        return nil
    }
}
