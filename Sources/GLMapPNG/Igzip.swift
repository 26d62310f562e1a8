import CISAL

/// ISA-L's igzip deflate compressor (Debian's libisal), level 1: on map frames ~6× libdeflate
/// level 3's speed for 6–46 % larger output on the six scenes (Benchmarks/README.md, session 6). One instance
/// holds one stream's work buffer: use it from one thread at a time, for any number of inputs.
final class Igzip {
    private let levelBuffer: UnsafeMutablePointer<UInt8>
    private let levelBufferSize = Int(glmap_isal_level1_buffer_size)

    init() {
        levelBuffer = .allocate(capacity: levelBufferSize)
    }

    deinit { levelBuffer.deallocate() }

    /// How the compressed bytes end.
    enum Ending {
        /// A complete zlib stream (RFC 1950 header, deflate data, Adler-32).
        case zlibStream
        /// Raw deflate that ends the stream (its last block final).
        case finalPiece
        /// Raw deflate ending in a sync flush: an empty stored block after the last block, so the
        /// bytes end on a byte boundary and the next piece's deflate data may follow them.
        case syncFlushedPiece
    }

    /// Compresses `count` bytes at `data`; nil when igzip reports an error.
    func compress(_ data: UnsafePointer<UInt8>, count: Int, ending: Ending) -> [UInt8]? {
        var stream = isal_zstream()
        isal_deflate_init(&stream)
        stream.level = 1
        stream.level_buf = levelBuffer
        stream.level_buf_size = UInt32(levelBufferSize)
        stream.gzip_flag = UInt16(ending == .zlibStream ? IGZIP_ZLIB : IGZIP_DEFLATE)
        stream.end_of_stream = ending == .syncFlushedPiece ? 0 : 1
        stream.flush = UInt16(ending == .syncFlushedPiece ? SYNC_FLUSH : NO_FLUSH)
        stream.next_in = UnsafeMutablePointer(mutating: data)
        // Map frames shrink 20–50×; noise may grow a little: start at a tenth plus slack and grow.
        var out = [UInt8](repeating: 0, count: count / 10 + 1024)
        var written = 0
        var remaining = count
        while true {
            let chunk = min(remaining, Int(UInt32.max >> 1))   // avail_in is 32 bits
            stream.avail_in = UInt32(chunk)
            if ending != .syncFlushedPiece { stream.end_of_stream = remaining == chunk ? 1 : 0 }
            let status: Int32 = out.withUnsafeMutableBufferPointer { o in
                stream.next_out = o.baseAddress! + written
                stream.avail_out = UInt32(min(o.count - written, Int(UInt32.max >> 1)))
                let before = stream.avail_out
                let r = isal_deflate(&stream)
                written += Int(before - stream.avail_out)
                return r
            }
            guard status == COMP_OK else { return nil }
            remaining -= chunk - Int(stream.avail_in)
            let done = ending == .syncFlushedPiece
                ? remaining == 0 && stream.avail_in == 0 && stream.internal_state.state == ZSTATE_NEW_HDR && written < out.count
                : stream.internal_state.state == ZSTATE_END
            if done { break }
            if written == out.count { out.append(contentsOf: repeatElement(0, count: out.count)) }   // the output was full
        }
        out.removeLast(out.count - written)
        return out
    }
}
