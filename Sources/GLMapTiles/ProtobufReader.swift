// Protocol buffers, read by hand (no Swift protobuf library is packaged by Debian): the wire
// format only — varints, zigzag, fixed 32/64-bit, length-delimited fields — over borrowed bytes,
// with every read checked against the end of the message it belongs to. Groups (wire types 3
// and 4, deprecated) are refused.

/// A failure to read protocol-buffer bytes: what was expected and the byte offset.
public struct ProtobufError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong (e.g. "varint runs past the end of its message").
    public var message: String
    /// The offset in the buffer where reading failed.
    public var offset: Int
    /// `message (at byte offset)`.
    public var description: String { "\(message) (at byte \(offset))" }
    /// An error at `offset`.
    public init(_ message: String, offset: Int) { self.message = message; self.offset = offset }
}

/// A cursor over protocol-buffer bytes it does not own (valid while the buffer lives).
struct ProtobufReader {
    let base: UnsafePointer<UInt8>
    var pos: Int
    let end: Int

    /// Reads `buffer[range]`.
    init(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) {
        self.base = base; self.pos = start; self.end = end
    }

    @inline(__always) var atEnd: Bool { pos >= end }

    /// A varint of up to 10 bytes (64 bits).
    @inline(__always)
    mutating func varint() throws(ProtobufError) -> UInt64 {
        // Fast path: one byte.
        if pos < end {
            let b = base[pos]
            if b < 0x80 { pos += 1; return UInt64(b) }
        }
        return try varintSlow()
    }

    mutating func varintSlow() throws(ProtobufError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        let start = pos
        while true {
            guard pos < end else { throw ProtobufError("varint runs past the end of its message", offset: start) }
            let b = base[pos]
            pos += 1
            if shift == 63 && b > 1 { throw ProtobufError("varint longer than 64 bits", offset: start) }
            value |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return value }
            shift += 7
            if shift > 63 { throw ProtobufError("varint longer than 10 bytes", offset: start) }
        }
    }

    /// A zigzag-encoded signed varint (`sint32`/`sint64`).
    @inline(__always)
    mutating func svarint() throws(ProtobufError) -> Int64 {
        let v = try varint()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    /// A little-endian 32-bit word.
    mutating func fixed32() throws(ProtobufError) -> UInt32 {
        guard end - pos >= 4 else { throw ProtobufError("fixed32 runs past the end of its message", offset: pos) }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(base[pos + i]) << (8 * UInt32(i)) }
        pos += 4
        return v
    }

    /// A little-endian 64-bit word.
    mutating func fixed64() throws(ProtobufError) -> UInt64 {
        guard end - pos >= 8 else { throw ProtobufError("fixed64 runs past the end of its message", offset: pos) }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(base[pos + i]) << (8 * UInt64(i)) }
        pos += 8
        return v
    }

    /// A field key: (field number, wire type).
    @inline(__always)
    mutating func key() throws(ProtobufError) -> (field: UInt64, wire: UInt8) {
        let k = try varint()
        return (k >> 3, UInt8(k & 7))
    }

    /// The byte range of a length-delimited field's payload (the cursor moves past it).
    @inline(__always)
    mutating func lengthDelimited() throws(ProtobufError) -> Range<Int> {
        let at = pos
        let n = try varint()
        guard n <= UInt64(end - pos) else {
            throw ProtobufError("length-delimited field of \(n) bytes runs past the end of its message (\(end - pos) left)", offset: at)
        }
        let start = pos
        pos += Int(n)
        return start..<pos
    }

    /// Skips a field's value of wire type `wire`.
    mutating func skip(wire: UInt8) throws(ProtobufError) {
        switch wire {
        case 0: _ = try varint()
        case 1: _ = try fixed64()
        case 2: _ = try lengthDelimited()
        case 5: _ = try fixed32()
        default: throw ProtobufError("unsupported wire type \(wire)", offset: pos)
        }
    }

    /// The UTF-8 text in `range` (invalid sequences become U+FFFD, as a TextDecoder reads them).
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
    }
}
