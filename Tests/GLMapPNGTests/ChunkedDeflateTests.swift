import XCTest
import CDeflate
import GLMapCore
@testable import GLMapPNG

/// One image compressed in independent pieces (ChunkedDeflate, igzip) is one valid zlib stream:
/// it inflates (libdeflate) to the input, and the PNG decodes (libpng) to the image, for flat,
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

    /// `data` cut evenly into pieces of about `pieceSize` bytes, compressed `threads` at once.
    func zlib(_ data: [UInt8], threads: Int, pieceSize: Int = ChunkedDeflate.pieceSize) -> [UInt8]? {
        let n = ChunkedDeflate.pieceCount(data.count, pieceSize: pieceSize)
        let size = (data.count + n - 1) / n
        return data.withUnsafeBufferPointer { buffer in
            let base = UnsafeSendable(buffer.baseAddress!)
            return ChunkedDeflate.zlib(pieces: n, threads: threads) { i, body in
                let start = i * size
                return body(base.value + start, min(data.count, start + size) - start)
            }
        }
    }

    func testJoinedPiecesInflateToTheInput() throws {
        let img = Self.image(width: 700, height: 900)
        let data = img.pixels
        for pieceSize in [64 << 10, 256 << 10, 1 << 20] {
            var outputs: [[UInt8]] = []
            for threads in [1, 3] {
                let z = try XCTUnwrap(zlib(data, threads: threads, pieceSize: pieceSize), "pieces of \(pieceSize): igzip failed")
                XCTAssertEqual(try inflateZlib(z, expected: data.count), data, "pieces of \(pieceSize), \(threads) threads")
                outputs.append(z)
            }
            XCTAssertEqual(outputs[0], outputs[1], "the bytes do not depend on the thread count")
        }
    }

    func testIncompressibleAndConstantInputs() throws {
        var s: UInt64 = 7
        let noise = (0..<(1 << 20)).map { _ -> UInt8 in s = s &* 6364136223846793005 &+ 1; return UInt8(s >> 56) }  // stored blocks
        let flat = [UInt8](repeating: 42, count: 1 << 20)                                                         // one long match
        for data in [noise, flat] {
            let z = try XCTUnwrap(zlib(data, threads: 2, pieceSize: 300_000))
            XCTAssertEqual(try inflateZlib(z, expected: data.count), data)
        }
    }

    func testThePieceCountDependsOnTheSizeOnly() {
        let size = ChunkedDeflate.pieceSize
        XCTAssertEqual(ChunkedDeflate.pieceCount(size), 1)
        XCTAssertEqual(ChunkedDeflate.pieceCount(size * 3 / 2 - 1), 1)
        XCTAssertEqual(ChunkedDeflate.pieceCount(1024 * 1025 * 4), 8, "a 1024² RGBA frame: eight pieces")
    }

    /// A sync-flushed piece ends on zlib's marker (an empty stored block: 00 00 FF FF) and a
    /// final one ends the raw stream by itself; both inflate to their input.
    func testPieceEndings() throws {
        let input = [UInt8](Array("hello hello hello, map tiles and more map tiles".utf8))
        let c = Igzip()
        let flushed = try XCTUnwrap(input.withUnsafeBufferPointer { c.compress($0.baseAddress!, count: $0.count, ending: .syncFlushedPiece) })
        XCTAssertEqual(Array(flushed.suffix(4)), [0x00, 0x00, 0xFF, 0xFF])
        let final = try XCTUnwrap(input.withUnsafeBufferPointer { c.compress($0.baseAddress!, count: $0.count, ending: .finalPiece) })
        let d = libdeflate_alloc_decompressor()!
        defer { libdeflate_free_decompressor(d) }
        var out = [UInt8](repeating: 0, count: input.count)
        var actual = 0
        let r = final.withUnsafeBytes { zb in out.withUnsafeMutableBytes { libdeflate_deflate_decompress(d, zb.baseAddress, zb.count, $0.baseAddress, $0.count, &actual) } }
        XCTAssertEqual(r, LIBDEFLATE_SUCCESS)
        XCTAssertEqual(out, input)
        // The flushed piece followed by an empty final piece is a whole raw stream too.
        let end = try XCTUnwrap([UInt8](repeating: 0, count: 1).withUnsafeBufferPointer { c.compress($0.baseAddress!, count: 0, ending: .finalPiece) })
        let joined = flushed + end
        let r2 = joined.withUnsafeBytes { zb in out.withUnsafeMutableBytes { libdeflate_deflate_decompress(d, zb.baseAddress, zb.count, $0.baseAddress, $0.count, &actual) } }
        XCTAssertEqual(r2, LIBDEFLATE_SUCCESS)
        XCTAssertEqual(out, input)
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
        let one = try DeflatePNGWriter.encode(frame, compressor: .igzip, filter: .none, threads: 1)
        let three = try DeflatePNGWriter.encode(frame, compressor: .igzip, filter: .none, threads: 3)
        XCTAssertEqual(one, three)
        XCTAssertEqual(one[25], 6, "colour type RGBA")
        XCTAssertEqual(try PNGDecoder.decode(three).pixels, frame.unpremultiplied().pixels)
        let single = try DeflatePNGWriter.encode(frame, compressor: .igzip, filter: .none, singleStream: true)
        XCTAssertEqual(try PNGDecoder.decode(single).pixels, try PNGDecoder.decode(three).pixels)
    }

    func testPNGFromPiecesDecodesWithLibPNG() throws {
        for (w, h) in [(1024, 1024), (333, 2000)] {
            let img = Self.image(width: w, height: h, seed: UInt64(w))
            let one = try DeflatePNGWriter.encode(img, compressor: .igzip, filter: .none)
            let parallel = try DeflatePNGWriter.encode(img, compressor: .igzip, filter: .none, threads: 4)
            XCTAssertEqual(one, parallel, "\(w)x\(h): the same bytes on 1 and 4 threads")
            XCTAssertGreaterThan(ChunkedDeflate.pieceCount((w * 4 + 1) * h), 1, "\(w)x\(h): compressed in pieces")
            XCTAssertEqual(try PNGDecoder.decode(parallel).pixels, img.pixels, "\(w)x\(h)")
            // The single-stream size for comparison: igzip over the same rows as one stream.
            let single = try DeflatePNGWriter.encode(img, compressor: .igzip, filter: .none, singleStream: true).count
            XCTAssertEqual(try PNGDecoder.decode(parallel).pixels, try PNGDecoder.decode(try DeflatePNGWriter.encode(img, compressor: .igzip, filter: .none, singleStream: true)).pixels)
            XCTAssertLessThan(Double(parallel.count), Double(single + 100) * 1.02, "\(w)x\(h): pieces cost under 2 % of the size")
        }
    }
}
