import XCTest
import GLMapCore
@testable import GLMapStyle
@testable import GLMapReference

final class LineCoverageTests: XCTestCase {
    let tv = TestView(width: 96, height: 64, zoom: 4)

    func render(_ layers: [EvaluatedLayer], ratio: Double = 1) -> PremultipliedImage {
        ReferenceRenderer(quantization: .once).render(layers, view: tv.view, ratio: ratio)
    }

    func testStraightLineIntegral() {
        // Butt caps end sharply at the end points; across the line the ramp integrates to the width.
        let line = lineLayer([(tv.flat([(10, 32.3), (50, 32.3)]), false)], width: 4)
        let img = render([line])
        XCTAssertEqual(coveredPixels(img), 40 * 4, accuracy: 160 * 0.005)
        XCTAssertEqual(coveredPixels(img, columns: 20..<21), 4, accuracy: 0.01)
        XCTAssertEqual(alpha(img, 9, 32), 0)
        XCTAssertEqual(alpha(img, 50, 32), 0)
        XCTAssertEqual(alpha(img, 30, 32), 255)
    }

    func testRatioTwoStillIntegratesToTheWidth() {
        let line = lineLayer([(tv.flat([(10, 32.3), (50, 32.3)]), false)], width: 3)
        let img = render([line], ratio: 2)
        XCTAssertEqual(coveredPixels(img) / 4, 40 * 3, accuracy: 120 * 0.005)
    }

    func testDiagonalLineIntegral() {
        let a = (10.0, 10.0), b = (50.0, 40.0)
        let line = lineLayer([(tv.flat([a, b]), false)], width: 5)
        let img = render([line])
        XCTAssertEqual(coveredPixels(img), 50 * 5, accuracy: 250 * 0.01)   // length 50
    }

    func testRoundCapsAddADisc() {
        let w = 10.0
        let pts = tv.flat([(30, 32.5), (60, 32.5)])
        let butt = coveredPixels(render([lineLayer([(pts, false)], width: w, cap: .butt)]))
        let round = coveredPixels(render([lineLayer([(pts, false)], width: w, cap: .round)]))
        let square = coveredPixels(render([lineLayer([(pts, false)], width: w, cap: .square)]))
        // A disc whose rim ramps linearly over 1 px: π(r² + 1/12).
        XCTAssertEqual(round - butt, Double.pi * (25 + 1.0 / 12), accuracy: 0.01 * Double.pi * 25)
        // Square caps extend by the outset (w/2 + ½ px antialiasing) at each end.
        XCTAssertEqual(square - butt, 2 * 5.5 * w, accuracy: 1)
    }

    func testMiterBecomesBevelAtTheLimit() {
        // A right-angle corner: miter length √2 ≈ 1.414.
        let pts = tv.flat([(20, 40), (50, 40), (50, 10)])
        let w = 10.0
        let miter = render([lineLayer([(pts, false)], width: w, join: .miter, miterLimit: 2)])
        let bevel = render([lineLayer([(pts, false)], width: w, join: .miter, miterLimit: 1.3)])
        let explicitBevel = render([lineLayer([(pts, false)], width: w, join: .bevel)])
        // Outer corner near (55, 45): inside the miter square, cut off by the bevel chord.
        XCTAssertEqual(alpha(miter, 53, 43), 255)
        XCTAssertEqual(alpha(bevel, 53, 43), 0)
        XCTAssertEqual(bevel.pixels, explicitBevel.pixels)
        // The miter adds a square (w/2 + AA)², the bevel half of it (a right triangle): compare areas.
        let m = coveredPixels(miter), b = coveredPixels(bevel)
        XCTAssertEqual(m - b, 5.5 * 5.5 / 2, accuracy: 2)
        // A round join sits between them.
        let r = coveredPixels(render([lineLayer([(pts, false)], width: w, join: .round)]))
        XCTAssertGreaterThan(r, b + 3)
        XCTAssertLessThan(r, m - 3)
    }

    func testSharpBevelIsMapLibresFlipBevel() {
        // A 150° turn (miter length 3.86 > 2): MapLibre's flip bevel ends both segments on the chord
        // through the corner (60, 40) along t1 + t2 ∝ (0.26, 0.97), cutting the outer corner there.
        let pts = tv.flat([(20, 40), (60, 40), (60 - 30 * 0.8660254, 40 + 30 * 0.5)])
        let img = render([lineLayer([(pts, false)], width: 10, join: .miter, miterLimit: 2)])
        XCTAssertEqual(alpha(img, 59, 36), 0)          // past the chord (x = 59.06 at y = 36.5)
        XCTAssertEqual(alpha(img, 57, 37), 255)        // before it
        XCTAssertEqual(alpha(img, 40, 38), 255)
        XCTAssertEqual(render([lineLayer([(pts, false)], width: 10, join: .bevel)]).pixels, img.pixels)
    }

    func testGapWidthLeavesTheCentreEmpty() {
        let line = lineLayer([(tv.flat([(10, 32.5), (80, 32.5)]), false)], width: 2, gapWidth: 6)
        let img = render([line])
        XCTAssertEqual(alpha(img, 40, 32), 0)          // centre line
        XCTAssertEqual(alpha(img, 40, 30), 0)          // 2 px off: inside the gap
        XCTAssertEqual(alpha(img, 40, 28), 255)        // 4 px off: the casing (gap/2 + w/2)
        XCTAssertEqual(alpha(img, 40, 36), 255)
        XCTAssertEqual(coveredPixels(img, columns: 40..<41), 4, accuracy: 0.01)   // two strokes of width 2
    }

    func testOffsetMovesTheLineToTheRight() {
        // Travelling east, "right" is south (down the screen).
        let line = lineLayer([(tv.flat([(10, 20.5), (80, 20.5)]), false)], width: 2, offset: 10)
        let img = render([line])
        XCTAssertEqual(alpha(img, 40, 30), 255)
        XCTAssertEqual(alpha(img, 40, 20), 0)
    }

    func testSelfOverlapDoesNotDoubleBlend() {
        // A line that doubles back over itself, half transparent: the overlap keeps opacity 0.5.
        let pts = tv.flat([(10, 32.5), (60, 32.5), (30, 32.5)])
        let img = ReferenceRenderer().render([lineLayer([(pts, false)], width: 4, opacity: 0.5)], view: tv.view, ratio: 1)
        XCTAssertEqual(alpha(img, 40, 32), 128)
        XCTAssertEqual(alpha(img, 20, 32), 128)
    }

    func testClosedRingHasJoinsAllRound() {
        let ring = tv.flat([(20, 20), (60, 20), (60, 50), (20, 50), (20, 20)])
        let closed = render([lineLayer([(ring, true)], width: 6, join: .miter)])
        // Every corner, the start/end one included, is mitred.
        for (x, y) in [(17, 17), (62, 17), (62, 52), (17, 52)] {
            XCTAssertEqual(alpha(closed, x, y), 255, "corner near (\(x), \(y))")
        }
    }
}
