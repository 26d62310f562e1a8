import XCTest
@testable import GLMapCore

final class ColorTests: XCTestCase {
    func rgba(_ s: String) -> [Double]? {
        guard let c = Color(css: s) else { return nil }
        let t = c.straight
        return [t.r * 255, t.g * 255, t.b * 255, t.a].map { ($0 * 1000).rounded() / 1000 }
    }

    func testCSSForms() {
        XCTAssertEqual(rgba("red"), [255, 0, 0, 1])
        XCTAssertEqual(rgba("RebeccaPurple"), [102, 51, 153, 1])
        XCTAssertEqual(rgba("#f00"), [255, 0, 0, 1])
        XCTAssertEqual(rgba("#ff000080"), [255, 0, 0, 0.502])
        XCTAssertEqual(rgba("#0f08"), [0, 255, 0, 0.533])
        XCTAssertEqual(rgba("#4469f7"), [68, 105, 247, 1])
        XCTAssertEqual(rgba("rgb(68, 105, 247)"), [68, 105, 247, 1])
        XCTAssertEqual(rgba("rgba(68,105,247,0.3)"), [68, 105, 247, 0.3])
        XCTAssertEqual(rgba("rgb(100% 0% 0% / 50%)"), [255, 0, 0, 0.5])
        XCTAssertEqual(rgba("hsl(120, 100%, 50%)"), [0, 255, 0, 1])
        XCTAssertEqual(rgba("hsla(240, 100%, 50%, 0.25)"), [0, 0, 255, 0.25])
        XCTAssertEqual(rgba("transparent"), [0, 0, 0, 0])
    }

    func testInvalidColours() {
        for s in ["", "#ff", "#fffff", "rgb(1,2)", "rgb(1 2, 3)", "redd", "hsl(120, 100, 50)", "#ggg", "rgb(1,2,3,4,5)"] {
            XCTAssertNil(Color(css: s), s)
        }
    }

    func testPremultipliedStorage() {
        let c = Color(r: 1, g: 0.5, b: 0, a: 0.5)
        XCTAssertEqual(c.r, 0.5)
        XCTAssertEqual(c.g, 0.25)
        XCTAssertEqual(c.a, 0.5)
        XCTAssertEqual(c.cssString, "rgba(255,128,0,0.5)")
    }

    func testUnpremultiplyTruncatesLikeTheRenderHarness() {
        // Premultiplied (20, 31, 74, 77) → straight: channel * 255 / alpha, truncated.
        let img = PremultipliedImage(width: 1, height: 1, pixels: [20, 31, 74, 77]).unpremultiplied()
        XCTAssertEqual(img.pixels, [66, 102, 245, 77])
        XCTAssertEqual(PremultipliedImage(width: 1, height: 1, pixels: [9, 9, 9, 0]).unpremultiplied().pixels, [0, 0, 0, 0])
    }
}
