import Foundation
import GLMapCore

/// Run-time evaluation of a compiled tree. Errors are typed, so nothing is boxed on the hot path.
extension ExprNode {
    func evaluate(_ ctx: EvaluationContext) throws(ExpressionEvaluationError) -> Value {
        switch op {
        case .literal(let v):
            return v
        case .getProperty(let name):
            guard let v = ctx.feature?.properties[name] else { return .null }
            return Value(json: v)
        case .hasProperty(let name):
            return .boolean(ctx.feature?.properties[name] != nil)
        case .assertion(let args):
            return try assert(args, ctx)
        case .coercion(let args):
            return try coerce(args, ctx)
        case .format(let sections):
            var out: [Formatted.Section] = []
            for section in sections {
                let content = try section.content.evaluate(ctx)
                let align = try section.verticalAlign?.evaluate(ctx).string
                if case .image(let name) = content {
                    var image = Formatted.Section(text: "")
                    image.image = name
                    image.verticalAlign = align
                    out.append(image)
                    continue
                }
                var text = Formatted.Section(text: content.displayString)
                text.scale = try section.scale?.evaluate(ctx).number
                text.fontStack = try section.font?.evaluate(ctx).array?.compactMap(\.string)
                text.textColor = try section.color?.evaluate(ctx).color
                text.verticalAlign = align
                out.append(text)
            }
            return .formatted(Formatted(sections: out))
        case .compound(let op, let args):
            return try op.evaluate(args, ctx, key)
        case .comparison(let op, let lhs, let rhs, let untyped):
            let l = try lhs.evaluate(ctx)
            let r = try rhs.evaluate(ctx)
            return .boolean(try ExprNode.compare(op, l, r, untyped: untyped))
        case .at(let index, let input):
            return try ExprNode.element(at: index.evaluate(ctx).number ?? .nan, of: input.evaluate(ctx).array ?? [])
        case .inOp(let needle, let haystack):
            return try ExprNode.contains(needle.evaluate(ctx), in: haystack.evaluate(ctx))
        case .indexOf(let needleNode, let haystackNode, let from):
            let needle = try needleNode.evaluate(ctx), haystack = try haystackNode.evaluate(ctx)
            try ExprNode.checkNeedle(needle)   // before `from` is evaluated
            return try ExprNode.index(of: needle, in: haystack,
                                      from: from.map { n throws(ExpressionEvaluationError) in try n.evaluate(ctx).number ?? .nan })
        case .slice(let input, let begin, let end):
            let value = try input.evaluate(ctx)
            return try ExprNode.slice(value, begin.evaluate(ctx).number ?? .nan,
                                      end.map { n throws(ExpressionEvaluationError) in try n.evaluate(ctx).number ?? .nan })
        case .length(let input):
            return try ExprNode.length(of: input.evaluate(ctx))
        case .caseOp(let branches, let otherwise):
            for (test, output) in branches where try test.evaluate(ctx).truthy {
                return try output.evaluate(ctx)
            }
            return try otherwise.evaluate(ctx)
        case .match(let table, let input, let outputs, let otherwise):
            let v = try input.evaluate(ctx)
            if let i = table.lookup(v) { return try outputs[i].evaluate(ctx) }
            return try otherwise.evaluate(ctx)
        case .coalesce(let args):
            var result = Value.null
            for arg in args {
                result = try arg.evaluate(ctx)
                if result != .null { break }
            }
            return result
        case .step(let input, let labels, let outputs):
            return try step(input, labels, outputs, ctx)
        case .interpolate(let space, let interpolation, let input, let labels, let outputs):
            return try interpolate(space, interpolation, input, labels, outputs, ctx)
        case .letOp(_, let result):
            return try result.evaluate(ctx)
        case .varRef(_, let bound):
            return try bound.evaluate(ctx)
        case .within(let region):
            guard let feature = ctx.feature else { return .boolean(false) }
            return .boolean(region.contains(feature))
        case .globalState(let name):
            guard let v = ctx.globalState[name] else { return .null }
            return Value(json: v)
        }
    }

    // MARK: one function per operator family

    /// `number`, `string`, …: the first argument of the node's type, or the type error for the last.
    private func assert(_ args: [ExprNode], _ ctx: EvaluationContext) throws(ExpressionEvaluationError) -> Value {
        for (i, arg) in args.enumerated() {
            let v = try arg.evaluate(ctx)
            if ExprNode.value(v, matches: type) { return v }
            if i == args.count - 1 {
                throw ExpressionEvaluationError(
                    "Expected value to be of type \(type), but found \(v.expressionType) instead.")
            }
        }
        return .null
    }

    /// `step`: the output of the last stop at or below the input.
    private func step(_ input: ExprNode, _ labels: [Double], _ outputs: [ExprNode],
                      _ ctx: EvaluationContext) throws(ExpressionEvaluationError) -> Value {
        if labels.count == 1 { return try outputs[0].evaluate(ctx) }
        let v = try input.evaluate(ctx).number ?? .nan
        if v <= labels[0] { return try outputs[0].evaluate(ctx) }
        if v >= labels[labels.count - 1] { return try outputs[labels.count - 1].evaluate(ctx) }
        return try outputs[ExprNode.stopIndex(labels, v)].evaluate(ctx)
    }

    /// `interpolate`: the outputs of the two stops around the input, mixed in `space`.
    private func interpolate(_ space: ColorInterpolationSpace, _ interpolation: Interpolation, _ input: ExprNode,
                             _ labels: [Double], _ outputs: [ExprNode],
                             _ ctx: EvaluationContext) throws(ExpressionEvaluationError) -> Value {
        if labels.count == 1 { return try outputs[0].evaluate(ctx) }
        let v = try input.evaluate(ctx).number ?? .nan
        if v <= labels[0] { return try outputs[0].evaluate(ctx) }
        let last = labels.count - 1
        if v >= labels[last] { return try outputs[last].evaluate(ctx) }
        let i = try ExprNode.stopIndex(labels, v)
        let t = interpolation.factor(v, labels[i], labels[i + 1])
        let lower = try outputs[i].evaluate(ctx)
        let upper = try outputs[i + 1].evaluate(ctx)
        return Value.interpolate(lower, upper, t, space: space)
    }

    /// `at`: the element at an integer index within the array.
    static func element(at index: Double, of array: [Value]) throws(ExpressionEvaluationError) -> Value {
        if index < 0 {
            throw ExpressionEvaluationError("Array index out of bounds: \(Value.numberString(index)) < 0.")
        }
        if index >= Double(array.count) {
            throw ExpressionEvaluationError("Array index out of bounds: \(Value.numberString(index)) > \(array.count - 1).")
        }
        if index != index.rounded(.down) {
            throw ExpressionEvaluationError("Array index must be an integer, but found \(Value.numberString(index)) instead.")
        }
        return array[Int(index)]
    }

    /// `in`: whether a string holds the needle's text, or an array an element equal to it.
    static func contains(_ needle: Value, in haystack: Value) throws(ExpressionEvaluationError) -> Value {
        if !haystack.truthy { return .boolean(false) }
        try checkNeedle(needle)
        switch haystack {
        case .string(let s):
            return .boolean(utf16IndexOf(Array(needle.displayNeedle.utf16), in: Array(s.utf16), from: 0) >= 0)
        case .array(let items):
            return .boolean(items.contains { Value.strictEquals($0, needle) })
        default:
            throw ExpressionEvaluationError(
                "Expected second argument to be of type array or string, but found \(haystack.expressionType) instead.")
        }
    }

    /// `index-of`: the needle's first position from `from` (code points in strings), or -1; the
    /// needle is checked (`checkNeedle`) by the caller.
    static func index(of needle: Value, in haystack: Value, from: Double?) throws(ExpressionEvaluationError) -> Value {
        switch haystack {
        case .string(let s):
            let units = Array(s.utf16)
            let start = clampedStart(from, count: units.count, negativeFromEnd: false)
            let raw = utf16IndexOf(Array(needle.displayNeedle.utf16), in: units, from: start)
            if raw < 0 { return .number(-1) }
            // Report the index in code points, as JavaScript's spread does.
            let prefix = String(decoding: units[0..<raw], as: UTF16.self)
            return .number(Double(prefix.unicodeScalars.count))
        case .array(let items):
            var i = clampedStart(from, count: items.count, negativeFromEnd: true)
            while i < items.count {
                if Value.strictEquals(items[i], needle) { return .number(Double(i)) }
                i += 1
            }
            return .number(-1)
        default:
            throw ExpressionEvaluationError(
                "Expected second argument to be of type array or string, but found \(haystack.expressionType) instead.")
        }
    }

    /// `slice`: JavaScript's `slice(begin, end)` of a string (by code points) or an array.
    static func slice(_ input: Value, _ begin: Double, _ end: Double?) throws(ExpressionEvaluationError) -> Value {
        switch input {
        case .string(let s):
            let scalars = Array(s.unicodeScalars)
            let r = sliceRange(begin, end, count: scalars.count)
            var out = String.UnicodeScalarView()
            out.append(contentsOf: scalars[r])
            return .string(String(out))
        case .array(let items):
            return .array(Array(items[sliceRange(begin, end, count: items.count)]))
        default:
            throw ExpressionEvaluationError(
                "Expected first argument to be of type array or string, but found \(input.expressionType) instead.")
        }
    }

    /// `length`: code points of a string, elements of an array.
    static func length(of input: Value) throws(ExpressionEvaluationError) -> Value {
        switch input {
        case .string(let s): return .number(Double(s.unicodeScalars.count))
        case .array(let a): return .number(Double(a.count))
        case let other:
            throw ExpressionEvaluationError(
                "Expected value to be of type string or array, but found \(other.expressionType) instead.")
        }
    }

    // MARK: helpers

    /// Whether a run-time value satisfies an asserted type.
    @inline(__always)
    static func value(_ v: Value, matches type: ExpressionType) -> Bool {
        switch (type, v) {
        case (.value, _), (.number, .number), (.string, .string), (.boolean, .boolean), (.object, .object),
             (.color, .color), (.null, .null):
            return true
        case (.array, .array):
            return type.isSupertype(of: v.expressionType)
        default:
            return false
        }
    }

    /// Index of the last stop ≤ `input` (binary search); fails for NaN.
    static func stopIndex(_ labels: [Double], _ input: Double) throws(ExpressionEvaluationError) -> Int {
        let lastIndex = labels.count - 1
        var lower = 0, upper = lastIndex
        while lower <= upper {
            let current = (lower + upper) / 2
            let value = labels[current]
            if value <= input {
                if current == lastIndex || input < labels[current + 1] { return current }
                lower = current + 1
            } else if value > input {
                upper = current - 1
            } else {
                throw ExpressionEvaluationError("Input is not a number.")
            }
        }
        return 0
    }

    static func checkNeedle(_ needle: Value) throws(ExpressionEvaluationError) {
        switch needle {
        case .boolean, .string, .number, .null: return
        default:
            throw ExpressionEvaluationError(
                "Expected first argument to be of type boolean, string, number or null, but found \(needle.expressionType) instead.")
        }
    }

    /// JavaScript `ToIntegerOrInfinity` followed by the clamping of `indexOf`'s start position.
    static func clampedStart(_ from: Double?, count: Int, negativeFromEnd: Bool) -> Int {
        guard let from, !from.isNaN else { return 0 }
        let n = from.rounded(.towardZero)
        if n >= Double(count) { return count }
        if n < 0 {
            if !negativeFromEnd { return 0 }
            let k = Double(count) + n
            return k < 0 ? 0 : Int(k)
        }
        return Int(n)
    }

    /// JavaScript `slice(begin, end)` bounds.
    static func sliceRange(_ begin: Double, _ end: Double?, count: Int) -> Range<Int> {
        func resolve(_ x: Double) -> Int {
            if x.isNaN { return 0 }
            let n = x.rounded(.towardZero)
            if n < 0 { return Swift.max(count + Int(Swift.max(n, -Double(count) - 1)), 0) }
            return Int(Swift.min(n, Double(count)))
        }
        let start = resolve(begin)
        let stop = end.map(resolve) ?? count
        return start..<Swift.max(start, stop)
    }

    /// `String.prototype.indexOf` on UTF-16 code units.
    static func utf16IndexOf(_ needle: [UInt16], in haystack: [UInt16], from start: Int) -> Int {
        if needle.isEmpty { return Swift.min(start, haystack.count) }
        if needle.count > haystack.count { return -1 }
        var i = start
        let lastStart = haystack.count - needle.count
        while i <= lastStart {
            if haystack[i] == needle[0] {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return -1
    }

    static func compare(_ op: ComparisonOp, _ l: Value, _ r: Value, untyped: Bool) throws(ExpressionEvaluationError) -> Bool {
        switch op {
        case .eq: return Value.strictEquals(l, r)
        case .ne: return !Value.strictEquals(l, r)
        default: break
        }
        switch (l, r) {
        case (.number(let a), .number(let b)):
            return op.apply(a, b)
        case (.string(let a), .string(let b)):
            return op.applyUTF16(a, b)
        default:
            if untyped {
                throw ExpressionEvaluationError(
                    "Expected arguments for \"\(op.rawValue)\" to be (string, string) or (number, number), but found (\(l.kindName), \(r.kindName)) instead.")
            }
            return false
        }
    }

    private func coerce(_ args: [ExprNode], _ ctx: EvaluationContext) throws(ExpressionEvaluationError) -> Value {
        switch type {
        case .boolean:
            return .boolean(try args[0].evaluate(ctx).truthy)
        case .color:
            var input = Value.null
            var failure: String?
            for arg in args {
                input = try arg.evaluate(ctx)
                failure = nil
                switch input {
                case .color:
                    return input
                case .string(let s):
                    if let c = CSSColorParser.parse(s) { return .color(c) }
                case .array(let items):
                    if items.count < 3 || items.count > 4 {
                        failure = "Invalid rgba value \(input.jsonText): expected an array containing either three or four numeric values."
                    } else {
                        failure = ExprNode.validateRGBA(items[0], items[1], items[2], items.count == 4 ? items[3] : nil)
                    }
                    if failure == nil {
                        // Upstream builds this colour with premultiplied=true (array values used as given).
                        let a = items.count == 4 ? items[3].number! : 1
                        return .color(Color(premultipliedR: items[0].number! / 255, g: items[1].number! / 255,
                                            b: items[2].number! / 255, a: a))
                    }
                default:
                    break
                }
            }
            let shown: String
            if case .string(let s) = input { shown = s } else { shown = input.jsonText }
            throw ExpressionEvaluationError(failure ?? "Could not parse color from value '\(shown)'", key: key)
        case .number:
            var value = Value.null
            for arg in args {
                value = try arg.evaluate(ctx)
                if value == .null { return .number(0) }
                let n = value.jsNumber
                if n.isNaN { continue }
                return .number(n)
            }
            throw ExpressionEvaluationError("Could not convert \(value.jsonText) to number.", key: key)
        case .formatted:
            let v = try args[0].evaluate(ctx)
            if case .formatted = v { return v }
            return .formatted(Formatted(sections: [Formatted.Section(text: v.displayString)]))
        case .resolvedImage:
            let v = try args[0].evaluate(ctx)
            if case .image = v { return v }
            let name = v.displayString
            return name.isEmpty ? .null : .image(name)
        default:
            return .string(try args[0].evaluate(ctx).displayString)
        }
    }

    /// The specification's `validateRGBA`; nil when valid.
    static func validateRGBA(_ r: Value, _ g: Value, _ b: Value, _ a: Value?) -> String? {
        func channel(_ v: Value) -> Bool {
            if case .number(let n) = v { return n >= 0 && n <= 255 }
            return false
        }
        let shown = ([r, g, b] + (a?.number != nil ? [a!] : [])).map { $0.arrayJoinString }.joined(separator: ", ")
        if !(channel(r) && channel(g) && channel(b)) {
            return "Invalid rgba value [\(shown)]: 'r', 'g', and 'b' must be between 0 and 255."
        }
        if let a {
            guard case .number(let n) = a, n >= 0, n <= 1 else {
                let all = [r, g, b, a].map { $0.arrayJoinString }.joined(separator: ", ")
                return "Invalid rgba value [\(all)]: 'a' must be between 0 and 1."
            }
        }
        return nil
    }
}

extension Value {
    /// How `Array.prototype.join` shows one element (`null` → empty).
    var arrayJoinString: String {
        switch self {
        case .null: return ""
        case .array(let a): return a.map { $0.arrayJoinString }.joined(separator: ",")
        case .object, .color: return "[object Object]"
        default: return displayString
        }
    }

    /// The needle of `in`/`index-of` on a string, converted as JavaScript's `String(v)` would.
    var displayNeedle: String {
        if case .null = self { return "null" }
        return displayString
    }
}
