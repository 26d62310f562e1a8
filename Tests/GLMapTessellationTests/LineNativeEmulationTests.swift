import Foundation
import XCTest
@testable import GLMapTessellation

/// The line behaviours of MapLibre Native that `NativeEmulation` reproduces for the differential
/// harness (`.int8Direction`, `.miterClamp`), and that without them the tessellation is GL JS's.
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

    func testNamesParse() {
        XCTAssertEqual(NativeEmulation(names: "earcut22,int8-direction,miter-clamp"), [.earcut22, .int8Direction, .miterClamp])
        XCTAssertEqual(NativeEmulation(names: "none"), [])
        XCTAssertEqual(NativeEmulation(names: ""), [])
        XCTAssertNil(NativeEmulation(names: "earcut23"))
        XCTAssertEqual(NativeEmulation([.miterClamp, .earcut22]).names, "earcut22,miter-clamp")
        XCTAssertEqual(NativeEmulation().names, "none")
    }
}
