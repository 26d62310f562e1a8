/// A minimal protocol-buffer reader over bytes (the glyph PBF's wire format): varints, zigzag
/// varints, length-delimited fields and skipping of unknown fields. Every read is bounds-checked
/// and throws `GlyphPBFError` with the byte offset instead of trapping.
struct ProtobufReader {
    let bytes: [UInt8]
    var position: Int
    let end: Int

    init(_ bytes: [UInt8]) { self.init(bytes, start: 0, end: bytes.count) }

    init(_ bytes: [UInt8], start: Int, end: Int) {
        self.bytes = bytes
        position = start
        self.end = end
    }

    var atEnd: Bool { position >= end }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = position
        while true {
            guard position < end else { throw GlyphPBFError(offset: start, message: "truncated varint") }
            let byte = bytes[position]
            position += 1
            if shift < 64 { result |= UInt64(byte & 0x7F) << shift }
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift >= 70 { throw GlyphPBFError(offset: start, message: "varint longer than 10 bytes") }
        }
    }

    /// A zigzag-encoded signed varint (`sint32`), kept in range of Int64.
    mutating func signedVarint() throws -> Int64 {
        let n = try varint()
        return Int64(bitPattern: (n >> 1) ^ (0 &- (n & 1)))
    }

    /// A field key: (field number, wire type).
    mutating func key() throws -> (field: UInt64, wireType: UInt8) {
        let k = try varint()
        return (k >> 3, UInt8(k & 7))
    }

    /// The bounds of a length-delimited field's payload; the position moves past it.
    mutating func lengthDelimited() throws -> Range<Int> {
        let at = position
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw GlyphPBFError(offset: at, message: "length \(length) runs past the end of its message")
        }
        let start = position
        position += Int(length)
        return start..<position
    }

    /// Skips a field of `wireType`.
    mutating func skip(wireType: UInt8) throws {
        let at = position
        switch wireType {
        case 0: _ = try varint()
        case 1: try advance(8, at: at)
        case 2: _ = try lengthDelimited()
        case 5: try advance(4, at: at)
        default: throw GlyphPBFError(offset: at, message: "unknown wire type \(wireType)")
        }
    }

    private mutating func advance(_ count: Int, at: Int) throws {
        guard end - position >= count else { throw GlyphPBFError(offset: at, message: "truncated fixed-size field") }
        position += count
    }
}

/// A minimal protocol-buffer writer (the glyph PBF writer's wire format).
struct ProtobufWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func key(_ field: UInt64, wireType: UInt8) { varint(field << 3 | UInt64(wireType)) }

    mutating func varintField(_ field: UInt64, _ value: UInt64) {
        key(field, wireType: 0)
        varint(value)
    }

    mutating func signedVarintField(_ field: UInt64, _ value: Int64) {
        key(field, wireType: 0)
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func bytesField(_ field: UInt64, _ payload: [UInt8]) {
        key(field, wireType: 2)
        varint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }
}
