import XCTest
import GLMapCore
@testable import GLMapPNG

/// glmap's own PNG writer (libdeflate) against libpng's decoder: every filter mode round-trips
/// exactly, including transparent pixels' colours and odd sizes.
final class DeflatePNGWriterTests: XCTestCase {
    func testEveryFilterRoundTripsThroughLibpng() throws {
        var rng = SystemRandomNumberGenerator()
        for (w, h) in [(1, 1), (3, 7), (64, 33), (257, 5)] {
            var pixels = [UInt8](repeating: 0, count: w * h * 4)
            for i in pixels.indices { pixels[i] = i % 11 == 0 ? UInt8.random(in: 0...255, using: &rng) : UInt8(truncatingIfNeeded: i / 40) }
            let image = RGBAImage(width: w, height: h, pixels: pixels)
            for filter in [DeflatePNGWriter.Filter.none, .up, .adaptive] {
                for level: Int32 in [1, 6, 12] {
                    let png = try DeflatePNGWriter.encode(image, level: level, filter: filter)
                    XCTAssertEqual(try PNGDecoder.decode(png), image, "\(w)x\(h) \(filter) level \(level)")
                }
            }
        }
    }
}
