import GLMapCore
import Foundation
import XCTest
@testable import GLMapTessellation
import GLMapTestSupport

/// Invariants of the vertex data: layout, cleaning, distances, normal space, line-offset data,
/// and seeded random polylines that must never yield NaN or indices out of range.
final class LineTessellatorRobustnessTests: XCTestCase {
    func tessellate(_ pts: [Double], closed: Bool = false, join: LineJoin = .miter, cap: LineCap = .butt,
                    pixelsPerUnit: Double? = nil) -> (LineGeometry, Double) {
        var t = LineTessellator(join: join, cap: cap, pixelsPerUnit: pixelsPerUnit)
        var g = LineGeometry()
        let length = t.append(pts, closed: closed, into: &g)
        return (g, length)
    }

    func testVertexLayoutIs32TightBytes() {
        XCTAssertEqual(MemoryLayout<LineVertex>.size, 32)
        XCTAssertEqual(MemoryLayout<LineVertex>.stride, 32)
        XCTAssertEqual(MemoryLayout<LineVertex>.offset(of: \LineVertex.ex), 8)
        XCTAssertEqual(MemoryLayout<LineVertex>.offset(of: \LineVertex.nx), 16)
        XCTAssertEqual(MemoryLayout<LineVertex>.offset(of: \LineVertex.distance), 24)
        XCTAssertEqual(MemoryLayout<LineVertex>.offset(of: \LineVertex.direction), 28)
    }

    func testFewerThanTwoDistinctPointsProduceNothing() {
        let cases: [[Double]] = [[], [1], [1, 2], [1, 2, 1, 2, 1, 2], [.nan, 0, 1, 1], [.infinity, 0, 3, 3, 3, 3],
                                 [1, 2, 3], [0, 0, 1e-200, 0]]
        for pts in cases {
            for closed in [false, true] {
                let (g, length) = tessellate(pts, closed: closed, cap: .round)
                XCTAssertTrue(g.vertices.isEmpty && g.indices.isEmpty, "\(pts) closed: \(closed)")
                XCTAssertEqual(length, 0)
            }
        }
    }

    func testNonFiniteAndDuplicatePointsAreSkipped() {
        let clean = tessellate([0, 0, 10, 0, 10, 5], join: .round, cap: .round).0
        let dirty = tessellate([.nan, 1, 0, 0, 0, 0, 10, 0, .infinity, 3, 10, 0, 5, -.infinity, 10, 5, 10, 5, 1e39, 0],
                               join: .round, cap: .round).0
        XCTAssertEqual(clean.vertices, dirty.vertices)
        XCTAssertEqual(clean.indices, dirty.indices)
    }

    func testDistancesAreRunningLengths() {
        // (0,0) → (3,4) → (3,10) → (−5,10): lengths 5, 6, 8.
        for join in LineJoin.allCases {
            for cap in LineCap.allCases {
                let (g, length) = tessellate([0, 0, 3, 4, 3, 10, -5, 10], join: join, cap: cap)
                XCTAssertEqual(length, 19, accuracy: 1e-12)
                var last: Float = 0
                for q in g.vertices {
                    XCTAssertGreaterThanOrEqual(q.distance, last, "\(join) \(cap)")
                    last = q.distance
                    let expected: Float
                    switch (q.x, q.y) {
                    case (0, 0): expected = 0
                    case (3, 4): expected = 5
                    case (3, 10): expected = 11
                    case (-5, 10): expected = 19
                    default: XCTFail("vertex off the input points: \(q)"); continue
                    }
                    XCTAssertEqual(q.distance, expected)
                }
                XCTAssertEqual(last, 19)
            }
        }
        // A ring is entered from its last point (MapLibre's line bucket): distances start at the
        // closing segment's length and end at that plus the perimeter.
        let (ring, end) = tessellate([0, 0, 10, 0, 10, 10], closed: true, join: .round)
        let closing = 200.0.squareRoot()
        XCTAssertEqual(end, closing + 20 + closing, accuracy: 1e-12)
        XCTAssertEqual(ring.vertices.first?.distance, Float(closing))
        XCTAssertEqual(ring.vertices.last?.distance, Float(end))
    }

    func testSharpCornerExtraPairsNeedPixelsPerUnit() {
        // 90° corner (sharper than 75°): with 1 px per unit, extra pairs 15 units either side.
        let pts = [0.0, 0, 100, 0, 100, 100]
        let (plain, _) = tessellate(pts)
        let (extra, _) = tessellate(pts, pixelsPerUnit: 1)
        XCTAssertEqual(extra.vertices.count, plain.vertices.count + 4)
        let xs = Set(extra.vertices.map { "\($0.x),\($0.y),\($0.distance)" })
        XCTAssertTrue(xs.contains("85.0,0.0,85.0"))
        XCTAssertTrue(xs.contains("100.0,15.0,115.0"))
        let a = LineCoverage(plain, halfWidth: 3).area, b = LineCoverage(extra, halfWidth: 3).area
        XCTAssertEqual(a, b, accuracy: 1e-9 * a)
        XCTAssertEqual(a, 200 * 6, accuracy: 1e-5 * a)
        // A closed square ring gets the pairs on both sides of all four corners, the first included.
        let (ring, _) = tessellate([0, 0, 100, 0, 100, 100, 0, 100], closed: true, pixelsPerUnit: 1)
        XCTAssertEqual(ring.vertices.count, 10 + 4 * 4)
        XCTAssertEqual(LineCoverage(ring, halfWidth: 3).area, 106 * 106 - 94 * 94, accuracy: 1e-5 * 2400)
        // Distances start after the closing segment (100 long).
        XCTAssertEqual(ring.vertices.first.map { [$0.x, $0.y, $0.distance] }, [0, 0, 100])
        XCTAssertTrue(ring.vertices.contains { $0.x == 15 && $0.y == 0 && $0.distance == 115 })
        XCTAssertTrue(ring.vertices.contains { $0.x == 0 && $0.y == 15 && $0.distance == 485 })
        // Segments shorter than two offsets get no extra pair; gentle corners get none.
        XCTAssertEqual(tessellate([0, 0, 20, 0, 20, 20], pixelsPerUnit: 1).0.vertices.count, 6)
        XCTAssertEqual(tessellate([0, 0, 100, 0, 200, 50], pixelsPerUnit: 1).0.vertices.count, 6)
    }

    func testOriginIsSubtracted() {
        var t = LineTessellator()
        t.originX = 1_000_000
        t.originY = -2_000_000
        var g = LineGeometry()
        t.append([1_000_000.5, -2_000_000, 1_000_010.5, -2_000_000], closed: false, into: &g)
        XCTAssertEqual(g.vertices.map(\.x).min(), 0.5)
        XCTAssertEqual(g.vertices.map(\.x).max(), 10.5)
        XCTAssertEqual(g.vertices.map(\.y), [0, 0, 0, 0])
    }

    func testSeveralLinesShareOneGeometry() {
        var t = LineTessellator(cap: .round)
        var g = LineGeometry()
        t.append([0, 0, 10, 0], closed: false, into: &g)
        let firstCount = g.vertices.count
        t.append([0, 5, 10, 5, 10, 9], closed: false, into: &g)
        XCTAssertTrue(g.indices.suffix(from: g.indices.count - 3).allSatisfy { Int($0) >= firstCount })
        XCTAssertEqual(LineCoverage(g, halfWidth: 1).area, 20 + 28 + 2 * .pi, accuracy: 1e-4)
    }

    /// Normal space: length(n)·h is the distance to the centre line, and to the end point in round caps.
    func testNormalSpaceMeasuresDistanceFromTheLine() {
        let h = 2.5
        for cap in LineCap.allCases {
            let (g, _) = tessellate([1, 1, 9, 7], cap: cap)
            let a = SIMD2<Double>(1, 1), b = SIMD2<Double>(9, 7)
            let d = (b - a) / 10
            let cov = LineCoverage(g, halfWidth: h)
            for t in cov.triangles where !t.degenerate {
                for (w0, w1) in [(0.2, 0.3), (0.6, 0.1), (0.25, 0.7), (1.0 / 3, 1.0 / 3)] {
                    let p = t.p[0] * (1 - w0 - w1) + t.p[1] * w0 + t.p[2] * w1
                    let n = t.n[0] * (1 - w0 - w1) + t.n[1] * w0 + t.n[2] * w1
                    let along = ((p - a) * d).sum()
                    let q = along < 0 ? a : (along > 10 ? b : a + d * along)
                    let across = ((p - q) * (p - q)).sum().squareRoot()
                    if cap == .round || (along >= 0 && along <= 10) {
                        XCTAssertEqual((n * n).sum().squareRoot() * h, across, accuracy: 1e-5, "\(cap)")
                    } else {
                        // Square caps: n measures only the distance across the line.
                        XCTAssertEqual(abs(n.y) * h, abs(((p - a) * SIMD2(-d.y, d.x)).sum()), accuracy: 1e-5)
                    }
                }
            }
        }
    }

    /// line-offset data: MapLibre's shader rotates (e·ny) by atan(u/t), u = direction/2; at caps and
    /// miters the result must be the offset curve's own extrusion.
    func testOffsetDataShiftsCapsAndMitersRigidly() {
        func offsetOf(_ q: LineVertex) -> SIMD2<Double> {
            let wx = Double(q.ex * q.ny), wy = Double(q.ey * q.ny)
            let u = 0.5 * Double(q.direction), t = 1 - abs(u)
            return SIMD2(-(t * wx - u * wy), -(u * wx + t * wy))  // per unit line-offset
        }
        // Straight line going +x: positive offset moves it right on screen (y down): +y.
        for cap in LineCap.allCases {
            let (g, _) = tessellate([0, 0, 10, 0], cap: cap)
            for q in g.vertices {
                let o = offsetOf(q)
                XCTAssertEqual(o.x, 0, accuracy: 1e-6, "\(cap) \(q)")
                XCTAssertEqual(o.y, 1, accuracy: 1e-6, "\(cap) \(q)")
            }
        }
        // Right-angle miter: both corner vertices move along the right-side miter vector.
        let (g, _) = tessellate([0, 0, 10, 0, 10, 10])
        for q in g.vertices where q.x == 10 && q.y == 0 {
            let o = offsetOf(q)
            XCTAssertEqual(o.x, -1, accuracy: 1e-6)
            XCTAssertEqual(o.y, 1, accuracy: 1e-6)
        }
        // Bevel inner points carry MapLibre's direction (±1), the outer ones 0.
        let (b, _) = tessellate([0, 0, 10, 0, 10, 10], join: .bevel)
        XCTAssertEqual(Set(b.vertices.map(\.direction)), [-1, 0, 1])
    }

    // MARK: random polylines


    func testRandomPolylinesNeverProduceNaNOrBadIndices() {
        var rng = SplitMix64(state: 0x5EED_11E5)
        var checkedVertices = 0
        for caseIndex in 0..<600 {
            let join = LineJoin.allCases[Int(rng.next() % 3)]
            let cap = LineCap.allCases[Int(rng.next() % 3)]
            let miterLimit = [0.5, 1, 1.5, 2, 4, 10, 1e9, .infinity, .nan][Int(rng.next() % 9)]
            let roundLimit = [0.5, 1, 1.05, 1.5, 2, 3, .nan][Int(rng.next() % 7)]
            let ppu: Double? = [nil, 0.1, 1, 50, 0, -1][Int(rng.next() % 6)]
            var t = LineTessellator(join: join, cap: cap, miterLimit: miterLimit, roundLimit: roundLimit,
                                    pixelsPerUnit: ppu)
            let n = Int(rng.next() % 12)
            var pts: [Double] = []
            let scale = [1e-9, 1, 1e3, 1e7][Int(rng.next() % 4)]
            for _ in 0..<n {
                switch rng.next() % 10 {
                case 0 where !pts.isEmpty: pts += pts.suffix(2)  // duplicate
                case 1 where pts.count >= 4: pts += pts.suffix(4).prefix(2)  // exact U-turn
                case 2: pts += [.nan, rng.unit()]
                case 3 where pts.count >= 2:  // almost collinear or almost reversed
                    let last = pts.suffix(2)
                    pts += [last.first! + scale * (rng.unit() - 0.5) * 1e-12, last.last! + scale]
                default: pts += [scale * (rng.unit() - 0.5), scale * (rng.unit() - 0.5)]
                }
            }
            let closed = rng.next() % 3 == 0
            var g = LineGeometry()
            t.append([0, 0, 1, 1], closed: false, into: &g)  // something already in the buffer
            let before = g.vertices.count
            let indicesBefore = g.indices.count
            let length = t.append(pts, closed: closed, into: &g)
            XCTAssertTrue(length.isFinite && length >= 0, "case \(caseIndex)")
            XCTAssertEqual(g.indices.count % 3, 0)
            let maxE = max(2, miterLimit.isNaN ? 2 : min(miterLimit, 1e4)) * (1 + 1e-6)
            var lastDistance: Float = 0
            for q in g.vertices[before...] {
                checkedVertices += 1
                XCTAssertTrue([q.x, q.y, q.ex, q.ey, q.nx, q.ny, q.distance, q.direction].allSatisfy(\.isFinite),
                              "case \(caseIndex): \(q)")
                XCTAssertLessThanOrEqual(Double(q.ex * q.ex + q.ey * q.ey).squareRoot(), maxE, "case \(caseIndex)")
                XCTAssertTrue(q.ny == 1 || q.ny == -1)
                XCTAssertTrue([-1, 0, 1].contains(q.nx) && [-1, 0, 1].contains(q.direction))
                XCTAssertGreaterThanOrEqual(q.distance, lastDistance, "case \(caseIndex)")
                lastDistance = q.distance
            }
            for i in g.indices { XCTAssertLessThan(Int(i), g.vertices.count) }
            if g.vertices.count > before {
                XCTAssertEqual(Double(lastDistance), length, accuracy: 1e-6 * max(1, length))
                XCTAssertTrue(g.indices[indicesBefore...].allSatisfy { Int($0) >= before })
            }
        }
        XCTAssertGreaterThan(checkedVertices, 5000)
    }
}
