import GLMapCore
import GLMapPNG
import XCTest
import GLMapTestSupport

/// Decodes every expected image of the render-test suite in `../shared/render-tests`.
final class RenderTestPNGTests: XCTestCase {
    func testExpectedImagesDecodeAtTheManifestSize() throws {
        let cases = SharedData.renderCases
        try SharedData.require("render tests", at: SharedData.renderTests.appendingPathComponent("cases"))
        guard !cases.isEmpty else { return XCTFail("no render test cases under \(SharedData.renderTests.path)") }
        var decoded = 0
        for c in cases {
            XCTAssertFalse(c.expectedPNGs.isEmpty, "\(c.name): no expected.png")
            for url in c.expectedPNGs {
                do {
                    let image = try PNGDecoder.decode(contentsOf: url.path)
                    XCTAssertEqual(image.width, c.deviceSize.width, "\(c.name)/\(url.lastPathComponent) width")
                    XCTAssertEqual(image.height, c.deviceSize.height, "\(c.name)/\(url.lastPathComponent) height")
                    // Re-encoding must give back the same pixels.
                    XCTAssertTrue(try PNGDecoder.decode(PNGEncoder.encode(image)) == image, "\(c.name) re-encode")
                    decoded += 1
                } catch {
                    XCTFail("\(c.name): \(error)")
                }
            }
        }
        print("render-tests: decoded \(decoded) expected PNGs of \(cases.count) cases")
        XCTAssertEqual(cases.count, 192, "the README lists 192 cases")
    }
}
