import XCTest
import GLMapCore
@testable import GLMapPNG

/// glmap's own PNG writer (igzip and libdeflate) against libpng's decoder: every filter mode
/// round-trips exactly with each compressor, including transparent pixels' colours and odd sizes.
final class DeflatePNGWriterTests: XCTestCase {
    static let compressors: [DeflatePNGWriter.Compressor] = [.igzip, .libdeflate(level: 1), .libdeflate(level: 6), .libdeflate(level: 12)]

    func testEveryFilterRoundTripsThroughLibpng() throws {
        var rng = SystemRandomNumberGenerator()
        for (w, h) in [(1, 1), (3, 7), (64, 33), (257, 5)] {
            var pixels = [UInt8](repeating: 0, count: w * h * 4)
            for i in pixels.indices { pixels[i] = i % 11 == 0 ? UInt8.random(in: 0...255, using: &rng) : UInt8(truncatingIfNeeded: i / 40) }
            let image = StraightImage(width: w, height: h, pixels: pixels)
            for filter in [DeflatePNGWriter.Filter.none, .up, .adaptive] {
                for compressor in Self.compressors {
                    let png = try DeflatePNGWriter.encode(image, compressor: compressor, filter: filter)
                    XCTAssertEqual(try PNGDecoder.decode(png), image, "\(w)x\(h) \(filter) \(compressor)")
                }
            }
        }
    }

    /// Encoding a premultiplied frame converts it row by row to exactly what
    /// `unpremultiplied()` gives (every alpha, including 0 and 255), with every filter.
    func testPremultipliedInputEncodesAsItsUnpremultipliedImage() throws {
        var rng = SystemRandomNumberGenerator()
        for (w, h) in [(1, 1), (5, 3), (256, 9)] {
            var pixels = [UInt8](repeating: 0, count: w * h * 4)
            for p in 0..<(w * h) {
                let a = p % 7 == 0 ? 0 : (p % 5 == 0 ? 255 : UInt8.random(in: 0...255, using: &rng))
                pixels[4 * p + 3] = a
                for c in 0..<3 { pixels[4 * p + c] = UInt8.random(in: 0...a, using: &rng) }
            }
            let premultiplied = PremultipliedImage(width: w, height: h, pixels: pixels)
            let straight = premultiplied.unpremultiplied()
            for filter in [DeflatePNGWriter.Filter.none, .up, .adaptive] {
                for compressor in [DeflatePNGWriter.Compressor.igzip, .libdeflate(level: 6)] {
                    let fused = try DeflatePNGWriter.encode(premultiplied, compressor: compressor, filter: filter)
                    XCTAssertEqual(fused, try DeflatePNGWriter.encode(straight, compressor: compressor, filter: filter), "\(w)x\(h) \(filter) \(compressor)")
                    XCTAssertEqual(try PNGDecoder.decode(fused), straight)
                }
            }
            XCTAssertEqual(try PNGEncoder.encode(premultiplied), try PNGEncoder.encode(straight))
        }
    }

    /// An opaque image is written as 8-bit RGB (colour type 2) and decodes to the same pixels
    /// (alpha 255) with every filter and level; one pixel of alpha 254 keeps RGBA (type 6), and so
    /// does `rgbWhenOpaque: false`. A premultiplied opaque frame gives the same bytes as its
    /// straight self.
    func testOpaqueImagesAreWrittenAsRGB() throws {
        for (w, h) in [(1, 1), (3, 7), (64, 33), (257, 5)] {
            var pixels = [UInt8](repeating: 255, count: w * h * 4)
            for i in pixels.indices where i % 4 != 3 { pixels[i] = UInt8(truncatingIfNeeded: i % 13 == 0 ? i * 7 : i / 40) }
            let image = StraightImage(width: w, height: h, pixels: pixels)
            XCTAssertTrue(DeflatePNGWriter.isOpaque(image.pixels, count: image.pixels.count))
            for filter in [DeflatePNGWriter.Filter.none, .up, .adaptive] {
                for compressor in Self.compressors {
                    let png = try DeflatePNGWriter.encode(image, compressor: compressor, filter: filter)
                    XCTAssertEqual(png[25], 2, "\(w)x\(h) \(filter) \(compressor): colour type")
                    XCTAssertEqual(try PNGDecoder.decode(png), image, "\(w)x\(h) \(filter) \(compressor)")
                    XCTAssertEqual(png, try DeflatePNGWriter.encode(PremultipliedImage(width: w, height: h, pixels: pixels), compressor: compressor, filter: filter))
                }
            }
            XCTAssertEqual(try DeflatePNGWriter.encode(image, compressor: .igzip, filter: .none, rgbWhenOpaque: false)[25], 6)
            for last in [false, true] {   // the translucent pixel first or last (the scan's two ends)
                var translucent = image
                translucent.pixels[last ? translucent.pixels.count - 1 : 3] = 254
                XCTAssertFalse(DeflatePNGWriter.isOpaque(translucent.pixels, count: translucent.pixels.count))
                let png = try DeflatePNGWriter.encode(translucent, compressor: .igzip, filter: .none)
                XCTAssertEqual(png[25], 6, "\(w)x\(h) with one alpha 254")
                XCTAssertEqual(try PNGDecoder.decode(png), translucent)
            }
        }
    }
}
