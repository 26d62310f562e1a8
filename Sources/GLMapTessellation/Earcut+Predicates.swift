// Geometric predicates of the triangulator, on node ids (see Earcut.swift for the contract).
//
// All predicates use plain double arithmetic in the exact operation order of earcut 3.2, so
// that ties and near-degenerate cases resolve the same way as the reference implementation.

extension Earcut.State {
    /// Twice the signed area of triangle p, q, r (negative = counter-clockwise in y-down terms
    /// as earcut uses it: an ear is convex when this is < 0).
    @inline(__always)
    func area(_ p: Int, _ q: Int, _ r: Int) -> Double {
        let px = n[p].x, py = n[p].y, qx = n[q].x, qy = n[q].y, rx = n[r].x, ry = n[r].y
        return (qy - py) * (rx - qx) - (qx - px) * (ry - qy)
    }

    @inline(__always)
    func equals(_ a: Int, _ b: Int) -> Bool {
        n[a].x == n[b].x && n[a].y == n[b].y
    }

    /// Whether two segments p1q1 and p2q2 intersect; collinear touches count when `includeBoundary`.
    @inline(__always)
    func intersects(_ p1: Int, _ q1: Int, _ p2: Int, _ q2: Int, includeBoundary: Bool) -> Bool {
        let o1 = area(p1, q1, p2)
        let o2 = area(p1, q1, q2)
        let o3 = area(p2, q2, p1)
        let o4 = area(p2, q2, q1)

        if ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)) { return true }
        if !includeBoundary { return false }

        if o1 == 0 && onSegment(p1, p2, q1) { return true }
        if o2 == 0 && onSegment(p1, q2, q1) { return true }
        if o3 == 0 && onSegment(p2, p1, q2) { return true }
        if o4 == 0 && onSegment(p2, q1, q2) { return true }
        return false
    }

    /// For collinear p, q, r: whether q lies within the bounding box of segment pr.
    @inline(__always)
    func onSegment(_ p: Int, _ q: Int, _ r: Int) -> Bool {
        let qx = n[q].x, qy = n[q].y
        let px = n[p].x, py = n[p].y, rx = n[r].x, ry = n[r].y
        return qx <= Swift.max(px, rx) && qx >= Swift.min(px, rx) && qy <= Swift.max(py, ry) && qy >= Swift.min(py, ry)
    }

    /// Whether the diagonal a-b crosses any ring edge (edges sharing a vertex index with a or b excluded).
    mutating func intersectsPolygon(_ a: Int, _ b: Int) -> Bool {
        let ax = n[a].x, ay = n[a].y, bx = n[b].x, by = n[b].y
        let minX = Swift.min(ax, bx), maxX = Swift.max(ax, bx)
        let minY = Swift.min(ay, by), maxY = Swift.max(ay, by)
        let ai = n[a].i, bi = n[b].i
        var p = a
        repeat {
            let q = next(p)
            let px = n[p].x, py = n[p].y, qx = n[q].x, qy = n[q].y
            if !((px > maxX && qx > maxX) || (px < minX && qx < minX) ||
                 (py > maxY && qy > maxY) || (py < minY && qy < minY)) {
                let pi = n[p].i, qi = n[q].i
                if pi != ai && qi != ai && pi != bi && qi != bi &&
                    intersects(p, q, a, b, includeBoundary: true) { return true }
            }
            p = q
        } while p != a
        return false
    }

    /// Whether the diagonal a-b starts into the polygon's interior at a.
    @inline(__always)
    func locallyInside(_ a: Int, _ b: Int) -> Bool {
        let ap = prev(a), an = next(a)
        return area(ap, a, an) < 0
            ? area(a, b, an) >= 0 && area(a, ap, b) >= 0
            : area(a, b, ap) < 0 || area(a, an, b) < 0
    }

    /// Whether the midpoint of diagonal a-b is inside the polygon (even-odd ray test).
    mutating func middleInside(_ a: Int, _ b: Int) -> Bool {
        var p = a
        var inside = false
        let px = (n[a].x + n[b].x) / 2
        let py = (n[a].y + n[b].y) / 2
        repeat {
            let q = next(p)
            let y0 = n[p].y, y1 = n[q].y
            if (y0 > py) != (y1 > py) {
                let x0 = n[p].x, x1 = n[q].x
                if px < (x1 - x0) * (py - y0) / (y1 - y0) + x0 { inside.toggle() }
            }
            p = q
        } while p != a
        return inside
    }

    /// Whether a diagonal a-b lies inside the polygon and crosses no edge.
    mutating func isValidDiagonal(_ a: Int, _ b: Int) -> Bool {
        if n[next(a)].i == n[b].i { return false }
        let zeroLength = equals(a, b) && area(prev(a), a, next(a)) > 0 && area(prev(b), b, next(b)) > 0
        if !zeroLength {
            // locally visible, and no opposite-facing sectors
            guard locallyInside(a, b) && locallyInside(b, a) &&
                (area(prev(a), a, prev(b)) != 0 || area(a, prev(b), b) != 0) else { return false }
        }
        if intersectsPolygon(a, b) { return false }
        return zeroLength || middleInside(a, b)
    }

    /// Whether the sector at vertex m contains the sector at p (same coordinates).
    @inline(__always)
    func sectorContainsSector(_ m: Int, _ p: Int) -> Bool {
        area(prev(m), m, prev(p)) < 0 && area(next(p), m, next(m)) < 0
    }
}

extension Earcut {
    /// Whether point p lies in (or on) triangle a, b, c (earcut 3.2's comparison form).
    @inline(__always)
    static func pointInTriangle(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double,
                                _ px: Double, _ py: Double) -> Bool {
        (cx - px) * (ay - py) >= (ax - px) * (cy - py) &&
            (ax - px) * (by - py) >= (bx - px) * (ay - py) &&
            (bx - px) * (cy - py) >= (cx - px) * (by - py)
    }
}
