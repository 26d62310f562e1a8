import GLMapCore
@testable import GLMapPNG
import XCTest
import GLMapTestSupport


func randomImage(width: Int, height: Int, seed: UInt64) -> StraightImage {
    var rng = SplitMix64(state: seed)
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for i in pixels.indices { pixels[i] = UInt8.random(in: 0...255, using: &rng) }
    // Some fully transparent and fully opaque pixels, the usual extremes.
    for p in stride(from: 0, to: width * height, by: 7) { pixels[p * 4 + 3] = 0 }
    for p in stride(from: 3, to: width * height, by: 5) { pixels[p * 4 + 3] = 255 }
    return StraightImage(width: width, height: height, pixels: pixels)
}

final class PNGCodecTests: XCTestCase {
    func testRoundTripOfRandomImagesIsExact() throws {
        let sizes = [(1, 1), (2, 3), (17, 5), (64, 64), (257, 13), (3, 300)]
        for (n, (w, h)) in sizes.enumerated() {
            let image = randomImage(width: w, height: h, seed: UInt64(n + 1))
            for compression in [PNGCompression.default, .small] {
                let bytes = try PNGEncoder.encode(image, compression: compression)
                XCTAssertEqual(Array(bytes.prefix(8)), [137, 80, 78, 71, 13, 10, 26, 10], "PNG signature")
                let back = try PNGDecoder.decode(bytes)
                XCTAssertEqual(back.width, w)
                XCTAssertEqual(back.height, h)
                XCTAssertTrue(back.pixels == image.pixels, "\(w)x\(h) \(compression) round trip differs")
            }
        }
    }

    func testEncodedHeaderIs8BitRGBANonInterlaced() throws {
        let bytes = try PNGEncoder.encode(randomImage(width: 300, height: 2, seed: 9))
        XCTAssertEqual(Array(bytes[12..<16]), Array("IHDR".utf8))
        XCTAssertEqual(Array(bytes[16..<24]), [0, 0, 1, 44, 0, 0, 0, 2]) // 300 × 2
        XCTAssertEqual(bytes[24], 8) // bit depth
        XCTAssertEqual(bytes[25], 6) // colour type RGBA
        XCTAssertEqual(bytes[28], 0) // not interlaced
    }

    func testFastCompressionIsLargerOnSmoothImages() throws {
        // A gradient: row filters make it very compressible; without them it compresses worse.
        var image = StraightImage(width: 256, height: 256)
        for y in 0..<256 {
            for x in 0..<256 {
                let i = (y * 256 + x) * 4
                image.pixels[i] = UInt8(x); image.pixels[i + 1] = UInt8(y)
                image.pixels[i + 2] = UInt8((x + y) / 2); image.pixels[i + 3] = 255
            }
        }
        let small = try PNGEncoder.encode(image, compression: .small)
        let fast = try PNGEncoder.encode(image, compression: .default)
        XCTAssertLessThan(small.count, fast.count)
        XCTAssertLessThan(small.capacity, small.count * 2 + 8192, "the worst-case output buffer is not kept")
        XCTAssertEqual(try PNGDecoder.decode(fast), image)
        XCTAssertEqual(try PNGDecoder.decode(small), image)
    }

    func testEmptyImageIsAnEncodeError() {
        XCTAssertThrowsError(try PNGEncoder.encode(StraightImage(width: 0, height: 5))) { error in
            let e = error as? PNGError
            XCTAssertEqual(e?.operation, .encode)
            XCTAssertEqual(e?.kind, .renderOrIO)
            XCTAssertTrue(String(describing: error).contains("0×5"), String(describing: error))
        }
    }

    // MARK: Decoding the PNG variants

    func testDecodesOneBitGrey() throws {
        let bytes = TestPNGBuilder.make(width: 9, height: 3, bitDepth: 1, colorType: 0) { x, y in [(x + y) % 2] }
        let image = try PNGDecoder.decode(bytes)
        XCTAssertEqual(image.width, 9)
        for y in 0..<3 {
            for x in 0..<9 {
                let v: UInt8 = (x + y) % 2 == 1 ? 255 : 0
                XCTAssertTrue(image[x, y] == (v, v, v, 255), "(\(x),\(y)) = \(image[x, y])")
            }
        }
    }

    func testDecodesGreyAlpha() throws {
        let bytes = TestPNGBuilder.make(width: 5, height: 4, bitDepth: 8, colorType: 4) { x, y in [x * 50, y * 80] }
        let image = try PNGDecoder.decode(bytes)
        for y in 0..<4 {
            for x in 0..<5 {
                let g = UInt8(x * 50)
                XCTAssertTrue(image[x, y] == (g, g, g, UInt8(y * 80)), "(\(x),\(y)) = \(image[x, y])")
            }
        }
    }

    func testDecodesPaletteWithTransparency() throws {
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 200, 100, 50]
        let trns: [UInt8] = [0, 128, 255] // entries 3 and 4 are opaque
        let bytes = TestPNGBuilder.make(width: 7, height: 3, bitDepth: 4, colorType: 3,
                                        palette: palette, transparency: trns) { x, y in [(x + y) % 5] }
        let image = try PNGDecoder.decode(bytes)
        for y in 0..<3 {
            for x in 0..<7 {
                let index = (x + y) % 5
                let alpha: UInt8 = index < trns.count ? trns[index] : 255
                let expected = (palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2], alpha)
                XCTAssertTrue(image[x, y] == expected, "(\(x),\(y)) = \(image[x, y]), want \(expected)")
            }
        }
    }

    func testDecodes16BitRGBAScaledTo8Bit() throws {
        // 16-bit values v * 257 are exactly the 8-bit value v.
        let bytes = TestPNGBuilder.make(width: 6, height: 2, bitDepth: 16, colorType: 6) { x, y in
            [x * 40 * 257, y * 100 * 257, (x + y) * 20 * 257, 255 * 257]
        }
        let image = try PNGDecoder.decode(bytes)
        for y in 0..<2 {
            for x in 0..<6 {
                let expected = (UInt8(x * 40), UInt8(y * 100), UInt8((x + y) * 20), UInt8(255))
                XCTAssertTrue(image[x, y] == expected, "(\(x),\(y)) = \(image[x, y]), want \(expected)")
            }
        }
    }

    func testDecodesAdam7InterlacedRGBA() throws {
        let source = randomImage(width: 13, height: 11, seed: 42)
        let bytes = TestPNGBuilder.make(width: 13, height: 11, bitDepth: 8, colorType: 6, interlaced: true) { x, y in
            let p = source[x, y]
            return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
        }
        XCTAssertEqual(bytes[28], 1, "the test file is interlaced")
        XCTAssertTrue(try PNGDecoder.decode(bytes) == source)
    }

    func testDecodesRGBWithoutAlphaAsOpaque() throws {
        let bytes = TestPNGBuilder.make(width: 3, height: 2, bitDepth: 8, colorType: 2) { x, y in [x * 100, y * 200, 7] }
        let image = try PNGDecoder.decode(bytes)
        XCTAssertTrue(image[2, 1] == (200, 200, 7, 255))
        XCTAssertTrue(image[0, 0] == (0, 0, 7, 255))
    }

    // MARK: Decode errors

    func testGarbageIsInvalidInputWithLibpngMessage() {
        XCTAssertThrowsError(try PNGDecoder.decode(Array("this is not a png file".utf8))) { error in
            guard let e = error as? PNGError else { return XCTFail("not a PNGError: \(error)") }
            XCTAssertEqual(e.kind, .invalidInput)
            XCTAssertEqual(e.operation, .decode)
            XCTAssertTrue(e.message.hasPrefix("libpng: "), e.message)
            XCTAssertGreaterThan(e.message.count, "libpng: ".count)
        }
        XCTAssertThrowsError(try PNGDecoder.decode([])) { error in
            XCTAssertEqual((error as? GLMapError)?.kind, .invalidInput)
        }
    }

    func testTruncatedAndCorruptFilesAreInvalidInput() throws {
        let good = try PNGEncoder.encode(randomImage(width: 40, height: 40, seed: 3))
        let truncated = Array(good.prefix(good.count / 2))
        var corrupt = good
        corrupt[40] ^= 0xFF // inside IHDR/first chunk data: CRC no longer matches
        for bytes in [truncated, corrupt] {
            XCTAssertThrowsError(try PNGDecoder.decode(bytes)) { error in
                XCTAssertEqual((error as? PNGError)?.kind, .invalidInput, "\(error)")
            }
        }
    }

    func testUndecodableFileNamesThePath() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/bad.png"
        try AtomicFileWriter.write(Array("nope".utf8), to: path)
        XCTAssertThrowsError(try PNGDecoder.decode(contentsOf: path)) { error in
            XCTAssertEqual((error as? PNGError)?.kind, .invalidInput)
            XCTAssertTrue(String(describing: error).hasPrefix(path + ": "), String(describing: error))
        }
    }

    func testMissingFileIsAReadError() {
        let path = "/nonexistent-glmap-dir/missing.png"
        XCTAssertThrowsError(try PNGDecoder.decode(contentsOf: path)) { error in
            guard let e = error as? PNGError else { return XCTFail("not a PNGError: \(error)") }
            XCTAssertEqual(e.operation, .read)
            XCTAssertEqual(e.kind, .renderOrIO)
            XCTAssertEqual(e.path, path)
            XCTAssertTrue(e.description.contains("No such file"), e.description)
        }
    }
}
