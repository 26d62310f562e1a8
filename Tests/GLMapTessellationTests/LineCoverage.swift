import Foundation
@testable import GLMapTessellation

/// Exact area of a union of triangles, each optionally cut to length(n) ≤ 1 where n is an affine
/// "normal space" over the triangle (the fragment-shader rule for round caps and joins).
///
/// Method: integrate the cross-section length L(x) of the union over x. Between consecutive
/// breakpoints (vertex x's and x's where two edges cross) the ordering of all interval ends is
/// fixed, so for plain triangles L is linear there and one midpoint sample per piece is exact.
/// Pieces touched by a cut triangle also get breakpoints at the cut ellipse's x-extremes and are
/// integrated after the substitution x = a + (b − a)(1 − cos t)/2, which makes the square-root
/// behaviour at an ellipse's extreme smooth in t, with composite Simpson over 256 steps in t:
/// O(h⁴) for smooth pieces; only an arc crossing an edge non-tangentially on the union's
/// boundary inside a piece would leave an O(h²) kink, and the shapes here have none
/// (`testIntegratorIsExactOnKnownShapes` checks a disc and a stadium to 1e-9 relative).
struct LineCoverage {
    struct Triangle {
        var p: [SIMD2<Double>]
        var n: [SIMD2<Double>]
        var needsCut: Bool
        var minX: Double, maxX: Double
        // n(p) = g · p + c, rows of g are the gradients of nx and ny.
        var gx: SIMD2<Double>, gy: SIMD2<Double>, c: SIMD2<Double>
        var degenerate: Bool

        init(_ p0: SIMD2<Double>, _ p1: SIMD2<Double>, _ p2: SIMD2<Double>,
             n: [SIMD2<Double>] = [.zero, .zero, .zero]) {
            p = [p0, p1, p2]
            self.n = n
            minX = min(p0.x, p1.x, p2.x)
            maxX = max(p0.x, p1.x, p2.x)
            let e1 = p1 - p0, e2 = p2 - p0
            let det = e1.x * e2.y - e1.y * e2.x
            let scale = max(1e-300, (e1 * e1).sum() * (e2 * e2).sum()).squareRoot()
            degenerate = abs(det) <= 1e-14 * scale
            needsCut = n.contains { ($0 * $0).sum() > 1 + 1e-9 }
            gx = .zero
            gy = .zero
            c = .zero
            if !degenerate {
                func grad(_ f0: Double, _ f1: Double, _ f2: Double) -> SIMD2<Double> {
                    let d1 = f1 - f0, d2 = f2 - f0
                    return SIMD2((d1 * e2.y - d2 * e1.y) / det, (d2 * e1.x - d1 * e2.x) / det)
                }
                gx = grad(n[0].x, n[1].x, n[2].x)
                gy = grad(n[0].y, n[1].y, n[2].y)
                c = SIMD2(n[0].x - (gx * p0).sum(), n[0].y - (gy * p0).sum())
            }
        }

        /// The x-extremes of the cut ellipse |n| = 1, if the map is invertible.
        var cutExtremes: (Double, Double)? {
            let det = gx.x * gy.y - gx.y * gy.x
            guard abs(det) > 1e-300 else { return nil }
            // p = g⁻¹(u − c); x = r · (u − c) with r = first row of g⁻¹.
            let r = SIMD2(gy.y / det, -gx.y / det)
            let center = -(r * c).sum()
            let half = (r * r).sum().squareRoot()
            return (center - half, center + half)
        }

        /// The covered interval of the vertical line at x, or nil.
        func interval(at x: Double) -> (Double, Double)? {
            if degenerate || x <= minX || x >= maxX { return nil }
            var lo = Double.infinity, hi = -Double.infinity
            for (i, j) in [(0, 1), (1, 2), (2, 0)] {
                let a = p[i], b = p[j]
                if (x - a.x) * (x - b.x) <= 0 && a.x != b.x {
                    let y = a.y + (x - a.x) * (b.y - a.y) / (b.x - a.x)
                    lo = min(lo, y)
                    hi = max(hi, y)
                }
            }
            guard lo < hi else { return nil }
            if !needsCut { return (lo, hi) }
            // nx = ax + bx·y, ny = ay + by·y at this x; keep |n|² ≤ 1.
            let ax = gx.x * x + c.x, bx = gx.y
            let ay = gy.x * x + c.y, by = gy.y
            let qa = bx * bx + by * by
            let qb = 2 * (ax * bx + ay * by)
            let qc = ax * ax + ay * ay - 1
            if qa < 1e-300 {
                if abs(qb) < 1e-300 { return qc <= 0 ? (lo, hi) : nil }
                let root = -qc / qb
                if qb > 0 { hi = min(hi, root) } else { lo = max(lo, root) }
            } else {
                let disc = qb * qb - 4 * qa * qc
                if disc < 0 { return nil }
                let s = disc.squareRoot()
                lo = max(lo, (-qb - s) / (2 * qa))
                hi = min(hi, (-qb + s) / (2 * qa))
            }
            return lo < hi ? (lo, hi) : nil
        }
    }

    static let samples = 256
    var triangles: [Triangle] = []

    init(_ triangles: [Triangle] = []) { self.triangles = triangles }

    /// Triangles of tessellated lines drawn with half width `halfWidth` (no gap, no offset).
    init(_ geometry: LineGeometry, halfWidth: Double) {
        let v = geometry.vertices
        func pos(_ i: UInt32) -> SIMD2<Double> {
            let q = v[Int(i)]
            return SIMD2(Double(q.x) + Double(q.ex) * halfWidth, Double(q.y) + Double(q.ey) * halfWidth)
        }
        func nrm(_ i: UInt32) -> SIMD2<Double> { SIMD2(Double(v[Int(i)].nx), Double(v[Int(i)].ny)) }
        var t = 0
        while t + 2 < geometry.indices.count {
            let a = geometry.indices[t], b = geometry.indices[t + 1], c = geometry.indices[t + 2]
            triangles.append(Triangle(pos(a), pos(b), pos(c), n: [nrm(a), nrm(b), nrm(c)]))
            t += 3
        }
    }

    static func + (l: LineCoverage, r: LineCoverage) -> LineCoverage { LineCoverage(l.triangles + r.triangles) }

    // MARK: reference shapes

    /// The rectangle swept by a segment of half width h (no caps).
    static func rect(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ h: Double) -> LineCoverage {
        let d = b - a
        let len = (d * d).sum().squareRoot()
        let n = SIMD2(-d.y, d.x) / len * h
        return polygon([a + n, b + n, b - n, a - n])
    }

    /// A convex polygon (fan triangulation).
    static func polygon(_ pts: [SIMD2<Double>]) -> LineCoverage {
        var out = LineCoverage()
        for i in 1..<(pts.count - 1) { out.triangles.append(Triangle(pts[0], pts[i], pts[i + 1])) }
        return out
    }

    /// A disc, as a square whose normal space is the local coordinate / r (cut to the disc).
    static func disc(_ center: SIMD2<Double>, _ r: Double) -> LineCoverage {
        let corners = [SIMD2<Double>(-1, -1), SIMD2(1, -1), SIMD2(1, 1), SIMD2(-1, 1)]
        let p = corners.map { center + $0 * r }
        return LineCoverage([Triangle(p[0], p[1], p[2], n: [corners[0], corners[1], corners[2]]),
                             Triangle(p[0], p[2], p[3], n: [corners[0], corners[2], corners[3]])])
    }

    // MARK: area

    /// Area of the union of all triangles (after their cuts).
    var area: Double {
        let live = triangles.filter { !$0.degenerate }
        var xs: [Double] = []
        var edges: [(SIMD2<Double>, SIMD2<Double>)] = []
        for t in live {
            xs.append(contentsOf: t.p.map(\.x))
            edges.append((t.p[0], t.p[1]))
            edges.append((t.p[1], t.p[2]))
            edges.append((t.p[2], t.p[0]))
            if t.needsCut, let (lo, hi) = t.cutExtremes { xs.append(lo); xs.append(hi) }
        }
        for i in 0..<edges.count {
            for j in (i + 1)..<edges.count {
                if let x = Self.crossingX(edges[i], edges[j]) { xs.append(x) }
            }
        }
        xs.sort()
        var cuts = live.filter(\.needsCut)
        cuts.sort { $0.minX < $1.minX }
        var total = 0.0
        var k = 0
        while k + 1 < xs.count {
            let a = xs[k], b = xs[k + 1]
            k += 1
            if b - a <= 1e-13 * max(1, abs(a)) { continue }
            let curved = cuts.contains { $0.minX < b && $0.maxX > a }
            if !curved {
                total += (b - a) * Self.length(live, at: 0.5 * (a + b))
            } else {
                // x = a + (b − a)(1 − cos t)/2 turns the square roots at the piece's ends into
                // smooth functions of t; composite Simpson in t (the integrand vanishes at both ends).
                let n = LineCoverage.samples
                let dt = Double.pi / Double(n)
                var sum = 0.0
                for j in 1..<n {
                    let t = Double(j) * dt
                    let x = a + (b - a) * (1 - cos(t)) / 2
                    sum += (j % 2 == 1 ? 4 : 2) * Self.length(live, at: x) * sin(t)
                }
                total += sum * dt / 3 * (b - a) / 2
            }
        }
        return total
    }

    private static func length(_ tris: [Triangle], at x: Double) -> Double {
        var iv: [(Double, Double)] = []
        for t in tris { if let i = t.interval(at: x) { iv.append(i) } }
        if iv.isEmpty { return 0 }
        iv.sort { $0.0 < $1.0 }
        var sum = 0.0
        var (lo, hi) = iv[0]
        for (a, b) in iv.dropFirst() {
            if a > hi {
                sum += hi - lo
                lo = a
                hi = b
            } else {
                hi = max(hi, b)
            }
        }
        return sum + (hi - lo)
    }

    /// x of the proper crossing of two segments, if any.
    private static func crossingX(_ e: (SIMD2<Double>, SIMD2<Double>), _ f: (SIMD2<Double>, SIMD2<Double>)) -> Double? {
        let r = e.1 - e.0, s = f.1 - f.0
        let den = r.x * s.y - r.y * s.x
        if den == 0 { return nil }
        let q = f.0 - e.0
        let t = (q.x * s.y - q.y * s.x) / den
        let u = (q.x * r.y - q.y * r.x) / den
        guard t > 0, t < 1, u > 0, u < 1 else { return nil }
        return e.0.x + t * r.x
    }
}
