// A small protobuf writer for hand-made vector tiles in tests: every field is written as the
// test says, so malformed and unusual tiles (unknown fields, odd command counts, bad lengths) can
// be built as easily as good ones.
import Foundation

struct PB {
    var bytes: [UInt8] = []

    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 { bytes.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }
    mutating func key(_ field: Int, _ wire: Int) { varint(UInt64(field << 3 | wire)) }
    mutating func uint(_ field: Int, _ v: UInt64) { key(field, 0); varint(v) }
    mutating func sint(_ field: Int, _ v: Int64) { key(field, 0); varint(zigzag(v)) }
    mutating func bytesField(_ field: Int, _ b: [UInt8]) { key(field, 2); varint(UInt64(b.count)); bytes += b }
    mutating func string(_ field: Int, _ s: String) { bytesField(field, Array(s.utf8)) }
    mutating func message(_ field: Int, _ m: PB) { bytesField(field, m.bytes) }
    mutating func fixed32(_ field: Int, _ v: UInt32) { key(field, 5); for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
    mutating func fixed64(_ field: Int, _ v: UInt64) { key(field, 1); for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
    mutating func packed(_ field: Int, _ values: [UInt64]) {
        var inner = PB()
        for v in values { inner.varint(v) }
        bytesField(field, inner.bytes)
    }
}

func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }

/// Geometry commands: `command(id, count)` then zigzag parameters.
func command(_ id: UInt64, _ count: UInt64) -> UInt64 { (count << 3) | id }

/// Encodes a ring/line as MoveTo + LineTo(s) [+ ClosePath], with deltas from the cursor.
func geometry(_ parts: [[(Int64, Int64)]], close: Bool, cursor: inout (Int64, Int64)) -> [UInt64] {
    var out: [UInt64] = []
    for part in parts {
        guard let first = part.first else { continue }
        out.append(command(1, 1))
        out += [zigzag(first.0 - cursor.0), zigzag(first.1 - cursor.1)]
        cursor = first
        if part.count > 1 {
            out.append(command(2, UInt64(part.count - 1)))
            for p in part.dropFirst() {
                out += [zigzag(p.0 - cursor.0), zigzag(p.1 - cursor.1)]
                cursor = p
            }
        }
        if close { out.append(command(7, 1)) }
    }
    return out
}

/// A `Value` message.
enum MVTValue {
    case string(String), float(Float), double(Double), int(Int64), uint(UInt64), sint(Int64), bool(Bool)
    var message: PB {
        var m = PB()
        switch self {
        case .string(let s): m.string(1, s)
        case .float(let f): m.fixed32(2, f.bitPattern)
        case .double(let d): m.fixed64(3, d.bitPattern)
        case .int(let i): m.uint(4, UInt64(bitPattern: i))
        case .uint(let u): m.uint(5, u)
        case .sint(let s): m.sint(6, s)
        case .bool(let b): m.uint(7, b ? 1 : 0)
        }
        return m
    }
}

/// A feature message.
func feature(id: UInt64? = nil, type: UInt64, tags: [UInt64] = [], geometry: [UInt64], extra: (inout PB) -> Void = { _ in }) -> PB {
    var f = PB()
    if let id { f.uint(1, id) }
    if !tags.isEmpty { f.packed(2, tags) }
    f.uint(3, type)
    extra(&f)
    f.packed(4, geometry)
    return f
}

/// A layer message (version 2 unless given).
func layer(name: String, extent: UInt64? = 4096, features: [PB], keys: [String] = [], values: [MVTValue] = [],
           version: UInt64 = 2, extra: (inout PB) -> Void = { _ in }) -> PB {
    var l = PB()
    l.uint(15, version)
    l.string(1, name)
    for f in features { l.message(2, f) }
    for k in keys { l.string(3, k) }
    for v in values { l.message(4, v.message) }
    if let extent { l.uint(5, extent) }
    extra(&l)
    return l
}

/// A tile of the given layers.
func tile(_ layers: [PB], extra: (inout PB) -> Void = { _ in }) -> [UInt8] {
    var t = PB()
    for l in layers { t.message(3, l) }
    extra(&t)
    return t.bytes
}
