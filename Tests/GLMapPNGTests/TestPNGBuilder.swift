/// Builds PNG files of any colour type, bit depth and interlacing, byte by byte, so the decoder is
/// checked against files that glmap's encoder cannot produce. Image data is stored uncompressed
/// (deflate "stored" blocks), every row uses filter 0.
enum TestPNGBuilder {
    /// PNG bytes; `sample(x, y)` returns the channel values of a pixel (1 palette index / grey,
    /// 2 grey+alpha, 3 RGB, 4 RGBA) at the given bit depth.
    static func make(width: Int, height: Int, bitDepth: Int, colorType: UInt8, interlaced: Bool = false,
                     palette: [UInt8]? = nil, transparency: [UInt8]? = nil,
                     sample: (Int, Int) -> [Int]) -> [UInt8] {
        var raw: [UInt8] = []
        let passes: [(Int, Int, Int, Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx))
            let ys = Array(stride(from: y0, to: height, by: dy))
            if xs.isEmpty || ys.isEmpty { continue }
            for y in ys {
                raw.append(0) // filter: none
                var bits = 0, acc = 0
                for x in xs {
                    for value in sample(x, y) {
                        if bitDepth == 16 {
                            raw.append(UInt8(value >> 8)); raw.append(UInt8(value & 0xFF))
                        } else {
                            acc = (acc << bitDepth) | value
                            bits += bitDepth
                            if bits == 8 { raw.append(UInt8(acc)); acc = 0; bits = 0 }
                        }
                    }
                }
                if bits > 0 { raw.append(UInt8(acc << (8 - bits))) }
            }
        }
        var png: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        var ihdr = be32(width) + be32(height)
        ihdr += [UInt8(bitDepth), colorType, 0, 0, interlaced ? 1 : 0]
        chunk("IHDR", ihdr, into: &png)
        if let palette { chunk("PLTE", palette, into: &png) }
        if let transparency { chunk("tRNS", transparency, into: &png) }
        chunk("IDAT", zlibStored(raw), into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    static func be32(_ v: Int) -> [UInt8] {
        [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
        let typed = Array(type.utf8) + data
        png += be32(data.count) + typed + be32(Int(crc32(typed)))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset..<(offset + n)]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return out + be32(Int((b << 16) | a))
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
