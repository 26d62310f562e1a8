// The fast path for positions: `[lon, lat]` with plain decimal numbers, read without going through
// the general scanner. Everything it does not accept it leaves untouched (returns nil with the
// cursor unmoved) for the general path, which also produces every error message.

/// Exact powers of ten for the number fast paths.
struct PowersOfTen {
    /// 1e0…1e22: exact doubles (the range of Clinger's fast path).
    let doubles: UnsafeMutablePointer<Double>
    /// 10^0…10^19.
    let integers: UnsafeMutablePointer<UInt64>

    init() {
        doubles = .allocate(capacity: 23)
        doubles[0] = 1
        for k in 1..<23 { doubles[k] = doubles[k - 1] * 10 }
        integers = .allocate(capacity: 20)
        integers[0] = 1
        for k in 1..<20 { integers[k] = integers[k - 1] * 10 }
    }

    func deallocate() {
        doubles.deallocate()
        integers.deallocate()
    }
}

/// Skips JSON whitespace.
@inline(__always)
func skipSpace(_ base: UnsafePointer<UInt8>, _ end: Int, _ i: inout Int) {
    while i < end {
        let b = base[i]
        if b > 0x20 || (b != 0x20 && b != 0x0A && b != 0x0D && b != 0x09) { return }
        i &+= 1
    }
}

/// Reads consecutive elements of a position array from `i` (the start of an element) into
/// `out[0..<capacity]` while `fastPosition` can read them, consuming the ',' after each. Stops at
/// an element it cannot read or when `out` is full (`afterElement` false: `i` is at that element's
/// start), or after an element not followed by ',' (`afterElement` true: `i` is right after it).
func fastPositions(_ base: UnsafePointer<UInt8>, _ end: Int, _ i: inout Int, _ powers: PowersOfTen,
                   _ out: UnsafeMutablePointer<Position>, _ capacity: Int) -> (count: Int, afterElement: Bool) {
    var n = 0
    while n < capacity {
        guard let position = fastPosition(base, end, &i, powers) else { break }
        out[n] = position
        n &+= 1
        guard i < end, base[i] == UInt8(ascii: ",") else { return (n, true) }
        i &+= 1
    }
    return (n, false)
}

/// `[number, number]` (JSON whitespace allowed) at `i`, both numbers plain decimals of at most 15
/// significant digits (no exponent). Nil, with `i` unmoved, for anything else, including positions
/// that start within the last 64 bytes of the input (so no read below needs a bounds check).
@inline(__always)
private func fastPosition(_ base: UnsafePointer<UInt8>, _ end: Int, _ i: inout Int, _ powers: PowersOfTen) -> Position? {
    // Budget: from a point with 64 bytes left, '[' + number (≤ 26 bytes) + ',' + number + ']' stays
    // inside, and each number reads at most 26 bytes ahead; skipping whitespace checks it again.
    var j = i
    guard j &+ 64 <= end else { return nil }
    if base[j] <= 0x20 { skipSpace(base, end, &j); guard j &+ 64 <= end else { return nil } }
    guard base[j] == UInt8(ascii: "[") else { return nil }
    j &+= 1
    if base[j] <= 0x20 { skipSpace(base, end, &j); guard j &+ 64 <= end else { return nil } }
    guard let lon = plainNumber(base, &j, powers) else { return nil }
    if base[j] <= 0x20 { skipSpace(base, end, &j); guard j &+ 64 <= end else { return nil } }
    guard base[j] == UInt8(ascii: ",") else { return nil }
    j &+= 1
    if base[j] <= 0x20 { skipSpace(base, end, &j); guard j &+ 64 <= end else { return nil } }
    guard let lat = plainNumber(base, &j, powers) else { return nil }
    if base[j] <= 0x20 { skipSpace(base, end, &j); guard j &+ 64 <= end else { return nil } }
    guard base[j] == UInt8(ascii: "]") else { return nil }
    i = j &+ 1
    return Position(lon, lat)
}

/// A plain decimal number (`-?int(.frac)?`, at most 15 significant digits, no exponent) at `i`,
/// correctly rounded: the mantissa (< 10^15) and the power of ten (≤ 1e15) are exact doubles,
/// so one IEEE division rounds correctly. Nil, with `i` unmoved, for anything else. Digits are
/// found and converted eight at a time (SWAR).
///
/// Precondition: at least 32 bytes can be read from `i` (the reads stay below i + 1 (sign) +
/// 8 (integer part, at most 7 digits) + 1 ('.') + 16 + 1).
@inline(__always)
private func plainNumber(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ powers: PowersOfTen) -> Double? {
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
@inline(__always)
private func digitBytes(_ p: UnsafePointer<UInt8>) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) &- 0x3030_3030_3030_3030
}

/// How many of the bytes from `digitBytes`, from the first, are digits (0…8).
@inline(__always)
private func leadingDigitCount(_ t: UInt64) -> Int {
    // A byte is a digit when it is at most 9: adding 0x76 then leaves its high bit clear (and its
    // own high bit is clear). Carries only run into later bytes, after the first non-digit.
    let nonDigit = ((t &+ 0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080
    return nonDigit.trailingZeroBitCount &>> 3
}

/// The value of the first `n` (1…8) digit bytes from `digitBytes`.
@inline(__always)
private func digitsValue(_ t: UInt64, _ n: Int) -> UInt64 {
    // Move the n digits to the top (the rest is shifted out) so the bytes below read as leading
    // zeros, then combine pairs, quads and octets of digits with three multiplications.
    var v = t &<< UInt64(64 &- 8 &* n)
    v = (v &* 2561) &>> 8
    v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) &>> 16
    v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) &>> 32
    return v
}
