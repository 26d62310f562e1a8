import Foundation
import XCTest
@testable import GLMapTessellation

/// Area and shape of tessellated lines against exact strokes.
///
/// Each case draws the triangles at half width `h` (vertices at (x, y) + e·h, round parts cut at
/// length(n) ≤ 1 as the fragment shader does), computes the exact area of their union with
/// `LineCoverage`, and compares it with (1) a closed-form area and (2) a reference shape built
/// independently from rectangles, discs and polygons: equal areas plus area(actual ∪ reference)
/// = area(reference) means the two shapes coincide up to a null set.
///
/// Tolerances: polygonal cases are exact up to Float32 storage of x, y, e (coordinates ≤ 20, so
/// each drawn vertex is off by ≤ 4e-6; times a perimeter ≤ 60 that bounds the area error by
/// ≈ 3e-4) — we use 1e-5 relative (≈ 4e-4 on these areas). Cases with round parts add the
/// quadrature error of `LineCoverage` (< 1e-9 relative on a disc and a stadium below), so 1e-5 too.
/// Closed forms for corners assume both segments (length 10) are longer than the inner overlap
/// h·tan(θ/2), which holds for every turn θ ≤ 165° used here.
final class LineTessellatorTests: XCTestCase {
    let h = 1.0
    let relTol = 1e-5

    func tessellate(_ pts: [Double], closed: Bool = false, join: LineJoin = .miter, cap: LineCap = .butt,
                    miterLimit: Double = 2, roundLimit: Double = 1.05) -> LineGeometry {
        var t = LineTessellator(join: join, cap: cap, miterLimit: miterLimit, roundLimit: roundLimit)
        var g = LineGeometry()
        t.append(pts, closed: closed, into: &g)
        return g
    }

    func assertShape(_ g: LineGeometry, area expected: Double, reference: LineCoverage,
                     file: StaticString = #filePath, line: UInt = #line) {
        let actual = LineCoverage(g, halfWidth: h)
        let a = actual.area
        let r = reference.area
        let u = (actual + reference).area
        let tol = relTol * expected
        XCTAssertEqual(r, expected, accuracy: tol, "reference shape vs closed form", file: file, line: line)
        XCTAssertEqual(a, expected, accuracy: tol, "tessellated area vs closed form", file: file, line: line)
        XCTAssertEqual(u, r, accuracy: tol, "tessellation covers area outside the exact stroke", file: file, line: line)
    }

    func v(_ x: Double, _ y: Double) -> SIMD2<Double> { SIMD2(x, y) }

    /// Polyline from the origin: L along +x, then L in the direction turned by `turnDegrees`.
    func corner(turnDegrees: Double, length L: Double = 10) -> (pts: [Double], p: [SIMD2<Double>]) {
        let a = turnDegrees * .pi / 180
        let p = [v(0, 0), v(L, 0), v(L + L * cos(a), L * sin(a))]
        return (p.flatMap { [$0.x, $0.y] }, p)
    }

    /// Outer unit normals at the corner p[1] of `corner` (the turn goes towards +y).
    func outerNormals(turnDegrees: Double) -> (SIMD2<Double>, SIMD2<Double>) {
        let a = turnDegrees * .pi / 180
        return (v(0, -1), v(sin(a), -cos(a)))
    }

    // MARK: integrator

    func testIntegratorIsExactOnKnownShapes() {
        XCTAssertEqual(LineCoverage.polygon([v(0, 0), v(2, 0), v(2, 3), v(0, 3)]).area, 6, accuracy: 1e-12)
        let two = LineCoverage.polygon([v(0, 0), v(2, 0), v(2, 2), v(0, 2)])
            + LineCoverage.polygon([v(1, 1), v(3, 1), v(3, 3), v(1, 3)])
        XCTAssertEqual(two.area, 7, accuracy: 1e-12)
        let disc = LineCoverage.disc(v(0.3, -0.2), 1.7)
        XCTAssertEqual(disc.area, .pi * 1.7 * 1.7, accuracy: 1e-9 * .pi * 1.7 * 1.7)
        let stadium = LineCoverage.rect(v(0, 0), v(5, 3), 1) + .disc(v(0, 0), 1) + .disc(v(5, 3), 1)
        XCTAssertEqual(stadium.area, 2 * 34.0.squareRoot() + .pi, accuracy: 1e-9 * 15)
    }

    // MARK: straight lines and caps

    func testStraightSegmentButt() {
        let g = tessellate([0, 0, 10, 0])
        XCTAssertEqual(g.vertices.count, 4)
        XCTAssertEqual(g.triangleCount, 2)
        assertShape(g, area: 10 * 2 * h, reference: .rect(v(0, 0), v(10, 0), h))
    }

    func testCollinearPointsAreAStraightLine() {
        let g = tessellate([0, 0, 3, 0, 7, 0, 10, 0], join: .round)
        assertShape(g, area: 20, reference: .rect(v(0, 0), v(10, 0), h))
        for q in g.vertices { XCTAssertEqual(Double(q.ex * q.ex + q.ey * q.ey), 1, accuracy: 1e-6) }
    }

    func testSquareCaps() {
        let g = tessellate([0, 0, 10, 0], cap: .square)
        assertShape(g, area: (10 + 2 * h) * 2 * h, reference: .rect(v(-h, 0), v(10 + h, 0), h))
    }

    func testRoundCaps() {
        let g = tessellate([2, 1, 8, 9], cap: .round)
        let expected = 10 * 2 * h + Double.pi * h * h
        assertShape(g, area: expected, reference: .rect(v(2, 1), v(8, 9), h) + .disc(v(2, 1), h) + .disc(v(8, 9), h))
    }

    // MARK: joins

    func testRightAngleMiter() {
        let (pts, p) = corner(turnDegrees: 90)
        let g = tessellate(pts)
        let (o1, o2) = outerNormals(turnDegrees: 90)
        let kite = LineCoverage.polygon([p[1], p[1] + o1 * h, p[1] + (o1 + o2) * h, p[1] + o2 * h])
        assertShape(g, area: 40 * h, reference: .rect(p[0], p[1], h) + .rect(p[1], p[2], h) + kite)
    }

    func testMiterWithinLimit() {
        // Miter area is w·(L1 + L2) at any angle: the inner overlap kite equals the outer miter kite.
        for turn in [30.0, 60, 100, 119] {
            let (pts, p) = corner(turnDegrees: turn)
            let g = tessellate(pts, miterLimit: 2)
            let (o1, o2) = outerNormals(turnDegrees: turn)
            let m = 1 / cos(turn * .pi / 360)
            let bis = (o1 + o2) / ((o1 + o2) * (o1 + o2)).sum().squareRoot()
            let kite = LineCoverage.polygon([p[1], p[1] + o1 * h, p[1] + bis * (m * h), p[1] + o2 * h])
            assertShape(g, area: 40 * h, reference: .rect(p[0], p[1], h) + .rect(p[1], p[2], h) + kite)
            XCTAssertEqual(g.vertices.count, 6, "one pair per point at turn \(turn)")
        }
    }

    /// Area of a bevelled corner of two length-10 segments turning by `turn` degrees:
    /// w(L1 + L2) − inner overlap kite h²·tan(θ/2) + bevel triangle h²·sin(θ)/2.
    func bevelArea(_ turn: Double) -> Double {
        let a = turn * .pi / 180
        return 40 * h - h * h * tan(a / 2) + 0.5 * h * h * sin(a)
    }

    /// MapLibre's flip bevel (miter length > 2, turns past 120°): both segments end on the chord
    /// through the corner along t1 + t2, which is a diagonal of the rhombus where the two strips
    /// cross, so the segments' trapezoids (each 2h·L) overlap in half of it, 2h²/sin θ.
    func flipBevelArea(_ turn: Double) -> Double { 40 * h - 2 * h * h / sin(turn * .pi / 180) }

    /// The two trapezoids of a flip-bevelled corner of `corner(turnDegrees:)`, built from the chord.
    func flipBevelShape(_ turn: Double) -> LineCoverage {
        let (_, p) = corner(turnDegrees: turn)
        let a = turn * .pi / 180
        let t1 = v(1, 0), t2 = v(cos(a), sin(a))
        let c = (t1 + t2) / ((t1 + t2) * (t1 + t2)).sum().squareRoot()
        let n1 = v(0, 1), n2 = v(-sin(a), cos(a))
        let c1 = (c * n1).sum(), c2 = (c * n2).sum()
        let q1 = LineCoverage.polygon([p[0] - n1 * h, p[0] + n1 * h, p[1] + c * (h / c1), p[1] - c * (h / c1)])
        let q2 = LineCoverage.polygon([p[1] + c * (h / c2), p[2] + n2 * h, p[2] - n2 * h, p[1] - c * (h / c2)])
        return q1 + q2
    }

    func testAcuteAngleBeyondMiterLimitIsAFlipBevel() {
        // 150° turn: miter length 3.86 > 2 → both segments end on the chord through the corner.
        for turn in [150.0, 160, 121] {
            let (pts, _) = corner(turnDegrees: turn)
            let g = tessellate(pts, miterLimit: 2)
            assertShape(g, area: flipBevelArea(turn), reference: flipBevelShape(turn))
            for q in g.vertices { XCTAssertLessThanOrEqual(q.ex * q.ex + q.ey * q.ey, 2 * 2 + 1e-5) }
        }
    }

    func testRightAngleBeyondLowMiterLimitIsBevelled() {
        // 90° turn: miter length √2 > 1.2 → bevel through the shared inner miter point.
        let (pts, p) = corner(turnDegrees: 90)
        let g = tessellate(pts, miterLimit: 1.2)
        let (o1, o2) = outerNormals(turnDegrees: 90)
        let bevel = LineCoverage.polygon([p[1], p[1] + o1 * h, p[1] + o2 * h])
        assertShape(g, area: bevelArea(90), reference: .rect(p[0], p[1], h) + .rect(p[1], p[2], h) + bevel)
    }

    func testBevelJoin() {
        for turn in [40.0, 60, 90] {
            let (pts, p) = corner(turnDegrees: turn)
            let g = tessellate(pts, join: .bevel)
            let (o1, o2) = outerNormals(turnDegrees: turn)
            let bevel = LineCoverage.polygon([p[1], p[1] + o1 * h, p[1] + o2 * h])
            assertShape(g, area: bevelArea(turn), reference: .rect(p[0], p[1], h) + .rect(p[1], p[2], h) + bevel)
        }
        // Past miter length 2 (135°: 2.61) a bevel join is MapLibre's flip bevel too.
        assertShape(tessellate(corner(turnDegrees: 135).pts, join: .bevel), area: flipBevelArea(135), reference: flipBevelShape(135))
        // Nearly straight: MapLibre draws a miter (miter length < 1.05) to save a triangle.
        let (pts, _) = corner(turnDegrees: 10)
        XCTAssertEqual(tessellate(pts, join: .bevel).vertices.count, 6)
    }

    func testFakeRoundJoinIsItsChordPolygon() {
        // 90° turn, round join, miter length √2 ≤ 2: a fan of n chords (MapLibre's count, n = 4).
        let (pts, p) = corner(turnDegrees: 90)
        let g = tessellate(pts, join: .round)
        let n = 4
        let alpha = Double.pi / 2
        let (o1, o2) = outerNormals(turnDegrees: 90)
        let chordArea = 0.5 * h * h * Double(n) * sin(alpha / Double(n))
        let expected = 40 * h - h * h * tan(alpha / 2) + chordArea
        assertShape(g, area: expected, reference: .rect(p[0], p[1], h) + .rect(p[1], p[2], h) + chordFan(p[1], o1, o2, steps: n))
        // The chord deficit against the true round join is bounded by h²·α·(α/n)²/12.
        let roundArea = 40 * h - h * h * tan(alpha / 2) + 0.5 * h * h * alpha
        XCTAssertLessThanOrEqual(roundArea - expected, h * h * alpha * pow(alpha / Double(n), 2) / 12)
        XCTAssertGreaterThan(roundArea - expected, 0)
    }

    func testRoundJoinBeyond120DegreesIsExactlyRound() {
        for turn in [150.0, 165] {
            let (pts, p) = corner(turnDegrees: turn)
            let g = tessellate(pts, join: .round)
            let a = turn * .pi / 180
            let expected = 40 * h - h * h * tan(a / 2) + 0.5 * h * h * a
            assertShape(g, area: expected, reference: .rect(p[0], p[1], h) + .rect(p[1], p[2], h) + .disc(p[1], h))
        }
    }

    func testRoundLimitTurnsSmallRoundJoinsIntoMiters() {
        let (pts, _) = corner(turnDegrees: 30)  // miter length 1.035 < 1.05
        XCTAssertEqual(tessellate(pts, join: .round).vertices.count, 6)
        XCTAssertGreaterThan(tessellate(pts, join: .round, roundLimit: 1.0).vertices.count, 6)
    }

    func testUTurnHasNoSpike() {
        for pts in [[0.0, 0, 10, 0, 3, 0], [0, 0, 10, 0, 3, 1e-9], [0, 0, 10, 0, 3, -1e-12], [0, 0, 10, 0, 0, 0]] {
            for join in LineJoin.allCases {
                let g = tessellate(pts, join: join, miterLimit: 2)
                XCTAssertFalse(g.vertices.isEmpty)
                for q in g.vertices {
                    XCTAssertTrue(q.ex.isFinite && q.ey.isFinite && q.nx.isFinite && q.ny.isFinite)
                    // Every drawn vertex lies within halfWidth·miterLimit of its input point.
                    XCTAssertLessThanOrEqual(Double(q.ex * q.ex + q.ey * q.ey).squareRoot(), 2 + 1e-6, "\(join) \(pts)")
                }
                if join != .round {
                    // The stroke of a U-turn is just the rectangle of the longer leg.
                    assertShape(g, area: 20, reference: .rect(v(0, 0), v(10, 0), h))
                }
            }
        }
    }

    // MARK: closed rings

    func testClosedSquareRingIsTheFrame() {
        let ring = [0.0, 0, 10, 0, 10, 10, 0, 10]
        let frame = LineCoverage.rect(v(-1, 0), v(11, 0), h) + .rect(v(-1, 10), v(11, 10), h)
            + .rect(v(0, -1), v(0, 11), h) + .rect(v(10, -1), v(10, 11), h)
        assertShape(tessellate(ring, closed: true), area: 12 * 12 - 8 * 8, reference: frame)
        // Same ring with its closing point repeated, and starting elsewhere.
        assertShape(tessellate(ring + [0, 0], closed: true), area: 80, reference: frame)
        assertShape(tessellate([10, 10, 0, 10, 0, 0, 10, 0, 10, 10], closed: true), area: 80, reference: frame)
        // Caps never apply to rings.
        assertShape(tessellate(ring, closed: true, cap: .round), area: 80, reference: frame)
    }

    func testRingDistancesStartAtTheClosingSegmentsLength() {
        // MapLibre's line bucket enters a ring's first point from its last one: the closing
        // segment (here 10 long) is counted before the first vertex, and the ring ends at 10 + 40.
        var geometry = LineGeometry()
        var tess = LineTessellator()
        let end = tess.append([0.0, 0, 10, 0, 10, 10, 0, 10], closed: true, into: &geometry)
        XCTAssertEqual(end, 50, accuracy: 1e-9)
        let distances = geometry.vertices.map { Double($0.distance) }
        XCTAssertEqual(distances.min()!, 10, accuracy: 1e-6)
        XCTAssertEqual(distances.max()!, 50, accuracy: 1e-6)
    }

    func testDistancesRestartPastTheResetLimit() {
        // MapLibre's line bucket (no line metrics): after the first vertex pair past the limit,
        // the pair is emitted again at 0 and the distance runs on from there.
        // Points at 0, 10, 20, 30, 40 along x; limit 15 → restarts at the pairs at 20 and 40.
        var geometry = LineGeometry()
        var tess = LineTessellator()
        tess.distanceResetLimit = 15
        let end = tess.append([0.0, 0, 10, 0, 20, 0, 30, 0, 40, 0], closed: false, into: &geometry)
        XCTAssertEqual(end, 40, accuracy: 1e-9)
        let pairs = stride(from: 0, to: geometry.vertices.count, by: 2).map { geometry.vertices[$0] }
        XCTAssertEqual(pairs.map { Double($0.distance) }, [0, 10, 20, 0, 10, 20, 0])
        XCTAssertEqual(pairs.map { Double($0.x) }, [0, 10, 20, 20, 30, 40, 40])
        // The quad between the two copies at x = 20 is not drawn; every other one is.
        XCTAssertEqual(geometry.indices.count, 4 * 6)
        // Without a limit nothing restarts.
        var plain = LineGeometry()
        var untouched = LineTessellator()
        untouched.append([0.0, 0, 10, 0, 20, 0, 30, 0, 40, 0], closed: false, into: &plain)
        XCTAssertEqual(plain.vertices.map { Double($0.distance) }, [0, 0, 10, 10, 20, 20, 30, 30, 40, 40])
    }

    func testClosedRingWithBevelAndRoundJoins() {
        let ring = [0.0, 0, 10, 0, 10, 10, 0, 10]
        let corners = [v(0, 0), v(10, 0), v(10, 10), v(0, 10)]
        let outward = [v(-1, -1), v(1, -1), v(1, 1), v(-1, 1)]
        var sides = LineCoverage()
        var bevels = LineCoverage()
        var fans = LineCoverage()
        for i in 0..<4 {
            let c = corners[i], o = outward[i]
            sides = sides + .rect(c, corners[(i + 1) % 4], h)
            bevels = bevels + .polygon([c, c + v(o.x, 0) * h, c + v(0, o.y) * h])
            fans = fans + chordFan(c, v(0, o.y), v(o.x, 0), steps: 4)
        }
        assertShape(tessellate(ring, closed: true, join: .bevel), area: 80 - 4 * 0.5 * h * h, reference: sides + bevels)
        // 90° round joins are 4-chord fans (miter length √2 ≤ 2).
        let chordArea = 0.5 * h * h * 4 * sin(Double.pi / 8)
        assertShape(tessellate(ring, closed: true, join: .round), area: 80 - 4 * (h * h - chordArea), reference: sides + fans)
    }

    func testTwoPointRingIsAStadiumWithRoundJoins() {
        // A→B→A closed: both joins are U-turns; round joins make it a stadium, others a rectangle.
        let ring = [1.0, 2, 9, 8]
        assertShape(tessellate(ring, closed: true, join: .round), area: 20 * h + Double.pi * h * h,
                    reference: .rect(v(1, 2), v(9, 8), h) + .disc(v(1, 2), h) + .disc(v(9, 8), h))
        assertShape(tessellate(ring, closed: true, join: .miter), area: 20 * h, reference: .rect(v(1, 2), v(9, 8), h))
    }

    func testRingJoinAtStartIsEmittedOnce() {
        let g = tessellate([0.0, 0, 10, 0, 10, 10, 0, 10], closed: true)
        XCTAssertEqual(g.triangleCount, 8, "four quads, no duplicate join at the first point")
        XCTAssertEqual(g.vertices.count, 10)
    }

    /// Polygon of a chord fan around c from outer normal o1 to o2 (short way), `steps` chords.
    func chordFan(_ c: SIMD2<Double>, _ o1: SIMD2<Double>, _ o2: SIMD2<Double>, steps: Int) -> LineCoverage {
        let total = atan2(o1.x * o2.y - o1.y * o2.x, (o1 * o2).sum())
        var pts = [c]
        for k in 0...steps {
            let t = total * Double(k) / Double(steps)
            pts.append(c + SIMD2(o1.x * cos(t) - o1.y * sin(t), o1.x * sin(t) + o1.y * cos(t)) * h)
        }
        return .polygon(pts)
    }
}
