// Z-order (Morton) hashing of ring nodes, used by `isEarHashed` to test only the nodes whose
// key lies within an ear's bounding-box key range (see Earcut.swift for the contract).
//
// Keys are 30-bit interleavings of x (even bits) and y (odd bits), scaled to 0...32767 over
// the merged ring's bounding box. Upstream threads a z-sorted linked list through the nodes;
// here the ring's nodes are copied into flat arrays sorted by key (keys, coordinates, ids),
// scanned outward from the ear's entry through contiguous memory; after a run of keys whose
// cell lies outside the ear's cell box, a cursor jumps to the next key inside it (BIGMIN /
// LITMAX, Tropf and Herzog 1981) with a galloping search. A removed node stays in the arrays
// with x = NaN, which fails every box test; the arrays are compacted when enough of them is
// dead. The set of nodes that can block an ear is the same as upstream's (every live node of
// the ring whose point is in the ear's box), so the answer is identical; only the order of
// the tests differs, which cannot change a yes/no answer. The same holds for the blocker
// cache: a node that blocked the ear before, and still does, gives the same "no".

extension Earcut.State {
    static let zMaskX: UInt32 = 0x5555_5555
    static let zMaskY: UInt32 = 0xAAAA_AAAA
    /// Out-of-box keys a cursor steps over one by one before it computes a jump (tuned on the
    /// fixtures with callgrind: 4 to 8 is best; jumping at once costs more than it saves).
    static let missesBeforeJump = 4
    /// The arrays are compacted once more than `compactMin` entries and over 1/`compactFrac`
    /// of them are removed nodes.
    static let compactMin = 16
    static let compactFrac = 3

    /// The z-order key of a point inside the hashing bounding box.
    @inline(__always)
    func zOrder(_ px: Double, _ py: Double) -> UInt32 {
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

        return x | (y << 1)
    }

    /// Lists the ring's nodes in the z-order arrays, sorted by key, and sets their `zpos`.
    mutating func indexCurve(_ start: Int) {
        var count = 0
        var p = start
        repeat { count &+= 1; p = next(p) } while p != start

        if count > sortCapacity {
            let capacity = Swift.max(count, sortCapacity * 2)
            if sortCapacity > 0 {
                sortA.deallocate(); sortB.deallocate()
                zKeys.deallocate(); zXY.deallocate(); zNode.deallocate()
            }
            sortA = .allocate(capacity: capacity)
            sortB = .allocate(capacity: capacity)
            zKeys = .allocate(capacity: capacity)
            zXY = .allocate(capacity: capacity * 2)
            zNode = .allocate(capacity: capacity)
            sortCapacity = capacity
        }

        let keys = sortA
        p = start
        var k = 0
        repeat {
            let z = zOrder(n[p].x, n[p].y)
            n[p].z = Int32(bitPattern: z)
            keys[k] = UInt64(z) << 32 | UInt64(UInt32(truncatingIfNeeded: p))
            k &+= 1
            p = next(p)
        } while p != start

        let sorted = sortKeys(count)
        for j in 0..<count {
            let v = sorted[j]
            let node = Int(UInt32(truncatingIfNeeded: v))
            zKeys[j] = UInt32(truncatingIfNeeded: v >> 32)
            zXY[j &* 2] = n[node].x
            zXY[j &* 2 &+ 1] = n[node].y
            zNode[j] = Int32(truncatingIfNeeded: node)
            n[node].zpos = Int32(truncatingIfNeeded: j)
        }
        zCount = count
        zDead = 0
    }

    /// Drops removed nodes from the z-order arrays (keeping the order) and updates `zpos`.
    mutating func compactCurve() {
        var w = 0
        for r in 0..<zCount {
            let x = zXY[r &* 2]
            if x.isNaN { continue }
            let node = zNode[r]
            zKeys[w] = zKeys[r]
            zXY[w &* 2] = x
            zXY[w &* 2 &+ 1] = zXY[r &* 2 &+ 1]
            zNode[w] = node
            n[Int(node)].zpos = Int32(truncatingIfNeeded: w)
            w &+= 1
        }
        zCount = w
        zDead = 0
    }

    /// Whether `ear` (known convex) is an ear, testing only nodes with keys in the ear's range.
    ///
    /// Scans outward from the ear's own entry in both directions at once (nodes that block an
    /// ear are usually close to it), stopping at minZ / maxZ; after a run of keys whose cell is
    /// outside the ear's cell box, a cursor jumps to the next key inside the box.
    ///
    /// Longer than the house's ~80 lines on purpose: this is the triangulator's hottest loop, and
    /// the downward and upward scans mirror each other inline (as upstream earcut's isEarHashed
    /// scans both directions in one function) rather than through a per-step call with a
    /// direction parameter.
    mutating func isEarHashed(_ ear: Int) -> Bool {
        let a = prev(ear), c = next(ear)
        let ax = n[a].x, ay = n[a].y, bx = n[ear].x, by = n[ear].y, cx = n[c].x, cy = n[c].y
        let x0 = Swift.min(ax, Swift.min(bx, cx)), y0 = Swift.min(ay, Swift.min(by, cy))
        let x1 = Swift.max(ax, Swift.max(bx, cx)), y1 = Swift.max(ay, Swift.max(by, cy))
        let minZ = zOrder(x0, y0), maxZ = zOrder(x1, y1)
        let loX = minZ & Self.zMaskX, hiX = maxZ & Self.zMaskX
        let loY = minZ & Self.zMaskY, hiY = maxZ & Self.zMaskY
        let keys = zKeys, xy = zXY, count = zCount

        // The node that blocked this ear last time still blocks it if the ear's triangle is the
        // same and that node is still in this ring's arrays (not removed) and still reflex:
        // then the answer is known without scanning.
        let triangle = UInt64(UInt32(truncatingIfNeeded: a)) << 32 | UInt64(UInt32(truncatingIfNeeded: c))
        if blockedTriangle[ear] == triangle {
            let p = Int(blocker[ear])
            let zp = Int(n[p].zpos)
            if zp >= 0 && zp < count && Int(zNode[zp]) == p && !xy[zp &* 2].isNaN && area(prev(p), p, next(p)) >= 0 {
                return false
            }
        }
        let skipFirst = true   // as in isEar
        let blockerSlot = blocker + ear
        let triangleSlot = blockedTriangle + ear

        /// Whether entry i blocks the ear (its point is in the triangle and its corner is reflex).
        @inline(__always) func blocks(_ i: Int) -> Bool {
            let px = xy[i &* 2], py = xy[i &* 2 &+ 1]
            guard px >= x0 && px <= x1 && py >= y0 && py <= y1 else { return false } // NaN = removed
            let p = Int(zNode[i])
            if p != c && (skipFirst ? !(ax == px && ay == py) : p != a) &&
                Earcut.pointInTriangle(ax, ay, bx, by, cx, cy, px, py) && area(prev(p), p, next(p)) >= 0 {
                blockerSlot.pointee = Int32(truncatingIfNeeded: p)
                triangleSlot.pointee = triangle
                return true
            }
            return false
        }

        let k = Int(n[ear].zpos)
        var down = k &- 1, up = k &+ 1
        var downMisses = 0, upMisses = 0
        var downDone = down < 0, upDone = up >= count
        while !(downDone && upDone) {
            if !downDone {
                let z = keys[down]
                if z < minZ {
                    downDone = true
                } else {
                    let zx = z & Self.zMaskX, zy = z & Self.zMaskY
                    if zx >= loX && zx <= hiX && zy >= loY && zy <= hiY {
                        downMisses = 0
                        if blocks(down) { return false }
                        down &-= 1
                    } else {
                        downMisses &+= 1
                        if downMisses < Self.missesBeforeJump {
                            down &-= 1
                        } else {
                            downMisses = 0
                            if let target = Self.previousKeyInBox(before: z, minZ, maxZ) {
                                down = Self.lastAtOrBelow(keys, from: down &- 1, key: target)
                            } else {
                                down = -1
                            }
                        }
                    }
                    if down < 0 { downDone = true }
                }
            }
            if !upDone {
                let z = keys[up]
                if z > maxZ {
                    upDone = true
                } else {
                    let zx = z & Self.zMaskX, zy = z & Self.zMaskY
                    if zx >= loX && zx <= hiX && zy >= loY && zy <= hiY {
                        upMisses = 0
                        if blocks(up) { return false }
                        up &+= 1
                    } else {
                        upMisses &+= 1
                        if upMisses < Self.missesBeforeJump {
                            up &+= 1
                        } else {
                            upMisses = 0
                            let target = Self.nextKeyInBox(after: z, minZ, maxZ)
                            up = target > maxZ ? count : Self.firstAtOrAbove(keys, from: up &+ 1, count: count, key: target)
                        }
                    }
                    if up >= count { upDone = true }
                }
            }
        }
        return true
    }

    /// First index in keys[from..<count] whose key is >= `key`, or `count` (galloping search).
    @inline(__always)
    static func firstAtOrAbove(_ keys: UnsafeMutablePointer<UInt32>, from: Int, count: Int, key: UInt32) -> Int {
        var lo = from &- 1 // keys[lo] < key (or lo is before the range)
        var step = 1
        var hi = from
        while hi < count && keys[hi] < key {
            lo = hi
            hi = lo &+ step
            step &<<= 1
        }
        if hi > count { hi = count }
        while hi &- lo > 1 {
            let mid = (lo &+ hi) >> 1
            if keys[mid] >= key { hi = mid } else { lo = mid }
        }
        return hi
    }

    /// Last index in keys[0...from] whose key is <= `key`, or -1 (galloping search).
    @inline(__always)
    static func lastAtOrBelow(_ keys: UnsafeMutablePointer<UInt32>, from: Int, key: UInt32) -> Int {
        var hi = from &+ 1 // keys[hi] > key (or hi is past the range)
        var step = 1
        var lo = from
        while lo >= 0 && keys[lo] > key {
            hi = lo
            lo = hi &- step
            step &<<= 1
        }
        if lo < -1 { lo = -1 }
        while hi &- lo > 1 {
            let mid = (lo &+ hi) >> 1
            if keys[mid] <= key { lo = mid } else { hi = mid }
        }
        return lo
    }

    /// BIGMIN: the smallest key greater than `z` whose cell lies in the box spanned by the
    /// keys `minZ` (low corner) and `maxZ` (high corner), for minZ <= z <= maxZ with z's
    /// cell outside the box. Returns maxZ + 1 when there is none.
    static func nextKeyInBox(after z: UInt32, _ minZ: UInt32, _ maxZ: UInt32) -> UInt32 {
        var lo = minZ, hi = maxZ
        var result = maxZ &+ 1
        var bit = 31 &- (lo ^ hi).leadingZeroBitCount
        while bit >= 0 {
            let m: UInt32 = 1 << UInt32(bit)
            let same = (bit & 1 == 0 ? zMaskX : zMaskY) & (m &- 1) // lower bits of bit's dimension
            let zb = z & m != 0, lb = lo & m != 0, hb = hi & m != 0
            if !zb {
                if hb {
                    if lb { return lo } // the rest of the box lies above z
                    // the box straddles: remember the upper half's low corner, go on in the lower half
                    result = (lo | m) & ~same
                    hi = (hi & ~m) | same
                } else if lb {
                    return z &+ 1 // cannot happen while lo <= hi; advance minimally to stay safe
                }
            } else if !lb {
                if !hb { return result } // z is past the box: take the remembered candidate
                lo = (lo | m) & ~same // go on in the upper half
            } else if !hb {
                return z &+ 1 // cannot happen while lo <= hi
            }
            bit &-= 1
        }
        return result
    }

    /// LITMAX: the largest key smaller than `z` whose cell lies in the box spanned by `minZ`
    /// and `maxZ` (mirror of `nextKeyInBox`); nil when there is none.
    static func previousKeyInBox(before z: UInt32, _ minZ: UInt32, _ maxZ: UInt32) -> UInt32? {
        var lo = minZ, hi = maxZ
        var result: UInt32? = nil
        var bit = 31 &- (lo ^ hi).leadingZeroBitCount
        while bit >= 0 {
            let m: UInt32 = 1 << UInt32(bit)
            let same = (bit & 1 == 0 ? zMaskX : zMaskY) & (m &- 1)
            let zb = z & m != 0, lb = lo & m != 0, hb = hi & m != 0
            if zb {
                if !lb {
                    if !hb { return hi } // the rest of the box lies below z
                    // the box straddles: remember the lower half's high corner, go on in the upper half
                    result = (hi & ~m) | same
                    lo = (lo | m) & ~same
                } else if !hb {
                    return z == 0 ? nil : z &- 1 // cannot happen while lo <= hi
                }
            } else if hb {
                if lb { return result } // z is before the box: take the remembered candidate
                hi = (hi & ~m) | same // go on in the lower half
            } else if lb {
                return z == 0 ? nil : z &- 1 // cannot happen while lo <= hi
            }
            bit &-= 1
        }
        return result
    }

    /// Sorts `sortA[0..<count]` by key; returns the buffer holding the result.
    private mutating func sortKeys(_ count: Int) -> UnsafeMutablePointer<UInt64> {
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
        // LSD radix sort on the key (bits 32..<62) in 8-bit digits, skipping digits that
        // are the same in every key (common: a small ring spans few high bits)
        var same = UInt64.max, any: UInt64 = 0
        for i in 0..<count { same &= sortA[i]; any |= sortA[i] }
        let varying = same ^ any
        var src = sortA, dst = sortB
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 256) { counts in
            var shift: UInt64 = 32
            while shift < 64 {
                defer { shift &+= 8 }
                if (varying >> shift) & 255 == 0 { continue }
                counts.initialize(repeating: 0)
                for i in 0..<count { counts[Int((src[i] >> shift) & 255)] &+= 1 }
                var sum: Int32 = 0
                for b in 0..<256 { let c = counts[b]; counts[b] = sum; sum &+= c }
                for i in 0..<count {
                    let v = src[i]
                    let d = Int((v >> shift) & 255)
                    dst[Int(counts[d])] = v
                    counts[d] &+= 1
                }
                swap(&src, &dst)
            }
        }
        return src
    }
}
