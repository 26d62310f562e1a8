// The walk along one cleaned polyline: caps, joins and the strip of segment quads between them.
// Conventions (MapLibre's): for a segment with unit direction d, its normal is N = (−d.y, d.x),
// which points to the right on a y-down screen. Every vertex pair is A = p + N + endA·d
// (right edge, ny = −1, direction = sign(endA)) and B = p − N + endB·d (left edge, ny = +1,
// direction = −sign(endB)); `end` shifts a vertex along the line (caps, inner bevel points).

import Foundation

extension LineTessellator {
    /// Layout values with their limits made safe to compute with.
    struct Settings {
        var join: LineJoin
        var cap: LineCap
        var miterLimit: Double
        var roundLimit: Double
        /// Distance (input units) of the extra pair on each side of a sharp corner; 0 = none.
        var sharpCornerOffset: Double = 0

        /// The limits as thresholds on s² = |n1 + n2|² = 4/miterLength², so that the common
        /// miter case needs no square root: miterLength ≤ L ⇔ s² ≥ 4/L².
        var miterLimitS2: Double
        var roundLimitS2: Double

        /// Miter lengths are never allowed past this many half widths (keeps Float32 finite).
        static let maxMiterLimit = 1e4

        init(join: LineJoin, cap: LineCap, miterLimit: Double, roundLimit: Double) {
            self.join = join
            self.cap = cap
            self.miterLimit = miterLimit.isNaN ? 2 : min(miterLimit, Self.maxMiterLimit)
            self.roundLimit = roundLimit.isNaN ? 1.05 : roundLimit
            miterLimitS2 = Self.s2Threshold(self.miterLimit)
            roundLimitS2 = Self.s2Threshold(self.roundLimit)
        }

        /// 4/L² for a miter-length limit L (∞ when L ≤ 0: no miter length is that short).
        static func s2Threshold(_ limit: Double) -> Double { limit > 0 ? 4 / (limit * limit) : .infinity }
    }

    /// s² thresholds of the fixed miter lengths 2 (inner miter point), 1.05 (bevel → miter) and
    /// the sharp-corner cosine.
    static let innerMiterS2 = 1.0
    static let bevelAsMiterS2 = 4 / (1.05 * 1.05)
    static let sharpCornerS2 = 4 * cosHalfSharpCorner * cosHalfSharpCorner

    /// Which parts of a join to emit: closed rings split the join at their first point.
    enum JoinPart {
        case full
        /// Only what starts the next segment (first point of a closed ring).
        case startOnly
        /// Everything except what starts the next segment's own cap (last point of a closed ring).
        case endOnly
    }

    /// The join geometry actually drawn at a vertex, after MapLibre's fallbacks.
    enum JoinKind {
        case miter
        case bevel
        case fakeround
        case roundCaps
    }

    /// Emits the triangles of one polyline; `points` holds `count` distinct finite points.
    struct Walker {
        let points: UnsafeBufferPointer<Double>
        let count: Int
        let originX: Double
        let originY: Double
        let settings: Settings

        /// The pair that starts the current segment quad, if any.
        private var openA: UInt32 = 0
        private var openB: UInt32 = 0
        private var isOpen = false
        /// Point and distance stamped on the vertices being emitted.
        private var pointX: Float = 0
        private var pointY: Float = 0
        private var pointDistance: Float = 0
        /// Length of the previous segment not yet used by a sharp-corner extra pair.
        private var prevRemaining = 0.0
        /// MapLibre's distance reset (see `LineTessellator.distanceResetLimit`): the limit, the
        /// running distance where the stamped distances last restarted, and the current point's
        /// running (unreset) distance.
        var resetLimit = Double.infinity
        private var distanceBase = 0.0
        private var pointRunning = 0.0

        init(points: UnsafeBufferPointer<Double>, count: Int, originX: Double, originY: Double,
             settings: Settings) {
            (self.points, self.count, self.originX, self.originY) = (points, count, originX, originY)
            self.settings = settings
        }

        // MARK: walks

        /// An open line: cap, joins at interior points, cap. Returns the line length.
        mutating func walkOpen(into out: inout LineGeometry) -> Double {
            var seg = segment(0, 1)
            var distance = 0.0
            setPoint(0, distance)
            cap(-seg.dy, seg.dx, end: false, into: &out)
            prevRemaining = seg.length
            walkJoins(1..<(count - 1), seg: &seg, distance: &distance, into: &out)
            distance += seg.length
            setPoint(count - 1, distance)
            cap(-seg.dy, seg.dx, end: true, into: &out)
            isOpen = false
            return distance
        }

        /// A closed ring: the join at the first point starts the first segment and closes the last.
        /// Distances start at the closing segment's length (MapLibre's); returns the last one.
        mutating func walkRing(into out: inout LineGeometry) -> Double {
            let closing = segment(count - 1, 0)
            let first = segment(0, 1)
            // MapLibre's line bucket enters a ring's first point from its last one, and counts
            // that closing segment: the distance starts at its length, not at 0.
            var distance = closing.length
            join(at: 0, distance: distance, -closing.dy, closing.dx, -first.dy, first.dx,
                 nextLength: first.length, part: .startOnly, into: &out)
            var seg = first
            walkJoins(1..<count, seg: &seg, distance: &distance, into: &out)
            distance += seg.length
            join(at: 0, distance: distance, -seg.dy, seg.dx, -first.dy, first.dx,
                 nextLength: first.length, part: .endOnly, into: &out)
            isOpen = false
            return distance
        }

        /// The full joins at `indices`, each between `seg` (the segment arriving at the point,
        /// `distance` = where it starts) and the next one (to the following point, the first
        /// after the last); leaves `seg` and `distance` at the last segment.
        private mutating func walkJoins(_ indices: Range<Int>, seg: inout (dx: Double, dy: Double, length: Double),
                                        distance: inout Double, into out: inout LineGeometry) {
            for i in indices {
                distance += seg.length
                let next = segment(i, i + 1 == count ? 0 : i + 1)
                join(at: i, distance: distance, -seg.dy, seg.dx, -next.dy, next.dx,
                     nextLength: next.length, part: .full, into: &out)
                seg = next
            }
        }

        /// Unit direction and length from point i to point j (distinct by construction).
        @inline(__always)
        private func segment(_ i: Int, _ j: Int) -> (dx: Double, dy: Double, length: Double) {
            let dx = points[2 * j] - points[2 * i]
            let dy = points[2 * j + 1] - points[2 * i + 1]
            let length = (dx * dx + dy * dy).squareRoot()
            return (dx / length, dy / length, length)
        }

        // MARK: joins

        /// The two normals at a join, n1 (incoming) and n2 (outgoing), and what they make.
        private struct Corner {
            let n1x: Double, n1y: Double, n2x: Double, n2y: Double
            /// n1 + n2 and s² = |n1 + n2|² = 4·cos²(θ/2) = 4/miterLength².
            let sx: Double, sy: Double, s2: Double
            /// Towards +N: the A side is inner.
            let turnsLeft: Bool
            let part: JoinPart

            init(_ n1x: Double, _ n1y: Double, _ n2x: Double, _ n2y: Double, part: JoinPart) {
                self.n1x = n1x; self.n1y = n1y; self.n2x = n2x; self.n2y = n2y
                sx = n1x + n2x; sy = n1y + n2y
                s2 = sx * sx + sy * sy
                turnsLeft = n1x * n2y - n1y * n2x > 0
                self.part = part
            }
        }

        /// Emits the join at point `index` between normals n1 (incoming) and n2 (outgoing), with
        /// MapLibre's extra vertex pairs around sharp corners.
        private mutating func join(at index: Int, distance: Double,
                                   _ n1x: Double, _ n1y: Double, _ n2x: Double, _ n2y: Double,
                                   nextLength: Double, part: JoinPart, into out: inout LineGeometry) {
            let px = points[2 * index], py = points[2 * index + 1]
            let c = Corner(n1x, n1y, n2x, n2y, part: part)
            let kind = joinKind(c.s2)

            let off = settings.sharpCornerOffset
            let sharp = off > 0 && c.s2 < LineTessellator.sharpCornerS2
            if sharp && part != .startOnly && prevRemaining > 2 * off {
                // Extra pair before the corner so dashes tilt only near it (d1 = (n1y, −n1x)).
                setPoint(px - n1y * off, py + n1x * off, distance - off)
                connectPair(n1x, n1y, 0, 0, round: false, into: &out)
            }
            setPoint(px, py, distance)

            switch kind {
            case .miter:
                let k = 2 / c.s2  // miter vector = unit bisector · miterLength = 2(n1 + n2)/|n1 + n2|²
                connectPair(c.sx * k, c.sy * k, 0, 0, round: false, into: &out)
            case .bevel where c.s2 < LineTessellator.innerMiterS2:
                flipBevelJoin(c, into: &out)
            case .bevel, .fakeround:
                innerMiterJoin(c, fakeround: kind == .fakeround, into: &out)
            case .roundCaps:
                roundCapsJoin(c, into: &out)
            }

            prevRemaining = nextLength
            if sharp && part != .endOnly && nextLength > 2 * off {
                // Extra pair after the corner (d2 = (n2y, −n2x)).
                setPoint(px + n2y * off, py - n2x * off, distance + off)
                connectPair(n2x, n2y, 0, 0, round: false, into: &out)
                prevRemaining = nextLength - off
            }
        }

        /// MapLibre's "flipbevel" (a bevel past miter length 2): two vertex pairs at the vertex,
        /// along J and then −J, J = perp(unit bisector)·bevelLength·(−1 when turning left, else 1),
        /// bevelLength = m·|n1 + n2|/|n1 − n2| = 1/sin(θ/2) (so J·n1 = 1 and −J·n2 = 1); past
        /// m = 100 (a U-turn) J = −n2. The incoming quad ends on the first pair, the outgoing one
        /// starts from the second (the quad between them is empty): both segments end on the chord
        /// through the vertex, which cuts the outer corner.
        private mutating func flipBevelJoin(_ c: Corner, into out: inout LineGeometry) {
            var jx = -c.n2x, jy = -c.n2y
            if c.s2 >= 4e-4 {
                let sl = c.s2.squareRoot()
                let dx = c.n1x - c.n2x, dy = c.n1y - c.n2y
                let bevelLength = (2 / sl) * sl / (dx * dx + dy * dy).squareRoot()
                let direction: Double = c.turnsLeft ? -1 : 1
                jx = -(c.sy / sl) * bevelLength * direction
                jy = (c.sx / sl) * bevelLength * direction
            }
            if c.part != .startOnly {
                connectPair(jx, jy, 0, 0, round: false, into: &out)
            }
            if c.part != .endOnly {
                connectPair(-jx, -jy, 0, 0, round: false, into: &out)
            }
        }

        /// A bevel or fake-round join up to miter length 2: the inner side shares the inner miter
        /// point (|e| = miterLength ≤ 2), shifted back along the incoming segment / forward along
        /// the outgoing one by sqrt(m² − 1); fake-round fills the outer side with a fan.
        private mutating func innerMiterJoin(_ c: Corner, fakeround: Bool, into out: inout LineGeometry) {
            let shift = -Swift.max(4 / c.s2 - 1, 0).squareRoot()
            let endA = c.turnsLeft ? shift : 0
            let endB = c.turnsLeft ? 0 : shift
            if c.part == .startOnly {
                connectPair(c.n2x, c.n2y, -endA, -endB, round: false, into: &out)
                return
            }
            var (ca, cb) = pair(c.n1x, c.n1y, endA, endB, round: false, into: &out)
            connect(ca, cb, into: &out)
            (ca, cb) = resetIfFar(ca, cb, into: &out)
            let inner = c.turnsLeft ? ca : cb
            var outer = c.turnsLeft ? cb : ca
            if fakeround {
                outer = fan(inner: inner, outer: outer, c.n1x, c.n1y, c.n2x, c.n2y, cosHalf: 0.5 * c.s2.squareRoot(),
                            turnsLeft: c.turnsLeft, into: &out)
            }
            if c.part == .full {
                let (sa, sb) = pair(c.n2x, c.n2y, -endA, -endB, round: false, into: &out)
                triangle(inner, outer, c.turnsLeft ? sb : sa, into: &out)
                setOpen(sa, sb)
                let (ra, rb) = resetIfFar(sa, sb, into: &out)
                setOpen(ra, rb)
            } else {
                let last = c.turnsLeft ? vertexB(c.n2x, c.n2y, -endB, round: false, into: &out)
                                       : vertexA(c.n2x, c.n2y, -endA, round: false, into: &out)
                triangle(inner, outer, last, into: &out)
            }
        }

        /// A round join past miter length 2: butt ends plus a round cap on each segment; the caps
        /// overlap at the vertex.
        private mutating func roundCapsJoin(_ c: Corner, into out: inout LineGeometry) {
            if c.part != .startOnly {
                connectPair(c.n1x, c.n1y, 0, 0, round: false, into: &out)
                connectPair(c.n1x, c.n1y, 1, 1, round: true, into: &out)
                isOpen = false
            }
            if c.part != .endOnly {
                connectPair(c.n2x, c.n2y, -1, -1, round: true, into: &out)
                connectPair(c.n2x, c.n2y, 0, 0, round: false, into: &out)
            }
        }

        /// MapLibre's choice of join geometry, from s² = 4/miterLength² (s² = 0: a U-turn).
        @inline(__always)
        private func joinKind(_ s2: Double) -> JoinKind {
            let miterOK = s2 > 0 && s2 >= settings.miterLimitS2  // miterLength ≤ miterLimit
            switch settings.join {
            case .miter:
                return miterOK ? .miter : .bevel
            case .bevel:
                return s2 > LineTessellator.bevelAsMiterS2 ? .miter : .bevel  // miterLength < 1.05
            case .round:
                if s2 > settings.roundLimitS2 { return miterOK ? .miter : .bevel }  // < roundLimit
                return s2 >= LineTessellator.innerMiterS2 ? .fakeround : .roundCaps  // ≤ 2
            }
        }

        /// Outer fan vertices of a fakeround join (one chord per ~20° of turn, evenly spaced);
        /// returns the last outer vertex.
        private mutating func fan(inner: UInt32, outer start: UInt32,
                                  _ n1x: Double, _ n1y: Double, _ n2x: Double, _ n2y: Double,
                                  cosHalf: Double, turnsLeft: Bool,
                                  into out: inout LineGeometry) -> UInt32 {
            // MapLibre's count: the turn angle estimated as 2·sqrt(2 − 2·cos(θ/2)), 20° per chord.
            let approxAngle = 2 * Swift.max(2 - 2 * cosHalf, 0).squareRoot()
            let steps = Int((approxAngle * (180 / Double.pi) / 20 + 0.5).rounded(.down))
            var outer = start
            guard steps > 1 else { return outer }
            let angle = atan2(n1x * n2y - n1y * n2x, n1x * n2x + n1y * n2y) / Double(steps)
            let c = cos(angle), s = sin(angle)
            var vx = n1x, vy = n1y
            for _ in 1..<steps {
                (vx, vy) = (c * vx - s * vy, s * vx + c * vy)
                let v = turnsLeft ? vertex(-vx, -vy, nx: 0, ny: 1, direction: 0, into: &out)
                                  : vertex(vx, vy, nx: 0, ny: -1, direction: 0, into: &out)
                triangle(inner, outer, v, into: &out)
                outer = v
            }
            return outer
        }

        // MARK: caps

        /// The vertex pairs at an open end: `end` false at the start (the cap reaches back along
        /// the line), true at the end.
        private mutating func cap(_ nx: Double, _ ny: Double, end: Bool, into out: inout LineGeometry) {
            let reach: Double = end ? 1 : -1
            switch settings.cap {
            case .butt:
                connectPair(nx, ny, 0, 0, round: false, into: &out)
            case .square:
                connectPair(nx, ny, reach, reach, round: false, into: &out)
            case .round:
                // The round pair lies beyond the butt pair: first at the start, last at the end.
                if !end { connectPair(nx, ny, reach, reach, round: true, into: &out) }
                connectPair(nx, ny, 0, 0, round: false, into: &out)
                if end { connectPair(nx, ny, reach, reach, round: true, into: &out) }
            }
        }

        // MARK: emission

        /// A vertex pair (see `pair`) that closes the open quad and opens the next one.
        @inline(__always)
        private mutating func connectPair(_ nx: Double, _ ny: Double, _ shiftA: Double, _ shiftB: Double, round: Bool,
                                          into out: inout LineGeometry) {
            let (a, b) = pair(nx, ny, shiftA, shiftB, round: round, into: &out)
            connect(a, b, into: &out)
            let (ra, rb) = resetIfFar(a, b, into: &out)
            setOpen(ra, rb)
        }

        /// MapLibre's distance reset after the vertex pair (a, b) of the current point: past the
        /// limit, the distance restarts at 0 and the pair is emitted again at 0 (returned; the
        /// quad between the two copies is empty, so it is not drawn). Otherwise (a, b).
        private mutating func resetIfFar(_ a: UInt32, _ b: UInt32, into out: inout LineGeometry) -> (UInt32, UInt32) {
            guard pointRunning - distanceBase > resetLimit else { return (a, b) }
            distanceBase = pointRunning
            pointDistance = 0
            var va = out.vertices[Int(a)], vb = out.vertices[Int(b)]
            va.distance = 0
            vb.distance = 0
            let index = UInt32(truncatingIfNeeded: out.vertices.count)
            out.vertices.append(va)
            out.vertices.append(vb)
            return (index, index + 1)
        }

        @inline(__always)
        private mutating func setPoint(_ index: Int, _ distance: Double) {
            setPoint(points[2 * index], points[2 * index + 1], distance)
        }

        @inline(__always)
        private mutating func setPoint(_ x: Double, _ y: Double, _ distance: Double) {
            pointX = Float(x - originX)
            pointY = Float(y - originY)
            pointRunning = distance
            pointDistance = Float(distance - distanceBase)
        }

        @inline(__always)
        private mutating func setOpen(_ a: UInt32, _ b: UInt32) {
            openA = a
            openB = b
            isOpen = true
        }

        /// Makes (a, b) the open pair, first closing the quad from the previous open pair.
        @inline(__always)
        private mutating func connect(_ a: UInt32, _ b: UInt32, into out: inout LineGeometry) {
            if isOpen {
                triangle(openA, openB, a, into: &out)
                triangle(openB, b, a, into: &out)
            }
            setOpen(a, b)
        }

        @inline(__always)
        private func triangle(_ i: UInt32, _ j: UInt32, _ k: UInt32, into out: inout LineGeometry) {
            out.indices.append(i)
            out.indices.append(j)
            out.indices.append(k)
        }

        @inline(__always)
        private func pair(_ nx: Double, _ ny: Double, _ endA: Double, _ endB: Double, round: Bool,
                          into out: inout LineGeometry) -> (UInt32, UInt32) {
            let a = vertexA(nx, ny, endA, round: round, into: &out)
            let b = vertexB(nx, ny, endB, round: round, into: &out)
            return (a, b)
        }

        /// p + N + end·d (right edge).
        @inline(__always)
        private func vertexA(_ nx: Double, _ ny: Double, _ end: Double, round: Bool,
                             into out: inout LineGeometry) -> UInt32 {
            let s = sign(end)
            return vertex(nx + ny * end, ny - nx * end, nx: round ? s : 0, ny: -1, direction: directionFlag(end), into: &out)
        }

        /// p − N + end·d (left edge).
        @inline(__always)
        private func vertexB(_ nx: Double, _ ny: Double, _ end: Double, round: Bool,
                             into out: inout LineGeometry) -> UInt32 {
            let s = sign(end)
            return vertex(-nx + ny * end, -ny - nx * end, nx: round ? s : 0, ny: 1, direction: -directionFlag(end), into: &out)
        }

        @inline(__always)
        private func sign(_ v: Double) -> Float { v > 0 ? 1 : (v < 0 ? -1 : 0) }

        /// `a_direction` for a shift `end` along the line: its sign (GL JS).
        @inline(__always)
        private func directionFlag(_ end: Double) -> Float { sign(end) }

        @inline(__always)
        private func vertex(_ ex: Double, _ ey: Double, nx: Float, ny: Float, direction: Float,
                            into out: inout LineGeometry) -> UInt32 {
            let index = UInt32(truncatingIfNeeded: out.vertices.count)
            out.vertices.append(LineVertex(x: pointX, y: pointY, ex: Float(ex), ey: Float(ey),
                                           nx: nx, ny: ny, distance: pointDistance, direction: direction))
            return index
        }
    }
}
