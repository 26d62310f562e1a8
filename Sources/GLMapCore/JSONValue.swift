import Foundation

/// A decoded JSON value that keeps booleans and numbers apart (unlike Foundation's NSNumber).
///
/// Objects keep their keys in document order (`keys`) and index them by name (`values`),
/// so error messages and re-serialisation follow the author's order.
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as an IEEE double (as JavaScript reads it).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its keys in document order.
    case object(JSONObject)

    /// The JSON kind as MapLibre's messages spell it ("number", "string", "object", …).
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The number, if this is one.
    public var numberValue: Double? { if case .number(let n) = self { return n }; return nil }
    /// The string, if this is one.
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    /// The boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    /// The object, if this is one.
    public var objectValue: JSONObject? { if case .object(let o) = self { return o }; return nil }
    /// Whether this is `null`.
    public var isNull: Bool { if case .null = self { return true }; return false }

    /// Member lookup for objects; nil for other kinds or missing keys.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// Compact JSON text (as JavaScript's JSON.stringify writes it).
    public var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += JSONValue.formatNumber(n)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let a):
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                v.write(to: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (i, k) in o.keys.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(k, to: &out)
                out += ":"
                o.values[k]!.write(to: &out)
            }
            out += "}"
        }
    }

    /// Formats a number the way JavaScript's `String(n)` does for the common cases:
    /// integers without a fraction, others with the shortest round-trip digits.
    public static func formatNumber(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n > 0 ? "Infinity" : "-Infinity" }
        if n == 0 { return "0" }
        if n == n.rounded(), abs(n) < 1e21 {
            // Integers print without a fraction; past Int64 the shortest digits are padded with zeros.
            if abs(n) < 9.0e18 { return String(Int64(n)) }
            return String(format: "%.0f", n)
        }
        var s = "\(n)"  // Swift prints the shortest round-trip representation.
        // Swift writes exponents as "1e-07"; JavaScript writes "1e-7" and "1e+21".
        if let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            var mantissa = String(s[..<e])
            var exp = String(s[s.index(after: e)...])
            if mantissa.hasSuffix(".0") { mantissa.removeLast(2) }
            var sign = "+"
            if exp.hasPrefix("-") { sign = "-"; exp.removeFirst() } else if exp.hasPrefix("+") { exp.removeFirst() }
            while exp.count > 1 && exp.hasPrefix("0") { exp.removeFirst() }
            let expValue = Int(exp) ?? 0
            // JavaScript uses plain notation for 1e-7 < |n| < 1e21.
            if sign == "-" && expValue <= 6 {
                s = plainSmall(mantissa: mantissa, exponent: expValue)
            } else {
                s = mantissa + "e" + sign + exp
            }
        }
        return s
    }

    private static func plainSmall(mantissa: String, exponent: Int) -> String {
        var m = mantissa
        var negative = false
        if m.hasPrefix("-") { negative = true; m.removeFirst() }
        let digits = m.replacingOccurrences(of: ".", with: "")
        let result = "0." + String(repeating: "0", count: exponent - 1) + digits
        return negative ? "-" + result : result
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}

/// A JSON object that remembers its key order.
public struct JSONObject: Equatable, Sendable {
    /// The keys in document order (first insertion), each once.
    public private(set) var keys: [String]
    /// The values by key.
    public private(set) var values: [String: JSONValue]

    /// An empty object.
    public init() { keys = []; values = [:] }

    /// An object from pairs in order; a repeated key keeps its first position and its last value.
    public init(_ pairs: [(String, JSONValue)]) {
        self.init()
        for (k, v) in pairs { self[k] = v }
    }

    /// The value for `key`; setting a new key appends it, setting nil removes it.
    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            if let v = newValue {
                if values.updateValue(v, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// The number of members.
    public var count: Int { keys.count }
    /// Whether the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// Key/value pairs in document order.
    public var pairs: [(key: String, value: JSONValue)] { keys.map { ($0, values[$0]!) } }

    /// Objects compare by content; key order does not matter (as in JSON).
    public static func == (a: JSONObject, b: JSONObject) -> Bool { a.values == b.values }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral {
    /// `nil` as `.null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// An integer literal, as a double.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal, its keys in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}
