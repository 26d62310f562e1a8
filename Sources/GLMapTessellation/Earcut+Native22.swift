// Hole elimination of the earcut.hpp MapLibre Native bundles (`NativeEmulation.earcut22`; see
// Earcut.swift for the contract). Native's earcut.hpp predates the 3.x ports: its clipping
// (ear order, filter, cure, split) is earcut 3.0's, which `Flavor.mapLibre` follows, but
//
// - holes are ordered by the x of their leftmost point alone (`std::sort` by x; libstdc++ sorts
//   up to 16 elements by insertion, which keeps equal keys in input order, as this stable sort
//   does for any count);
// - the bridge search is earcut 2.2.4's: a plain walk round the merged ring from the current
//   start node (so ties between equal crossings go to the first edge met from there), no
//   coincident-point shortcut, and on equal angles a candidate further right wins, or one whose
//   sector contains the current one (3.x asks for the same x for the latter);
// - after each hole the ring goes on from the node the previous hole began with, moved on by
//   `filterPoints(outer, outer.next)`, not from the bridge (`eliminateHole(…); outerNode =
//   filterPoints(outerNode, outerNode->next)`, earcut.hpp before v2.2.3). Found on differential
//   case s1-00003: its tile ring's triangles in Native's image are what that rule gives, and
//   none of earcut 2.2.4, 3.0.2, 3.1, 3.2 gives them (Benchmarks/README.md, Conformance). A
//   start node that filtering removed is used as it is, stale links and all, as the C++ does;
// - a point on an ear's first corner counts as inside the ear (2.2.4's `pointInTriangle`;
//   3.0 tests `pointInTriangleExceptFirst`), which `isEar` / `isEarHashed` apply under `native22`.
// No block index: each bridge search walks the whole ring (only the differential harness uses this).

extension Earcut.State {
    /// Links every hole ring into the outer ring as Native's earcut.hpp does; returns the start node.
    mutating func eliminateHolesNative22(_ data: UnsafePointer<Double>, dim: Int, vertexCount: Int,
                                         holes: UnsafeBufferPointer<Int>, outer outerStart: Int) -> Int {
        let queue = linkHoles(data, dim: dim, vertexCount: vertexCount, holes: holes).map(Int.init)
        // stable, by x alone
        let keyed = queue.enumerated().sorted { a, b in
            let xa = n[a.element].x, xb = n[b.element].x
            return xa != xb ? xa < xb : a.offset < b.offset
        }
        var outer = outerStart
        for (_, hole) in keyed {
            let bridge = findHoleBridgeNative22(hole, outer)
            if bridge >= 0 {
                let bridgeReverse = splitPolygon(bridge, hole)
                _ = filterPoints(bridgeReverse, next(bridgeReverse))
                _ = filterPoints(bridge, next(bridge))
            }
            outer = filterPoints(outer, next(outer))
        }
        return outer
    }

    /// earcut 2.2.4's Eberly bridge search from `outer` round the ring; -1 when no edge is hit.
    mutating func findHoleBridgeNative22(_ hole: Int, _ outer: Int) -> Int {
        let hx = n[hole].x, hy = n[hole].y
        var qx = -Double.infinity
        var m = -1
        var p = outer
        repeat {
            let q = next(p)
            let py = n[p].y, qy = n[q].y
            if hy <= py && hy >= qy && qy != py {
                let px = n[p].x, x = px + (hy - py) * (n[q].x - px) / (qy - py)
                if x <= hx && x > qx {
                    qx = x
                    m = px < n[q].x ? p : q
                    if x == hx { return m }
                }
            }
            p = q
        } while p != outer
        if m < 0 { return -1 }

        let stop = m
        let mx = n[m].x, my = n[m].y
        var tanMin = Double.infinity
        p = m
        repeat {
            let px = n[p].x, py = n[p].y
            if hx >= px && px >= mx && hx != px &&
                Earcut.pointInTriangle(hy < my ? hx : qx, hy, mx, my, hy < my ? qx : hx, hy, px, py) {
                let tan = abs(hy - py) / (hx - px)
                if locallyInside(p, hole) &&
                    (tan < tanMin || (tan == tanMin && (px > n[m].x || sectorContainsSector(m, p)))) {
                    m = p
                    tanMin = tan
                }
            }
            p = next(p)
        } while p != stop
        return m
    }
}
