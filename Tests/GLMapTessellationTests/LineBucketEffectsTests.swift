import Foundation
import GLMapCore
import XCTest
@testable import GLMapStyle
@testable import GLMapTessellation

/// Dash and gradient vertex data of line buckets (geometry in tile units, each part one tile's piece).
final class LineBucketEffectsTests: XCTestCase {
    func layer(zoom: Double, dash: [Double]?, gradient: String? = nil, metrics: Bool = false,
               parts: [[Double]], closed: Bool = false, clip: (Double, Double)? = nil) throws -> EvaluatedLineLayer {
        var line = EvaluatedLine(parts: parts.map { ($0, closed) }, join: .miter, color: .black, opacity: 1,
                                 width: 2, gapWidth: 0, offset: 0, blur: 0, dasharray: dash)
        line.dasharrayFrom = dash
        line.floorWidth = 2
        line.clip = clip
        var g: PropertyValue?
        if let gradient {
            let json = try JSONParser.parse(Array(gradient.utf8))
            g = PropertyValue(json: json, expression: try StyleExpression.compile(json, spec: LineProperties.lineGradient.spec).get())
        }
        var l = EvaluatedLineLayer(id: "l", cap: .butt, miterLimit: 2, roundLimit: 1.05, translate: (0, 0),
                                   translateAnchor: .map, gradient: g, features: [line])
        l.zoom = zoom
        l.lineMetrics = metrics
        return l
    }

    func fx(_ b: LineBucket) -> [[Float]] {
        stride(from: 0, to: b.fxVertices.count, by: LineBucket.fxLayout).map { Array(b.fxVertices[$0..<($0 + LineBucket.fxLayout)]) }
    }

    func testExtrusionsAreStoredInSixtyThirdsOfTheHalfWidth() throws {
        // A 30° turn: the miter vector's components (about 1.04 and 0.28 half widths) are not on
        // the 1/63 grid, so they must come out rounded as MapLibre's vertex byte stores them.
        let a = 30.0 * Double.pi / 180
        let b = LineBucket(try layer(zoom: 3, dash: nil, parts: [[100, 100, 1000, 100, 1000 + 900 * cos(a), 100 + 900 * sin(a)]]))
        let extrusions = stride(from: 0, to: b.vertices.count, by: b.stride).flatMap { [b.vertices[$0 + 2], b.vertices[$0 + 3]] }
        XCTAssertFalse(extrusions.isEmpty)
        for e in extrusions {
            let steps = Double(e) * 63
            XCTAssertEqual(steps, steps.rounded(), accuracy: 1e-4, "extrusion \(e) is not a multiple of 1/63")
        }
        XCTAssertEqual(LineTiling.storedExtrusion(0.6 / 63), 1 / 63)
        XCTAssertEqual(LineTiling.storedExtrusion(-0.4 / 63), 0, accuracy: 1e-15)
        XCTAssertEqual(LineTiling.storedExtrusion(1 / cos(a / 2)), 65.0 / 63)
    }

    func testPlainLinesHaveNoEffectData() throws {
        let b = LineBucket(try layer(zoom: 3, dash: nil, parts: [[100, 100, 1000, 100]]))
        XCTAssertTrue(b.fxVertices.isEmpty)
        XCTAssertNil(b.atlas)
        XCTAssertNil(b.ramp)
    }

    func testDashDistancesRunFromThePieceStart() throws {
        // A tile's piece of a line from x = −1000 (in the buffer) to 5000: linesofar runs from 0
        // at the piece's first point, in tile units, snapped to even values.
        let b = LineBucket(try layer(zoom: 2.5, dash: [2, 1], parts: [[-1000, 300, 5001, 300]]))
        XCTAssertEqual(b.fxVertices.count / LineBucket.fxLayout, b.vertices.count / b.stride)
        let rows = fx(b)
        XCTAssertEqual(rows.map { $0[0] }.min(), 0)
        XCTAssertEqual(Double(rows.map { $0[0] }.max()!), 6000, accuracy: 2)
        XCTAssertTrue(rows.allSatisfy { $0[0].truncatingRemainder(dividingBy: 2) == 0 })
        // Dash entry: to/from in the atlas, length 3 line widths.
        XCTAssertEqual(rows[0][6], 3); XCTAssertEqual(rows[0][9], 3)
        XCTAssertEqual(b.atlas?.height, 1)
    }

    func testMetricsDashesFollowProgressAndGradientRowsFollowClips() throws {
        // A piece covering 25…75 % of the whole line (geojson-vt's mapbox_clip_start / _end).
        let b = LineBucket(try layer(zoom: 2, dash: [1, 1],
                                     gradient: #"["interpolate", ["linear"], ["line-progress"], 0, "blue", 1, "red"]"#,
                                     metrics: true, parts: [[0, 300, 4000, 300]], clip: (0.25, 0.75)))
        let rows = fx(b)
        let ramp = try XCTUnwrap(b.ramp)
        XCTAssertEqual(ramp.height, 1, "one ramp row for the piece's range")
        // linesofar runs over the piece's share of 0…32767 (MapLibre's scaled distance).
        XCTAssertEqual(Double(rows.map { $0[0] }.min()!), 0.25 * 32767, accuracy: 2)
        XCTAssertEqual(Double(rows.map { $0[0] }.max()!), 0.75 * 32767, accuracy: 2)
        // Progress within the piece runs 0…1.
        XCTAssertEqual(rows.map { $0[2] }.min(), 0)
        XCTAssertEqual(rows.map { $0[2] }.max(), 1)
        XCTAssertTrue(rows.allSatisfy { Int($0[3]) < ramp.height })
    }

    func testStepGradientUsesNearestRamp() throws {
        let b = LineBucket(try layer(zoom: 10, dash: nil,
                                     gradient: #"["step", ["line-progress"], "blue", 0.5, "red"]"#,
                                     metrics: true, parts: [[300, 300, 4300, 300]], clip: (0, 1)))
        var l = b.layer
        l.gradientIsStep = true
        let step = LineBucket(l)
        XCTAssertTrue(step.ramp!.nearest)
        XCTAssertFalse(b.ramp!.nearest)
        XCTAssertGreaterThan(step.ramp!.width, 256)
    }

    func testRingDashDistancesStartAtTheClosingSegment() throws {
        // A square ring of side 32 tile units: MapLibre enters the first point from the last one,
        // so linesofar starts at one side, not at 0, and ends at five sides.
        let tu = 32.0
        let ring = [300, 300, 300 + tu, 300, 300 + tu, 300 + tu, 300, 300 + tu]
        let b = LineBucket(try layer(zoom: 2, dash: [2, 1], parts: [ring], closed: true))
        let linesofar = fx(b).map { Double($0[0]) }
        XCTAssertEqual(linesofar.min()!, tu, accuracy: 2)
        XCTAssertEqual(linesofar.max()!, 5 * tu, accuracy: 2)
    }

    func testRingsReadTheGradientAtTheirLineSoFar() throws {
        // geojson-vt gives line metrics to lines only: a ring's progress is its stored linesofar
        // / 32767 (MapLibre Native's v_lineprogress). The ring's sides are 32.8 tile units, the
        // closing side counted first.
        let s = 32.768
        let ring = [300, 300, 300 + s, 300, 300 + s, 300 + s, 300, 300 + s]
        let b = LineBucket(try layer(zoom: 2, dash: nil,
                                     gradient: #"["interpolate", ["linear"], ["line-progress"], 0, "blue", 1, "red"]"#,
                                     metrics: true, parts: [ring], closed: true))
        let rows = fx(b)
        XCTAssertFalse(rows.isEmpty)
        for r in rows { XCTAssertEqual(Double(r[2]), Double(r[0]) / 32767, accuracy: 1e-7) }
        XCTAssertEqual(Double(rows.map { $0[2] }.min()!), 32 / 32767, accuracy: 1e-7)
        XCTAssertEqual(Double(rows.map { $0[2] }.max()!), 162 / 32767, accuracy: 1e-7)  // back at the start: 5 sides
    }
}
