import XCTest
import CDeflate
import GLMapCore
@testable import GLMapPNG

/// One image compressed in independent pieces (ChunkedDeflate) is one valid zlib stream: it
/// inflates (libdeflate) to the input, and the PNG decodes (libpng) to the image, for flat,
/// noisy and map-like data, stored-block-heavy data and every piece count.
final class ChunkedDeflateTests: XCTestCase {
    /// A map-like opaque image: flat areas, hard edges, a gradient and a noisy band.
    static func image(width: Int, height: Int, seed: UInt64 = 1) -> RGBAImage {
        var img = RGBAImage(width: width, height: height)
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
            for pieces in [2, 3, 4, 7] {
                let z = try XCTUnwrap(data.withUnsafeBufferPointer { ChunkedDeflate.zlib($0.baseAddress!, count: $0.count, level: level, pieces: pieces) },
                                      "level \(level), \(pieces) pieces: the walker gave up")
                XCTAssertEqual(try inflateZlib(z, expected: data.count), data, "level \(level), \(pieces) pieces")
            }
        }
    }

    func testIncompressibleAndConstantInputs() throws {
        var s: UInt64 = 7
        let noise = (0..<(1 << 20)).map { _ -> UInt8 in s = s &* 6364136223846793005 &+ 1; return UInt8(s >> 56) }  // stored blocks
        let flat = [UInt8](repeating: 42, count: 1 << 20)                                                         // one long match
        for data in [noise, flat] {
            let z = try XCTUnwrap(data.withUnsafeBufferPointer { ChunkedDeflate.zlib($0.baseAddress!, count: $0.count, level: 6, pieces: 3) })
            XCTAssertEqual(try inflateZlib(z, expected: data.count), data)
        }
    }

    func testSmallInputsStayOneStream() {
        let data = [UInt8](repeating: 1, count: ChunkedDeflate.minimumPiece)
        XCTAssertNil(data.withUnsafeBufferPointer { ChunkedDeflate.zlib($0.baseAddress!, count: $0.count, level: 6, pieces: 4) })
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

    func testPNGFromPiecesDecodesWithLibPNG() throws {
        for (w, h) in [(1024, 1024), (333, 2000)] {
            let img = Self.image(width: w, height: h, seed: UInt64(w))
            let one = try DeflatePNGWriter.encode(img, level: 6, filter: .none)
            let parallel = try DeflatePNGWriter.encode(img, level: 6, filter: .none, threads: 4)
            XCTAssertNotEqual(one, parallel, "\(w)x\(h): the pieces path was taken")
            XCTAssertEqual(try PNGDecoder.decode(parallel).pixels, img.pixels, "\(w)x\(h)")
            XCTAssertLessThan(Double(parallel.count), Double(one.count) * 1.02, "\(w)x\(h): pieces cost under 2 % of the size")
        }
    }
}
