import Foundation

/// A decoded JSON value that keeps booleans and numbers apart (unlike Foundation's NSNumber).
///
/// Objects keep their keys in document order (`keys`) and index them by name (`values`),
/// so error messages and re-serialisation follow the author's order.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
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

    public var numberValue: Double? { if case .number(let n) = self { return n }; return nil }
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    public var objectValue: JSONObject? { if case .object(let o) = self { return o }; return nil }
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
    public private(set) var keys: [String]
    public private(set) var values: [String: JSONValue]

    public init() { keys = []; values = [:] }

    public init(_ pairs: [(String, JSONValue)]) {
        self.init()
        for (k, v) in pairs { self[k] = v }
    }

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

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// Key/value pairs in document order.
    public var pairs: [(key: String, value: JSONValue)] { keys.map { ($0, values[$0]!) } }

    /// Objects compare by content; key order does not matter (as in JSON).
    public static func == (a: JSONObject, b: JSONObject) -> Bool { a.values == b.values }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}
