import XCTest
import GLMapCore
@testable import GLMapStyle
@testable import GLMapReference

final class FillCoverageTests: XCTestCase {
    let tv = TestView(width: 64, height: 64, zoom: 4)

    func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [(Double, Double)] {
        [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
    }

    func render(_ layers: [EvaluatedLayer], ratio: Double = 1) -> PremultipliedImage {
        ReferenceRenderer().render(layers, view: tv.view, ratio: ratio)
    }

    func testHalfCoveredPixelIsHalfColoured() {
        // Left edge at x = 10.5: the pixels of column 10 are half inside.
        let poly = FlatPolygon(coords: tv.flat(square(10.5, 10, 30, 30)), holeIndices: [])
        let img = render([fillLayer([poly])])
        for y in 10..<30 {
            XCTAssertEqual(alpha(img, 10, y), 128, "row \(y)")    // 0.5 · 255 = 127.5 → 128
            XCTAssertEqual(alpha(img, 11, y), 255)
            XCTAssertEqual(alpha(img, 9, y), 0)
        }
        XCTAssertEqual(alpha(img, 20, 9), 0)
        XCTAssertEqual(alpha(img, 20, 30), 0)
        // Total coverage is the exact area.
        XCTAssertEqual(coveredPixels(img), 19.5 * 20, accuracy: 0.1)
    }

    func testSlopedEdgeCoverageIsExactArea() {
        // A triangle with a diagonal edge: per-pixel areas of ½ on the diagonal, exact total area.
        let poly = FlatPolygon(coords: tv.flat([(10, 10), (30, 10), (10, 30), (10, 10)]), holeIndices: [])
        let img = ReferenceRenderer(quantization: .once).render([fillLayer([poly])], view: tv.view, ratio: 1)
        XCTAssertEqual(coveredPixels(img), 200, accuracy: 0.2)
        XCTAssertEqual(alpha(img, 20, 19), 128)   // the diagonal x + y = 40 crosses this pixel corner to corner
        XCTAssertEqual(alpha(img, 19, 19), 255)
        XCTAssertEqual(alpha(img, 21, 19), 0)
    }

    func testOnePixelStripCoversExactlyItsRow() {
        let poly = FlatPolygon(coords: tv.flat(square(-5, 20, 70, 21)), holeIndices: [])
        let img = render([fillLayer([poly])])
        for x in 0..<64 {
            XCTAssertEqual(alpha(img, x, 20), 255, "x \(x)")
            XCTAssertEqual(alpha(img, x, 19), 0)
            XCTAssertEqual(alpha(img, x, 21), 0)
        }
    }

    func testHoleIsEmptyWhateverItsWinding() {
        for reversed in [false, true] {
            var hole = square(20, 20, 40, 40)
            if reversed { hole.reverse() }
            let coords = tv.flat(square(10, 10, 50, 50)) + tv.flat(hole)
            let poly = FlatPolygon(coords: coords, holeIndices: [5])
            let img = render([fillLayer([poly])])
            XCTAssertEqual(alpha(img, 30, 30), 0, "hole, reversed \(reversed)")
            XCTAssertEqual(alpha(img, 15, 30), 255)
            XCTAssertEqual(coveredPixels(img), 1600 - 400, accuracy: 0.1)
        }
    }

    func testOverlappingMultiPolygonPartsUnion() {
        let a = FlatPolygon(coords: tv.flat(square(10, 10, 30, 30)), holeIndices: [])
        let b = FlatPolygon(coords: tv.flat(square(20, 20, 40, 40).reversed()), holeIndices: [])
        let img = render([fillLayer([a, b], opacity: 0.5)])
        XCTAssertEqual(alpha(img, 25, 25), 128)   // blended once, not twice, and not cancelled
        XCTAssertEqual(alpha(img, 15, 15), 128)
        XCTAssertEqual(alpha(img, 35, 35), 128)
    }

    func testAntialiasOutlineBandFadesOverOnePixel() {
        // Edge along x = 10 (a pixel boundary): like a 1-px GL line, exactly one column gets the
        // outline — the one whose centre is in [9.5, 10.5), i.e. column 9 — at distance 0.5:
        // 1 − smoothstep(0.5) = 0.5.
        let poly = FlatPolygon(coords: tv.flat(square(10, 10, 30, 30)), holeIndices: [])
        let red = Color(r: 1, g: 0, b: 0)
        let img = render([fillLayer([poly], antialias: true, color: white, outline: red)])
        XCTAssertEqual(Array([img[9, 20].r, img[9, 20].g, img[9, 20].a]), [128, 0, 128])   // outside: outline only
        XCTAssertEqual(Array([img[10, 20].r, img[10, 20].g, img[10, 20].a]), [255, 255, 255]) // inside: fill only
        XCTAssertEqual(alpha(img, 8, 20), 0)
        // A sloped edge: one outline pixel per row, alpha from the perpendicular distance.
        let slanted = FlatPolygon(coords: tv.flat([(10.0, 10.0), (20.0, 40.0), (40.0, 40.0), (40.0, 10.0)]), holeIndices: [])
        let img2 = render([fillLayer([slanted], antialias: true, color: Color(r: 0, g: 0, b: 0, a: 0), outline: red)])
        for y in 12..<38 {
            let lit = (0..<25).filter { img2[$0, y].a > 0 }
            XCTAssertEqual(lit.count, 1, "row \(y): one outline pixel along the y-major edge")
        }
    }

    func testFillTranslate() {
        let poly = FlatPolygon(coords: tv.flat(square(10, 10, 20, 20)), holeIndices: [])
        let img = render([fillLayer([poly], translate: (5, -3))])
        XCTAssertEqual(alpha(img, 15, 7), 255)
        XCTAssertEqual(alpha(img, 14, 7), 0)
        XCTAssertEqual(alpha(img, 24, 16), 255)
        XCTAssertEqual(alpha(img, 25, 16), 0)
        XCTAssertEqual(alpha(img, 24, 17), 0)
    }

    func testRatioScalesTheImageNotTheCoverage() {
        let poly = FlatPolygon(coords: tv.flat(square(10.5, 10, 30, 30)), holeIndices: [])
        let img = render([fillLayer([poly])], ratio: 2)
        XCTAssertEqual(img.width, 128)
        XCTAssertEqual(alpha(img, 20, 30), 0)
        XCTAssertEqual(alpha(img, 21, 30), 255)
        XCTAssertEqual(coveredPixels(img), 19.5 * 20 * 4, accuracy: 0.2)
    }

    func testBackgroundAndBlending() {
        let bg = EvaluatedLayer.background(EvaluatedBackground(color: Color(r: 0, g: 0, b: 1), opacity: 1))
        let poly = FlatPolygon(coords: tv.flat(square(10, 10, 30, 30)), holeIndices: [])
        let img = render([bg, fillLayer([poly], color: Color(r: 1, g: 0, b: 0), opacity: 0.5)])
        XCTAssertEqual(Array([img[0, 0].r, img[0, 0].g, img[0, 0].b, img[0, 0].a]), [0, 0, 255, 255])
        // dst = 0.5·red + (1 − 0.5)·blue
        XCTAssertEqual(Array([img[20, 20].r, img[20, 20].b, img[20, 20].a]), [128, 128, 255])
    }
}
