// The clipping flow of earcut 3.0, the version MapLibre's renderers triangulate fills with
// (`Earcut.Flavor.mapLibre`; see Earcut.swift for the contract).
//
// MapLibre GL JS 5 depends on earcut ^3.0.2 and MapLibre Native carries earcut.hpp from before
// the 3.1 port; both clip ears the 3.0 way, which differs from 3.2 (the default flavour) in
// what it does after an ear and when it gives up on a lap:
// - after cutting an ear it goes on two nodes further (3.0: "skipping the next vertex leads
//   to less sliver triangles"), not at the next node;
// - a lap without an ear filters collinear/coincident points once and starts a fresh lap
//   (pass 1), then cures local self-intersections (pass 2), then splits the ring; split halves
//   start again at pass 0;
// - filtering a window (after a split or a hole bridge) goes on past the window's end while it
//   removes points;
// - the self-intersection cure skips a == b, counts collinear touches as crossings, and
//   filters afterwards even when it cut nothing; a diagonal is invalid when b is a's previous
//   vertex too; the merged ring is not filtered once more after the holes are bridged.
// For a valid polygon the triangles differ but cover the same area; for a self-intersecting
// ring (a fill over a LineString closes every piece with a chord, which often crosses it) the
// covered area differs, and this flavour draws what MapLibre draws. Hole bridging (order and
// the visibility search) is shared with 3.2, which differs from 3.0 only where a hole's
// leftmost point lies on a horizontal outer edge or holes' leftmost points coincide.

extension Earcut.State {
    /// earcut 3.0's main loop for one ring and the rings split off from it (explicit stack of
    /// (node, pass) instead of recursion, halves in the same order as upstream's recursion).
    mutating func clipAllMapLibre(_ start: Int) {
        var stack: [(Int32, Int8)] = [(Int32(truncatingIfNeeded: start), 0)]
        while let (ring, firstPass) = stack.popLast() {
            var ear = Int(ring)
            var pass = firstPass
            let hashing = invSize != 0
            if hashing { indexCurve(ear) }
            var stop = ear
            while prev(ear) != next(ear) {
                let pr = prev(ear), nx = next(ear)
                if hashing && zDead > Earcut.State.compactMin && zDead &* Earcut.State.compactFrac > zCount { compactCurve() }
                if area(pr, ear, nx) < 0 && (hashing ? isEarHashed(ear) : isEar(ear)) {
                    emit(pr, ear, nx)
                    removeNode(ear)
                    ear = next(nx)
                    stop = ear
                    continue
                }
                ear = nx
                if ear == stop {
                    if pass == 0 {
                        ear = filterPointsMapLibre(ear, ear)
                        pass = 1
                    } else if pass == 1 {
                        ear = cureLocalIntersectionsMapLibre(filterPointsMapLibre(ear, ear))
                        pass = 2
                    } else {
                        if let (a, c) = splitEarcutMapLibre(ear) {
                            stack.append((Int32(truncatingIfNeeded: c), 0))
                            stack.append((Int32(truncatingIfNeeded: a), 0))
                        }
                        break
                    }
                    stop = ear
                }
            }
        }
    }

    /// earcut 3.0's filter: removes collinear and coincident points from `start` until it is
    /// back at `end`, where every removal moves `end` to the removed point's predecessor.
    mutating func filterPointsMapLibre(_ start: Int, _ endNode: Int) -> Int {
        var end = endNode
        var p = start
        let hasSteiners = !steiners.isEmpty
        var again: Bool
        repeat {
            again = false
            let pn = next(p)
            if !(hasSteiners && isSteiner(p)) && (equals(p, pn) || area(prev(p), p, pn) == 0) {
                let pp = prev(p)
                removeNode(p)
                p = pp
                end = pp
                if p == next(p) { break }
                again = true
            } else {
                p = pn
            }
        } while again || p != end
        return end
    }

    /// earcut 3.0's segment test: orientations by sign, so a collinear touch also counts in the
    /// general case.
    @inline(__always)
    func intersectsMapLibre(_ p1: Int, _ q1: Int, _ p2: Int, _ q2: Int) -> Bool {
        @inline(__always) func sign(_ v: Double) -> Int { v > 0 ? 1 : (v < 0 ? -1 : 0) }
        let o1 = sign(area(p1, q1, p2)), o2 = sign(area(p1, q1, q2))
        let o3 = sign(area(p2, q2, p1)), o4 = sign(area(p2, q2, q1))
        if o1 != o2 && o3 != o4 { return true }
        if o1 == 0 && onSegment(p1, p2, q1) { return true }
        if o2 == 0 && onSegment(p1, q2, q1) { return true }
        if o3 == 0 && onSegment(p2, p1, q2) { return true }
        if o4 == 0 && onSegment(p2, q1, q2) { return true }
        return false
    }

    /// earcut 3.0's cure: cuts triangle (a, p, b) where edge (a, p) crosses (p.next, b).
    mutating func cureLocalIntersectionsMapLibre(_ startNode: Int) -> Int {
        var start = startNode
        var p = start
        repeat {
            let a = prev(p), pn = next(p), b = next(pn)
            if !equals(a, b) && intersectsMapLibre(a, p, pn, b) && locallyInside(a, b) && locallyInside(b, a) {
                emit(a, p, b)
                removeNode(p)
                removeNode(pn)
                p = b
                start = b
            }
            p = next(p)
        } while p != start
        return filterPointsMapLibre(p, p)
    }

    /// earcut 3.0's split: the first valid diagonal a-b; returns both halves (filtered), or nil.
    mutating func splitEarcutMapLibre(_ start: Int) -> (Int, Int)? {
        var a = start
        repeat {
            var b = next(next(a))
            while b != prev(a) {
                if n[a].i != n[b].i && isValidDiagonalMapLibre(a, b) {
                    let c = splitPolygon(a, b)
                    let ha = filterPointsMapLibre(a, next(a))
                    let hc = filterPointsMapLibre(c, next(c))
                    return (ha, hc)
                }
                b = next(b)
            }
            a = next(a)
        } while a != start
        return nil
    }

    /// earcut 3.0's diagonal test.
    mutating func isValidDiagonalMapLibre(_ a: Int, _ b: Int) -> Bool {
        let bi = n[b].i
        guard n[next(a)].i != bi && n[prev(a)].i != bi else { return false }
        // no ring edge crosses it (edges sharing a vertex index with a or b excluded)
        let ai = n[a].i
        var p = a
        repeat {
            let q = next(p)
            let pi = n[p].i, qi = n[q].i
            if pi != ai && qi != ai && pi != bi && qi != bi && intersectsMapLibre(p, q, a, b) { return false }
            p = q
        } while p != a
        if locallyInside(a, b) && locallyInside(b, a) && middleInside(a, b) &&
            (area(prev(a), a, prev(b)) != 0 || area(a, prev(b), b) != 0) { return true }
        return equals(a, b) && area(prev(a), a, next(a)) > 0 && area(prev(b), b, next(b)) > 0
    }
}
