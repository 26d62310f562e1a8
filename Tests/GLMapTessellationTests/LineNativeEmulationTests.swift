import Foundation
import XCTest
@testable import GLMapStyle
@testable import GLMapTessellation

/// The line behaviours of MapLibre Native that `NativeEmulation` reproduces for the differential
/// harness (`.int8Direction`, `.miterClamp`, `.ringStart`, `.dashRows`), and that without them the tessellation is GL JS's.
final class LineNativeEmulationTests: XCTestCase {
    func tessellate(_ pts: [Double], join: LineJoin, miterLimit: Double = 2, emulation: NativeEmulation) -> LineGeometry {
        var t = LineTessellator(join: join, cap: .butt, miterLimit: miterLimit, roundLimit: 1.05)
        t.nativeEmulation = emulation
        var g = LineGeometry()
        t.append(pts, closed: false, into: &g)
        return g
    }

    /// 0 → 10 along x, then 10 more turned by `turn` degrees.
    func corner(_ turn: Double) -> [Double] {
        let a = turn * .pi / 180
        return [0, 0, 10, 0, 10 + 10 * cos(a), 10 * sin(a)]
    }

    /// A bevel join turning less than 90° shifts its inner vertices along the line by
    /// −√(m² − 1) ∈ (−1, 0): GL JS flags them with the sign (−1 / +1), Native's int8 cast with 0.
    func testInt8DirectionZeroesTheInnerShiftOfShallowBevels() {
        for join in [LineJoin.bevel, .round] {
            let pts = corner(60)
            let glJS = tessellate(pts, join: join, emulation: [])
            let native = tessellate(pts, join: join, emulation: .int8Direction)
            XCTAssertEqual(glJS.vertices.count, native.vertices.count)
            XCTAssertEqual(glJS.indices, native.indices)
            var changed = 0
            for (g, n) in zip(glJS.vertices, native.vertices) {
                XCTAssertEqual([g.x, g.y, g.ex, g.ey, g.nx, g.ny, g.distance], [n.x, n.y, n.ex, n.ey, n.nx, n.ny, n.distance])
                if g.direction != n.direction {
                    changed += 1
                    XCTAssertEqual(n.direction, 0, "\(join): Native's flag is 0 where GL JS's is ±1")
                    XCTAssertEqual(abs(g.direction), 1)
                }
            }
            XCTAssertGreaterThan(changed, 0, "\(join) at 60°: the inner pair's flag differs")
        }
        // a straight line and a miter have no shift: nothing changes
        let straight = [0.0, 0, 10, 0, 20, 0]
        XCTAssertEqual(tessellate(straight, join: .bevel, emulation: .int8Direction).vertices,
                       tessellate(straight, join: .bevel, emulation: []).vertices)
        XCTAssertEqual(tessellate(corner(60), join: .miter, emulation: .int8Direction).vertices,
                       tessellate(corner(60), join: .miter, emulation: []).vertices)
    }

    /// A miter of length 1/cos(θ/2) beyond ~2.02 half widths (allowed by `line-miter-limit` 10)
    /// does not fit Native's extrusion byte, which it clamps per component to [−128, 127]/63.
    func testMiterClampKeepsExtrusionsInNativesByte() {
        let pts = corner(140)  // miter length 2.92
        let exact = tessellate(pts, join: .miter, miterLimit: 10, emulation: [])
        let clamped = tessellate(pts, join: .miter, miterLimit: 10, emulation: .miterClamp)
        XCTAssertEqual(exact.vertices.count, clamped.vertices.count)
        let lo = Float(-128.0 / 63), hi = Float(127.0 / 63)
        XCTAssertTrue(exact.vertices.contains { $0.ex < lo || $0.ex > hi || $0.ey < lo || $0.ey > hi },
                      "the exact miter leaves the byte's range")
        var changed = 0
        for (e, c) in zip(exact.vertices, clamped.vertices) {
            XCTAssertEqual(c.ex, min(max(e.ex, lo), hi))
            XCTAssertEqual(c.ey, min(max(e.ey, lo), hi))
            XCTAssertEqual(c.direction, e.direction)
            if c != e { changed += 1 }
        }
        XCTAssertGreaterThan(changed, 0)
        // within the byte nothing moves (a 90° miter is √2 long)
        XCTAssertEqual(tessellate(corner(90), join: .miter, miterLimit: 10, emulation: .miterClamp).vertices,
                       tessellate(corner(90), join: .miter, miterLimit: 10, emulation: []).vertices)
    }

    /// A ring restarted at its northernmost vertex (least y), the first of equal ones, closed
    /// the way it came; a ring that starts there already, or has fewer than three points, stays.
    func testStartingAtTopRotatesToTheNorthernmostVertex() {
        XCTAssertEqual(NativeEmulation.startingAtTop([0, 5, 4, 4, 6, 1, 2, 3, 0, 5]), [6, 1, 2, 3, 0, 5, 4, 4, 6, 1])
        XCTAssertEqual(NativeEmulation.startingAtTop([0, 5, 4, 4, 6, 1, 2, 3]), [6, 1, 2, 3, 0, 5, 4, 4], "unclosed stays unclosed")
        XCTAssertEqual(NativeEmulation.startingAtTop([0, 5, 4, 1, 6, 1, 2, 3, 0, 5]), [4, 1, 6, 1, 2, 3, 0, 5, 4, 1], "ties: the first")
        XCTAssertEqual(NativeEmulation.startingAtTop([6, 1, 2, 3, 0, 5, 6, 1]), [6, 1, 2, 3, 0, 5, 6, 1])
        XCTAssertEqual(NativeEmulation.startingAtTop([0, 5, 6, 1, 0, 5]), [0, 5, 6, 1, 0, 5], "two points: unchanged")
    }

    /// A dashed ring crossing the tile boundary x = 0.5 at zoom 2 with one peak in each tile piece.
    func dashedRing(startingAt k: Int) -> EvaluatedLineLayer {
        // x within tiles 1 and 2 (and their buffers), y within row 1 and clear of rows 0 and 2 buffers.
        let pts: [(Double, Double)] = [(0.32, 0.4), (0.35, 0.33), (0.5, 0.37), (0.65, 0.32), (0.68, 0.4), (0.5, 0.43)]
        let ring = Array(pts[k...] + pts[..<k]) + [pts[k]]
        var line = EvaluatedLine(parts: [(ring.flatMap { [$0.0, $0.1] }, true)], join: .miter, color: .black, opacity: 1,
                                 width: 2, gapWidth: 0, offset: 0, blur: 0, dasharray: [2, 1])
        line.dasharrayFrom = [2, 1]
        line.floorWidth = 2
        var l = EvaluatedLineLayer(id: "l", cap: .butt, miterLimit: 2, roundLimit: 1.05, translate: (0, 0),
                                   translateAnchor: .map, gradient: nil, features: [line])
        l.zoom = 2.5
        return l
    }

    /// With `.ringStart` every tile piece restarts at its own top, so where the file's ring
    /// starts no longer matters; without it (GL JS), the dash phase follows the file's start.
    func testRingStartMakesEachTilePieceIndependentOfTheFilesStart() {
        let origin = (x: 0.5, y: 0.4)
        let a = LineBucket(dashedRing(startingAt: 0), origin: origin, emulation: .ringStart)
        XCTAssertTrue(a.fxVertices.enumerated().contains { $0.offset % LineBucket.fxLayout == 10 && $0.element == 1 },
                      "the ring is cut into tile pieces")
        for k in 1..<6 {
            let b = LineBucket(dashedRing(startingAt: k), origin: origin, emulation: .ringStart)
            XCTAssertEqual(a.vertices, b.vertices, "start \(k)")
            XCTAssertEqual(a.fxVertices, b.fxVertices, "start \(k)")
            XCTAssertEqual(a.indices, b.indices, "start \(k)")
        }
        let glJS = LineBucket(dashedRing(startingAt: 0), origin: origin, emulation: [])
        XCTAssertEqual(glJS.vertices, LineBucket(dashedRing(startingAt: 0), origin: origin).vertices, "the empty set is the default")
        XCTAssertNotEqual(glJS.fxVertices, a.fxVertices, "the file starts at (0.32, 0.4), not at a piece's top")
        XCTAssertNotEqual(glJS.fxVertices, LineBucket(dashedRing(startingAt: 4), origin: origin, emulation: []).fxVertices)
        XCTAssertFalse(a.nativeDashRows)
        XCTAssertTrue(LineBucket(dashedRing(startingAt: 0), origin: origin, emulation: .dashRows).nativeDashRows)
    }

    func testNamesParse() {
        XCTAssertEqual(NativeEmulation(names: "ring-start,dash-rows"), [.ringStart, .dashRows])
        XCTAssertEqual(NativeEmulation(names: "earcut22,int8-direction,miter-clamp"), [.earcut22, .int8Direction, .miterClamp])
        XCTAssertEqual(NativeEmulation(names: "none"), [])
        XCTAssertEqual(NativeEmulation(names: ""), [])
        XCTAssertNil(NativeEmulation(names: "earcut23"))
        XCTAssertEqual(NativeEmulation([.miterClamp, .earcut22]).names, "earcut22,miter-clamp")
        XCTAssertEqual(NativeEmulation().names, "none")
    }
}
