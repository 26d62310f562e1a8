import GLMapCore

// The fast path for positions: `[lon, lat]` with plain decimal numbers (GLMapCore's
// `JSONNumberLexer.plainDecimal`), read without going through the general scanner. Everything it
// does not accept it leaves untouched (returns nil with the cursor unmoved) for the general path,
// which also produces every error message.

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
    guard let lon = JSONNumberLexer.plainDecimal(base, &j, powers) else { return nil }
    if base[j] <= 0x20 { skipSpace(base, end, &j); guard j &+ 64 <= end else { return nil } }
    guard base[j] == UInt8(ascii: ",") else { return nil }
    j &+= 1
    if base[j] <= 0x20 { skipSpace(base, end, &j); guard j &+ 64 <= end else { return nil } }
    guard let lat = JSONNumberLexer.plainDecimal(base, &j, powers) else { return nil }
    if base[j] <= 0x20 { skipSpace(base, end, &j); guard j &+ 64 <= end else { return nil } }
    guard base[j] == UInt8(ascii: "]") else { return nil }
    i = j &+ 1
    return Position(lon, lat)
}
