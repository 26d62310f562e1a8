// JSON parser — contract
// Input: UTF-8 bytes of one JSON text (RFC 8259; a leading UTF-8 BOM is skipped).
// Output: a `JSONValue` tree, or a `JSONSyntaxError` with the 1-based line:column of the first
// byte that could not be accepted and what was expected there.
// Limits (`InputLimits`): nesting deeper than `maxNestingDepth` (default 512) and strings longer
// than `maxStringBytes` are errors located at the offending bracket or opening quote, never a
// stack overflow or a huge allocation. Numbers are IEEE doubles (as in JavaScript); NaN/Infinity
// literals are rejected, and so is a number that overflows a double (1e999).

/// A syntax error in JSON text, located by line and column (both 1-based; columns count bytes).
/// Invalid input (exit 2); callers that know the file put its name in front.
public struct JSONSyntaxError: GLMapError, Equatable, Sendable {
    /// 1-based line of the error.
    public var line: Int
    /// 1-based column of the error, in bytes.
    public var column: Int
    /// What was expected or what is wrong ("expected a JSON value").
    public var message: String
    /// Invalid input: exit 2.
    public var kind: FailureKind { .invalidInput }
    /// `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}

/// Parses JSON text into `JSONValue`.
public struct JSONParser {
    /// The default nesting limit (`InputLimits.default.maxNestingDepth`).
    public static var defaultMaxDepth: Int { InputLimits.default.maxNestingDepth }

    /// Parses a whole JSON document.
    public static func parse(_ bytes: [UInt8], limits: InputLimits = .default) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { buf in
            var p = JSONByteParser(buf, limits: limits)
            return try p.parseDocument()
        }
    }

    /// Parses a whole JSON document given as a string.
    public static func parse(_ text: String, limits: InputLimits = .default) throws -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }
}

extension JSONParser {
    /// "number 1e999 is out of range (it overflows a double to infinity)".
    public static func overflowMessage(_ numberText: String) -> String {
        "number \(numberText) is out of range (it overflows a double to infinity)"
    }
}

/// A reusable byte-level JSON scanner. Other decoders (GeoJSON) build on it to read values
/// without going through `JSONValue`.
public struct JSONByteParser {
    /// The JSON text (UTF-8); the caller keeps it alive while parsing.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// Byte offset of the next byte to read.
    public var index: Int = 0
    /// How many arrays and objects are open.
    public var depth: Int = 0
    /// The key table of the last object parsed, for the next object with the same keys.
    var lastKeys: JSONObject.KeyTable?
    /// The limits the text is read under (nesting depth among them).
    public let limits: InputLimits
    /// The deepest nesting accepted (`limits.maxNestingDepth`).
    public var maxDepth: Int { limits.maxNestingDepth }

    /// A parser at the start of `bytes`, past a UTF-8 byte order mark if there is one.
    public init(_ bytes: UnsafeBufferPointer<UInt8>, limits: InputLimits = .default) {
        self.bytes = bytes
        self.limits = limits
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
    }

    /// Parses one value and requires nothing but whitespace after it.
    public mutating func parseDocument() throws -> JSONValue {
        skipWhitespace()
        let v = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("expected end of input after the JSON value") }
        return v
    }

    /// Line and column (1-based) of a byte offset.
    public func location(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        var i = 0
        let end = min(offset, bytes.count)
        while i < end {
            if bytes[i] == 0x0A { line += 1; lineStart = i + 1 }
            i += 1
        }
        return (line, offset - lineStart + 1)
    }

    /// An error at the current position (or `at` when given) that says what was found there.
    public func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let (l, c) = location(of: offset ?? index)
        let found: String
        let o = offset ?? index
        if o >= bytes.count {
            found = "end of input"
        } else {
            let b = bytes[o]
            found = b >= 0x20 && b < 0x7F ? "'\(Character(UnicodeScalar(b)))'" : "byte 0x\(String(b, radix: 16))"
        }
        return JSONSyntaxError(line: l, column: c, message: "\(message), found \(found)")
    }

    /// An error at byte `offset` with `message` as it is (limits, numbers out of range).
    public func plainError(_ message: String, at offset: Int) -> JSONSyntaxError {
        let (l, c) = location(of: offset)
        return JSONSyntaxError(line: l, column: c, message: message)
    }

    /// Skips JSON whitespace (space, tab, CR, LF).
    @inline(__always)
    public mutating func skipWhitespace() {
        while index < bytes.count {
            let b = bytes[index]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 } else { return }
        }
    }

    /// The next byte without consuming it; nil at the end.
    @inline(__always)
    public func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Consumes `byte` (after whitespace) or throws naming what was expected.
    @inline(__always)
    public mutating func expect(_ byte: UInt8, _ what: String) throws {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { throw error("expected \(what)") }
        index += 1
    }

    /// Parses the value at the current position (after whitespace).
    public mutating func parseValue() throws -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw error("expected a JSON value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("expected a JSON value")
        }
    }

    mutating func parseLiteral(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        let start = index
        guard index + n <= bytes.count else { throw error("expected a JSON value", at: start) }
        let p = word.utf8Start
        for i in 0..<n where bytes[index + i] != p[i] { throw error("expected a JSON value", at: start) }
        index += n
    }

    /// Counts one more open container; throws past the nesting limit.
    public mutating func enterContainer() throws {
        depth += 1
        if depth > limits.maxNestingDepth { throw plainError(limits.nestingMessage, at: index) }
    }

    /// Parses an object; `index` is at its `{`. An object with the keys of the last one parsed,
    /// in the same order, shares its key table (a GeoJSON file's features' properties).
    public mutating func parseObject() throws -> JSONObject {
        try enterContainer()
        index += 1  // {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; depth -= 1; return JSONObject() }
        var names: [String] = [], values: [JSONValue] = []
        if let last = lastKeys { names.reserveCapacity(last.names.count); values.reserveCapacity(last.names.count) }   // (its likely size)
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key") }
            names.append(try parseString())
            try expect(UInt8(ascii: ":"), "':' after object key")
            values.append(try parseValue())
            if try !continues(closedBy: UInt8(ascii: "}"), "expected ',' or '}' in object") { break }
        }
        depth -= 1
        let object = JSONObject(names: names, values: values, sharing: lastKeys)
        lastKeys = object.table
        return object
    }

    /// Parses an array; `index` is at its `[`.
    public mutating func parseArray() throws -> [JSONValue] {
        try enterContainer()
        index += 1  // [
        var arr: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; depth -= 1; return arr }
        while true {
            arr.append(try parseValue())
            if try !continues(closedBy: UInt8(ascii: "]"), "expected ',' or ']' in array") { break }
        }
        depth -= 1
        return arr
    }

    /// After a member or element: consumes ',' (true: another follows) or `close` (false), or
    /// throws `message` at what is there instead.
    @inline(__always)
    mutating func continues(closedBy close: UInt8, _ message: String) throws -> Bool {
        skipWhitespace()
        guard let b = peek() else { throw error(message) }
        if b == UInt8(ascii: ",") { index += 1; return true }
        if b == close { index += 1; return false }
        throw error(message)
    }

    /// Parses a string starting at the opening quote.
    public mutating func parseString() throws -> String {
        index += 1  // opening quote
        let start = index
        let maxEnd = start + limits.maxStringBytes  // `index` past this: too long
        // Fast path: no escapes.
        if let base = bytes.baseAddress {
            let (stop, closed) = JSONStringLexer.scan(base, from: start, end: bytes.count)
            index = stop
            if closed {
                if index > maxEnd { throw plainError(limits.stringMessage, at: start - 1) }
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return s
            }
            if index < bytes.count && bytes[index] < 0x20 { throw error("unescaped control character in string") }
        }
        var out = Array(bytes[start..<index])
        while index < bytes.count {
            if index > maxEnd { throw plainError(limits.stringMessage, at: start - 1) }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw error("unescaped control character in string") }
            if b != UInt8(ascii: "\\") { out.append(b); index += 1; continue }
            index += 1
            guard index < bytes.count else { break }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    // High surrogate: a low surrogate must follow.
                    if index + 1 < bytes.count && bytes[index] == UInt8(ascii: "\\") && bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try parseHex4()
                        if low >= 0xDC00 && low < 0xE000 {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            scalar = 0xFFFD
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    scalar = 0xFFFD
                }
                out.append(contentsOf: Array(String(Character(UnicodeScalar(scalar)!)).utf8))
            default:
                throw error("invalid escape sequence", at: index - 1)
            }
        }
        throw error("unterminated string")
    }

    mutating func parseHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("expected 4 hex digits after \\u") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("expected 4 hex digits after \\u")
            }
            v = v * 16 + d
            index += 1
        }
        return v
    }

    /// Parses a JSON number at the current position (strict RFC 8259 grammar; `JSONNumberLexer`).
    public mutating func parseNumber() throws -> Double {
        let start = index
        guard let base = bytes.baseAddress else { throw error("expected a digit in number") }
        if let (value, stop) = JSONNumberLexer.read(base, from: start, end: bytes.count, PowersOfTen.shared) {
            index = stop
            return value
        }
        throw numberError(at: start)
    }

    /// The error for the text at `start` that `JSONNumberLexer.read` does not accept.
    public func numberError(at start: Int) -> JSONSyntaxError {
        guard let base = bytes.baseAddress else { return error("expected a digit in number", at: start) }
        switch JSONNumberLexer.failure(base, from: start, end: bytes.count) {
        case .grammar(let message, let offset): return error(message, at: offset)
        case .overflow(let message, let offset): return plainError(message, at: offset)
        }
    }
}
