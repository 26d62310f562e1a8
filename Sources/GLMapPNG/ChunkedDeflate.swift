// Chunked deflate — contract
// Input: bytes split into consecutive pieces (a plain buffer cut evenly, or a PNG's scanlines in
// bands of rows that each worker writes itself). Output: one zlib stream (RFC 1950) whose deflate
// data (RFC 1951) is the pieces compressed independently (on separate threads, as pigz does) and
// joined: every piece but the last is libdeflate's raw deflate output with its final block's
// BFINAL bit cleared and an empty stored block appended (zlib's Z_SYNC_FLUSH marker, which also
// aligns the next piece to a byte), the last piece ends the stream; the Adler-32 is combined from
// the pieces' own. The split depends on the input size only (pieces of about `pieceSize` bytes),
// never on the thread count, so an image always gives the same bytes; `threads` only sets how many
// pieces compress at once, each taken by the next free worker. Back-references never cross a
// piece boundary, so pieces cost a little ratio (0.3–0.6 % on 1024² map frames with 512 KiB
// pieces). libdeflate has no flush API, so the end of a piece's last block is found by walking
// its blocks (`DeflateBlockWalker`: headers, Huffman tables, symbols; no output is produced). Any
// surprise there (a stream it cannot walk) returns nil and the caller compresses the whole input
// as one stream instead, so the output is always valid.
import CDeflate
import GLMapCore
import Foundation

/// Compresses pieces of one zlib stream in parallel with libdeflate.
enum ChunkedDeflate {
    /// Raw deflate of one piece, ready to concatenate: `bytes` (a non-final piece ends
    /// byte-aligned after its sync-flush marker).
    struct Piece {
        var bytes: [UInt8]
        /// The Adler-32 and length of the uncompressed piece.
        var adler: UInt32
        var length: Int
    }

    /// The number of pieces for `count` bytes (1: compress as one stream).
    static func pieceCount(_ count: Int, pieceSize: Int = pieceSize) -> Int {
        max(1, (count + pieceSize / 2) / max(1, pieceSize))
    }

    /// Compresses `count` bytes at `base` as `pieceCount(count)` independent parts, `threads` of
    /// them at once; nil when the input is one piece or a part could not be compressed or walked
    /// (then compress it as one stream).
    static func zlib(_ base: UnsafePointer<UInt8>, count: Int, level: Int32, threads: Int,
                     pieceSize: Int = pieceSize) -> [UInt8]? {
        let n = pieceCount(count, pieceSize: pieceSize)
        guard n > 1 else { return nil }
        let size = (count + n - 1) / n
        let input = UnsafeSendable(base)   // read only, by every worker
        return zlib(pieces: n, level: level, threads: threads) { i, body in
            let start = i * size
            return body(input.value + start, min(count, start + size) - start)
        }
    }

    /// Compresses `n` consecutive pieces of one stream, `threads` at once, each taken by the next
    /// free worker: `piece(i, body)` produces piece i's bytes (in memory of its own, so producing
    /// runs in parallel too) and hands them to `body`. The Adler-32 of each piece is computed
    /// where it is produced and the checksums are combined, so no pass over the whole input is
    /// serial. Nil when a piece could not be compressed or walked.
    static func zlib(pieces n: Int, level: Int32, threads: Int,
                     piece: @Sendable (Int, (UnsafePointer<UInt8>, Int) -> Piece?) -> Piece?) -> [UInt8]? {
        guard n > 0 else { return nil }
        let results = Locked<[Piece?]>(Array(repeating: nil, count: n))   // one slot per piece
        let next = Locked(0)
        let workers = max(1, min(threads, n))
        @Sendable func work(_: Int) {
            guard let compressor = libdeflate_alloc_compressor(level) else { return }   // one per worker
            defer { libdeflate_free_compressor(compressor) }
            while true {
                let i = next.withLock { v -> Int in defer { v += 1 }; return v }
                guard i < n else { return }
                let p = piece(i) { compress($0, count: $1, with: compressor, final: i == n - 1) }
                results.withLock { $0[i] = p }
            }
        }
        if workers == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: work) }
        let pieces = results.value
        var total = 6
        for p in pieces { guard let p else { return nil }; total += p.bytes.count }
        var out: [UInt8] = [0x78, 0x9C]   // deflate, 32 KiB window, check bits; no preset dictionary
        out.reserveCapacity(total)
        var adler: UInt32 = 1
        for case let p? in pieces {
            out.append(contentsOf: p.bytes)
            adler = adler32Combine(adler, p.adler, length: p.length)
        }
        out += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return out
    }

    /// The Adler-32 of A followed by B from the checksums of A and B and B's length (RFC 1950's
    /// two sums: the first adds B's bytes, the second adds B's sum plus A's first sum once per
    /// byte of B, all modulo 65521).
    static func adler32Combine(_ a: UInt32, _ b: UInt32, length: Int) -> UInt32 {
        let base: UInt64 = 65521
        let n = UInt64(length) % base
        let a1 = UInt64(a & 0xFFFF), a2 = UInt64(a >> 16)
        let b1 = UInt64(b & 0xFFFF), b2 = UInt64(b >> 16)
        let s1 = (a1 + b1 + base - 1) % base
        let s2 = (a2 + b2 + n * a1 + base - n) % base
        return UInt32(s2 << 16 | s1)
    }

    /// Bytes per piece (inputs under 1.5 pieces stay one stream).
    static let pieceSize = 1 << 19

    /// One piece as raw deflate; a non-final one with BFINAL cleared and a sync-flush marker.
    static func compress(_ data: UnsafePointer<UInt8>, count: Int, with c: OpaquePointer, final: Bool) -> Piece? {
        let bound = libdeflate_deflate_compress_bound(c, count)
        var size = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: bound + 5) { out, initialized in
            size = libdeflate_deflate_compress(c, data, count, out.baseAddress, bound)
            initialized = size
        }
        guard size > 0 else { return nil }
        let adler = UInt32(libdeflate_adler32(1, data, count))
        if final { return Piece(bytes: bytes, adler: adler, length: count) }
        guard let walk = bytes.withUnsafeBufferPointer({ DeflateBlockWalker.walk($0.baseAddress!, count: size) }) else { return nil }
        // Clear BFINAL of the last block, then write an empty stored block (BFINAL 0, BTYPE 00,
        // padding to the byte, LEN 0000, NLEN FFFF) right after its end-of-block code.
        bytes[walk.lastHeaderBit >> 3] &= ~(UInt8(1) << UInt8(walk.lastHeaderBit & 7))
        let headerEnd = walk.endBit + 3
        let byteCount = (headerEnd + 7) >> 3
        while bytes.count < byteCount { bytes.append(0) }   // the stored header may need one more byte
        var bit = walk.endBit
        while bit < byteCount * 8 {   // the stored header's three zero bits and the padding
            bytes[bit >> 3] &= ~(UInt8(1) << UInt8(bit & 7))
            bit += 1
        }
        bytes.removeLast(bytes.count - byteCount)
        bytes += [0x00, 0x00, 0xFF, 0xFF]
        return Piece(bytes: bytes, adler: adler, length: count)
    }
}

/// Walks a raw deflate stream's blocks without inflating it: where the final block's header is
/// and where the stream's last end-of-block code ends (bit positions, LSB-first as RFC 1951 packs
/// them). Nil for anything that is not a complete, well-formed stream.
enum DeflateBlockWalker {
    struct Result { var lastHeaderBit: Int; var endBit: Int }

    static let lengthExtra: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// A canonical Huffman decoding table: index = the next `bits` stream bits, entry =
    /// symbol << 4 | code length (0: no code).
    struct Table {
        var entries: [UInt16]
        var bits: Int

        init?(_ lengths: ArraySlice<UInt8>) {
            let maxLen = Int(lengths.max() ?? 0)
            guard maxLen > 0, maxLen <= 15 else { return nil }
            bits = maxLen
            entries = [UInt16](repeating: 0, count: 1 << maxLen)
            var count = [Int](repeating: 0, count: 16)
            for l in lengths { count[Int(l)] += 1 }
            count[0] = 0
            var next = [Int](repeating: 0, count: 16)
            var code = 0
            for l in 1...15 { code = (code + count[l - 1]) << 1; next[l] = code }
            for (i, l8) in lengths.enumerated() where l8 > 0 {
                let l = Int(l8)
                let c = next[l]; next[l] += 1
                guard c < (1 << l) else { return nil }   // over-subscribed
                var r = 0   // the code's bits reversed (streams carry codes MSB first)
                for b in 0..<l where c & (1 << b) != 0 { r |= 1 << (l - 1 - b) }
                var k = r
                while k < entries.count { entries[k] = UInt16(i << 4 | l); k += 1 << l }
            }
        }
    }

    struct Reader {
        let base: UnsafePointer<UInt8>
        let count: Int
        var bit = 0

        /// The next `n` (≤ 25) bits without consuming them (zeros past the end).
        @inline(__always) func peek(_ n: Int) -> Int {
            let byte = bit >> 3
            var v: UInt64 = 0
            if byte + 8 <= count {
                v = UnsafeRawPointer(base + byte).loadUnaligned(as: UInt64.self).littleEndian
            } else {
                for i in 0..<8 where byte + i < count { v |= UInt64(base[byte + i]) << (8 * UInt64(i)) }
            }
            return Int(truncatingIfNeeded: v >> UInt64(bit & 7)) & ((1 << n) - 1)
        }
        @inline(__always) mutating func read(_ n: Int) -> Int { let v = peek(n); bit += n; return v }
        var pastEnd: Bool { bit > count * 8 }

        @inline(__always) mutating func decode(_ t: Table) -> Int? {
            let e = Int(t.entries[peek(t.bits)])
            let len = e & 15
            guard len > 0 else { return nil }
            bit += len
            return e >> 4
        }
    }

    static func walk(_ base: UnsafePointer<UInt8>, count: Int) -> Result? {
        var r = Reader(base: base, count: count)
        var fixedTables: (Table, Table)?
        while true {
            let header = r.bit
            let final = r.read(1) == 1
            let type = r.read(2)
            switch type {
            case 0:
                r.bit = (r.bit + 7) & ~7
                let len = r.read(16), nlen = r.read(16)
                guard len ^ nlen == 0xFFFF else { return nil }
                r.bit += len * 8
            case 1, 2:
                let lit: Table, dist: Table
                if type == 1 {
                    if fixedTables == nil {
                        var l = [UInt8](repeating: 8, count: 288)
                        for i in 144..<256 { l[i] = 9 }
                        for i in 256..<280 { l[i] = 7 }
                        guard let a = Table(l[...]), let b = Table([UInt8](repeating: 5, count: 30)[...]) else { return nil }
                        fixedTables = (a, b)
                    }
                    (lit, dist) = fixedTables!
                } else {
                    let hlit = r.read(5) + 257, hdist = r.read(5) + 1, hclen = r.read(4) + 4
                    var cl = [UInt8](repeating: 0, count: 19)
                    for i in 0..<hclen { cl[codeLengthOrder[i]] = UInt8(r.read(3)) }
                    guard let clTable = Table(cl[...]) else { return nil }
                    var lengths: [UInt8] = []
                    lengths.reserveCapacity(hlit + hdist)
                    while lengths.count < hlit + hdist {
                        guard let s = r.decode(clTable) else { return nil }
                        switch s {
                        case 0...15: lengths.append(UInt8(s))
                        case 16:
                            guard let prev = lengths.last else { return nil }
                            lengths += Array(repeating: prev, count: 3 + r.read(2))
                        case 17: lengths += Array(repeating: 0, count: 3 + r.read(3))
                        default: lengths += Array(repeating: 0, count: 11 + r.read(7))
                        }
                        if r.pastEnd { return nil }
                    }
                    guard lengths.count == hlit + hdist, lengths[256] > 0,
                          let a = Table(lengths[0..<hlit]) else { return nil }
                    let d = lengths[hlit...]
                    if d.allSatisfy({ $0 == 0 }) {   // no distances: only literals (a valid, rare block)
                        guard let b = Table([1][...]) else { return nil }
                        dist = b
                    } else {
                        guard let b = Table(d) else { return nil }
                        dist = b
                    }
                    lit = a
                }
                while true {
                    guard let s = r.decode(lit) else { return nil }
                    if s < 256 { continue }
                    if s == 256 { break }
                    guard s <= 285 else { return nil }
                    r.bit += Int(lengthExtra[s - 257])
                    guard let d = r.decode(dist), d < 30 else { return nil }
                    if d >= 4 { r.bit += d / 2 - 1 }
                    if r.pastEnd { return nil }
                }
            default:
                return nil
            }
            if r.pastEnd { return nil }
            if final { return Result(lastHeaderBit: header, endBit: r.bit) }
        }
    }
}
