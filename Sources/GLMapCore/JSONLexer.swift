// JSON lexer — contract
// Input: the bytes of a JSON text (base pointer and end offset) and the offset of a token.
// Output: a number's value, correctly rounded to the nearest double (as strtod and JavaScript's
// `JSON.parse` round), and the offset after it; a string's extent up to its closing quote or the
// first byte (escape, control character) that needs the general decoder; nil where the text is
// not a JSON number or overflows a double, with `JSONNumberLexer.failure` saying why and where.
// Used by both readers of JSON bytes — `JSONByteParser` (JSONValue trees: styles, properties) and
// the GeoJSON byte decoder — so every number in glmap is read by one grammar and one rounding
// rule, with one table of powers of ten.
// Rounding: a mantissa of at most 19 digits that is ≤ 2^53 times 10^k with |k| ≤ 22 is exact
// arithmetic plus one IEEE multiplication or division (Clinger's fast path), so it rounds
// correctly; every other number goes through the standard library's correctly rounded parser.
// The plain-decimal reader (`plainDecimal`, eight digits at a time) is a faster route to the same
// values for the shapes positions use.
// Threading: stateless; the powers-of-ten table is immutable and shared.

/// Exact powers of ten, shared by every number reader.
public struct PowersOfTen: @unchecked Sendable {   // read-only after init
    /// 1e0…1e22: exact doubles (the range of Clinger's fast path).
    public let doubles: UnsafePointer<Double>
    /// 10^0…10^19.
    public let integers: UnsafePointer<UInt64>

    /// The one table (allocated once, never freed).
    public static let shared = PowersOfTen()

    private init() {
        let d = UnsafeMutablePointer<Double>.allocate(capacity: 23)
        d[0] = 1
        for k in 1..<23 { d[k] = d[k - 1] * 10 }
        let n = UnsafeMutablePointer<UInt64>.allocate(capacity: 20)
        n[0] = 1
        for k in 1..<20 { n[k] = n[k - 1] * 10 }
        doubles = UnsafePointer(d)
        integers = UnsafePointer(n)
    }
}

/// Reads JSON numbers (RFC 8259 grammar) from bytes.
public enum JSONNumberLexer {
    /// Why `read` gave nil: a grammar error (its message, to be followed by what was found at
    /// `offset`), or a number that overflows a double (the whole message, at the number's start).
    public enum Failure: Equatable, Sendable {
        /// Not a JSON number: what was expected, and the offset of what was found instead.
        case grammar(String, at: Int)
        /// A number too large for a double (e.g. 1e999): the whole message, at the number's start.
        case overflow(String, at: Int)
    }

    /// The number at `start` (any byte: nil when no number starts there) and the offset after it;
    /// nil when the text is not a JSON number or overflows a double (see `failure`).
    @inlinable @inline(__always)
    public static func read(_ base: UnsafePointer<UInt8>, from start: Int, end: Int,
                            _ powers: PowersOfTen) -> (value: Double, end: Int)? {
        var i = start
        guard i < end else { return nil }
        let negative = base[i] == UInt8(ascii: "-")
        if negative { i &+= 1 }
        var mantissa: UInt64 = 0
        let intStart = i
        accumulateDigits(base, &i, end, &mantissa)
        var digits = i &- intStart
        if digits == 0 || (digits > 1 && base[intStart] == 0x30) { return nil }
        var exponent = 0
        if i < end && base[i] == UInt8(ascii: ".") {
            i &+= 1
            let fracStart = i
            accumulateDigits(base, &i, end, &mantissa)
            let fraction = i &- fracStart
            if fraction == 0 { return nil }
            digits &+= fraction
            exponent = -fraction
        }
        if i < end && base[i] | 0x20 == UInt8(ascii: "e") {
            i &+= 1
            var expNegative = false
            if i < end && (base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-")) {
                expNegative = base[i] == UInt8(ascii: "-")
                i &+= 1
            }
            let expStart = i
            var e = 0
            while i < end {
                let d = base[i] &- 0x30
                if d > 9 { break }
                if e < 100_000 { e = e &* 10 &+ Int(d) }
                i &+= 1
            }
            if i == expStart { return nil }
            exponent &+= expNegative ? -e : e
        }
        // 19 digits cannot wrap the mantissa; ≤ 2^53 and 10^|exponent| ≤ 1e22 are exact doubles.
        if digits <= 19 && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            var v = Double(mantissa)
            if exponent < 0 { v /= powers.doubles[-exponent] } else if exponent > 0 { v *= powers.doubles[exponent] }
            return (negative ? -v : v, i)
        }
        guard let v = correctlyRounded(base, from: start, to: i) else { return nil }
        return (v, i)
    }

    /// Appends the decimal digits from `i` to `mantissa` (wrapping: callers count the digits).
    @inlinable @inline(__always)
    static func accumulateDigits(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int, _ mantissa: inout UInt64) {
        while i < end {
            let d = base[i] &- 0x30
            if d > 9 { return }
            mantissa = mantissa &* 10 &+ UInt64(d)
            i &+= 1
        }
    }

    /// The standard library's correctly rounded reading of a valid number's text; nil when it
    /// overflows to infinity.
    @usableFromInline @inline(never)
    static func correctlyRounded(_ base: UnsafePointer<UInt8>, from start: Int, to stop: Int) -> Double? {
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: stop - start), as: UTF8.self)
        guard let v = Double(text), v.isFinite else { return nil }
        return v
    }

    /// Why `read` returned nil for the text at `start`: the first byte the grammar rejects (and
    /// what it expected there), or the overflow of a valid number.
    public static func failure(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Failure {
        @inline(__always) func isDigit(_ i: Int) -> Bool { i < end && base[i] &- 0x30 < 10 }
        var i = start
        if i < end && base[i] == UInt8(ascii: "-") { i += 1 }
        guard isDigit(i) else { return .grammar("expected a digit in number", at: i) }
        if base[i] == UInt8(ascii: "0") {
            i += 1
            if isDigit(i) { return .grammar("leading zeros are not allowed in numbers", at: i) }
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < end && base[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { return .grammar("expected a digit after '.'", at: i) }
            while isDigit(i) { i += 1 }
        }
        if i < end && base[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < end && (base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-")) { i += 1 }
            guard isDigit(i) else { return .grammar("expected a digit in exponent", at: i) }
            while isDigit(i) { i += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
        return .overflow(JSONParser.overflowMessage(text), at: start)
    }

    /// A plain decimal number (`-?int(.frac)?`: 1…7 integer digits, at most 15 significant digits
    /// in all, no exponent) at `i`, the same double `read` gives: the mantissa (< 10^15) and the
    /// power of ten (≤ 1e15) are exact doubles, so one IEEE division rounds correctly. Nil, with
    /// `i` unmoved, for anything else. Digits are found and converted eight at a time (SWAR).
    ///
    /// Precondition: at least 32 bytes can be read from `i` (the reads stay below i + 1 (sign) +
    /// 8 (integer part, at most 7 digits) + 1 ('.') + 16 + 1).
    @inlinable @inline(__always)
    public static func plainDecimal(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ powers: PowersOfTen) -> Double? {
        var j = i
        let negative = base[j] == UInt8(ascii: "-")
        if negative { j &+= 1 }
        let w = digitBytes(base + j)
        let intDigits = leadingDigitCount(w)
        guard intDigits &- 1 < 7 else { return nil }  // 1…7 digits (0 or 8+ take the general path)
        if intDigits > 1 && w & 0xFF == 0 { return nil }  // leading zero: the general path reports it
        var mantissa = digitsValue(w, intDigits)
        j &+= intDigits
        var fraction = 0
        if base[j] == UInt8(ascii: ".") {
            let f = digitBytes(base + j + 1)
            fraction = leadingDigitCount(f)
            guard fraction > 0 else { return nil }
            mantissa = mantissa &* powers.integers[fraction] &+ digitsValue(f, fraction)
            if fraction == 8 {
                let g = digitBytes(base + j + 9)
                let more = leadingDigitCount(g)
                guard more < 8 else { return nil }
                if more > 0 {
                    mantissa = mantissa &* powers.integers[more] &+ digitsValue(g, more)
                    fraction &+= more
                }
            }
            j &+= 1 &+ fraction
        }
        guard intDigits &+ fraction <= 15, base[j] | 0x20 != UInt8(ascii: "e") else { return nil }
        i = j
        let v = Double(Int64(bitPattern: mantissa)) / powers.doubles[fraction]
        return negative ? -v : v
    }

    /// Eight bytes as a little-endian word (the first byte lowest) minus '0' from each byte: digits
    /// become 0…9. (A borrow out of a byte below '0' only disturbs the bytes after it.)
    @inlinable @inline(__always)
    static func digitBytes(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) &- 0x3030_3030_3030_3030
    }

    /// How many of the bytes from `digitBytes`, from the first, are digits (0…8).
    @inlinable @inline(__always)
    static func leadingDigitCount(_ t: UInt64) -> Int {
        // A byte is a digit when it is at most 9: adding 0x76 then leaves its high bit clear (and its
        // own high bit is clear). Carries only run into later bytes, after the first non-digit.
        let nonDigit = ((t &+ 0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080
        return nonDigit.trailingZeroBitCount &>> 3
    }

    /// The value of the first `n` (1…8) digit bytes from `digitBytes`.
    @inlinable @inline(__always)
    static func digitsValue(_ t: UInt64, _ n: Int) -> UInt64 {
        // Move the n digits to the top (the rest is shifted out) so the bytes below read as leading
        // zeros, then combine pairs, quads and octets of digits with three multiplications.
        var v = t &<< UInt64(64 &- 8 &* n)
        v = (v &* 2561) &>> 8
        v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) &>> 16
        v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) &>> 32
        return v
    }
}

/// Finds the extent of JSON strings in bytes.
public enum JSONStringLexer {
    /// From `start` (the first byte after an opening quote): the offset of the closing quote with
    /// `closed` true when no escape or control character comes first; otherwise the offset of the
    /// first backslash or control character (or `end`), with `closed` false — the general decoder
    /// (`JSONByteParser.parseString`) takes over there.
    @inlinable @inline(__always)
    public static func scan(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> (stop: Int, closed: Bool) {
        var i = start
        while i < end {
            let b = base[i]
            if b == UInt8(ascii: "\"") { return (i, true) }
            if b == UInt8(ascii: "\\") || b < 0x20 { return (i, false) }
            i &+= 1
        }
        return (i, false)
    }
}
