import GLMapCore
import XCTest
@testable import GLMapStyle

/// `line-gradient` colour ramps (MapLibre's renderColorRamp).
final class ColorRampTests: XCTestCase {
    func expression(_ json: String) throws -> StyleExpression {
        let value = try JSONParser.parse(Array(json.utf8))
        return try StyleExpression.compile(value, spec: LineProperties.lineGradient.spec).get()
    }

    func texel(_ r: ColorRamp, row: Int = 0, _ i: Int) -> [UInt8] {
        let o = (row * r.width + i) * 4
        return Array(r.pixels[o..<(o + 4)])
    }

    func testLinearRampSamplesEvenly() throws {
        let g = try expression(#"["interpolate", ["linear"], ["line-progress"], 0, "blue", 1, "red"]"#)
        let r = ColorRamp(gradient: g)
        XCTAssertEqual(r.width, 256)
        XCTAssertEqual(r.height, 1)
        XCTAssertFalse(r.nearest)
        XCTAssertEqual(texel(r, 0), [0, 0, 255, 255])
        XCTAssertEqual(texel(r, 255), [255, 0, 0, 255])
        // Texel 51 is progress 0.2: floor(0.2 · 255) = 51 red, floor(0.8 · 255) = 204 blue.
        XCTAssertEqual(texel(r, 51), [51, 0, 204, 255])
    }

    func testTranslucentTexelsArePremultipliedWithTruncation() throws {
        let g = try expression(#"["interpolate", ["linear"], ["line-progress"], 0, "rgba(255, 0, 0, 0.5)", 1, "rgba(255, 0, 0, 0.5)"]"#)
        let r = ColorRamp(gradient: g)
        // Straight 255 and alpha floor(0.5 · 255) = 127, premultiplied: 255 · 127 / 255 = 127.
        XCTAssertEqual(texel(r, 100), [127, 0, 0, 127])
    }

    func testClipsGetOneRowEach() throws {
        let g = try expression(#"["interpolate", ["linear"], ["line-progress"], 0, "black", 1, "white"]"#)
        let r = ColorRamp(gradient: g, clips: [(0, 1), (0.5, 1)])
        XCTAssertEqual(r.height, 2)
        XCTAssertEqual(texel(r, row: 0, 0), [0, 0, 0, 255])
        XCTAssertEqual(texel(r, row: 1, 0), [127, 127, 127, 255])  // progress 0.5
        XCTAssertEqual(texel(r, row: 1, 255), [255, 255, 255, 255])
    }

    func testStepWidthFollowsLineLength() {
        XCTAssertEqual(ColorRamp.stepWidth(maxLineTiles: 0.1, overzoom: 1), 256)
        XCTAssertEqual(ColorRamp.stepWidth(maxLineTiles: 1.5, overzoom: 1), 2048)
        XCTAssertEqual(ColorRamp.stepWidth(maxLineTiles: 1.5, overzoom: 16), 8192)  // clamped
    }
}
