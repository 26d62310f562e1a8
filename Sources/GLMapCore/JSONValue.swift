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
            for (i, (k, v)) in o.pairs.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(k, to: &out)
                out += ":"
                v.write(to: &out)
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
///
/// Stored as a key table and the values in key order. Objects with the same keys in the same
/// order can share one table (`JSONByteParser` shares it between consecutive objects, so a
/// GeoJSON file's features with the same property names keep the names once): cities' 34,006
/// features with six properties each took 45 MB and 78 ms to decode as key arrays plus
/// dictionaries, and take a fraction of that as tables plus value arrays. Reading a member is a
/// scan of the keys (a dictionary past `KeyTable.indexed` keys).
public struct JSONObject: Equatable, Sendable {
    /// Keys in document order, each once, with their positions.
    package final class KeyTable: Sendable {
        package let names: [String]
        /// Position by key, for tables too long to scan.
        let index: [String: Int]?
        /// Tables with more keys than this look keys up in a dictionary.
        static let indexed = 12

        package init(_ names: [String]) {
            self.names = names
            index = names.count > Self.indexed ? Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a }) : nil
        }

        @inline(__always)
        func position(of key: String) -> Int? {
            if let index { return index[key] }
            for i in names.indices where names[i] == key { return i }
            return nil
        }

        static let empty = KeyTable([])
    }

    private(set) var table: KeyTable
    private var items: [JSONValue]

    /// An empty object.
    public init() { table = .empty; items = [] }

    /// An object from pairs in order; a repeated key keeps its first position and its last value.
    public init(_ pairs: [(String, JSONValue)]) {
        self.init(names: pairs.map(\.0), values: pairs.map(\.1))
    }

    /// An object of `names` and `values` in document order (a repeated key keeps its first
    /// position and its last value), keeping its keys in `shared` when they are the same.
    package init(names: [String], values: [JSONValue], sharing shared: KeyTable? = nil) {
        if let shared, shared.names == names { self.init(table: shared, items: values); return }   // (its keys are unique)
        guard Self.repeats(names) else { self.init(table: KeyTable(names), items: values); return }
        var keys: [String] = [], items: [JSONValue] = []
        var seen: [String: Int]? = names.count > KeyTable.indexed ? [:] : nil
        for (k, v) in zip(names, values) {
            if let at = seen.map({ $0[k] }) ?? keys.firstIndex(of: k) { items[at] = v; continue }
            seen?[k] = keys.count
            keys.append(k); items.append(v)
        }
        self.init(table: KeyTable(keys), items: items)
    }

    /// Whether a key comes twice (pairwise for short lists, hashed for long ones).
    package static func repeats(_ names: [String]) -> Bool {
        if names.count > KeyTable.indexed { return Set(names).count < names.count }
        for i in names.indices where names[(i + 1)...].contains(names[i]) { return true }
        return false
    }

    /// An object of `table`'s keys with `items` in their order.
    package init(table: KeyTable, items: [JSONValue]) {
        precondition(table.names.count == items.count)
        self.table = table; self.items = items
    }

    /// The keys in document order (first insertion), each once.
    public var keys: [String] { table.names }

    /// The values by key: a dictionary built on each call (read one member with the subscript).
    public var values: [String: JSONValue] { Dictionary(zip(table.names, items), uniquingKeysWith: { a, _ in a }) }

    /// The value for `key`; setting a new key appends it, setting nil removes it.
    public subscript(key: String) -> JSONValue? {
        get { table.position(of: key).map { items[$0] } }
        set {
            let at = table.position(of: key)
            switch (at, newValue) {
            case let (i?, v?): items[i] = v
            case let (nil, v?): table = KeyTable(table.names + [key]); items.append(v)
            case let (i?, nil):
                var names = table.names
                names.remove(at: i)
                table = KeyTable(names); items.remove(at: i)
            case (nil, nil): break
            }
        }
    }

    /// The number of members.
    public var count: Int { items.count }
    /// Whether the object has no members.
    public var isEmpty: Bool { items.isEmpty }

    /// Key/value pairs in document order.
    public var pairs: [(key: String, value: JSONValue)] { zip(table.names, items).map { ($0, $1) } }

    /// Whether both objects keep their keys in one shared table.
    func sharesKeys(with other: JSONObject) -> Bool { table === other.table }

    /// Objects compare by content; key order does not matter (as in JSON).
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.count == b.count else { return false }
        if a.table === b.table { return a.items == b.items }
        for (i, k) in a.table.names.enumerated() { guard let v = b[k], v == a.items[i] else { return false } }
        return true
    }
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
