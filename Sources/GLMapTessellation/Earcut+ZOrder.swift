// Z-order (Morton) hashing of ring nodes, used by `isEarHashed` to visit only the nodes whose
// key lies within an ear's bounding-box key range (see Earcut.swift for the contract).
//
// Keys are 30-bit interleavings of x and y scaled to 0...32767 over the ring's bounding box.
// Nodes are sorted by key with a 3-pass LSD radix sort over packed (key << 32 | node) values
// (insertion sort for short rings). Sort stability does not matter: the set of nodes an ear
// check visits is exactly those with keys in [minZ, maxZ], whatever the order among equals.

extension Earcut.State {
    /// The z-order key of a point inside the hashing bounding box.
    @inline(__always)
    func zOrder(_ px: Double, _ py: Double) -> Int32 {
        // (p - min) * invSize lies in 0...32767 for points in the box (invSize is finite and
        // hashing is off unless the box extent is finite and positive); the clamp only guards
        // the conversion against overflowed arithmetic (NaN maps to 0)
        let sx = (px - minX) * invSize, sy = (py - minY) * invSize
        var x = UInt32(sx > 0 ? (sx < 32767 ? sx : 32767) : 0)
        var y = UInt32(sy > 0 ? (sy < 32767 ? sy : 32767) : 0)

        x = (x | (x << 8)) & 0x00FF_00FF
        x = (x | (x << 4)) & 0x0F0F_0F0F
        x = (x | (x << 2)) & 0x3333_3333
        x = (x | (x << 1)) & 0x5555_5555

        y = (y | (y << 8)) & 0x00FF_00FF
        y = (y | (y << 4)) & 0x0F0F_0F0F
        y = (y | (y << 2)) & 0x3333_3333
        y = (y | (y << 1)) & 0x5555_5555

        return Int32(bitPattern: x | (y << 1))
    }

    /// Computes every node's key and links the ring's nodes into a z-sorted list.
    mutating func indexCurve(_ start: Int) {
        // count the ring
        var count = 0
        var p = start
        repeat { count &+= 1; p = next(p) } while p != start

        if count > sortCapacity {
            sortA.deallocate()
            sortB.deallocate()
            let capacity = Swift.max(count, sortCapacity * 2)
            sortA = .allocate(capacity: capacity)
            sortB = .allocate(capacity: capacity)
            sortCapacity = capacity
        }

        let keys = sortA
        p = start
        var k = 0
        repeat {
            let z = zOrder(n[p].x, n[p].y)
            n[p].z = z
            keys[k] = UInt64(UInt32(bitPattern: z)) << 32 | UInt64(UInt32(truncatingIfNeeded: p))
            k &+= 1
            p = next(p)
        } while p != start

        let sorted = sortKeys(count)

        var prevNode: Int32 = -1
        for j in 0..<count {
            let node = Int(UInt32(truncatingIfNeeded: sorted[j]))
            n[node].prevZ = prevNode
            if prevNode >= 0 { n[Int(prevNode)].nextZ = Int32(truncatingIfNeeded: node) }
            prevNode = Int32(truncatingIfNeeded: node)
        }
        n[Int(prevNode)].nextZ = -1
    }

    /// Sorts `sortA[0..<count]` by key; returns the buffer holding the result.
    private func sortKeys(_ count: Int) -> UnsafeMutablePointer<UInt64> {
        if count <= 48 {
            let a = sortA
            var i = 1
            while i < count {
                let v = a[i]
                var j = i &- 1
                while j >= 0 && a[j] > v { a[j &+ 1] = a[j]; j &-= 1 }
                a[j &+ 1] = v
                i &+= 1
            }
            return a
        }
        // keys occupy bits 32..<62; three 10-bit digits
        var src = sortA, dst = sortB
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 1024) { counts in
            var shift: UInt64 = 32
            while shift < 62 {
                counts.initialize(repeating: 0)
                for i in 0..<count { counts[Int((src[i] >> shift) & 1023)] &+= 1 }
                var sum = 0
                for b in 0..<1024 { let c = counts[b]; counts[b] = sum; sum &+= c }
                for i in 0..<count {
                    let v = src[i]
                    let d = Int((v >> shift) & 1023)
                    dst[counts[d]] = v
                    counts[d] &+= 1
                }
                swap(&src, &dst)
                shift &+= 10
            }
        }
        return src
    }
}
