import GLMapCore
import XCTest
@testable import GLMapTessellation
import GLMapTestSupport

/// Seeded random and degenerate input for the earcut triangulator: it must always terminate,
/// return valid indices in whole triangles, triangulate valid polygons exactly, and give the
/// same result with and without z-order hashing.
final class EarcutRobustnessTests: XCTestCase {

    typealias Ring = [(Double, Double)]

    /// A star-shaped ring around (cx, cy): simple, radii in [r0, r1], counter-clockwise.
    static func star(_ rng: inout SplitMix64, cx: Double, cy: Double, r0: Double, r1: Double, count: Int) -> Ring {
        (0..<count).map { k in
            let angle = 2 * Double.pi * (Double(k) + 0.8 * rng.unit()) / Double(count)
            let r = r0 + (r1 - r0) * rng.unit()
            return (cx + r * cos(angle), cy + r * sin(angle))
        }
    }

    /// Flattens rings (optionally reversing some) into coordinates and hole indices.
    static func flatten(_ rings: [Ring], dimensions: Int = 2) -> (coords: [Double], holes: [Int]) {
        var coords: [Double] = []
        var holes: [Int] = []
        var count = 0
        for (r, ring) in rings.enumerated() {
            if r > 0 { holes.append(count) }
            for (x, y) in ring {
                coords.append(x)
                coords.append(y)
                for d in 2..<max(dimensions, 2) { coords.append(Double(d)) }
            }
            count += ring.count
        }
        return (coords, holes)
    }

    /// Runs the triangulator in the given flavour and checks the invariants every result must satisfy.
    @discardableResult
    static func checkedTriangulate(_ coords: [Double], _ holes: [Int], dimensions: Int = 2, flavor: Earcut.Flavor = .current,
                                   file: StaticString = #filePath, line: UInt = #line) -> [UInt32] {
        let indices = EarcutTriangulator(flavor: flavor).triangulate(coords, holeIndices: holes, dimensions: dimensions)
        XCTAssertEqual(indices.count % 3, 0, "index count not a multiple of 3 (\(flavor))", file: file, line: line)
        let vertexCount = coords.count / dimensions
        XCTAssertTrue(indices.allSatisfy { Int($0) < vertexCount }, "index out of range (\(flavor))", file: file, line: line)
        return indices
    }

    /// Both flavours (`Earcut.Flavor`), each checked; the default flavour's result is returned.
    @discardableResult
    static func checkedBoth(_ coords: [Double], _ holes: [Int], dimensions: Int = 2,
                            file: StaticString = #filePath, line: UInt = #line) -> [UInt32] {
        checkedTriangulate(coords, holes, dimensions: dimensions, flavor: .mapLibre, file: file, line: line)
        return checkedTriangulate(coords, holes, dimensions: dimensions, file: file, line: line)
    }

    /// Valid polygons (star-shaped outer ring, disjoint star holes well inside) are covered
    /// exactly: deviation ~0 and n + 2h - 2 triangles at most.
    func testRandomValidPolygonsAreTriangulatedExactly() {
        var rng = SplitMix64(state: 1)
        for iteration in 0..<1500 {
            let holeCount = rng.int(0...6)
            // with at least 12 points, every edge of the outer star stays > 0.5 from the center
            let n = rng.int((holeCount > 0 ? 12 : 3)...120)
            let scale = [1.0, 1e-6, 1e6, 4096][iteration % 4]
            var rings = [Self.star(&rng, cx: 0, cy: 0, r0: 0.6 * scale, r1: scale, count: n)]
            for h in 0..<holeCount {
                // holes on a circle of radius 0.3, in separate angular sectors
                let angle = 2 * Double.pi * Double(h) / Double(max(holeCount, 1))
                let radius = 0.1 * scale * min(1, 3 / Double(max(holeCount, 1)))
                var hole = Self.star(&rng, cx: 0.3 * scale * cos(angle), cy: 0.3 * scale * sin(angle),
                                     r0: 0.3 * radius, r1: radius, count: rng.int(3...12))
                if rng.chance(0.5) { hole.reverse() }
                rings.append(hole)
            }
            if rng.chance(0.5) { rings[0].reverse() }
            let dimensions = rng.chance(0.2) ? 3 : 2
            let data = Self.flatten(rings, dimensions: dimensions)
            for flavor in [Earcut.Flavor.current, .mapLibre] {
                let indices = Self.checkedTriangulate(data.coords, data.holes, dimensions: dimensions, flavor: flavor)
                let deviation = Earcut.deviation(data.coords, holeIndices: data.holes, dimensions: dimensions, triangles: indices)
                XCTAssertLessThan(deviation, 1e-9, "iteration \(iteration) (\(n) points, \(holeCount) holes, \(flavor)): deviation \(deviation)")
                let vertexCount = data.coords.count / dimensions
                XCTAssertLessThanOrEqual(indices.count / 3, vertexCount + 2 * holeCount - 2, "iteration \(iteration) (\(flavor))")
            }
        }
    }

    /// Garbage of every kind: random points (self-intersecting), collinear runs, duplicates,
    /// zero-area rings, extreme scales, holes inside/outside/touching, one- and two-point rings.
    func testDegenerateAndRandomInputTerminates() {
        var rng = SplitMix64(state: 2)
        var triangles = 0
        for iteration in 0..<2500 {
            let kind = iteration % 8
            let scale = [1.0, 1e-300, 1e300, 1e-8, 1e12, 65536][rng.int(0...5)]
            var rings: [Ring] = []
            let ringCount = rng.int(1...5)
            for r in 0..<ringCount {
                let n = rng.int(r == 0 ? 0...90 : 0...20)
                var ring: Ring = []
                for k in 0..<n {
                    switch kind {
                    case 0: // uniform random points
                        ring.append((rng.unit() * scale, rng.unit() * scale))
                    case 1: // integer grid, lots of collinear and coincident points
                        ring.append((Double(rng.int(0...6)) * scale, Double(rng.int(0...6)) * scale))
                    case 2: // collinear: all on one line
                        let t = Double(rng.int(0...20))
                        ring.append((t * scale, 2 * t * scale))
                    case 3: // a star with duplicated points and spikes
                        let angle = 2 * Double.pi * Double(k) / Double(max(n, 1))
                        let radius = rng.chance(0.2) ? 0 : (0.5 + rng.unit()) * scale
                        let p = (radius * cos(angle), radius * sin(angle))
                        ring.append(p)
                        if rng.chance(0.3) { ring.append(p) }
                    case 4: // zero-area: back and forth along a path
                        ring.append((Double(k % 5) * scale, 0))
                    case 5: // reuse vertices of earlier rings (touching holes, shared points)
                        let source = rings.isEmpty ? [] : rings[rng.int(0...(rings.count - 1))]
                        if !source.isEmpty, rng.chance(0.6) {
                            ring.append(source[rng.int(0...(source.count - 1))])
                        } else {
                            ring.append((rng.unit() * scale, rng.unit() * scale))
                        }
                    case 6: // tiny and huge mixed
                        let magnitude = rng.chance(0.5) ? 1e-200 : 1e200
                        ring.append(((rng.unit() - 0.5) * magnitude, (rng.unit() - 0.5) * magnitude))
                    default: // holes outside the outer ring, or around it
                        let offset = r == 0 ? 0 : (rng.unit() - 0.5) * 6 * scale
                        let angle = 2 * Double.pi * Double(k) / Double(max(n, 1))
                        ring.append((offset + scale * cos(angle), offset + scale * sin(angle)))
                    }
                }
                if rng.chance(0.3), let first = ring.first { ring.append(first) } // closed ring
                rings.append(ring)
            }
            let data = Self.flatten(rings)
            triangles += Self.checkedBoth(data.coords, data.holes).count / 3
        }
        XCTAssertGreaterThan(triangles, 0)
    }

    /// Self-intersecting rings large enough for z-order hashing, with the split fallback.
    func testLargeSelfIntersectingRingsTerminate() {
        var rng = SplitMix64(state: 3)
        for _ in 0..<40 {
            let n = rng.int(81...400)
            let ring: Ring = (0..<n).map { _ in (rng.unit() * 1000, rng.unit() * 1000) }
            let data = Self.flatten([ring])
            Self.checkedBoth(data.coords, data.holes)
        }
    }

    /// The z-order range search gives exactly the result of the plain scan.
    func testHashedAndPlainEarChecksAgree() {
        var rng = SplitMix64(state: 4)
        let plain = EarcutTriangulator()
        plain.state.hashingThreshold = .max
        for iteration in 0..<200 {
            let n = rng.int(81...400)
            var rings: [Ring]
            if iteration % 2 == 0 {
                // wiggly star with holes
                rings = [Self.star(&rng, cx: 0, cy: 0, r0: 200, r1: 1000, count: n)]
                for h in 0..<rng.int(0...8) {
                    let angle = Double(h) * 0.8
                    rings.append(Self.star(&rng, cx: 100 * cos(angle), cy: 100 * sin(angle), r0: 5, r1: 30, count: rng.int(3...20)))
                }
            } else {
                // integer-grid noise: collinear points, duplicates, self-intersections
                rings = [(0..<n).map { _ in (Double(rng.int(0...40)), Double(rng.int(0...40))) }]
            }
            let data = Self.flatten(rings)
            let hashed = Earcut.triangulate(data.coords, holeIndices: data.holes)
            XCTAssertEqual(hashed, plain.triangulate(data.coords, holeIndices: data.holes), "iteration \(iteration)")
        }
    }

    /// BIGMIN / LITMAX agree with a brute-force search over every key of random boxes.
    func testZOrderRangeJumps() {
        typealias S = Earcut.State
        func interleave(_ x: UInt32, _ y: UInt32) -> UInt32 {
            var z: UInt32 = 0
            for b in 0..<16 { z |= ((x >> b) & 1) << (2 * b) | ((y >> b) & 1) << (2 * b + 1) }
            return z
        }
        var rng = SplitMix64(state: 5)
        for _ in 0..<150 {
            // cells up to 0...20 in x and y; offset boxes so high bits differ too
            let base = UInt32(rng.int(0...3)) * 512
            let xa = base + UInt32(rng.int(0...20)), xb = base + UInt32(rng.int(0...20))
            let ya = UInt32(rng.int(0...20)), yb = UInt32(rng.int(0...20))
            let minZ = interleave(min(xa, xb), min(ya, yb)), maxZ = interleave(max(xa, xb), max(ya, yb))
            let count = Int(maxZ - minZ) + 1
            var inBox = [Bool](repeating: false, count: count)
            for x in min(xa, xb)...max(xa, xb) {
                for y in min(ya, yb)...max(ya, yb) { inBox[Int(interleave(x, y) - minZ)] = true }
            }
            // next in-box key above each offset, previous below
            var nextIn = [UInt32](repeating: maxZ + 1, count: count + 1)
            for k in stride(from: count - 1, through: 0, by: -1) {
                nextIn[k] = inBox[k] ? minZ + UInt32(k) : nextIn[k + 1]
            }
            var previousIn = [UInt32?](repeating: nil, count: count)
            var last: UInt32? = nil
            for k in 0..<count {
                previousIn[k] = last
                if inBox[k] { last = minZ + UInt32(k) }
            }
            for k in 0..<count where !inBox[k] {
                let z = minZ + UInt32(k)
                XCTAssertEqual(S.nextKeyInBox(after: z, minZ, maxZ), nextIn[k + 1], "BIGMIN z=\(z) box \(minZ)...\(maxZ)")
                XCTAssertEqual(S.previousKeyInBox(before: z, minZ, maxZ), previousIn[k], "LITMAX z=\(z) box \(minZ)...\(maxZ)")
            }
        }
    }

    func testNonFiniteAndMalformedInputGiveNoTriangles() {
        let square: [Double] = [0, 0, 10, 0, 10, 10, 0, 10]
        XCTAssertEqual(Earcut.triangulate(square).count, 6)
        for bad in [Double.nan, .infinity, -.infinity] {
            for k in 0..<square.count {
                var coords = square
                coords[k] = bad
                XCTAssertEqual(Earcut.triangulate(coords), [], "non-finite coordinate at \(k)")
            }
        }
        XCTAssertEqual(Earcut.triangulate(square, holeIndices: [5]), [], "hole index past the end")
        XCTAssertEqual(Earcut.triangulate(square, holeIndices: [3, 2]), [], "decreasing hole indices")
        XCTAssertEqual(Earcut.triangulate(square, holeIndices: [-1]), [], "negative hole index")
        XCTAssertEqual(Earcut.triangulate(square, holeIndices: [], dimensions: 1), [], "dimensions < 2")
        XCTAssertEqual(Earcut.triangulate(square, holeIndices: [], dimensions: 0), [], "dimensions 0")
        XCTAssertEqual(Earcut.triangulate([0, 0, 1, 1]), [], "two points")
        XCTAssertEqual(Earcut.triangulate([0, 0, 1, 0, 0, 1, 5]), Earcut.triangulate([0, 0, 1, 0, 0, 1]),
                       "a trailing partial vertex is ignored")
        XCTAssertEqual(Earcut.triangulate([0, 0, 1, 0, 0, 1]).count, 3)
        // empty hole rings and a hole index equal to the vertex count are fine
        XCTAssertEqual(Earcut.triangulate(square, holeIndices: [4, 4]).count, 6)
    }

    func testSteinerPointsBecomeVertices() {
        // a square with two one-point holes inside: 4 + 2 vertices, 4 + 2*2 - 2 = 6 triangles
        let coords: [Double] = [0, 0, 10, 0, 10, 10, 0, 10, 3, 3, 7, 6]
        let indices = Earcut.triangulate(coords, holeIndices: [4, 5])
        XCTAssertEqual(indices.count / 3, 6)
        XCTAssertTrue(indices.contains(4) && indices.contains(5))
        XCTAssertEqual(Earcut.deviation(coords, holeIndices: [4, 5], dimensions: 2, triangles: indices), 0)
    }
}

extension SplitMix64 {
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
    mutating func chance(_ p: Double) -> Bool { unit() < p }
}
