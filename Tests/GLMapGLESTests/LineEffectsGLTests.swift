import XCTest
import GLMapCore
@testable import GLMapStyle
import GLMapTessellation
@testable import GLMapGLES

/// Dashed and gradient lines through the GL programs (line+DASH, line+GRADIENT).
final class LineEffectsGLTests: XCTestCase {
    /// A horizontal line through the centre of a 128×16 view at zoom 0 (x 38.4…89.6 px), width 4.
    func render(dash: [Double]?, gradient: String?) throws -> PremultipliedImage {
        var line = EvaluatedLine(parts: [([0.45, 0.5, 0.55, 0.5], false)], join: .miter, color: .black, opacity: 1,
                                 width: 4, gapWidth: 0, offset: 0, blur: 0, dasharray: dash)
        line.dasharrayFrom = dash
        line.floorWidth = 4
        var g: PropertyValue?
        if let gradient {
            let json = try JSONParser.parse(Array(gradient.utf8))
            g = PropertyValue(json: json, expression: try StyleExpression.compile(json, spec: LineProperties.lineGradient.spec).get())
        }
        var layer = EvaluatedLineLayer(id: "l", cap: .butt, miterLimit: 2, roundLimit: 1.05, translate: (0, 0),
                                       translateAnchor: .map, gradient: g, features: [line])
        layer.lineMetrics = gradient != nil
        let renderer = try GLRenderer()
        let view = ViewTransform(camera: Camera(zoom: 0), width: 128, height: 16)
        return try renderer.render(singleTilePlan(.line(layer)), view: view, ratio: 1)
    }

    func alpha(_ img: PremultipliedImage, _ x: Int, _ y: Int) -> UInt8 { img.pixels[(y * img.width + x) * 4 + 3] }

    func testDashesAlternate() throws {
        // [2, 2] in widths of 4 px: 8 px on, 8 px off from the line start at x = 38.4.
        let img = try render(dash: [2, 2], gradient: nil)
        let y = 8
        var on = 0, off = 0
        for x in 40..<88 { if alpha(img, x, y) > 200 { on += 1 } else if alpha(img, x, y) < 50 { off += 1 } }
        XCTAssertGreaterThan(on, 15); XCTAssertGreaterThan(off, 15)
        XCTAssertGreaterThan(alpha(img, 40, y), 200, "first dash")
        XCTAssertLessThan(alpha(img, 48, y), 50, "first gap")
        XCTAssertGreaterThan(alpha(img, 56, y), 200, "second dash")
        let solid = try render(dash: nil, gradient: nil)
        XCTAssertGreaterThan(alpha(solid, 48, y), 200, "without dasharray the line is solid")
    }

    func testGradientRunsAlongTheLine() throws {
        let img = try render(dash: nil, gradient: #"["interpolate", ["linear"], ["line-progress"], 0, "blue", 1, "red"]"#)
        func px(_ x: Int) -> [UInt8] { Array(img.pixels[((8 * img.width) + x) * 4..<((8 * img.width) + x) * 4 + 4]) }
        let start = px(40), end = px(88)
        XCTAssertGreaterThan(start[2], 200); XCTAssertLessThan(start[0], 40)
        XCTAssertGreaterThan(end[0], 200); XCTAssertLessThan(end[2], 40)
        XCTAssertEqual(px(64)[3], 255)
        XCTAssertEqual(px(100)[3], 0, "nothing past the line end")
    }
}
