import CDeflate
import GLMapCore

/// Writes 8-bit RGBA PNGs with its own row filtering and a fast deflate library: ISA-L's igzip
/// (fastest, the default) or libdeflate (smaller files), both several times faster than zlib (see
/// Benchmarks/README.md, "PNG encoding" and session 6).
/// The output is a plain PNG: signature, IHDR, sRGB, one IDAT, IEND. An image whose every pixel
/// is opaque is written as 8-bit RGB (colour type 2; it decodes to the same pixels with alpha 255):
/// a quarter less data to compress and no alpha conversion; any other as 8-bit RGBA (type 6).
public enum DeflatePNGWriter {
    /// Row filter strategy.
    public enum Filter: Sendable {
        /// Filter type 0 on every row.
        case none
        /// Filter type 2 (Up) on every row.
        case up
        /// Per row, the filter with the smallest sum of absolute signed bytes (libpng's heuristic).
        case adaptive
    }

    /// The deflate library and level.
    public enum Compressor: Sendable, Equatable {
        /// ISA-L's igzip, level 1: the fastest; unfiltered image data of 768 KiB and more in bands.
        case igzip
        /// libdeflate at `level` (1…12): slower, smaller files; always one stream on one thread.
        case libdeflate(level: Int32)
    }

    /// Encodes a straight-alpha image with `compressor` and the given row filters. With igzip,
    /// unfiltered image data of 768 KiB and more is compressed in independent pieces of about
    /// 512 KiB (`ChunkedDeflate`, as pigz does: bands of whole rows, each written and compressed
    /// by one worker), `threads` of them at once; the result is one valid stream, and the same
    /// bytes whatever `threads` is. `singleStream` compresses it as one stream instead (the
    /// baseline the benchmark compares pieces with).
    /// `rgbWhenOpaque: false` keeps RGBA for opaque images too (the benchmark's baseline).
    public static func encode(_ image: StraightImage, compressor: Compressor, filter: Filter,
                              threads: Int = 1, singleStream: Bool = false, rgbWhenOpaque: Bool = true) throws -> [UInt8] {
        try encode(image.pixels, width: image.width, height: image.height, compressor: compressor, filter: filter,
                   unpremultiply: false, threads: threads, singleStream: singleStream, rgbWhenOpaque: rgbWhenOpaque)
    }

    /// Encodes a premultiplied frame as `encode(image.unpremultiplied(), …)` would: each row is
    /// converted to straight alpha (truncating, as `PremultipliedImage.unpremultiplied`) on its
    /// way into the PNG rows, without a second full image.
    public static func encode(_ image: PremultipliedImage, compressor: Compressor, filter: Filter,
                              threads: Int = 1, singleStream: Bool = false, rgbWhenOpaque: Bool = true) throws -> [UInt8] {
        try encode(image.pixels, width: image.width, height: image.height, compressor: compressor, filter: filter,
                   unpremultiply: true, threads: threads, singleStream: singleStream, rgbWhenOpaque: rgbWhenOpaque)
    }

    /// Whether every pixel's alpha is 255 (RGBA bytes; a premultiplied opaque pixel is its straight self).
    public static func isOpaque(_ pixels: [UInt8], count: Int) -> Bool {
        pixels.withUnsafeBytes { raw -> Bool in
            // Four pixels (16 bytes) at a time: AND of their words, alpha in the top byte of each.
            var acc: UInt32 = 0xFFFF_FFFF
            var i = 0
            let n = count / 4
            while i + 4 <= n {
                let o = 4 * i
                acc &= raw.loadUnaligned(fromByteOffset: o, as: UInt32.self) & raw.loadUnaligned(fromByteOffset: o + 4, as: UInt32.self)
                    & raw.loadUnaligned(fromByteOffset: o + 8, as: UInt32.self) & raw.loadUnaligned(fromByteOffset: o + 12, as: UInt32.self)
                if i & 1023 == 0 && acc & 0xFF00_0000 != 0xFF00_0000 { return false }
                i += 4
            }
            while i < n { acc &= raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self); i += 1 }
            return acc & 0xFF00_0000 == 0xFF00_0000
        }
    }

    /// The PNG scanlines of `pixels`: each row behind its filter-type byte, filtered as `filter`
    /// says (premultiplied rows converted to straight alpha first with `unpremultiply`; with
    /// `channels` 3 the image is opaque and each pixel's alpha byte is left out).
    private static func filteredRows(_ pixels: [UInt8], width: Int, height: Int, filter: Filter,
                                     unpremultiply: Bool, channels: Int) -> [UInt8] {
        let stride = width * channels
        let rowLength = stride + 1
        let rgb = channels == 3
        let convert = unpremultiply && !rgb
        // Every byte is written below, so the buffers start uninitialised (no zero-fill pass).
        return [UInt8](unsafeUninitializedCapacity: rowLength * height) { dst, initialized in
            let zeroRow = [UInt8](repeating: 0, count: stride)
            let adaptiveRows = filter == .adaptive ? 4 : 0
            // Converted rows go to a scratch pair (alternating, so the previous one stays for Up
            // and Paeth), unless unfiltered: then straight into the output row.
            let needsScratch = (convert || rgb) && filter != .none
            var rows = [UInt8](repeating: 0, count: stride * adaptiveRows + (needsScratch ? 2 * stride : 0))
            pixels.withUnsafeBufferPointer { src in
              zeroRow.withUnsafeBufferPointer { zero in
                rows.withUnsafeMutableBufferPointer { tmp in
                    let scratch = needsScratch ? tmp.baseAddress! + stride * adaptiveRows : nil
                    var prev: UnsafePointer<UInt8> = zero.baseAddress!
                    for y in 0..<height {
                        let source = src.baseAddress! + y * width * 4
                        let out = dst.baseAddress! + y * rowLength
                        var cur = source
                        if filter == .none {
                            unfilteredRow(source, into: out, width: width, channels: channels, unpremultiply: unpremultiply)
                            continue
                        }
                        if let scratch {
                            let row = scratch + (y & 1) * stride
                            if rgb { dropAlpha(source, into: row, pixels: width) }
                            else { PremultipliedImage.unpremultiply(source, into: row, count: stride) }
                            cur = UnsafePointer(row)
                        }
                        switch filter {
                        case .none:
                            break
                        case .up:
                            out[0] = 2
                            up(cur, prev, out + 1, stride)
                        case .adaptive:
                            adaptive(cur, prev, out, stride, bpp: channels, scratch: tmp.baseAddress!)
                        }
                        prev = cur
                    }
                }
              }
            }
            initialized = rowLength * height
        }
    }

    /// One scanline with filter type 0: the type byte, then the row's pixels (RGB with `channels`
    /// 3, else RGBA converted to straight alpha with `unpremultiply`).
    @inline(__always)
    static func unfilteredRow(_ source: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, width: Int,
                              channels: Int, unpremultiply: Bool) {
        out[0] = 0
        if channels == 3 { dropAlpha(source, into: out + 1, pixels: width) }
        else if unpremultiply { PremultipliedImage.unpremultiply(source, into: out + 1, count: width * 4) }
        else { (out + 1).update(from: source, count: width * 4) }
    }

    /// The zlib stream of the unfiltered scanlines of `pixels`, in bands of rows compressed
    /// independently (`ChunkedDeflate`): each band's scanlines are written, checksummed and
    /// compressed by one worker, `threads` bands at once, so no pass over the image is serial.
    /// The bands depend on the image size only. Nil for an image of one band, or when a band
    /// could not be compressed.
    static func bandedZlib(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, channels: Int, unpremultiply: Bool,
                           threads: Int) -> [UInt8]? {
        let rowLength = width * channels + 1
        let wanted = ChunkedDeflate.pieceCount(rowLength * height)
        guard wanted > 1, height > 1 else { return nil }
        let rowsPerBand = (height + wanted - 1) / wanted
        let bands = (height + rowsPerBand - 1) / rowsPerBand
        let source = UnsafeSendable(pixels)   // read only, by every worker
        return ChunkedDeflate.zlib(pieces: bands, threads: threads) { band, compress in
            let y0 = band * rowsPerBand, y1 = min(height, y0 + rowsPerBand)
            let rows = [UInt8](unsafeUninitializedCapacity: (y1 - y0) * rowLength) { out, initialized in
                for y in y0..<y1 {
                    unfilteredRow(source.value + y * width * 4, into: out.baseAddress! + (y - y0) * rowLength,
                                  width: width, channels: channels, unpremultiply: unpremultiply)
                }
                initialized = (y1 - y0) * rowLength
            }
            return rows.withUnsafeBufferPointer { compress($0.baseAddress!, $0.count) }
        }
    }

    /// RGBA pixels to RGB (the alpha byte of each left out).
    @inline(__always)
    static func dropAlpha(_ src: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>, pixels: Int) {
        // Two pixels a step: one 8-byte load, their six colour bytes as one 8-byte store whose two
        // extra bytes the next step overwrites (so the last pixels, where they would fall past
        // the row, go byte by byte).
        let s = UnsafeRawPointer(src), d = UnsafeMutableRawPointer(dst)
        var i = 0
        while i + 3 <= pixels {
            let v = s.loadUnaligned(fromByteOffset: 4 * i, as: UInt64.self).littleEndian
            d.storeBytes(of: ((v & 0xFF_FFFF) | ((v >> 8) & 0xFFFF_FF00_0000)).littleEndian, toByteOffset: 3 * i, as: UInt64.self)
            i += 2
        }
        while i < pixels {
            dst[3 * i] = src[4 * i]; dst[3 * i + 1] = src[4 * i + 1]; dst[3 * i + 2] = src[4 * i + 2]
            i += 1
        }
    }

    /// The PNG of `pixels` (straight, or premultiplied and converted per row with `unpremultiply`).
    private static func encode(_ pixels: [UInt8], width: Int, height: Int, compressor: Compressor, filter: Filter,
                               unpremultiply: Bool, threads: Int, singleStream: Bool, rgbWhenOpaque: Bool) throws -> [UInt8] {
        let rgb = rgbWhenOpaque && isOpaque(pixels, count: width * height * 4)
        let channels = rgb ? 3 : 4
        var head: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr: [UInt8] = []
        append32(&ihdr, UInt32(width)); append32(&ihdr, UInt32(height))
        ihdr += [8, rgb ? 2 : 6, 0, 0, 0]  // 8-bit, RGB or RGBA, deflate, adaptive filtering, no interlace
        chunk(&head, "IHDR", ihdr[...])
        chunk(&head, "sRGB", [0][...])  // perceptual rendering intent, like libpng's writer
        var tail: [UInt8] = []
        chunk(&tail, "IEND", [][...])

        if compressor == .igzip, filter == .none, !singleStream, let z = pixels.withUnsafeBufferPointer({
            bandedZlib($0.baseAddress!, width: width, height: height, channels: channels, unpremultiply: unpremultiply,
                       threads: threads)
        }) {
            return png(head: head, idat: z, tail: tail)
        }
        let filtered = filteredRows(pixels, width: width, height: height, filter: filter, unpremultiply: unpremultiply,
                                    channels: channels)
        let idat: [UInt8]?
        switch compressor {
        case .igzip:
            idat = filtered.withUnsafeBufferPointer { Igzip().compress($0.baseAddress!, count: $0.count, ending: .zlibStream) }
        case .libdeflate(let level):
            idat = try libdeflateZlib(filtered, level: level)
        }
        guard let idat else { throw PNGError(.encode, path: nil, message: "the deflate library could not compress the image data") }
        return png(head: head, idat: idat, tail: tail)
    }

    /// `bytes` as one zlib stream by libdeflate at `level`; nil when it fails to compress.
    static func libdeflateZlib(_ bytes: [UInt8], level: Int32) throws -> [UInt8]? {
        guard let compressor = libdeflate_alloc_compressor(level) else {
            throw PNGError(.encode, path: nil, message: "libdeflate could not allocate a compressor (out of memory?)")
        }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, bytes.count)
        var size = 0
        let out = [UInt8](unsafeUninitializedCapacity: bound) { o, initialized in
            size = bytes.withUnsafeBytes { libdeflate_zlib_compress(compressor, $0.baseAddress, $0.count, o.baseAddress, bound) }
            initialized = size
        }
        return size > 0 ? out : nil
    }

    /// `head`, one IDAT chunk holding `idat`, then `tail`.
    static func png(head: [UInt8], idat: [UInt8], tail: [UInt8]) -> [UInt8] {
        var png = head
        png.reserveCapacity(head.count + idat.count + 12 + tail.count)
        chunk(&png, "IDAT", idat[...])
        return png + tail
    }

    @inline(__always)
    static func up(_ cur: UnsafePointer<UInt8>, _ prev: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ n: Int) {
        for i in 0..<n { out[i] = cur[i] &- prev[i] }
    }

    /// Tries Sub, Up, Average and Paeth (and None) and keeps the row with the smallest sum of
    /// absolute values of the bytes read as signed.
    static func adaptive(_ cur: UnsafePointer<UInt8>, _ prev: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>,
                         _ n: Int, bpp: Int, scratch: UnsafeMutablePointer<UInt8>) {
        @inline(__always) func cost(_ p: UnsafePointer<UInt8>) -> Int {
            var s = 0
            for i in 0..<n { let v = Int(Int8(bitPattern: p[i])); s += v < 0 ? -v : v }
            return s
        }
        let sub = scratch, upRow = scratch + n, avg = scratch + 2 * n, paeth = scratch + 3 * n
        for i in 0..<n {
            let a = i >= bpp ? Int(cur[i - bpp]) : 0
            let b = Int(prev[i])
            let c = i >= bpp ? Int(prev[i - bpp]) : 0
            let x = cur[i]
            sub[i] = x &- UInt8(a)
            upRow[i] = x &- UInt8(b)
            avg[i] = x &- UInt8((a + b) >> 1)
            let p = a + b - c
            let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
            let pred = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            paeth[i] = x &- UInt8(pred)
        }
        var best = 0, bestCost = cost(cur)
        var bestRow = UnsafeMutablePointer(mutating: cur)
        for (t, row) in [(1, sub), (2, upRow), (3, avg), (4, paeth)] {
            let c = cost(UnsafePointer(row))
            if c < bestCost { bestCost = c; best = t; bestRow = row }
        }
        out[0] = UInt8(best)
        (out + 1).update(from: bestRow, count: n)
    }

    static func append32(_ a: inout [UInt8], _ v: UInt32) {
        a += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    static func chunk(_ png: inout [UInt8], _ type: String, _ data: ArraySlice<UInt8>) {
        append32(&png, UInt32(data.count))
        let start = png.count
        png += Array(type.utf8)
        png += data
        let crc = png[start...].withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        append32(&png, crc)
    }
}
