import Foundation
import GLMapCore

/// JavaScript-compatible conversions the expression language relies on.
extension Value {
    /// `String(v)` for numbers as JavaScript writes it (`1`, `0.5`, `1e+21`, `NaN`).
    static func numberString(_ n: Double) -> String {
        if n.isFinite, n == n.rounded(), Swift.abs(n) >= 1e15, Swift.abs(n) < 1e21 {
            // Shortest round-trip digits, padded with zeros (JSONValue's Int64 path would overflow).
            let text = "\(Swift.abs(n))"  // e.g. "1.2345678901234568e+20" or "1000000000000000.0"
            var digits = ""
            var exponent = 0
            if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
                let mantissa = text[..<e]
                exponent = Int(text[text.index(after: e)...].replacingOccurrences(of: "+", with: "")) ?? 0
                let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
                digits = String(parts[0]) + (parts.count > 1 ? String(parts[1]) : "")
                exponent -= (digits.count - String(parts[0]).count)
            } else {
                let parts = text.split(separator: ".", omittingEmptySubsequences: false)
                digits = String(parts[0]) + (parts.count > 1 && parts[1] != "0" ? String(parts[1]) : "")
                exponent = -(parts.count > 1 && parts[1] != "0" ? parts[1].count : 0)
            }
            while digits.count > 1 && digits.hasSuffix("0") && exponent < 0 { digits.removeLast(); exponent += 1 }
            let body = exponent >= 0 ? digits + String(repeating: "0", count: exponent) : digits
            return (n < 0 ? "-" : "") + body
        }
        return JSONValue.formatNumber(n)
    }

    /// `valueToString`: the conversion of `to-string` and `concat` (null → "", colours → `rgba(…)`,
    /// arrays and objects → compact JSON).
    var displayString: String {
        switch self {
        case .null: return ""
        case .string(let s): return s
        case .number(let n): return Value.numberString(n)
        case .boolean(let b): return b ? "true" : "false"
        case .color(let c): return c.cssString
        case .array, .object: return jsonText
        case .formatted(let f): return f.text
        case .image(let name): return name
        }
    }

    /// `JSON.stringify(v)`: non-finite numbers become `null`; object keys are written integer-like
    /// keys first (ascending), then the rest in code-unit order (insertion order is not kept).
    var jsonText: String { jsonValue.jsonText }

    /// The value as JSON (colours become `{"r","g","b","a"}` objects of premultiplied components).
    public var jsonValue: JSONValue {
        switch self {
        case .null: return .null
        case .boolean(let b): return .bool(b)
        case .number(let n): return n.isFinite ? .number(n) : .null
        case .string(let s): return .string(s)
        case .color(let c):
            return .object(JSONObject([("r", .number(c.r)), ("g", .number(c.g)), ("b", .number(c.b)), ("a", .number(c.a))]))
        case .array(let a): return .array(a.map { $0.jsonValue })
        case .object(let o):
            let keys = o.keys.sorted(by: Value.jsKeyOrder)
            return .object(JSONObject(keys.map { ($0, o[$0]!.jsonValue) }))
        case .formatted(let f): return .string(f.text)
        case .image(let name): return .string(name)
        }
    }

    /// JavaScript property order: array-index keys ascending first, then the others.
    static func jsKeyOrder(_ a: String, _ b: String) -> Bool {
        let ai = arrayIndex(a), bi = arrayIndex(b)
        switch (ai, bi) {
        case let (x?, y?): return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: return a.utf16.lexicographicallyPrecedes(b.utf16)
        }
    }

    private static func arrayIndex(_ s: String) -> UInt32? {
        guard let v = UInt32(s), v != UInt32.max, String(v) == s else { return nil }
        return v
    }

    /// `Boolean(v)`.
    var truthy: Bool {
        switch self {
        case .null: return false
        case .boolean(let b): return b
        case .number(let n): return n != 0 && !n.isNaN
        case .string(let s): return !s.isEmpty
        case .color, .array, .object, .formatted, .image: return true
        }
    }

    /// `Number(v)` (NaN when not convertible).
    var jsNumber: Double {
        switch self {
        case .null: return 0
        case .boolean(let b): return b ? 1 : 0
        case .number(let n): return n
        case .string(let s): return Value.parseJSNumber(s)
        case .array(let a):
            if a.isEmpty { return 0 }
            if a.count == 1 { return Value.parseJSNumber(a[0].arrayElementString) }
            return .nan
        case .color, .object, .formatted, .image: return .nan
        }
    }

    /// How `Array.prototype.toString` writes one element (null → "").
    private var arrayElementString: String {
        switch self {
        case .null: return ""
        case .array(let a): return a.map { $0.arrayElementString }.joined(separator: ",")
        case .object, .color: return "[object Object]"
        default: return displayString
        }
    }

    /// JavaScript's StringToNumber: trims white space, "" → 0, decimal, `Infinity`, 0x/0o/0b integers.
    static func parseJSNumber(_ input: String) -> Double {
        let s = input.trimmingCharacters(in: .whitespacesAndNewlines)
        if s.isEmpty { return 0 }
        let lower = s.lowercased()
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) {
            let digits = lower.dropFirst(2)
            guard !digits.isEmpty else { return .nan }
            var v = 0.0
            for c in digits {
                guard let d = c.hexDigitValue, d < radix else { return .nan }
                v = v * Double(radix) + Double(d)
            }
            return v
        }
        var body = Substring(s)
        var sign = 1.0
        if body.first == "+" || body.first == "-" {
            if body.first == "-" { sign = -1 }
            body = body.dropFirst()
        }
        if body == "Infinity" { return sign * .infinity }
        // Only digits, one dot, and an exponent are allowed (Double() would also take "nan", "inf", hex).
        var sawDigit = false, sawDot = false, sawE = false, expectExpDigits = false
        var prev: Character = " "
        for c in body {
            if c.isASCII && c.isNumber {
                sawDigit = true
                if sawE { expectExpDigits = false }
            } else if c == "." && !sawDot && !sawE {
                sawDot = true
            } else if (c == "e" || c == "E") && sawDigit && !sawE {
                sawE = true; expectExpDigits = true
            } else if (c == "+" || c == "-") && (prev == "e" || prev == "E") {
                // exponent sign
            } else {
                return .nan
            }
            prev = c
        }
        guard sawDigit, !expectExpDigits, let v = Double(String(body)) else { return .nan }
        return sign * v
    }

    /// JavaScript's `===` on expression values (arrays, objects and colours are never equal).
    static func strictEquals(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.boolean(let x), .boolean(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        default: return false
        }
    }

    /// The kind name used in comparison error messages.
    var kindName: String { expressionType.kindName }
}
