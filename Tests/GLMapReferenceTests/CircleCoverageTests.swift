import XCTest
import GLMapCore
@testable import GLMapStyle
@testable import GLMapReference

final class CircleCoverageTests: XCTestCase {
    func testCircleAreaMatchesTheShaderRamp() {
        // circle.frag fades over `1/ratio/size` of the radius inward from the rim: with r = 20 and
        // ratio 1 that is 1 px, so the summed coverage is π·(r − ½)² (the smoothstep is symmetric
        // about its midpoint), which is within 0.5 % of π·r² only once the ramp is thin: we check
        // both, the latter at ratio 16 (ramp 1/16 CSS px), in CSS px².
        let tv = TestView(width: 48, height: 48, zoom: 3)
        let c = tv.flat([(24.3, 23.6)])
        let img1 = ReferenceRenderer(quantization: .once).render([circleLayer(c, radius: 20)], view: tv.view, ratio: 1)
        XCTAssertEqual(coveredPixels(img1), Double.pi * 19.5 * 19.5, accuracy: Double.pi * 400 * 0.005)
        let img16 = ReferenceRenderer(quantization: .once).render([circleLayer(c, radius: 20)], view: tv.view, ratio: 16)
        let area = coveredPixels(img16) / 256
        XCTAssertEqual(area, Double.pi * 400, accuracy: Double.pi * 400 * 0.005)
        XCTAssertEqual(area, Double.pi * (20 - 1.0 / 32) * (20 - 1.0 / 32), accuracy: 0.2)
    }

    func testStrokeColourOutsideRadius() {
        let tv = TestView(width: 64, height: 64, zoom: 3)
        let img = ReferenceRenderer().render([circleLayer(tv.flat([(32, 32)]), radius: 10, strokeWidth: 4,
                                                          strokeColor: Color(r: 1, g: 0, b: 0))],
                                             view: tv.view, ratio: 1)
        XCTAssertEqual(Array([img[32, 32].r, img[32, 32].g, img[32, 32].a]), [255, 255, 255])   // centre: fill
        XCTAssertEqual(Array([img[44, 32].r, img[44, 32].g, img[44, 32].a]), [255, 0, 255])     // 12.5 px: stroke
        XCTAssertEqual(alpha(img, 47, 32), 0)                                                    // 15.5 px: outside
    }

    func testBlurFadesFromTheCentre() {
        let tv = TestView(width: 64, height: 64, zoom: 3)
        let img = ReferenceRenderer(quantization: .once).render([circleLayer(tv.flat([(32, 32)]), radius: 20, blur: 1)],
                                                               view: tv.view, ratio: 1)
        // blur 1: opacity = smoothstep(t) with t = 1 − len over the whole radius; pixel centre
        // (42.5, 32.5) is at len = 10.5/20 (the y offset is 0.5 → len 0.52560).
        let len = (10.5 * 10.5 + 0.5 * 0.5).squareRoot() / 20, t = 1 - len
        XCTAssertEqual(Double(alpha(img, 42, 32)), 255 * t * t * (3 - 2 * t), accuracy: 0.5)
        XCTAssertGreaterThan(alpha(img, 32, 32), 250)
    }

    func testWorldCopiesAtZoomZero() {
        // A 1536-px wide view at zoom 0 shows three copies of the 512-px world.
        let tv = TestView(width: 1536, height: 256, zoom: 0)
        let img = ReferenceRenderer().render([circleLayer(tv.flat([(768, 128)]), radius: 5)], view: tv.view, ratio: 1)
        for x in [256, 768, 1280] {
            XCTAssertEqual(alpha(img, x, 128), 255, "copy at x \(x)")
        }
        XCTAssertEqual(alpha(img, 512, 128), 0)
        XCTAssertEqual(coveredPixels(img), 3 * Double.pi * 4.5 * 4.5, accuracy: 3)
    }

    func testBearingRotatesTheMap() {
        // Bearing 90: the top of the screen faces east, so a point 20 px east of the centre is 20 px above it.
        let flat = TestView(width: 64, height: 64, zoom: 3)
        let rotated = TestView(width: 64, height: 64, zoom: 3, bearing: 90)
        let img = ReferenceRenderer().render([circleLayer(flat.flat([(52, 32)]), radius: 3)], view: rotated.view, ratio: 1)
        XCTAssertEqual(alpha(img, 32, 12), 255)
        XCTAssertEqual(alpha(img, 52, 32), 0)
    }

    func testTranslateAnchors() {
        let rotated = TestView(width: 64, height: 64, zoom: 3, bearing: 90)
        let c = TestView(width: 64, height: 64, zoom: 3).flat([(32, 32)])
        // viewport: 10 px to the right on screen whatever the bearing.
        let vp = ReferenceRenderer().render([circleLayer(c, radius: 3, translate: (10, 0), anchor: .viewport)],
                                            view: rotated.view, ratio: 1)
        XCTAssertEqual(alpha(vp, 42, 32), 255)
        XCTAssertEqual(alpha(vp, 32, 22), 0)
        // map: 10 px east, which is up on screen at bearing 90.
        let map = ReferenceRenderer().render([circleLayer(c, radius: 3, translate: (10, 0), anchor: .map)],
                                             view: rotated.view, ratio: 1)
        XCTAssertEqual(alpha(map, 32, 22), 255)
        XCTAssertEqual(alpha(map, 42, 32), 0)
    }

    func testPitchAlignment() {
        // Pitch 60: viewport-aligned circles stay round on screen; map-aligned ones are flattened vertically.
        let tv = TestView(width: 128, height: 128, zoom: 3, pitch: 60)
        let c = TestView(width: 128, height: 128, zoom: 3).flat([(64, 64)])
        func extent(_ img: PremultipliedImage) -> (w: Int, h: Int) {
            var w = 0, h = 0
            for x in 0..<128 where alpha(img, x, 64) > 127 { w += 1 }
            for y in 0..<128 where alpha(img, 64, y) > 127 { h += 1 }
            return (w, h)
        }
        let viewport = extent(ReferenceRenderer().render([circleLayer(c, radius: 20)], view: tv.view, ratio: 1))
        XCTAssertEqual(viewport.w, viewport.h, accuracy: 1)
        XCTAssertEqual(viewport.w, 39, accuracy: 2)   // centre on screen at distance = cameraToCenterDistance
        let map = extent(ReferenceRenderer().render([circleLayer(c, radius: 20, pitchAlignment: .map)],
                                                    view: tv.view, ratio: 1))
        XCTAssertEqual(map.w, 39, accuracy: 2)
        XCTAssertEqual(Double(map.h), 39 * 0.5, accuracy: 2)   // cos 60° foreshortening
    }
}
