/// One convex piece of a stroked line, with the distance function the line ramp reads.
///
/// A stroke is the union of its pieces: a body per segment (points whose projection falls on the
/// segment; distance = perpendicular distance to the centre line), a join per interior vertex
/// (miter: the cone between the two outer normals, distance = the larger of the two
/// perpendicular distances, so the corner is sharp; bevel: the same cone cut by the chord,
/// distance measured perpendicular to the chord, and past miter length 2 MapLibre's flip bevel:
/// no join piece, the two bodies end on the chord through the vertex; round: that cone of a
/// disc, or up to miter length 2, or past it a half disc beyond each segment end) and a cap at each open end
/// (square: the end segment's body extended by the outset; round: a half disc; butt: nothing).
/// Plane units (world CSS pixels at the view's zoom). `StrokeGeometry` builds them.
enum StrokePiece {
    /// A segment's body, or a square cap (the end segment's body extended by the outset).
    case body(Body)
    /// A round cap's half disc, or a half disc past a segment's end at a sharp round join.
    case disc(Disc)
    /// A round join up to miter length 2: the cone of a disc (MapLibre's fake-round fan).
    case wedge(Wedge)
    /// A miter join: the cone between the two outer normals.
    case miter(Cone)
    /// A bevel join: the cone between the two outer normals cut by the chord.
    case bevel(Bevel)

    /// The points whose projection falls on a segment (`lo`…`hi` along it).
    struct Body {
        /// Segment start.
        var x, y: Double
        /// Unit direction.
        var ax, ay: Double
        /// The range along the direction.
        var lo, hi: Double
        /// Line vertices (indices into `StrokeGeometry.vertexDistances`) at `lo` and at `hi`
        /// whose distance along the line the body carries (equal for a square cap).
        var v0, v1: Int
        /// Shifts along the line of the quad corners at `lo` and `hi`, in outsets (a: right, b: left).
        var aLo = 0.0, bLo = 0.0, aHi = 0.0, bHi = 0.0
        /// The body also covers the parts of its quad's two triangles beyond `lo`…`hi` (a
        /// folded quad of a short segment reaches past its ends on the GPU); `quadOutset` is the
        /// outset its corners are placed at (0: rectangle only).
        var quadOutset = 0.0
        /// The body is its quad alone, not the rectangle `lo`…`hi` too (an end on a flip-bevel
        /// chord, whose corners are shifted along the line in opposite directions).
        var quadOnly = false
    }

    /// A half disc around (x, y) on the side (ax, ay) points to (a whole disc when both are 0).
    struct Disc {
        var x, y: Double
        /// Outwards direction; also the segment direction `across` measures against.
        var ax, ay: Double
        /// The line vertex whose distance along the line the disc carries.
        var vertex: Int
    }

    /// The cone at a join vertex (x, y) spanned by the outer normals (ax, ay) and (cx, cy) (< 180°).
    struct Cone {
        var x, y: Double
        var ax, ay: Double
        var cx, cy: Double
        /// The join's line vertex.
        var vertex: Int
        /// +1 when the outer normals are the segments' left normals (−dy, dx), −1 when the right.
        var side = 1.0
    }

    /// A round join's cone of a disc.
    struct Wedge {
        var cone: Cone
        /// MapLibre's fan starts at the inner miter point (mx, my) (offset from the vertex), so
        /// the piece also covers the cone from there through the two outer corners at `fanOutset`
        /// (0: no fan).
        var mx = 0.0, my = 0.0
        var fanOutset = 0.0
    }

    /// A bevel join's cone cut by the chord.
    struct Bevel {
        var cone: Cone
        /// The unit bisector of the outer normals.
        var bx, by: Double
        /// The chord shift outset·(1 − cos½θ).
        var shift: Double
    }

    /// The line vertex at the piece's start (`v0`) and end (`v1`); joins and caps have one.
    var v0: Int {
        switch self {
        case .body(let b): return b.v0
        case .disc(let d): return d.vertex
        case .wedge(let w): return w.cone.vertex
        case .miter(let c): return c.vertex
        case .bevel(let b): return b.cone.vertex
        }
    }

    var v1: Int {
        if case .body(let b) = self { return b.v1 }
        return v0
    }

    /// How far along the piece (0…1 from `v0` to `v1`) a point inside it lies (see
    /// `Body.progress`); joins and caps: 0.
    @inline(__always)
    func progress(_ px: Double, _ py: Double, outset o: Double) -> (first: Double, second: Double?) {
        guard case .body(let b) = self else { return (0, nil) }
        return b.progress(px, py, outset: o)
    }

    /// Distance across the line (plane px, unsigned) of a point inside the piece: perpendicular
    /// to the segment for bodies and caps (a cap disc keeps its segment direction in ax, ay),
    /// the distance from the vertex for join discs and the join distance for miters and bevels.
    @inline(__always)
    func across(_ px: Double, _ py: Double, distance d: Double) -> Double {
        switch self {
        case .body(let b): return Self.across(px - b.x, py - b.y, b.ax, b.ay, distance: d)
        case .disc(let c): return Self.across(px - c.x, py - c.y, c.ax, c.ay, distance: d)
        case .wedge, .miter, .bevel: return d
        }
    }

    /// Signed distance across the line: positive on the side of the left normal (−dy, dx) of the
    /// segment's direction (MapLibre's "down" side, where line patterns read their image's top).
    @inline(__always)
    func signedAcross(_ px: Double, _ py: Double, distance d: Double) -> Double {
        switch self {
        case .body(let b): return (px - b.x) * -b.ay + (py - b.y) * b.ax
        case .disc(let c): return c.ax == 0 && c.ay == 0 ? d : (px - c.x) * -c.ay + (py - c.y) * c.ax
        case .wedge(let w): return w.cone.side * d
        case .miter(let c): return c.side * d
        case .bevel(let b): return b.cone.side * d
        }
    }

    @inline(__always)
    private static func across(_ ux: Double, _ uy: Double, _ ax: Double, _ ay: Double, distance d: Double) -> Double {
        guard ax != 0 || ay != 0 else { return d }
        return abs(ux * -ay + uy * ax)
    }

    /// Distance from the centre line (plane px) and the unit direction it grows in, or nil when
    /// (px, py) is outside the piece's region.
    @inline(__always)
    func distance(_ px: Double, _ py: Double) -> (d: Double, gx: Double, gy: Double)? {
        switch self {
        case .body(let b):
            let ux = px - b.x, uy = py - b.y
            let along = ux * b.ax + uy * b.ay
            guard !b.quadOnly && along >= b.lo && along <= b.hi || b.quadOutset > 0 && b.inQuad(along, ux * -b.ay + uy * b.ax) else { return nil }
            let s = ux * -b.ay + uy * b.ax
            return s >= 0 ? (s, -b.ay, b.ax) : (-s, b.ay, -b.ax)
        case .disc(let c):
            let ux = px - c.x, uy = py - c.y
            guard ux * c.ax + uy * c.ay >= 0 else { return nil }
            return Self.radial(ux, uy)
        case .wedge(let w):
            let ux = px - w.cone.x, uy = py - w.cone.y
            guard w.cone.contains(ux, uy) || w.inFan(ux, uy) else { return nil }
            return Self.radial(ux, uy)
        case .miter(let c):
            let ux = px - c.x, uy = py - c.y
            guard c.contains(ux, uy) else { return nil }
            let d1 = ux * c.ax + uy * c.ay, d2 = ux * c.cx + uy * c.cy
            return d1 >= d2 ? (d1, c.ax, c.ay) : (d2, c.cx, c.cy)
        case .bevel(let b):
            let ux = px - b.cone.x, uy = py - b.cone.y
            guard b.cone.contains(ux, uy) else { return nil }
            return (ux * b.bx + uy * b.by + b.shift, b.bx, b.by)
        }
    }

    /// The distance from a disc's centre and the direction away from it.
    @inline(__always)
    private static func radial(_ ux: Double, _ uy: Double) -> (d: Double, gx: Double, gy: Double) {
        let d = (ux * ux + uy * uy).squareRoot()
        return d > 0 ? (d, ux / d, uy / d) : (0, 1, 0)
    }

    /// A plane box containing the piece's region for distances ≤ r (no allocation).
    func bounds(_ r: Double) -> (lx: Double, ly: Double, hx: Double, hy: Double) {
        var box = PlaneBox()
        switch self {
        case .body(let b):
            box.start(b.x, b.y)
            let nx = -b.ay * r, ny = b.ax * r
            let q = b.quadOutset
            let l = q > 0 ? min(b.lo, b.lo + q * min(b.aLo, b.bLo), b.hi + q * min(b.aHi, b.bHi)) : b.lo
            let h = q > 0 ? max(b.hi, b.hi + q * max(b.aHi, b.bHi), b.lo + q * max(b.aLo, b.bLo)) : b.hi
            let sx = b.x + b.ax * l, sy = b.y + b.ay * l, ex = b.x + b.ax * h, ey = b.y + b.ay * h
            box.add(sx + nx, sy + ny); box.add(sx - nx, sy - ny); box.add(ex + nx, ey + ny); box.add(ex - nx, ey - ny)
        case .disc(let c):
            box.start(c.x, c.y)
            box.add(c.x - r, c.y - r); box.add(c.x + r, c.y + r)
        case .wedge(let w):
            let c = w.cone
            box.start(c.x, c.y)
            box.add(c.x - r, c.y - r); box.add(c.x + r, c.y + r)
        case .miter(let c):
            box.start(c.x, c.y)
            let k = r / max(1 + c.ax * c.cx + c.ay * c.cy, 1e-9)
            box.add(c.x + c.ax * r, c.y + c.ay * r); box.add(c.x + c.cx * r, c.y + c.cy * r)
            box.add(c.x + (c.ax + c.cx) * k, c.y + (c.ay + c.cy) * k)
        case .bevel(let b):
            let c = b.cone
            box.start(c.x, c.y)
            box.add(c.x + c.ax * r, c.y + c.ay * r); box.add(c.x + c.cx * r, c.y + c.cy * r)
        }
        return (box.lx, box.ly, box.hx, box.hy)
    }

    /// A growing plane box.
    private struct PlaneBox {
        var lx = 0.0, ly = 0.0, hx = 0.0, hy = 0.0
        @inline(__always) mutating func start(_ x: Double, _ y: Double) { lx = x; ly = y; hx = x; hy = y }
        @inline(__always) mutating func add(_ px: Double, _ py: Double) {
            lx = min(lx, px); ly = min(ly, py); hx = max(hx, px); hy = max(hy, py)
        }
    }
}

extension StrokePiece.Body {
    /// How far along the body (0…1 from `v0` to `v1`) a point inside it lies. Bodies interpolate
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
        guard v0 != v1, hi > lo else { return (0, nil) }
        let ux = px - x, uy = py - y
        let u = ux * ax + uy * ay
        if aLo == 0 && bLo == 0 && aHi == 0 && bHi == 0 {
            return (min(max((u - lo) / (hi - lo), 0), 1), nil)
        }
        let v = ux * -ay + uy * ax                      // + towards the right (a) side
        let q = quad(o)
        let p = (u, v)
        // Triangle (a0, b0, a1): 0 on the edge a0–b0, 1 at a1.
        let den1 = cross(q.a0, q.b0, q.a1)
        let f1 = den1 != 0 ? cross(q.a0, q.b0, p) / den1 : 0
        // Triangle (b0, b1, a1): 1 on the edge b1–a1, 0 at b0.
        let den2 = cross(q.b1, q.a1, q.b0)
        let f2 = den2 != 0 ? 1 - cross(q.b1, q.a1, p) / den2 : 1
        let in1 = inside(p, q.a0, q.b0, q.a1), in2 = inside(p, q.b0, q.b1, q.a1)
        if in1 && in2 { return (min(max(f1, 0), 1), min(max(f2, 0), 1)) }
        if in1 { return (min(max(f1, 0), 1), nil) }
        if in2 { return (min(max(f2, 0), 1), nil) }
        // Outside both: the triangle on the point's side of the diagonal b0 → a1.
        let side = cross(q.b0, q.a1, p), sideA0 = cross(q.b0, q.a1, q.a0)
        return (min(max(side * sideA0 >= 0 ? f1 : f2, 0), 1), nil)
    }

    /// Whether (along, across) lies in one of the body quad's triangles (see `progress`).
    func inQuad(_ u: Double, _ v: Double) -> Bool {
        let o = quadOutset
        guard abs(v) <= o else { return false }
        let q = quad(o), p = (u, v)
        return inside(p, q.a0, q.b0, q.a1) || inside(p, q.b0, q.b1, q.a1)
    }

    /// The quad's corners in (along, across) coordinates at outset `o`: a0 (lo, right),
    /// b0 (lo, left), a1 (hi, right), b1 (hi, left).
    @inline(__always)
    private func quad(_ o: Double) -> (a0: (Double, Double), b0: (Double, Double), a1: (Double, Double), b1: (Double, Double)) {
        ((lo + o * aLo, o), (lo + o * bLo, -o), (hi + o * aHi, o), (hi + o * bHi, -o))
    }
}

/// The z component of (t − s) × (q − s).
@inline(__always)
private func cross(_ s: (Double, Double), _ t: (Double, Double), _ q: (Double, Double)) -> Double {
    (t.0 - s.0) * (q.1 - s.1) - (t.1 - s.1) * (q.0 - s.0)
}

/// Whether p lies in the triangle (s, t, q) of either orientation, edges included.
@inline(__always)
private func inside(_ p: (Double, Double), _ s: (Double, Double), _ t: (Double, Double), _ q: (Double, Double)) -> Bool {
    let c1 = cross(s, t, p), c2 = cross(t, q, p), c3 = cross(q, s, p)
    return (c1 >= 0 && c2 >= 0 && c3 >= 0) || (c1 <= 0 && c2 <= 0 && c3 <= 0)
}

extension StrokePiece.Cone {
    /// Whether u (relative to the join vertex) lies in the cone (< 180°).
    @inline(__always)
    func contains(_ ux: Double, _ uy: Double) -> Bool {
        let s = ax * cy - ay * cx
        let c1 = ax * uy - ay * ux, c2 = ux * cy - uy * cx
        return s >= 0 ? (c1 >= 0 && c2 >= 0) : (c1 <= 0 && c2 <= 0)
    }
}

extension StrokePiece.Wedge {
    /// Whether u (relative to the join vertex) lies in the cone from the fan's apex (mx, my)
    /// through the outer corners, within the fan's outset of the vertex.
    @inline(__always)
    func inFan(_ ux: Double, _ uy: Double) -> Bool {
        guard mx != 0 || my != 0, fanOutset > 0 else { return false }
        let o = fanOutset
        let r1x = cone.ax * o - mx, r1y = cone.ay * o - my, r2x = cone.cx * o - mx, r2y = cone.cy * o - my
        let px = ux - mx, py = uy - my
        let s = r1x * r2y - r1y * r2x
        let c1 = r1x * py - r1y * px, c2 = px * r2y - py * r2x
        return s >= 0 ? (c1 >= 0 && c2 >= 0) : (c1 <= 0 && c2 <= 0)
    }
}
