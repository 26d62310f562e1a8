import GLMapStyle

/// Builds the pieces of one line part (MapLibre's join and cap rules, exact shapes).
struct StrokeGeometry {
    var join: LineJoin
    var cap: LineCap
    var miterLimit: Double
    var roundLimit: Double
    /// `line-offset` in plane px (positive: to the right of the direction of travel).
    var offset: Double
    /// The outset (half the drawn width, including the antialiasing band) in plane px.
    var outset: Double
    /// MapLibre's extra vertex pair on each side of corners sharper than 75°, this far (plane px)
    /// from the corner, which bounds how far a join tilts the distance along the line; 0 = none.
    var sharpCornerOffset = 0.0
    /// Bodies also cover their GPU quads' triangles past their ends (see `StrokePiece.Body.quadOutset`).
    var foldedQuads = false

    private var pts: [Double] = []
    private var dirs: [Double] = []
    /// Distance along the line (input units, before `line-offset`) of each vertex of the last
    /// `append`, from its first point; a closed ring starts at its closing segment's length
    /// (MapLibre's) and repeats its first vertex at the end (index n) with that plus the ring's
    /// length. Sharp-corner stations follow the vertices.
    private(set) var vertexDistances: [Double] = []
    /// Distance at the end of the line of the last `append` (input units; a ring's includes its
    /// closing segment twice, see `vertexDistances`).
    private(set) var lineLength = 0.0
    /// Corner shifts of each vertex (see `Corner`).
    private var corners: [Corner] = []

    /// Where the vertex pairs of a join sit along its two segments, in outsets (MapLibre's rules):
    /// a miter puts both on the bisector, a bevel or fake-round join up to miter length 2 puts the
    /// inner one on the inner miter point and the outer one square, a sharper bevel (MapLibre's
    /// "flipbevel", `flip`) puts both on the chord through the vertex, sharper round joins and
    /// caps put both square.
    private struct Corner { var inA = 0.0, inB = 0.0, outA = 0.0, outB = 0.0, sharp = false, isJoin = false, flip = false }

    init(join: LineJoin, cap: LineCap, miterLimit: Double, roundLimit: Double, offset: Double, outset: Double) {
        self.join = join; self.cap = cap; self.miterLimit = miterLimit; self.roundLimit = roundLimit
        self.offset = offset; self.outset = outset
    }

    /// Appends the pieces of a polyline (plane px, flat) to `out`. `closed`: a polygon ring
    /// (joins all round, no caps); its closing repeat of the first point is optional.
    mutating func append(_ coords: [Double], closed: Bool, to out: inout [StrokePiece]) {
        loadPoints(coords, closed: closed)
        let n = pts.count / 2
        guard n >= 2 else { return }
        let line = Topology(n: n, closed: closed)
        measure(line)
        if offset != 0 { offsetCentreLine(line) }
        corners.removeAll(keepingCapacity: true)
        for v in 0..<n {
            guard let a = line.incoming(v), let b = line.outgoing(v) else { corners.append(Corner()); continue }
            corners.append(corner(dirs[2 * a], dirs[2 * a + 1], dirs[2 * b], dirs[2 * b + 1]))
        }
        let square = cap == .square && !closed
        for s in 0..<line.segCount { appendBodies(segment: s, line, squareEnds: square, to: &out) }
        for v in 0..<n {
            guard let a = line.incoming(v), let b = line.outgoing(v) else { continue }
            appendJoin(pts[2 * v], pts[2 * v + 1], dirs[2 * a], dirs[2 * a + 1], dirs[2 * b], dirs[2 * b + 1], vertex: v, to: &out)
        }
        if !closed {
            // Square caps are part of the end segments' bodies (as they are of MapLibre's quads).
            if !squareEnd(0, line, square) { appendCap(pts[0], pts[1], -dirs[0], -dirs[1], vertex: 0, to: &out) }
            let l = 2 * (line.segCount - 1)
            if !squareEnd(line.segCount - 1, line, square) {
                appendCap(pts[2 * n - 2], pts[2 * n - 1], dirs[l], dirs[l + 1], vertex: n - 1, to: &out)
            }
        }
    }

    /// Which segments meet at each vertex of the current line.
    private struct Topology {
        let n: Int
        let closed: Bool
        var segCount: Int { closed ? n : n - 1 }
        /// The segment ending at vertex v (nil at an open start).
        func incoming(_ v: Int) -> Int? { v > 0 ? v - 1 : (closed ? segCount - 1 : nil) }
        /// The segment starting at vertex v (nil at an open end).
        func outgoing(_ v: Int) -> Int? { v < segCount ? v : nil }
        /// The vertex segment s ends at.
        func end(_ s: Int) -> Int { (s + 1) % n }
    }

    /// `pts` = the finite points of `coords` without repeats (nor a ring's closing repeat).
    private mutating func loadPoints(_ coords: [Double], closed: Bool) {
        pts.removeAll(keepingCapacity: true)
        var i = 0
        while i + 1 < coords.count {
            let x = coords[i], y = coords[i + 1]
            i += 2
            guard x.isFinite, y.isFinite else { continue }
            if let ly = pts.last, pts[pts.count - 2] == x, ly == y { continue }
            pts.append(x); pts.append(y)
        }
        if closed {
            while pts.count >= 4 && pts[pts.count - 2] == pts[0] && pts[pts.count - 1] == pts[1] { pts.removeLast(2) }
        }
    }

    /// Segment directions (`dirs`), `vertexDistances` and `lineLength` of the line in `pts`.
    private mutating func measure(_ line: Topology) {
        dirs.removeAll(keepingCapacity: true)
        for s in 0..<line.segCount {
            let j = line.end(s)
            let dx = pts[2 * j] - pts[2 * s], dy = pts[2 * j + 1] - pts[2 * s + 1]
            let len = (dx * dx + dy * dy).squareRoot()
            dirs.append(dx / len); dirs.append(dy / len)
        }
        vertexDistances.removeAll(keepingCapacity: true)
        // A ring is entered from its last point: MapLibre counts the closing segment first.
        var travelled = 0.0
        if line.closed {
            let s = line.segCount - 1
            let dx = pts[0] - pts[2 * s], dy = pts[1] - pts[2 * s + 1]
            travelled = (dx * dx + dy * dy).squareRoot()
        }
        vertexDistances.append(travelled)
        for s in 0..<line.segCount {
            let j = line.end(s)
            let dx = pts[2 * j] - pts[2 * s], dy = pts[2 * j + 1] - pts[2 * s + 1]
            travelled += (dx * dx + dy * dy).squareRoot()
            vertexDistances.append(travelled)
        }
        lineLength = travelled
    }

    /// The offset centre line: each vertex moved along its miter vector (a parallel polyline),
    /// each component of that vector rounded as MapLibre's vertex byte stores the extrusion that
    /// `line-offset` reads (`LineTiling.storedExtrusion`).
    private mutating func offsetCentreLine(_ line: Topology) {
        var moved = pts
        for v in 0..<line.n {
            let a = line.incoming(v) ?? line.outgoing(v)!, b = line.outgoing(v) ?? a
            let n1x = -dirs[2 * a + 1], n1y = dirs[2 * a], n2x = -dirs[2 * b + 1], n2y = dirs[2 * b]
            let den = 1 + n1x * n2x + n1y * n2y
            let (mx, my) = den > 1e-6 ? ((n1x + n2x) / den, (n1y + n2y) / den) : (n2x, n2y)
            moved[2 * v] += offset * LineTiling.storedExtrusion(mx)
            moved[2 * v + 1] += offset * LineTiling.storedExtrusion(my)
        }
        pts = moved
    }

    /// Whether segment s has a positive length and carries a square cap at its open end.
    private func squareEnd(_ s: Int, _ line: Topology, _ square: Bool) -> Bool {
        guard square else { return false }
        let j = line.end(s)
        let len = (pts[2 * j] - pts[2 * s]) * dirs[2 * s] + (pts[2 * j + 1] - pts[2 * s + 1]) * dirs[2 * s + 1]
        return len > 0
    }

    /// The body pieces of segment s: one between each pair of consecutive stations, where the
    /// stations are its two vertex pairs and MapLibre's sharp-corner vertex pairs between them.
    /// `squareEnds`: an open line with square caps (the end segments reach one outset further).
    private mutating func appendBodies(segment s: Int, _ line: Topology, squareEnds square: Bool, to out: inout [StrokePiece]) {
        let j = line.end(s)
        let tx = dirs[2 * s], ty = dirs[2 * s + 1]
        let len = (pts[2 * j] - pts[2 * s]) * tx + (pts[2 * j + 1] - pts[2 * s + 1]) * ty
        guard len > 0 else { return }
        let c0 = corners[s], c1 = corners[j]
        let off = sharpCornerOffset
        let lo = square && s == 0 ? -outset : 0
        let hi = square && s == line.segCount - 1 ? len + outset : len
        // Stations: (along, a shift, b shift, vertex) where vertex pairs sit on this segment.
        var stations = [(lo, c0.outA, c0.outB, s)]
        let segLength = vertexDistances[s + 1] - vertexDistances[s]
        let after = off > 0 && c0.isJoin && c0.sharp && segLength > 2 * off
        if after {
            stations.append((off, 0, 0, vertexDistances.count))
            vertexDistances.append(vertexDistances[s] + off)
        }
        if off > 0 && c1.isJoin && c1.sharp && segLength - (after ? off : 0) > 2 * off {
            stations.append((len - off, 0, 0, vertexDistances.count))
            vertexDistances.append(vertexDistances[s + 1] - off)
        }
        stations.append((hi, c1.inA, c1.inB, s + 1))
        for k in 0..<(stations.count - 1) {
            let p = stations[k], q = stations[k + 1]
            guard q.0 > p.0 else { continue }
            // A body ending on a flip bevel's chord is its quad (the corners shifted opposite ways).
            let flipEnd = (k == 0 && c0.flip) || (k == stations.count - 2 && c1.flip)
            out.append(.body(StrokePiece.Body(x: pts[2 * s], y: pts[2 * s + 1], ax: tx, ay: ty, lo: p.0, hi: q.0,
                                              v0: p.3, v1: q.3, aLo: p.1, bLo: p.2, aHi: q.1, bHi: q.2,
                                              quadOutset: foldedQuads || flipEnd ? outset : 0, quadOnly: flipEnd)))
        }
    }

    /// The corner shifts of a join between directions t1 (in) and t2 (out).
    private func corner(_ t1x: Double, _ t1y: Double, _ t2x: Double, _ t2y: Double) -> Corner {
        var c = Corner()
        c.isJoin = true
        let n1x = -t1y, n1y = t1x, n2x = -t2y, n2y = t2x
        let s2 = (n1x + n2x) * (n1x + n2x) + (n1y + n2y) * (n1y + n2y)   // 4·cos²(θ/2)
        let miterLength = s2 > 0 ? 2 / s2.squareRoot() : Double.infinity
        c.sharp = s2 < 4 * Self.cosHalfSharpCorner * Self.cosHalfSharpCorner
        var kind = join
        if kind == .round && miterLength < roundLimit { kind = .miter }
        if kind == .miter && !(miterLength <= miterLimit) { kind = .bevel }
        if kind == .bevel && miterLength < 1.05 && join == .bevel { kind = .miter }
        switch kind {
        case .miter:
            // Both corners on the bisector: e = (n1 + n2)·2/s², so e·N = 1 on either segment.
            let ex = (n1x + n2x) * 2 / s2, ey = (n1y + n2y) * 2 / s2
            let in1 = ex * t1x + ey * t1y, out1 = ex * t2x + ey * t2y
            c.inA = in1; c.inB = -in1; c.outA = out1; c.outB = -out1
        case .bevel, .round:
            guard miterLength <= 2 else {
                if kind == .bevel { c.flip = true; flipShifts(n1x, n1y, n2x, n2y, t1x, t1y, t2x, t2y, into: &c) }
                break
            }
            // The inner corner on the inner miter point, sqrt(m² − 1) back along / forward.
            let shift = -(max(miterLength * miterLength - 1, 0)).squareRoot()
            let turnsRight = t1x * t2y - t1y * t2x > 0     // the a side (+N) is the inner side
            if turnsRight { c.inA = shift; c.outA = -shift } else { c.inB = shift; c.outB = -shift }
        }
        return c
    }

    /// cos(75°/2): joins whose half-angle cosine is below this are sharp corners.
    static let cosHalfSharpCorner = 0.7933533402912352

    /// MapLibre's "flipbevel" (a bevel past miter length 2): the incoming segment ends on the
    /// vertex pair ±J and the outgoing one starts on ∓J, J = perp(unit bisector of the normals) ·
    /// bevelLength · (−1 when the line turns left, else 1), bevelLength = m·|n1 + n2|/|n1 − n2|
    /// (J = −n2 past m = 100). J·n1 = 1 and −J·n2 = 1, so both pairs sit on the chord through the
    /// vertex; the shifts along each segment are J·t1 and −J·t2 (in outsets).
    private func flipShifts(_ n1x: Double, _ n1y: Double, _ n2x: Double, _ n2y: Double,
                            _ t1x: Double, _ t1y: Double, _ t2x: Double, _ t2y: Double, into c: inout Corner) {
        let sx = n1x + n2x, sy = n1y + n2y
        let s2 = sx * sx + sy * sy
        var jx = -n2x, jy = -n2y
        if s2 >= 4e-4 {
            let sl = s2.squareRoot()
            let dx = n1x - n2x, dy = n1y - n2y
            let bevelLength = (2 / sl) * sl / (dx * dx + dy * dy).squareRoot()
            let direction: Double = n1x * n2y - n1y * n2x > 0 ? -1 : 1
            jx = -(sy / sl) * bevelLength * direction
            jy = (sx / sl) * bevelLength * direction
        }
        let k1 = jx * t1x + jy * t1y, k2 = -(jx * t2x + jy * t2y)
        c.inA = k1; c.inB = -k1; c.outA = k2; c.outB = -k2
    }

    /// A cap at an open end; (tx, ty) points away from the line.
    private func appendCap(_ x: Double, _ y: Double, _ tx: Double, _ ty: Double, vertex: Int, to out: inout [StrokePiece]) {
        switch cap {
        case .butt: break
        case .square: out.append(.body(StrokePiece.Body(x: x, y: y, ax: tx, ay: ty, lo: 0, hi: outset, v0: vertex, v1: vertex)))
        case .round: out.append(.disc(StrokePiece.Disc(x: x, y: y, ax: tx, ay: ty, vertex: vertex)))
        }
    }

    /// The join at a vertex between directions t1 (in) and t2 (out), with MapLibre's choice of
    /// join: round below `roundLimit` and bevel below 1.05 become miter, miter above
    /// `miterLimit` becomes bevel (miter length = 1 / cos(θ/2)).
    private func appendJoin(_ x: Double, _ y: Double, _ t1x: Double, _ t1y: Double, _ t2x: Double, _ t2y: Double,
                            vertex v: Int, to out: inout [StrokePiece]) {
        let cross = t1x * t2y - t1y * t2x, dot = t1x * t2x + t1y * t2y
        if abs(cross) < 1e-12 && dot > 0 { return }           // straight on: the bodies meet exactly
        // Segment normals and the join normal (their bisector).
        let n1x = -t1y, n1y = t1x, n2x = -t2y, n2y = t2x
        var jx = n1x + n2x, jy = n1y + n2y
        let jl = (jx * jx + jy * jy).squareRoot()
        if jl > 0 { jx /= jl; jy /= jl }
        let cosHalf = jx * n2x + jy * n2y
        let miterLength = cosHalf != 0 ? 1 / abs(cosHalf) : Double.infinity
        var kind = join
        if kind == .round && miterLength < roundLimit { kind = .miter }
        if kind == .miter && miterLength > miterLimit { kind = .bevel }
        if kind == .bevel && miterLength < 1.05 && join == .bevel { kind = .miter }
        let s: Double = cross > 0 ? -1 : 1                    // outer normals point away from the turn
        let o1x = s * n1x, o1y = s * n1y, o2x = s * n2x, o2y = s * n2y
        var cone = StrokePiece.Cone(x: x, y: y, ax: o1x, ay: o1y, cx: o2x, cy: o2y, vertex: v)
        cone.side = s
        if kind == .round {
            if miterLength <= 2 && abs(cross) >= 1e-12 {
                // MapLibre's fake-round fan: the round outer corner between the segment ends.
                // Its fan of triangles starts at the inner miter point (m outsets inwards).
                var wedge = StrokePiece.Wedge(cone: cone)
                if foldedQuads {
                    let k = 2 / max(2 + 2 * (o1x * o2x + o1y * o2y), 1e-12)   // miter vector = (o1 + o2)·2/s²
                    wedge.mx = -(o1x + o2x) * k * outset
                    wedge.my = -(o1y + o2y) * k * outset
                    wedge.fanOutset = outset
                }
                out.append(.wedge(wedge))
            } else {
                // Sharper: a round cap past the end of each segment.
                out.append(.disc(StrokePiece.Disc(x: x, y: y, ax: t1x, ay: t1y, vertex: v)))
                out.append(.disc(StrokePiece.Disc(x: x, y: y, ax: -t2x, ay: -t2y, vertex: v)))
            }
            return
        }
        guard abs(cross) >= 1e-12 else { return }             // a U-turn: no outer side to fill
        if kind == .bevel && miterLength > 2 { return }         // flip bevel: the bodies end on its chord
        if kind == .miter {
            out.append(.miter(cone))
        } else {
            var bx = o1x + o2x, by = o1y + o2y
            let bl = (bx * bx + by * by).squareRoot()
            bx /= bl; by /= bl
            let c = bx * o1x + by * o1y
            out.append(.bevel(StrokePiece.Bevel(cone: cone, bx: bx, by: by, shift: outset * (1 - c))))
        }
    }
}
