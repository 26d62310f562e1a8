// Hole elimination (see Earcut.swift for the contract): every hole is linked into the outer
// ring through a two-way bridge, holes taken from left to right (by leftmost x, then y, then
// the slope of the edge leaving the leftmost point), each bridged to the outer-ring vertex
// found by David Eberly's visibility search, as earcut 3.2 does it.
//
// The search is accelerated by earcut 3.2's append-only block index: one bounding box per run
// of up to 16 consecutive ring edges, seeded with the outer ring, one more segment per merged
// hole. Blocks are scanned in append order (which decides ties exactly like upstream), and a
// block whose box cannot contain a better crossing is skipped in O(1); superblocks (the union
// box of 16 consecutive blocks) let the scans skip 16 blocks at a time. Skipping never
// changes the result: a skipped block could not have changed it either.

extension Earcut.State {
    static let blockEdges = 16

    /// Links each hole ring into its own list (a one-point hole becomes a Steiner point) and
    /// returns the leftmost node of each, in the holes' order.
    mutating func linkHoles(_ data: UnsafePointer<Double>, dim: Int, vertexCount: Int,
                            holes: UnsafeBufferPointer<Int>) -> [Int32] {
        var queue: [Int32] = []
        queue.reserveCapacity(holes.count)
        for k in 0..<holes.count {
            let start = holes[k]
            let end = k + 1 < holes.count ? holes[k + 1] : vertexCount
            let list = linkedList(data, dim: dim, start: start, end: end, clockwise: false)
            if list < 0 { continue }
            if next(list) == list { steiners.append(Int32(truncatingIfNeeded: list)) }
            queue.append(Int32(truncatingIfNeeded: getLeftmost(list)))
        }
        return queue
    }

    /// Links every hole ring into the outer ring; returns a node of the merged ring.
    mutating func eliminateHoles(_ data: UnsafePointer<Double>, dim: Int, vertexCount: Int,
                                 holes: UnsafeBufferPointer<Int>, outer outerStart: Int) -> Int {
        var queue = linkHoles(data, dim: dim, vertexCount: vertexCount, holes: holes)
        sortHoleQueue(&queue)

        buildBlockIndex(maxNodes: vertexCount, numHoles: queue.count)
        indexSegment(outerStart, outerStart)

        var outer = outerStart
        indexActive = true
        for hole in queue {
            outer = eliminateHole(Int(hole), outer)
        }
        indexActive = false

        // collapse collinear/coincident points across the whole merged ring before clipping
        // (earcut 3.1 and later; 3.0 clips the merged ring as it is)
        return mapLibre ? outer : filterPoints(outer, outer)
    }

    /// The leftmost node of a ring (lowest y among equals).
    mutating func getLeftmost(_ start: Int) -> Int {
        var p = start, leftmost = start
        repeat {
            let px = n[p].x, lx = n[leftmost].x
            if px < lx || (px == lx && n[p].y < n[leftmost].y) { leftmost = p }
            p = next(p)
        } while p != start
        return leftmost
    }

    /// Orders holes by leftmost x, then y, then the slope of the edge leaving that point, so
    /// that holes meeting at a shared leftmost vertex are bridged counter-clockwise. Stable
    /// (node ids grow in input order), with NaN slope differences treated as ties.
    func sortHoleQueue(_ queue: inout [Int32]) {
        let count = queue.count
        if count < 2 { return }
        let nodes = n
        func before(_ a: Int32, _ b: Int32) -> Bool {
            let pa = nodes[Int(a)], pb = nodes[Int(b)]
            if pa.x != pb.x { return pa.x < pb.x }
            if pa.y != pb.y { return pa.y < pb.y }
            let na = nodes[Int(pa.next)], nb = nodes[Int(pb.next)]
            let d = (na.y - pa.y) / (na.x - pa.x) - (nb.y - pb.y) / (nb.x - pb.x)
            return d < 0
        }
        // bottom-up merge sort: takes from the right run only when strictly before
        var src = queue
        var dst = queue
        var width = 1
        while width < count {
            var lo = 0
            while lo < count {
                let mid = Swift.min(lo + width, count), hi = Swift.min(lo + 2 * width, count)
                var i = lo, j = mid, k = lo
                while i < mid && j < hi {
                    if before(src[j], src[i]) { dst[k] = src[j]; j += 1 } else { dst[k] = src[i]; i += 1 }
                    k += 1
                }
                while i < mid { dst[k] = src[i]; i += 1; k += 1 }
                while j < hi { dst[k] = src[j]; j += 1; k += 1 }
                lo = hi
            }
            swap(&src, &dst)
            width *= 2
        }
        queue = src
    }

    /// Bridges one hole into the outer ring (when a bridge exists); returns a node of that ring.
    mutating func eliminateHole(_ hole: Int, _ outer: Int) -> Int {
        let bridge = findHoleBridge(hole, outer)
        if bridge < 0 { return outer }

        let bridgeReverse = splitPolygon(bridge, hole)

        // index the merged-in run bridge -> hole ... -> bridgeReverse -> bridge2 before
        // filtering; filtering only removes points, so the boxes stay conservative
        let bridge2 = next(bridgeReverse)
        indexSegment(bridge, next(bridge2))

        // heal collinear/coincident points around the two new slit edges
        _ = filterPoints(bridgeReverse, next(bridgeReverse))
        return filterPoints(bridge, next(bridge))
    }

    // MARK: block index

    mutating func buildBlockIndex(maxNodes: Int, numHoles: Int) {
        let k = Self.blockEdges
        let maxBlocks = (maxNodes + 3 * numHoles + k - 1) / k + numHoles + 2
        if maxBlocks > blockCapacity { growBlocks(to: maxBlocks) }
        numBlocks = 0
    }

    mutating func growBlocks(to requested: Int) {
        let capacity = (requested + 15) & ~15
        let sbox = UnsafeMutablePointer<Double>.allocate(capacity: capacity / 16 * 4)
        let box = UnsafeMutablePointer<Double>.allocate(capacity: capacity * 4)
        let head = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        let stop = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        if numBlocks > 0 {
            sbox.moveInitialize(from: superBox, count: (numBlocks + 15) / 16 * 4)
            box.moveInitialize(from: blockBox, count: numBlocks * 4)
            head.moveInitialize(from: blockHead, count: numBlocks)
            stop.moveInitialize(from: blockStop, count: numBlocks)
        }
        if blockCapacity > 0 {
            superBox.deallocate(); blockBox.deallocate(); blockHead.deallocate(); blockStop.deallocate()
        }
        superBox = sbox; blockBox = box; blockHead = head; blockStop = stop
        blockCapacity = capacity
    }

    /// Indexes the ring run head..<stop (the whole ring when head == stop) as blocks of up to
    /// 16 edges; each box covers both endpoints of every edge in its block.
    mutating func indexSegment(_ head: Int, _ stop: Int) {
        var p = head
        repeat {
            if numBlocks >= blockCapacity { growBlocks(to: Swift.max(blockCapacity * 2, 16)) }
            let b = numBlocks
            numBlocks &+= 1
            blockHead[b] = Int32(truncatingIfNeeded: p)
            var minX = Double.infinity, minY = Double.infinity
            var maxX = -Double.infinity, maxY = -Double.infinity
            var k = 0
            let b32 = Int32(truncatingIfNeeded: b)
            repeat {
                let c = next(p)
                n[p].z = b32
                let px = n[p].x, py = n[p].y, cx = n[c].x, cy = n[c].y
                if px < minX { minX = px }
                if px > maxX { maxX = px }
                if py < minY { minY = py }
                if py > maxY { maxY = py }
                if cx < minX { minX = cx }
                if cx > maxX { maxX = cx }
                if cy < minY { minY = cy }
                if cy > maxY { maxY = cy }
                p = c
                k &+= 1
            } while k < Self.blockEdges && p != stop
            blockStop[b] = Int32(truncatingIfNeeded: p)
            let box = blockBox + b &* 4
            box[0] = minX; box[1] = minY; box[2] = maxX; box[3] = maxY
            let sbox = superBox + (b >> 4) &* 4
            if b & 15 == 0 {
                sbox[0] = minX; sbox[1] = minY; sbox[2] = maxX; sbox[3] = maxY
            } else {
                if minX < sbox[0] { sbox[0] = minX }
                if minY < sbox[1] { sbox[1] = minY }
                if maxX > sbox[2] { sbox[2] = maxX }
                if maxY > sbox[3] { sbox[3] = maxY }
            }
        } while p != stop
    }

    /// After filtering healed edge head -> tail, grows head's block box (and its superblock's)
    /// to cover tail.
    @inline(__always)
    func growBlock(_ head: Int, _ tail: Int) {
        let b = Int(n[head].z)
        let tx = n[tail].x, ty = n[tail].y
        Self.grow(blockBox + b &* 4, tx, ty)
        Self.grow(superBox + (b >> 4) &* 4, tx, ty)
    }

    @inline(__always)
    static func grow(_ box: UnsafeMutablePointer<Double>, _ x: Double, _ y: Double) {
        if x < box[0] { box[0] = x }
        if y < box[1] { box[1] = y }
        if x > box[2] { box[2] = x }
        if y > box[3] { box[3] = y }
    }

    /// The block's first node, advanced past nodes removed since it was indexed.
    @inline(__always)
    func liveBlockHead(_ b: Int) -> Int { liveEntry(blockHead, b) }

    /// The block's end bound, advanced past nodes removed since it was indexed.
    @inline(__always)
    func liveBlockStop(_ b: Int) -> Int { liveEntry(blockStop, b) }

    /// Entry `b` of a block table, advanced past removed nodes (and stored back).
    @inline(__always)
    private func liveEntry(_ table: UnsafeMutablePointer<Int32>, _ b: Int) -> Int {
        var node = Int(table[b])
        if !isLive(node) {
            repeat { node = next(node) } while !isLive(node)
            table[b] = Int32(truncatingIfNeeded: node)
        }
        return node
    }

    // MARK: bridge search

    /// Eberly's bridge search: the outer-ring vertex the hole's leftmost point connects to, or -1.
    mutating func findHoleBridge(_ hole: Int, _ outer: Int) -> Int {
        if equals(hole, outer) { return outer }
        let hit = rayHit(hole)
        if hit.final { return hit.node }
        if hit.node < 0 { return -1 }
        return leastAngleBlocker(hole, candidate: hit.node, rayX: hit.x)
    }

    /// The first step of the bridge search: a segment crossed by the leftward ray from the hole
    /// point; its endpoint with the lesser x is the candidate (`node`, −1 when none; `x`: where
    /// the ray crosses). `final`: the ray meets a vertex exactly, or the hole point lies on the
    /// segment, and `node` is the bridge.
    private mutating func rayHit(_ hole: Int) -> (node: Int, x: Double, final: Bool) {
        let hx = n[hole].x, hy = n[hole].y
        var qx = -Double.infinity
        var m = -1
        var skipUntil = 0

        for b in 0..<numBlocks {
            let box = blockBox + b &* 4
            if b & 15 == 0 {
                // skip the next 16 blocks at once when their union box fails the same test
                let sbox = superBox + (b >> 4) &* 4
                if hy < sbox[1] || hy > sbox[3] || sbox[0] > hx || sbox[2] <= qx {
                    skipUntil = b &+ 16
                }
            }
            if b < skipUntil { continue }
            if hy < box[1] || hy > box[3] || box[0] > hx || box[2] <= qx { continue }

            let stop = liveBlockStop(b)
            var p = liveBlockHead(b)
            // walking from a live node only ever meets live nodes
            var px = n[p].x, py = n[p].y
            repeat {
                let q = next(p)
                let nx = n[q].x, ny = n[q].y
                if nx == hx && ny == hy { return (q, hx, true) }
                if hy <= py && hy >= ny && ny != py {
                    let x = px + (hy - py) * (nx - px) / (ny - py)
                    if x <= hx && x > qx {
                        qx = x
                        m = px < nx ? p : q
                        if x == hx { return (m, x, true) } // hole touches the segment: take its left end
                    }
                }
                p = q; px = nx; py = ny
            } while p != stop
        }

        return (m, qx, false)
    }

    /// The second step: points inside the triangle (hole point, ray crossing at `rayX`,
    /// `candidate`) block the bridge; if there are any, the one with the smallest angle to the ray
    /// is the bridge, else the candidate.
    private mutating func leastAngleBlocker(_ hole: Int, candidate: Int, rayX qx: Double) -> Int {
        let hx = n[hole].x, hy = n[hole].y
        var m = candidate
        let mx = n[m].x, my = n[m].y
        let tminY = Swift.min(hy, my), tmaxY = Swift.max(hy, my)
        var tanMin = Double.infinity
        let ax = hy < my ? hx : qx, cx = hy < my ? qx : hx

        var skipUntil = 0
        for b in 0..<numBlocks {
            let box = blockBox + b &* 4
            if b & 15 == 0 {
                let sbox = superBox + (b >> 4) &* 4
                if sbox[2] < mx || sbox[0] > hx || sbox[3] < tminY || sbox[1] > tmaxY {
                    skipUntil = b &+ 16
                }
            }
            if b < skipUntil { continue }
            if box[2] < mx || box[0] > hx || box[3] < tminY || box[1] > tmaxY { continue }

            let stop = liveBlockStop(b)
            var p = liveBlockHead(b)
            repeat {
                let px = n[p].x, py = n[p].y
                if hx >= px && px >= mx && hx != px &&
                    Earcut.pointInTriangle(ax, hy, mx, my, cx, hy, px, py) {
                    let tan = abs(hy - py) / (hx - px)
                    let q = next(p)
                    // a T-junction touch (hole point on p's horizontal edge) is valid although
                    // locallyInside rejects it as collinear
                    if (tan < tanMin || (tan == tanMin &&
                            (px > n[m].x || (px == n[m].x && sectorContainsSector(m, p))))) &&
                        (locallyInside(p, hole) || (py == hy && n[q].y == hy && n[q].x > hx)) {
                        m = p
                        tanMin = tan
                    }
                }
                p = next(p)
            } while p != stop
        }
        return m
    }
}
