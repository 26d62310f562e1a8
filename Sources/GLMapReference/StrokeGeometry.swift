import GLMapStyle

/// One convex piece of a stroked line, with the distance function the line ramp reads.
///
/// A stroke is the union of its pieces: a body per segment (points whose projection falls on the
/// segment; distance = perpendicular distance to the centre line), a join per interior vertex
/// (miter: the cone between the two outer normals, distance = the larger of the two
/// perpendicular distances, so the corner is sharp; bevel: the same cone cut by the chord,
/// distance measured perpendicular to the chord, and past miter length 2 MapLibre's flip bevel:
/// no join piece, the two bodies end on the chord through the vertex; round: that cone of a
/// disc, or up to miter length 2, or past it a half disc beyond each segment end) and a cap at each open end
/// (square: the end segment's body extended by the outset; round: a half disc; butt: nothing). Plane units (world
/// CSS pixels at the view's zoom).
struct StrokePiece {
    enum Kind { case body, disc, wedge, miter, bevel }
    var kind: Kind
    /// Anchor: segment start, disc centre or join vertex.
    var x, y: Double
    /// body: unit direction; joins: first outer normal.
    var ax, ay: Double
    /// joins: second outer normal; bevel: (bx, by) is the unit bisector.
    var bx = 0.0, by = 0.0, cx = 0.0, cy = 0.0
    /// body: the range along the direction; bevel: `lo` is the chord shift outset·(1 − cos½θ).
    var lo = 0.0, hi = 0.0
    /// Line vertices (indices into `StrokeGeometry.vertexDistances`) whose distance along the
    /// line the piece carries: a segment body runs from `v0` (at `lo`) to `v1` (at `hi`); joins
    /// and caps have the distance of their vertex (`v0 == v1`).
    var v0 = 0, v1 = 0
    /// body: shifts along the line of the quad corners at `lo` and `hi`, in outsets (a: right, b: left).
    var aLo = 0.0, bLo = 0.0, aHi = 0.0, bHi = 0.0
    /// body: the piece also covers the parts of its quad's two triangles beyond `lo`…`hi` (a
    /// folded quad of a short segment reaches past its ends on the GPU); `quadOutset` is the
    /// outset its corners are placed at (0: rectangle only).
    var quadOutset = 0.0
    /// body: the piece is its quad alone, not the rectangle `lo`…`hi` too (an end on a flip-bevel
    /// chord, whose corners are shifted along the line in opposite directions).
    var quadOnly = false
    /// wedge: MapLibre's fan starts at the inner miter point (mx, my), so the piece also covers
    /// the cone from there through the two outer corners (mx − x, my − y = offset of the apex).
    var mx = 0.0, my = 0.0

    /// How far along the piece (0…1 from `v0` to `v1`) a point inside it lies. Bodies interpolate
    /// the way MapLibre's line triangles carry the distance: the quad between the vertex pairs at
    /// `lo` and `hi` (corners `outset` across the line, shifted along it by `outset` times the
    /// `aLo`, `bLo`, `aHi`, `bHi` shifts of the right (a) and left (b) corners) is cut along its
    /// diagonal from the left `lo` corner to the right `hi` corner, and the progress is affine
    /// in each of the two triangles. With unshifted corners that is the plain projection.
    /// A quad folded over itself (a segment shorter than its joins' inner reach) has two
    /// triangles over some points: then both values are returned (`second`), as both are drawn.
    /// Points of the body outside both triangles take the nearer triangle's value, clamped.
    @inline(__always)
    func progress(_ px: Double, _ py: Double, outset o: Double) -> (first: Double, second: Double?) {
        guard kind == .body, v0 != v1, hi > lo else { return (0, nil) }
        let ux = px - x, uy = py - y
        let u = ux * ax + uy * ay
        if aLo == 0 && bLo == 0 && aHi == 0 && bHi == 0 {
            return (min(max((u - lo) / (hi - lo), 0), 1), nil)
        }
        let v = ux * -ay + uy * ax                      // + towards the right (a) side
        // Corners in (along, across) coordinates: a0 (lo, right), b0 (lo, left), a1, b1.
        let a0 = (lo + o * aLo, o), b0 = (lo + o * bLo, -o), a1 = (hi + o * aHi, o), b1 = (hi + o * bHi, -o)
        let p = (u, v)
        @inline(__always) func cross(_ s: (Double, Double), _ t: (Double, Double), _ q: (Double, Double)) -> Double {
            (t.0 - s.0) * (q.1 - s.1) - (t.1 - s.1) * (q.0 - s.0)
        }
        // Triangle (a0, b0, a1): 0 on the edge a0–b0, 1 at a1.
        let den1 = cross(a0, b0, a1)
        let f1 = den1 != 0 ? cross(a0, b0, p) / den1 : 0
        // Triangle (b0, b1, a1): 1 on the edge b1–a1, 0 at b0.
        let den2 = cross(b1, a1, b0)
        let f2 = den2 != 0 ? 1 - cross(b1, a1, p) / den2 : 1
        @inline(__always) func inside(_ s: (Double, Double), _ t: (Double, Double), _ q: (Double, Double)) -> Bool {
            let c1 = cross(s, t, p), c2 = cross(t, q, p), c3 = cross(q, s, p)
            return (c1 >= 0 && c2 >= 0 && c3 >= 0) || (c1 <= 0 && c2 <= 0 && c3 <= 0)
        }
        let in1 = inside(a0, b0, a1), in2 = inside(b0, b1, a1)
        if in1 && in2 { return (min(max(f1, 0), 1), min(max(f2, 0), 1)) }
        if in1 { return (min(max(f1, 0), 1), nil) }
        if in2 { return (min(max(f2, 0), 1), nil) }
        // Outside both: the triangle on the point's side of the diagonal b0 → a1.
        let side = cross(b0, a1, p), sideA0 = cross(b0, a1, a0)
        return (min(max(side * sideA0 >= 0 ? f1 : f2, 0), 1), nil)
    }

    /// Distance across the line (plane px, unsigned) of a point inside the piece: perpendicular
    /// to the segment for bodies and caps (a cap disc keeps its segment direction in ax, ay),
    /// the distance from the vertex for join discs and the join distance for miters and bevels.
    @inline(__always)
    func across(_ px: Double, _ py: Double, distance d: Double) -> Double {
        switch kind {
        case .body, .disc:
            guard ax != 0 || ay != 0 else { return d }
            return abs((px - x) * -ay + (py - y) * ax)
        case .wedge, .miter, .bevel:
            return d
        }
    }

    /// Distance from the centre line (plane px) and the unit direction it grows in, or nil when
    /// (px, py) is outside the piece's region.
    @inline(__always)
    func distance(_ px: Double, _ py: Double) -> (d: Double, gx: Double, gy: Double)? {
        let ux = px - x, uy = py - y
        switch kind {
        case .body:
            let along = ux * ax + uy * ay
            guard !quadOnly && along >= lo && along <= hi || quadOutset > 0 && inQuad(along, ux * -ay + uy * ax) else { return nil }
            let s = ux * -ay + uy * ax
            return s >= 0 ? (s, -ay, ax) : (-s, ay, -ax)
        case .disc:
            // A cap's half disc (ax, ay: outwards) or a whole disc (ax = ay = 0).
            guard ux * ax + uy * ay >= 0 else { return nil }
            let d = (ux * ux + uy * uy).squareRoot()
            return d > 0 ? (d, ux / d, uy / d) : (0, 1, 0)
        case .wedge:
            guard inCone(ux, uy) || inFan(ux, uy) else { return nil }
            let d = (ux * ux + uy * uy).squareRoot()
            return d > 0 ? (d, ux / d, uy / d) : (0, 1, 0)
        case .miter:
            guard inCone(ux, uy) else { return nil }
            let d1 = ux * ax + uy * ay, d2 = ux * cx + uy * cy
            return d1 >= d2 ? (d1, ax, ay) : (d2, cx, cy)
        case .bevel:
            guard inCone(ux, uy) else { return nil }
            return (ux * bx + uy * by + lo, bx, by)
        }
    }

    /// Whether u (relative to the join vertex) lies in the cone from the fan's apex (mx, my)
    /// through the outer corners, within the outset of the vertex.
    @inline(__always)
    private func inFan(_ ux: Double, _ uy: Double) -> Bool {
        guard mx != 0 || my != 0, quadOutset > 0 else { return false }
        let o = quadOutset
        let r1x = ax * o - mx, r1y = ay * o - my, r2x = cx * o - mx, r2y = cy * o - my
        let px = ux - mx, py = uy - my
        let s = r1x * r2y - r1y * r2x
        let c1 = r1x * py - r1y * px, c2 = px * r2y - py * r2x
        return s >= 0 ? (c1 >= 0 && c2 >= 0) : (c1 <= 0 && c2 <= 0)
    }

    /// Whether (along, across) lies in one of the body quad's triangles (see `progress`).
    private func inQuad(_ u: Double, _ v: Double) -> Bool {
        let o = quadOutset
        guard abs(v) <= o else { return false }
        let a0 = (lo + o * aLo, o), b0 = (lo + o * bLo, -o), a1 = (hi + o * aHi, o), b1 = (hi + o * bHi, -o)
        let p = (u, v)
        @inline(__always) func cross(_ s: (Double, Double), _ t: (Double, Double)) -> Double {
            (t.0 - s.0) * (p.1 - s.1) - (t.1 - s.1) * (p.0 - s.0)
        }
        @inline(__always) func inside(_ s: (Double, Double), _ t: (Double, Double), _ q: (Double, Double)) -> Bool {
            let c1 = cross(s, t), c2 = cross(t, q), c3 = cross(q, s)
            return (c1 >= 0 && c2 >= 0 && c3 >= 0) || (c1 <= 0 && c2 <= 0 && c3 <= 0)
        }
        return inside(a0, b0, a1) || inside(b0, b1, a1)
    }

    /// Whether u lies in the cone spanned by the outer normals (ax, ay) and (cx, cy) (< 180°).
    @inline(__always)
    private func inCone(_ ux: Double, _ uy: Double) -> Bool {
        let s = ax * cy - ay * cx
        let c1 = ax * uy - ay * ux, c2 = ux * cy - uy * cx
        return s >= 0 ? (c1 >= 0 && c2 >= 0) : (c1 <= 0 && c2 <= 0)
    }

    /// A plane box containing the piece's region for distances ≤ r (no allocation).
    func bounds(_ r: Double) -> (lx: Double, ly: Double, hx: Double, hy: Double) {
        var lx = x, ly = y, hx = x, hy = y
        @inline(__always) func add(_ px: Double, _ py: Double) {
            lx = min(lx, px); ly = min(ly, py); hx = max(hx, px); hy = max(hy, py)
        }
        switch kind {
        case .body:
            let nx = -ay * r, ny = ax * r
            let q = quadOutset
            let l = q > 0 ? min(lo, lo + q * min(aLo, bLo), hi + q * min(aHi, bHi)) : lo
            let h = q > 0 ? max(hi, hi + q * max(aHi, bHi), lo + q * max(aLo, bLo)) : hi
            let sx = x + ax * l, sy = y + ay * l, ex = x + ax * h, ey = y + ay * h
            add(sx + nx, sy + ny); add(sx - nx, sy - ny); add(ex + nx, ey + ny); add(ex - nx, ey - ny)
        case .disc, .wedge:
            add(x - r, y - r); add(x + r, y + r)
        case .miter:
            let k = r / max(1 + ax * cx + ay * cy, 1e-9)
            add(x + ax * r, y + ay * r); add(x + cx * r, y + cy * r); add(x + (ax + cx) * k, y + (ay + cy) * k)
        case .bevel:
            add(x + ax * r, y + ay * r); add(x + cx * r, y + cy * r)
        }
        return (lx, ly, hx, hy)
    }
}

/// Builds the pieces of one line part (MapLibre's join and cap rules, exact shapes).
struct StrokeGeometry {
    var join: LineJoinStyle
    var cap: LineCapStyle
    var miterLimit: Double
    var roundLimit: Double
    /// `line-offset` in plane px (positive: to the right of the direction of travel).
    var offset: Double
    /// The outset (half the drawn width, including the antialiasing band) in plane px.
    var outset: Double
    /// MapLibre's extra vertex pair on each side of corners sharper than 75°, this far (plane px)
    /// from the corner, which bounds how far a join tilts the distance along the line; 0 = none.
    var sharpCornerOffset = 0.0
    /// Bodies also cover their GPU quads' triangles past their ends (see `StrokePiece.quadOutset`).
    var foldedQuads = false

    private var pts: [Double] = []
    private var dirs: [Double] = []
    /// Distance along the line (input units, before `line-offset`) of each vertex of the last
    /// `append`, from its first point; a closed ring repeats its first vertex at the end (index
    /// n) with the ring's full length. Sharp-corner stations follow the vertices.
    private(set) var vertexDistances: [Double] = []
    /// Length of the line of the last `append` (input units).
    private(set) var lineLength = 0.0
    /// Corner shifts of each vertex (see `Corner`).
    private var corners: [Corner] = []

    /// Where the vertex pairs of a join sit along its two segments, in outsets (MapLibre's rules):
    /// a miter puts both on the bisector, a bevel or fake-round join up to miter length 2 puts the
    /// inner one on the inner miter point and the outer one square, a sharper bevel (MapLibre's
    /// "flipbevel", `flip`) puts both on the chord through the vertex, sharper round joins and
    /// caps put both square.
    private struct Corner { var inA = 0.0, inB = 0.0, outA = 0.0, outB = 0.0, sharp = false, isJoin = false, flip = false }

    init(join: LineJoinStyle, cap: LineCapStyle, miterLimit: Double, roundLimit: Double, offset: Double, outset: Double) {
        self.join = join; self.cap = cap; self.miterLimit = miterLimit; self.roundLimit = roundLimit
        self.offset = offset; self.outset = outset
    }

    /// Appends the pieces of a polyline (plane px, flat) to `out`. `closed`: a polygon ring
    /// (joins all round, no caps); its closing repeat of the first point is optional.
    mutating func append(_ coords: [Double], closed: Bool, to out: inout [StrokePiece]) {
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
        let n = pts.count / 2
        guard n >= 2 else { return }
        let segCount = closed ? n : n - 1
        dirs.removeAll(keepingCapacity: true)
        for s in 0..<segCount {
            let j = (s + 1) % n
            let dx = pts[2 * j] - pts[2 * s], dy = pts[2 * j + 1] - pts[2 * s + 1]
            let len = (dx * dx + dy * dy).squareRoot()
            dirs.append(dx / len); dirs.append(dy / len)
        }
        vertexDistances.removeAll(keepingCapacity: true)
        var travelled = 0.0
        vertexDistances.append(0)
        for s in 0..<segCount {
            let j = (s + 1) % n
            let dx = pts[2 * j] - pts[2 * s], dy = pts[2 * j + 1] - pts[2 * s + 1]
            travelled += (dx * dx + dy * dy).squareRoot()
            vertexDistances.append(travelled)
        }
        lineLength = travelled
        var squareStart = false, squareEnd = false
        // Incoming / outgoing segment of vertex v (nil at open ends).
        func incoming(_ v: Int) -> Int? { v > 0 ? v - 1 : (closed ? segCount - 1 : nil) }
        func outgoing(_ v: Int) -> Int? { v < segCount ? v : nil }

        // The offset centre line: each vertex moved along its miter vector (exact parallel polyline).
        if offset != 0 {
            var moved = pts
            for v in 0..<n {
                let a = incoming(v) ?? outgoing(v)!, b = outgoing(v) ?? a
                let n1x = -dirs[2 * a + 1], n1y = dirs[2 * a], n2x = -dirs[2 * b + 1], n2y = dirs[2 * b]
                let den = 1 + n1x * n2x + n1y * n2y
                let (mx, my) = den > 1e-6 ? ((n1x + n2x) / den, (n1y + n2y) / den) : (n2x, n2y)
                moved[2 * v] += offset * mx; moved[2 * v + 1] += offset * my
            }
            pts = moved
        }

        corners.removeAll(keepingCapacity: true)
        for v in 0..<n {
            guard let a = incoming(v), let b = outgoing(v) else { corners.append(Corner()); continue }
            corners.append(corner(dirs[2 * a], dirs[2 * a + 1], dirs[2 * b], dirs[2 * b + 1]))
        }
        let off = sharpCornerOffset
        for s in 0..<segCount {
            let j = (s + 1) % n
            let tx = dirs[2 * s], ty = dirs[2 * s + 1]
            let len = (pts[2 * j] - pts[2 * s]) * tx + (pts[2 * j + 1] - pts[2 * s + 1]) * ty
            guard len > 0 else { continue }
            let c0 = corners[s], c1 = corners[j]
            let square = cap == .square && !closed
            let lo = square && s == 0 ? -outset : 0
            let hi = square && s == segCount - 1 ? len + outset : len
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
                let flipEnd = (k == 0 && c0.flip) || (k == stations.count - 2 && c1.flip)
                out.append(StrokePiece(kind: .body, x: pts[2 * s], y: pts[2 * s + 1], ax: tx, ay: ty, lo: p.0, hi: q.0,
                                       v0: p.3, v1: q.3, aLo: p.1, bLo: p.2, aHi: q.1, bHi: q.2,
                                       quadOutset: foldedQuads || flipEnd ? outset : 0, quadOnly: flipEnd))
            }
            if square && s == 0 { squareStart = true }
            if square && s == segCount - 1 { squareEnd = true }
        }
        for v in 0..<n {
            let x = pts[2 * v], y = pts[2 * v + 1]
            guard let a = incoming(v), let b = outgoing(v) else { continue }
            appendJoin(x, y, dirs[2 * a], dirs[2 * a + 1], dirs[2 * b], dirs[2 * b + 1], vertex: v, to: &out)
        }
        if !closed {
            // Square caps are part of the end segments' bodies (as they are of MapLibre's quads).
            if !squareStart { appendCap(pts[0], pts[1], -dirs[0], -dirs[1], vertex: 0, to: &out) }
            let l = 2 * (segCount - 1)
            if !squareEnd { appendCap(pts[2 * n - 2], pts[2 * n - 1], dirs[l], dirs[l + 1], vertex: n - 1, to: &out) }
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
        case .square: out.append(StrokePiece(kind: .body, x: x, y: y, ax: tx, ay: ty, lo: 0, hi: outset, v0: vertex, v1: vertex))
        case .round: out.append(StrokePiece(kind: .disc, x: x, y: y, ax: tx, ay: ty, v0: vertex, v1: vertex))
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
        if kind == .round {
            if miterLength <= 2 && abs(cross) >= 1e-12 {
                // MapLibre's fake-round fan: the round outer corner between the segment ends.
                // Its fan of triangles starts at the inner miter point (m outsets inwards).
                var wedge = StrokePiece(kind: .wedge, x: x, y: y, ax: o1x, ay: o1y, cx: o2x, cy: o2y, v0: v, v1: v)
                if foldedQuads {
                    let k = 2 / max(2 + 2 * (o1x * o2x + o1y * o2y), 1e-12)   // miter vector = (o1 + o2)·2/s²
                    wedge.mx = -(o1x + o2x) * k * outset
                    wedge.my = -(o1y + o2y) * k * outset
                    wedge.quadOutset = outset
                }
                out.append(wedge)
            } else {
                // Sharper: a round cap past the end of each segment.
                out.append(StrokePiece(kind: .disc, x: x, y: y, ax: t1x, ay: t1y, v0: v, v1: v))
                out.append(StrokePiece(kind: .disc, x: x, y: y, ax: -t2x, ay: -t2y, v0: v, v1: v))
            }
            return
        }
        guard abs(cross) >= 1e-12 else { return }             // a U-turn: no outer side to fill
        if kind == .bevel && miterLength > 2 { return }         // flip bevel: the bodies end on its chord
        if kind == .miter {
            out.append(StrokePiece(kind: .miter, x: x, y: y, ax: o1x, ay: o1y, cx: o2x, cy: o2y, v0: v, v1: v))
        } else {
            var bx = o1x + o2x, by = o1y + o2y
            let bl = (bx * bx + by * by).squareRoot()
            bx /= bl; by /= bl
            let c = bx * o1x + by * o1y
            out.append(StrokePiece(kind: .bevel, x: x, y: y, ax: o1x, ay: o1y, bx: bx, by: by, cx: o2x, cy: o2y,
                                   lo: outset * (1 - c), v0: v, v1: v))
        }
    }
}
