import XCTest
import CDeflate
import GLMapCore
@testable import GLMapPNG

/// One image compressed in independent pieces (ChunkedDeflate) is one valid zlib stream: it
/// inflates (libdeflate) to the input, and the PNG decodes (libpng) to the image, for flat,
/// noisy and map-like data, stored-block-heavy data and every piece count.
final class ChunkedDeflateTests: XCTestCase {
    /// A map-like opaque image: flat areas, hard edges, a gradient and a noisy band.
    static func image(width: Int, height: Int, seed: UInt64 = 1) -> StraightImage {
        var img = StraightImage(width: width, height: height)
        var s = seed
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                var p: [UInt8]
                if y < height / 3 { p = (x / 97 + y / 61) % 2 == 0 ? [240, 235, 220, 255] : [170, 210, 240, 255] }
                else if y < 2 * height / 3 { p = [UInt8(x & 255), UInt8(y & 255), UInt8((x ^ y) & 255), 255] }
                else {
                    s = s &* 6364136223846793005 &+ 1442695040888963407
                    p = [UInt8(s >> 56), UInt8((s >> 48) & 255), UInt8((s >> 40) & 255), 255]
                }
                img.pixels[i] = p[0]; img.pixels[i + 1] = p[1]; img.pixels[i + 2] = p[2]; img.pixels[i + 3] = p[3]
            }
        }
        return img
    }

    func inflateZlib(_ z: [UInt8], expected: Int) throws -> [UInt8] {
        let d = libdeflate_alloc_decompressor()!
        defer { libdeflate_free_decompressor(d) }
        var out = [UInt8](repeating: 0, count: expected)
        var actual = 0
        let r = z.withUnsafeBytes { zb in
            out.withUnsafeMutableBytes { ob in
                libdeflate_zlib_decompress(d, zb.baseAddress, zb.count, ob.baseAddress, ob.count, &actual)
            }
        }
        XCTAssertEqual(r, LIBDEFLATE_SUCCESS, "libdeflate rejects the joined stream")
        XCTAssertEqual(actual, expected)
        return out
    }

    func testJoinedPiecesInflateToTheInput() throws {
        let img = Self.image(width: 700, height: 900)
        let data = img.pixels
        for level: Int32 in [1, 6, 9] {
            for pieceSize in [64 << 10, 256 << 10, 1 << 20] {
                var outputs: [[UInt8]] = []
                for threads in [1, 3] {
                    let z = try XCTUnwrap(data.withUnsafeBufferPointer {
                        ChunkedDeflate.zlib($0.baseAddress!, count: $0.count, level: level, threads: threads, pieceSize: pieceSize)
                    }, "level \(level), pieces of \(pieceSize): the walker gave up")
                    XCTAssertEqual(try inflateZlib(z, expected: data.count), data, "level \(level), pieces of \(pieceSize), \(threads) threads")
                    outputs.append(z)
                }
                XCTAssertEqual(outputs[0], outputs[1], "the bytes do not depend on the thread count")
            }
        }
    }

    func testIncompressibleAndConstantInputs() throws {
        var s: UInt64 = 7
        let noise = (0..<(1 << 20)).map { _ -> UInt8 in s = s &* 6364136223846793005 &+ 1; return UInt8(s >> 56) }  // stored blocks
        let flat = [UInt8](repeating: 42, count: 1 << 20)                                                         // one long match
        for data in [noise, flat] {
            let z = try XCTUnwrap(data.withUnsafeBufferPointer {
                ChunkedDeflate.zlib($0.baseAddress!, count: $0.count, level: 6, threads: 2, pieceSize: 300_000)
            })
            XCTAssertEqual(try inflateZlib(z, expected: data.count), data)
        }
    }

    func testThePieceCountDependsOnTheSizeOnly() {
        let size = ChunkedDeflate.pieceSize
        XCTAssertEqual(ChunkedDeflate.pieceCount(size), 1)
        XCTAssertEqual(ChunkedDeflate.pieceCount(size * 3 / 2 - 1), 1)
        XCTAssertEqual(ChunkedDeflate.pieceCount(1024 * 1025 * 4), 8, "a 1024² RGBA frame: eight pieces")
        let data = [UInt8](repeating: 1, count: size)
        XCTAssertNil(data.withUnsafeBufferPointer { ChunkedDeflate.zlib($0.baseAddress!, count: $0.count, level: 6, threads: 4) })
    }

    func testTheWalkerFindsTheFinalBlockAndRejectsGarbage() {
        // A fixed-Huffman stream libdeflate writes for a tiny input: one final block.
        let c = libdeflate_alloc_compressor(6)!
        defer { libdeflate_free_compressor(c) }
        let input: [UInt8] = Array("hello hello hello".utf8)
        var out = [UInt8](repeating: 0, count: 64)
        let n = out.withUnsafeMutableBytes { libdeflate_deflate_compress(c, input, input.count, $0.baseAddress, 64) }
        let walk = out.withUnsafeBufferPointer { DeflateBlockWalker.walk($0.baseAddress!, count: n) }
        XCTAssertEqual(walk?.lastHeaderBit, 0)
        XCTAssertEqual(((walk?.endBit ?? 0) + 7) / 8, n, "the stream ends in its last byte")
        let garbage: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]   // BTYPE 11 is reserved
        XCTAssertNil(garbage.withUnsafeBufferPointer { DeflateBlockWalker.walk($0.baseAddress!, count: $0.count) })
        XCTAssertNil(out.withUnsafeBufferPointer { DeflateBlockWalker.walk($0.baseAddress!, count: n / 2) }, "a cut stream")
    }

    func testCombinedAdler32IsTheChecksumOfTheWhole() {
        var s: UInt64 = 3
        let data = (0..<200_000).map { _ -> UInt8 in s = s &* 6364136223846793005 &+ 1; return UInt8(s >> 56) }
        let whole = UInt32(libdeflate_adler32(1, data, data.count))
        for cut in [0, 1, 5552, 65521, 65522, 131_042, 199_999, 200_000] {
            let a = data[..<cut].withUnsafeBufferPointer { UInt32(libdeflate_adler32(1, $0.baseAddress, $0.count)) }
            let b = data[cut...].withUnsafeBufferPointer { UInt32(libdeflate_adler32(1, $0.baseAddress, $0.count)) }
            XCTAssertEqual(ChunkedDeflate.adler32Combine(a, b, length: data.count - cut), whole, "cut at \(cut)")
        }
        let ones = [UInt8](repeating: 0xFF, count: 1 << 20)   // both sums wrap many times
        let a = ones.withUnsafeBufferPointer { UInt32(libdeflate_adler32(1, $0.baseAddress, 700_001)) }
        let b = ones.withUnsafeBufferPointer { UInt32(libdeflate_adler32(1, $0.baseAddress! + 700_001, ones.count - 700_001)) }
        XCTAssertEqual(ChunkedDeflate.adler32Combine(a, b, length: ones.count - 700_001), UInt32(libdeflate_adler32(1, ones, ones.count)))
    }

    /// A translucent premultiplied frame goes through the row bands as RGBA, converted to straight
    /// alpha band by band: the same bytes on 1 and 3 threads, decoding to the unpremultiplied image.
    func testBandsOfATranslucentPremultipliedFrame() throws {
        let straight = Self.image(width: 900, height: 700, seed: 9)
        var frame = PremultipliedImage(width: 900, height: 700)
        for i in stride(from: 0, to: straight.pixels.count, by: 4) {
            let a = UInt8((i / 4) % 256)
            frame.pixels[i + 3] = a
            for c in 0..<3 { frame.pixels[i + c] = UInt8(Int(straight.pixels[i + c]) * Int(a) / 255) }
        }
        XCTAssertGreaterThan(ChunkedDeflate.pieceCount((900 * 4 + 1) * 700), 1)
        let one = try DeflatePNGWriter.encode(frame, level: 3, filter: .none, threads: 1)
        let three = try DeflatePNGWriter.encode(frame, level: 3, filter: .none, threads: 3)
        XCTAssertEqual(one, three)
        XCTAssertEqual(one[25], 6, "colour type RGBA")
        XCTAssertEqual(try PNGDecoder.decode(three).pixels, frame.unpremultiplied().pixels)
        let single = try DeflatePNGWriter.encode(frame, level: 3, filter: .none, singleStream: true)
        XCTAssertEqual(try PNGDecoder.decode(single).pixels, try PNGDecoder.decode(three).pixels)
    }

    func testPNGFromPiecesDecodesWithLibPNG() throws {
        for (w, h) in [(1024, 1024), (333, 2000)] {
            let img = Self.image(width: w, height: h, seed: UInt64(w))
            let one = try DeflatePNGWriter.encode(img, level: 6, filter: .none)
            let parallel = try DeflatePNGWriter.encode(img, level: 6, filter: .none, threads: 4)
            XCTAssertEqual(one, parallel, "\(w)x\(h): the same bytes on 1 and 4 threads")
            XCTAssertGreaterThan(ChunkedDeflate.pieceCount((w * 4 + 1) * h), 1, "\(w)x\(h): compressed in pieces")
            XCTAssertEqual(try PNGDecoder.decode(parallel).pixels, img.pixels, "\(w)x\(h)")
            // The single-stream size for comparison: libdeflate over the same filtered rows.
            var rows: [UInt8] = []
            for y in 0..<h { rows.append(0); rows += img.pixels[(y * w * 4)..<((y + 1) * w * 4)] }
            let c = libdeflate_alloc_compressor(6)!
            defer { libdeflate_free_compressor(c) }
            var out = [UInt8](repeating: 0, count: rows.count + 1024)
            let single = out.withUnsafeMutableBytes { libdeflate_zlib_compress(c, rows, rows.count, $0.baseAddress, $0.count) }
            XCTAssertLessThan(Double(parallel.count), Double(single + 100) * 1.02, "\(w)x\(h): pieces cost under 2 % of the size")
        }
    }
}
