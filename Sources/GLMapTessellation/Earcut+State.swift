// Node storage and ring primitives of the triangulator (see Earcut.swift for the contract).
//
// Nodes live in one contiguous, reusable buffer of `Node` structs; rings are circular
// doubly linked lists threaded through it by Int32 indices (`prev`/`next`). While a ring is
// clipped with z-order hashing, its nodes are also listed in z order in flat arrays (see
// Earcut+ZOrder.swift), and `zpos` is a node's place there. Nodes are never freed during a
// run: a removed node keeps its links, which the hole-bridge index relies on to skip stale
// entries (`isLive`).

extension Earcut {
    /// One polygon vertex in a ring (40 bytes).
    struct Node {
        var x: Double
        var y: Double
        /// Vertex index in the caller's coordinates (what the output refers to).
        var i: UInt32
        /// z-order key while clipping; the owning block of the hole-bridge index while holes merge.
        var z: Int32
        var prev: Int32
        var next: Int32
        /// Position in the z-order arrays of the ring being clipped, or -1.
        var zpos: Int32
    }

    /// Working state of one triangulator: buffers are kept between runs.
    ///
    /// Functions called often from hot loops are declared `mutating` even when they only
    /// read: that passes this (large) struct by reference instead of copying it per call.
    struct State {
        // Node storage.
        var n: UnsafeMutablePointer<Node>
        var nodeCapacity = 0
        var nodeCount = 0

        // Per node, the last node found blocking it as an ear, valid while the ear's
        // triangle (prev << 32 | next in `blockedTriangle`) is unchanged; see isEarHashed.
        var blocker: UnsafeMutablePointer<Int32>
        var blockedTriangle: UnsafeMutablePointer<UInt64>

        // Output indices.
        var out: UnsafeMutablePointer<UInt32>
        var outCapacity = 0
        var outCount = 0

        // Z-order hashing parameters (hashing is off when invSize == 0). Hashing is used above
        // `hashingThreshold` vertices (upstream's 80; tests raise it to compare both paths).
        var hashingThreshold = 80
        var minX = 0.0
        var minY = 0.0
        var invSize = 0.0

        /// Set by `filterPoints` whenever it removes a node.
        var filteredOut = false
        /// Clip ears as earcut 3.0 does (`Earcut.Flavor.mapLibre`, Earcut+MapLibre.swift).
        var mapLibre = false
        /// True while holes are merged: `removeNode` then keeps block boxes covering healed edges.
        var indexActive = false

        /// Node ids of one-point holes (Steiner points), ascending; `filterPoints` keeps them.
        var steiners: [Int32] = []

        // Hole-bridge block index: per block a box [minX, minY, maxX, maxY] and the ring run
        // head..<stop it covers.
        var blockBox: UnsafeMutablePointer<Double>
        var blockHead: UnsafeMutablePointer<Int32>
        var blockStop: UnsafeMutablePointer<Int32>
        var blockCapacity = 0
        var numBlocks = 0

        // Superblocks: one box per 16 consecutive blocks, so scans skip 16 blocks at once.
        var superBox: UnsafeMutablePointer<Double>

        // Z-order arrays of the ring being clipped, sorted by key: key, (x, y) with x = NaN
        // once the node is removed, node id. `zDead` counts removed entries.
        var zKeys: UnsafeMutablePointer<UInt32>
        var zXY: UnsafeMutablePointer<Double>
        var zNode: UnsafeMutablePointer<Int32>
        var zCount = 0
        var zDead = 0

        // Scratch for sorting nodes by z (packed z << 32 | node); sized with the z arrays.
        var sortA: UnsafeMutablePointer<UInt64>
        var sortB: UnsafeMutablePointer<UInt64>
        var sortCapacity = 0

        /// Rings still to clip after a split (explicit stack instead of recursion).
        var pending: [Int32] = []

        /// Starts with no buffers: every pointer refers to a shared, never-written placeholder
        /// until its capacity grows from 0, so a one-off triangulation allocates only what it uses.
        init() {
            let none = Earcut.State.placeholder
            n = none.assumingMemoryBound(to: Node.self)
            blocker = none.assumingMemoryBound(to: Int32.self)
            blockedTriangle = none.assumingMemoryBound(to: UInt64.self)
            out = none.assumingMemoryBound(to: UInt32.self)
            blockBox = none.assumingMemoryBound(to: Double.self)
            blockHead = none.assumingMemoryBound(to: Int32.self)
            blockStop = none.assumingMemoryBound(to: Int32.self)
            superBox = none.assumingMemoryBound(to: Double.self)
            zKeys = none.assumingMemoryBound(to: UInt32.self)
            zXY = none.assumingMemoryBound(to: Double.self)
            zNode = none.assumingMemoryBound(to: Int32.self)
            sortA = none.assumingMemoryBound(to: UInt64.self)
            sortB = none.assumingMemoryBound(to: UInt64.self)
        }

        /// Target of the pointers of empty buffers (never read or written, never freed).
        nonisolated(unsafe) static let placeholder = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)

        /// Frees every buffer; the state must not be used afterwards.
        func deallocate() {
            if nodeCapacity > 0 { n.deallocate(); blocker.deallocate(); blockedTriangle.deallocate() }
            if outCapacity > 0 { out.deallocate() }
            if blockCapacity > 0 {
                blockBox.deallocate(); blockHead.deallocate(); blockStop.deallocate(); superBox.deallocate()
            }
            if sortCapacity > 0 {
                zKeys.deallocate(); zXY.deallocate(); zNode.deallocate(); sortA.deallocate(); sortB.deallocate()
            }
        }

        // MARK: buffers

        /// Makes room for `count` more nodes, growing (and moving) the node buffer if needed.
        mutating func reserveNodes(_ count: Int) {
            let needed = nodeCount + count
            if needed <= nodeCapacity { return }
            let capacity = Swift.max(needed, nodeCapacity * 2, 64)
            let grown = UnsafeMutablePointer<Node>.allocate(capacity: capacity)
            let grownBlocker = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
            let grownTriangle = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
            if nodeCount > 0 {
                grown.moveInitialize(from: n, count: nodeCount)
                grownBlocker.moveInitialize(from: blocker, count: nodeCount)
                grownTriangle.moveInitialize(from: blockedTriangle, count: nodeCount)
            }
            if nodeCapacity > 0 { n.deallocate(); blocker.deallocate(); blockedTriangle.deallocate() }
            n = grown
            blocker = grownBlocker
            blockedTriangle = grownTriangle
            nodeCapacity = capacity
        }

        /// Makes room for `count` more output indices.
        mutating func reserveOutput(_ count: Int) {
            let needed = outCount + count
            if needed <= outCapacity { return }
            let capacity = Swift.max(needed, outCapacity * 2, 64)
            let grown = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
            if outCount > 0 { grown.moveInitialize(from: out, count: outCount) }
            if outCapacity > 0 { out.deallocate() }
            out = grown
            outCapacity = capacity
        }

        @inline(__always)
        mutating func emit(_ a: Int, _ b: Int, _ c: Int) {
            if outCount &+ 3 > outCapacity { reserveOutput(3) }
            out[outCount] = n[a].i
            out[outCount &+ 1] = n[b].i
            out[outCount &+ 2] = n[c].i
            outCount &+= 3
        }

        // MARK: node access

        @inline(__always) func prev(_ p: Int) -> Int { Int(n[p].prev) }
        @inline(__always) func next(_ p: Int) -> Int { Int(n[p].next) }
        /// Whether `p` is still linked into its ring (removed nodes keep stale links).
        @inline(__always) func isLive(_ p: Int) -> Bool { Int(n[prev(p)].next) == p }

        /// Appends an unlinked node (links point at itself) and returns its id.
        @inline(__always)
        mutating func createNode(_ i: UInt32, _ x: Double, _ y: Double) -> Int {
            let id = nodeCount
            if id >= nodeCapacity { reserveNodes(1) }
            let p32 = Int32(truncatingIfNeeded: id)
            (n + id).initialize(to: Node(x: x, y: y, i: i, z: 0, prev: p32, next: p32, zpos: -1))
            (blockedTriangle + id).initialize(to: UInt64.max) // no cached blocker
            nodeCount = id &+ 1
            return id
        }

        /// Creates a node and links it after `last` (or as a one-node ring when `last` < 0).
        @inline(__always)
        mutating func insertNode(_ i: Int, _ x: Double, _ y: Double, after last: Int) -> Int {
            let p = createNode(UInt32(truncatingIfNeeded: i), x, y)
            if last >= 0 {
                let ln = next(last)
                n[p].next = Int32(truncatingIfNeeded: ln)
                n[p].prev = Int32(truncatingIfNeeded: last)
                n[ln].prev = Int32(truncatingIfNeeded: p)
                n[last].next = Int32(truncatingIfNeeded: p)
            }
            return p
        }

        /// Unlinks `p` from its ring and marks it removed in the z-order arrays.
        @inline(__always)
        mutating func removeNode(_ p: Int) {
            let pp = n[p].prev, pn = n[p].next
            n[Int(pn)].prev = pp
            n[Int(pp)].next = pn
            let zp = Int(n[p].zpos)
            if zp >= 0 {
                zXY[zp &* 2] = .nan
                zDead &+= 1
            }
            if indexActive { growBlock(Int(pp), Int(pn)) }
        }

        /// Links `a` to `b` with a two-way bridge. If they are on the same ring this splits it in
        /// two; if `b` is on a hole, the hole is merged into `a`'s ring. Returns the copy of `b`.
        mutating func splitPolygon(_ a: Int, _ b: Int) -> Int {
            reserveNodes(2)
            let a2 = createNode(n[a].i, n[a].x, n[a].y)
            let b2 = createNode(n[b].i, n[b].x, n[b].y)
            let an = next(a), bp = prev(b)
            let a32 = Int32(truncatingIfNeeded: a), b32 = Int32(truncatingIfNeeded: b)
            let a232 = Int32(truncatingIfNeeded: a2), b232 = Int32(truncatingIfNeeded: b2)

            n[a].next = b32
            n[b].prev = a32

            n[a2].next = Int32(truncatingIfNeeded: an)
            n[an].prev = a232

            n[b2].next = a232
            n[a2].prev = b232

            n[bp].next = b232
            n[b2].prev = Int32(truncatingIfNeeded: bp)
            return b2
        }

        @inline(__always)
        func isSteiner(_ p: Int) -> Bool {
            // binary search: Steiner nodes are created in ascending id order
            var lo = 0, hi = steiners.count
            let key = Int32(truncatingIfNeeded: p)
            while lo < hi {
                let mid = (lo &+ hi) >> 1
                let v = steiners[mid]
                if v == key { return true }
                if v < key { lo = mid &+ 1 } else { hi = mid }
            }
            return false
        }

        /// Removes collinear and coincident points. With `end == start` the whole ring is swept
        /// until nothing more can be removed; otherwise only the window start...end is healed
        /// (after a bridge or diagonal cut). Returns a node still in the ring.
        mutating func filterPoints(_ start: Int, _ endNode: Int) -> Int {
            if mapLibre { return filterPointsMapLibre(start, endNode) }
            let full = endNode == start
            var end = endNode
            var p = start
            let hasSteiners = !steiners.isEmpty
            var again: Bool
            repeat {
                again = false
                let pn = next(p)
                if p != pn && !(hasSteiners && isSteiner(p)) &&
                    ((n[p].x == n[pn].x && n[p].y == n[pn].y) || area(prev(p), p, pn) == 0) {
                    if full || p == end { end = prev(p) }
                    filteredOut = true
                    removeNode(p)
                    p = prev(p)
                    again = true
                } else if full || p != end {
                    p = pn
                    again = !full
                }
            } while again || p != end
            return end
        }

        /// Builds a ring from vertices start..<end in the requested winding; returns the last
        /// node, or -1 for an empty range.
        mutating func linkedList(_ data: UnsafePointer<Double>, dim: Int, start: Int, end: Int, clockwise: Bool) -> Int {
            if start >= end { return -1 }
            var sum = 0.0
            var j = end &- 1
            for i in start..<end {
                let xi = data[i &* dim], yi = data[i &* dim &+ 1]
                let xj = data[j &* dim], yj = data[j &* dim &+ 1]
                sum += (xj - xi) * (yi + yj)
                j = i
            }
            var last = -1
            if clockwise == (sum > 0) {
                var i = start
                while i < end {
                    last = insertNode(i, data[i &* dim], data[i &* dim &+ 1], after: last)
                    i &+= 1
                }
            } else {
                var i = end &- 1
                while i >= start {
                    last = insertNode(i, data[i &* dim], data[i &* dim &+ 1], after: last)
                    i &-= 1
                }
            }
            let ln = next(last)
            if n[last].x == n[ln].x && n[last].y == n[ln].y {
                removeNode(last)
                last = ln
            }
            return last
        }
    }
}
