// Ear clipping of one ring, with the fallbacks of earcut 3.2 (see Earcut.swift for the contract):
// filter collinear/duplicate points and retry while that removes anything, cure small local
// self-intersections once, and as a last resort split the ring along a valid diagonal and
// clip both halves. Splits go on an explicit stack, so degenerate input cannot overflow the
// call stack.

extension Earcut.State {
    /// Triangulates the ring containing `start`, and every ring split off from it.
    mutating func clipAll(_ start: Int) {
        pending.removeAll(keepingCapacity: true)
        pending.append(Int32(truncatingIfNeeded: start))
        while let ring = pending.popLast() {
            earcutLinked(Int(ring))
        }
    }

    /// Main ear slicing loop for one ring; pushes split halves on `pending`.
    mutating func earcutLinked(_ start: Int) {
        var ear = start
        let hashing = invSize != 0
        if hashing { indexCurve(ear) }

        var stop = ear
        var cured = false

        while true {
            let pr = prev(ear), nx = next(ear)
            if pr == nx { break }

            if hashing && zDead > Earcut.State.compactMin && zDead &* Earcut.State.compactFrac > zCount { compactCurve() }
            if area(pr, ear, nx) < 0 && (hashing ? isEarHashed(ear) : isEar(ear)) {
                emit(pr, ear, nx)
                removeNode(ear)
                ear = nx
                stop = nx
                continue
            }

            ear = nx

            // a whole lap without an ear
            if ear == stop {
                // filter collinear/coincident points and retry as long as that removes something
                filteredOut = false
                ear = filterPoints(ear, ear)
                if filteredOut { stop = ear; continue }

                // then cure small local self-intersections once
                if !cured {
                    ear = cureLocalIntersections(ear)
                    stop = ear
                    cured = true
                    continue
                }

                // last resort: split the ring in two
                splitEarcut(ear)
                break
            }
        }
    }

    /// Whether `ear` (known convex) has no reflex-or-flat vertex inside its triangle (full scan).
    mutating func isEar(_ ear: Int) -> Bool {
        let a = prev(ear), c = next(ear)
        let ax = n[a].x, ay = n[a].y, bx = n[ear].x, by = n[ear].y, cx = n[c].x, cy = n[c].y
        let x0 = Swift.min(ax, Swift.min(bx, cx)), y0 = Swift.min(ay, Swift.min(by, cy))
        let x1 = Swift.max(ax, Swift.max(bx, cx)), y1 = Swift.max(ay, Swift.max(by, cy))

        // earcut 3.x skips points on the first corner
        let skipFirst = true
        var p = next(c)
        while p != a {
            let px = n[p].x, py = n[p].y
            if px >= x0 && px <= x1 && py >= y0 && py <= y1 && !(skipFirst && ax == px && ay == py) &&
                Earcut.pointInTriangle(ax, ay, bx, by, cx, cy, px, py) && area(prev(p), p, next(p)) >= 0 {
                return false
            }
            p = next(p)
        }
        return true
    }

    /// Cuts off triangles where edge (p.prev, p) crosses edge (p.next, p.next.next).
    mutating func cureLocalIntersections(_ startNode: Int) -> Int {
        var start = startNode
        var p = start
        var cured = false
        repeat {
            let a = prev(p), pn = next(p), b = next(pn)
            if intersects(a, p, pn, b, includeBoundary: false) && locallyInside(a, b) && locallyInside(b, a) {
                emit(a, p, b)
                removeNode(p)
                removeNode(pn)
                p = b
                start = b
                cured = true
            }
            p = next(p)
        } while p != start
        return cured ? filterPoints(p, p) : p
    }

    /// Splits the ring along the first valid diagonal found and queues both halves.
    mutating func splitEarcut(_ start: Int) {
        var a = start
        repeat {
            var b = next(next(a))
            let stopB = prev(a)
            while b != stopB {
                if n[a].i != n[b].i && isValidDiagonal(a, b) {
                    var c = splitPolygon(a, b)
                    a = filterPoints(a, next(a))
                    c = filterPoints(c, next(c))
                    // clip `a`'s half first, then `c`'s (stack order)
                    pending.append(Int32(truncatingIfNeeded: c))
                    pending.append(Int32(truncatingIfNeeded: a))
                    return
                }
                b = next(b)
            }
            a = next(a)
        } while a != start
    }
}
