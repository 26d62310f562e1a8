import XCTest
import GLMapCore
@testable import GLMapStyle
@testable import GLMapReference

/// Dashes and gradients of the CPU reference: the pattern field, the ramp and whole renders
/// checked against positions computed by hand (the tile pieces are `TileLineClipperTests`').
final class LineEffectsTests: XCTestCase {
    // MARK: DashPattern

    func testButtPatternStoresSignedTexelDistances() {
        let p = DashPattern([1, 1], round: false)
        XCTAssertEqual(p.length, 2)
        // Dash over texels 0…128, gap 128…256; the first and last parts differ, so no wrap join.
        XCTAssertEqual(p.field(64.5 / 256, across: 0), (128 + 64) / 255, accuracy: 1e-9)   // texel 64 centre
        XCTAssertEqual(p.field(192.5 / 256, across: 0), (128 - 64) / 255, accuracy: 1e-9)
        // Halfway between texel centres the field is the mean of the two (bilinear).
        XCTAssertEqual(p.field(65.0 / 256, across: 0), (192 + 191) / 2 / 255, accuracy: 1e-9)
        // The field wraps: one period further is the same value.
        XCTAssertEqual(p.field(1 + 64.5 / 256, across: 0), p.field(64.5 / 256, across: 0), accuracy: 1e-12)
        XCTAssertEqual(p.field(-1 + 64.5 / 256, across: 0), p.field(64.5 / 256, across: 0), accuracy: 1e-12)
    }

    func testZeroLengthGapMergesIntoOneDash() {
        // [1, 0]: the empty gap is dropped and the dash joins itself across the period: all inside.
        let p = DashPattern([1, 0], round: false)
        for i in stride(from: 0, to: 256, by: 7) {
            XCTAssertGreaterThan(p.field((Double(i) + 0.5) / 256, across: 0), 0.5, "texel \(i)")
        }
    }

    func testOddPatternRepeatsWithoutASeam() {
        // [1, 1, 1]: dash, gap, dash — the last dash continues into the first of the next period,
        // so the texels near the period's start are deep inside a 2-unit dash.
        let p = DashPattern([1, 1, 1], round: false)
        let nearStart = p.field(0.5 / 256, across: 0), nearEnd = p.field(255.5 / 256, across: 0)
        XCTAssertGreaterThan(nearStart, 0.5 + 60.0 / 255)
        XCTAssertGreaterThan(nearEnd, 0.5 + 60.0 / 255)
    }

    func testNegativeEntriesCountAsZero() {
        XCTAssertEqual(DashPattern.totalLength([2, -1, 3, .nan]), 5)
        XCTAssertEqual(DashPattern([0, 0], round: false).field(0.3, across: 0), 0)
    }

    func testRoundPatternIsNarrowerAtTheEdgesOfTheLine() {
        // Round caps: a dash is a stadium, so a texel just past the dash end is inside on the
        // centre line and outside at the line's edge.
        let p = DashPattern([2, 2], round: true)
        let pastEnd = (128 + 10.5) / 256
        XCTAssertGreaterThan(p.field(pastEnd, across: 0), 0.5)
        XCTAssertLessThan(p.field(pastEnd, across: 1), 0.5)
        XCTAssertEqual(p.field(pastEnd, across: 1), p.field(pastEnd, across: -1), accuracy: 1e-12)
        // Deep inside a dash it is inside everywhere across the line except at the very edge.
        XCTAssertGreaterThan(p.field(64.5 / 256, across: 0.5), 0.5)
    }

    // MARK: GradientRamp

    func gradient(_ json: String) throws -> PropertyValue {
        let j = try JSONParser.parse(Array(json.utf8))
        return PropertyValue(json: j, expression: try StyleExpression.compile(j, spec: LineProperties.lineGradient.spec).get())
    }

    func testRampInterpolatesOverThePieceRange() throws {
        let g = try gradient(#"["interpolate", ["linear"], ["line-progress"], 0, "red", 1, "blue"]"#)
        let whole = GradientRamp(g.expression, start: 0, end: 1, texels: 256, nearest: false)
        XCTAssertEqual(whole.color(at: 0), SIMD4<Float>(1, 0, 0, 1))
        XCTAssertEqual(whole.color(at: 1), SIMD4<Float>(0, 0, 1, 1))
        // A piece covering the second half of the line starts half way.
        let half = GradientRamp(g.expression, start: 0.5, end: 1, texels: 256, nearest: false)
        let c = half.color(at: 0)
        XCTAssertEqual(c.x, Float(127) / 255, accuracy: 1e-6)   // floor(0.5 · 255)
        XCTAssertEqual(c.z, Float(127) / 255, accuracy: 1e-6)
        // LINEAR: between two texel centres the colour is their mean.
        let mid = whole.color(at: 1.0 / 256)
        let t0 = whole.color(at: 0.5 / 256), t1 = whole.color(at: 1.5 / 256)
        XCTAssertEqual(mid.x, (t0.x + t1.x) / 2, accuracy: 1e-6)
    }

    func testRampStoresPremultipliedBytes() throws {
        let g = try gradient(#"["interpolate", ["linear"], ["line-progress"], 0, "rgba(255, 0, 0, 0.5)", 1, "rgba(255, 0, 0, 0.5)"]"#)
        let r = GradientRamp(g.expression, start: 0, end: 1, texels: 256, nearest: false)
        let a = 127                                 // floor(0.5 · 255)
        XCTAssertEqual(r.color(at: 0.3), SIMD4<Float>(Float(255 * a / 255) / 255, 0, 0, Float(a) / 255))
    }

    func testStepRampIsNearestAtStepResolution() throws {
        let g = try gradient(#"["step", ["line-progress"], "red", 0.5, "blue"]"#)
        XCTAssertEqual(GradientRamp.stepTexels(longestPieceTiles: 1, overzoom: 1), 1024)
        XCTAssertEqual(GradientRamp.stepTexels(longestPieceTiles: 0.01, overzoom: 1), 256)
        XCTAssertEqual(GradientRamp.stepTexels(longestPieceTiles: 100, overzoom: 16), 8192)
        let r = GradientRamp(g.expression, start: 0, end: 1, texels: 256, nearest: true)
        XCTAssertEqual(r.color(at: 0.49), SIMD4<Float>(1, 0, 0, 1))
        XCTAssertEqual(r.color(at: 0.51), SIMD4<Float>(0, 0, 1, 1))
    }

    // MARK: Rendering

    let tv = TestView(width: 96, height: 32, zoom: 4)

    func dashedLayer(_ parts: [[Double]], width: Double, dash: [Double], cap: LineCap = .butt) -> EvaluatedLineLayer {
        var line = EvaluatedLine(parts: parts.map { ($0, false) }, join: .miter, color: white, opacity: 1, width: width,
                                 gapWidth: 0, offset: 0, blur: 0, dasharray: dash)
        line.dasharrayFrom = dash
        line.floorWidth = width
        var l = EvaluatedLineLayer(id: "dash", cap: cap, miterLimit: 2, roundLimit: 1.05, translate: (0, 0),
                                   translateAnchor: .map, gradient: nil, features: [line])
        l.zoom = tv.zoom
        l.dashFromScale = 0.5
        return l
    }

    func render(_ layer: EvaluatedLineLayer) -> PremultipliedImage {
        ReferenceRenderer().render([EvaluatedLayer.line(layer)], view: tv.view, ratio: 1)
    }

    /// Whether the pixel centre at screen x lies well inside a dash of `period` px whose first
    /// dash (`on` px) starts at `start`; nil near an edge.
    func expectOn(_ x: Int, start: Double, on: Double, period: Double) -> Bool? {
        var s = (Double(x) + 0.5 - start).truncatingRemainder(dividingBy: period)
        if s < 0 { s += period }
        if s > 1.5 && s < on - 1.5 { return true }
        if s > on + 1.5 && s < period - 1.5 { return false }
        return nil
    }

    func testDashesHaveTheirLengthInLineWidths() {
        // Width 4, [2, 2]: 8 px dashes and gaps from the start at x = 10.
        let img = render(dashedLayer([tv.flat([(10, 16.5), (90, 16.5)])], width: 4, dash: [2, 2]))
        var checked = 0
        for x in 10..<47 {                        // left of the tile boundary at x = 48
            guard let on = expectOn(x, start: 10, on: 8, period: 16) else { continue }
            XCTAssertEqual(alpha(img, x, 16), on ? 255 : 0, "x = \(x)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 10)
    }

    func testRoundDashesGetRoundEnds() {
        // Round caps: the dash ends bulge past the butt ends by up to half the width on the
        // centre line, not at the edges of the line.
        let butt = render(dashedLayer([tv.flat([(10, 16.5), (47, 16.5)])], width: 8, dash: [1, 2]))
        let round = render(dashedLayer([tv.flat([(10, 16.5), (47, 16.5)])], width: 8, dash: [1, 2], cap: .round))
        // First dash: 10…18; a round end reaches 4 px further on the centre line, none at the edge.
        XCTAssertEqual(alpha(butt, 20, 16), 0)
        XCTAssertGreaterThan(alpha(round, 20, 16), 240)
        XCTAssertLessThan(alpha(round, 20, 12), alpha(round, 20, 16) / 4)
        XCTAssertGreaterThan(alpha(round, 14, 12), 100)      // inside the dash the edge row is drawn
    }

    func testGradientFollowsProgressAlongTheLine() throws {
        let g = try gradient(#"["interpolate", ["linear"], ["line-progress"], 0, "red", 1, "blue"]"#)
        let line = EvaluatedLine(parts: [(tv.flat([(10, 16.5), (40, 16.5)]), false)], join: .miter, color: white,
                                 opacity: 1, width: 6, gapWidth: 0, offset: 0, blur: 0, dasharray: nil)
        var l = EvaluatedLineLayer(id: "g", cap: .butt, miterLimit: 2, roundLimit: 1.05, translate: (0, 0),
                                   translateAnchor: .map, gradient: g, features: [line])
        l.zoom = tv.zoom
        l.lineMetrics = true
        let img = render(l)
        let first = img[10, 16], last = img[39, 16], middle = img[25, 16]
        XCTAssertGreaterThan(first.r, 240); XCTAssertLessThan(first.b, 15)
        XCTAssertGreaterThan(last.b, 240); XCTAssertLessThan(last.r, 15)
        XCTAssertEqual(Double(middle.r), 127, accuracy: 6)
        XCTAssertEqual(Double(middle.b), 127, accuracy: 6)
        XCTAssertEqual(middle.a, 255)
    }
}
