// Chunked deflate — contract
// Input: a PNG's scanlines in consecutive bands of rows, each band produced by the worker that
// compresses it (so producing runs in parallel too). Output: one zlib stream (RFC 1950) whose
// deflate data (RFC 1951) is the bands compressed independently by ISA-L's igzip (`Igzip`, on
// separate threads, as pigz does) and joined: every band but the last ends in a sync flush (an
// empty stored block that ends it on a byte boundary, zlib's Z_SYNC_FLUSH), the last one ends the
// stream; the Adler-32 is combined from the bands' own. The split depends on the input size only
// (bands of about `pieceSize` bytes), never on the thread count, so an image always gives the same
// bytes; `threads` only sets how many bands compress at once, each taken by the next free worker.
// Back-references never cross a band boundary, so bands cost a little ratio (under 1 % on 1024²
// map frames with 512 KiB bands). An igzip error returns nil and the caller compresses the whole
// input as one stream instead, so the output is always valid.
import CDeflate
import GLMapCore
import Foundation

/// Compresses pieces of one zlib stream in parallel with igzip.
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

    /// Compresses `n` consecutive pieces of one stream, `threads` at once, each taken by the next
    /// free worker: `piece(i, body)` produces piece i's bytes (in memory of its own, so producing
    /// runs in parallel too) and hands them to `body`. The Adler-32 of each piece is computed
    /// where it is produced and the checksums are combined, so no pass over the whole input is
    /// serial. Nil when a piece could not be compressed.
    static func zlib(pieces n: Int, threads: Int,
                     piece: @Sendable (Int, (UnsafePointer<UInt8>, Int) -> Piece?) -> Piece?) -> [UInt8]? {
        guard n > 0 else { return nil }
        let results = Locked<[Piece?]>(Array(repeating: nil, count: n))   // one slot per piece
        let next = Locked(0)
        let workers = max(1, min(threads, n))
        @Sendable func work(_: Int) {
            let compressor = Igzip()   // one per worker
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
        var out: [UInt8] = [0x78, 0x01]   // deflate, 32 KiB window, "fastest" level, no preset dictionary
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

    /// One piece as raw deflate: the final one ends the stream, any other ends in a sync flush.
    static func compress(_ data: UnsafePointer<UInt8>, count: Int, with c: Igzip, final: Bool) -> Piece? {
        guard let bytes = c.compress(data, count: count, ending: final ? .finalPiece : .syncFlushedPiece) else { return nil }
        return Piece(bytes: bytes, adler: UInt32(libdeflate_adler32(1, data, count)), length: count)
    }
}
