// Line tessellator — contract
//
// Input: one polyline per call as interleaved Double coordinates (x0, y0, x1, y1, …) in any
// planar units with y down (so "left"/"right" mean what they mean on screen), whether it is a
// closed ring, and the layout values line-join, line-cap, line-miter-limit, line-round-limit.
// Output: triangles appended to a `LineGeometry` (indices are absolute into its `vertices`). Each
// `LineVertex` carries its centre-line point, an extrusion vector in units of the half width,
// normal-space values for the fragment shader, the distance along the line and MapLibre's
// `a_direction`. Nothing depends on the camera or the line width: the width, gap and offset are
// applied in the vertex shader, so one tessellation serves every zoom, bearing and paint value.
//
// Cleaning: points with a NaN/∞ coordinate, or whose offset from `origin` is not a finite
// Float32, are skipped; consecutive equal points (closer than 1e-150 in both coordinates) are
// dropped; a closed ring's trailing copies of its first point are dropped. A line with fewer than 2 distinct points appends nothing.
//
// Joins follow MapLibre's LineBucket. With θ the turn angle at a vertex and m = 1/cos(θ/2) the
// miter length (in half widths):
//   miter:  m ≤ miterLimit → one vertex pair on the bisector at ±m; otherwise bevel.
//   bevel:  m < 1.05 → miter (saves a triangle); otherwise a bevel triangle.
//   round:  m < roundLimit → miter (then bevel past miterLimit); m ≤ 2 → "fakeround": a fan of
//           chords, one per ~20° of turn; m > 2 → a round cap on each side of the vertex.
// For m ≤ 2 (turns up to 120°) bevels and fans share the inner miter point, as MapLibre does,
// so the strip does not overlap itself when both segments are longer than halfWidth·tan(θ/2).
// Sharper bevels (a miter past its limit, or a bevel, with m > 2) are MapLibre's "flipbevel":
// two vertex pairs at the vertex along ±J and ∓J, J = perp(unit bisector of the normals) ·
// (1/sin(θ/2)) · (−1 when turning left, else 1) (J = −n2 past m = 100), so both segments end on
// the chord through the vertex and the outer corner is cut there (verified against MapLibre
// Native on seeded styles and the render tests; the incoming segment's quad reaches from the
// previous pair, which is why the extra sharp-corner pairs below matter for solid lines too).
// The inner side of such turns is covered twice (as it is in MapLibre), as are round joins past 120°.
// Closed rings join at their first point (the join is emitted once, at the end of the ring);
// open lines get caps. Square caps extend the end pair by one half width (|e| = √2); round caps
// are that square with nx = ±1, which the fragment shader cuts to a half disc.
//
// Invariants: no NaN or ∞ in any vertex; every index < vertices.count; |e| ≤ max(2, miterLimit)
// (1 on straight parts, √2 at cap corners); ny = ±1 and nx ∈ {−1, 0, 1} at every vertex, so the
// interpolated length(n)·halfWidth is the distance from the centre line (from the end point
// inside round caps); `distance` is non-decreasing in vertex order within one line and equals
// the running length at each input point — for a closed ring plus the closing segment's length,
// as MapLibre's line bucket enters a ring's first point from its last one (so its dash pattern
// starts there) — except that with `distanceResetLimit` the first vertex pair past the limit is
// emitted twice, the second time at 0, and the distance restarts there (MapLibre's reset). The union of the triangles, cut at length(n) ≤ 1, is
// the exact stroke (segment rectangles ∪ joins ∪ caps; a flip bevel cuts the outer corner along
// its chord through the vertex) for segments longer than the inner-join
// reach above; fakeround joins are their chord polygon (≤ 20° per chord).
// Triangles may overlap (sharp turns, round joins, self-crossing lines) and their winding
// varies: draw without face culling.
//
// Scale: join choices depend only on angles, so they need no zoom. The one pixel-dependent
// detail is MapLibre's extra vertex pair 15 CSS px on each side of corners sharper than 75°,
// which keeps dashes from tilting along the whole segment and bounds the quads a flip bevel
// cuts; it is placed only when `pixelsPerUnit` (CSS px per input unit at the zoom the data is
// meant for) is given (MapLibre places none in tiles over-scaled more than 16×).
//
// Limits: one `LineGeometry` must stay under 2^32 vertices (a line that would pass it is
// skipped). miterLimit is clamped to 1e4 half widths (so every extrusion stays a finite Float32);
// a NaN miterLimit/roundLimit means MapLibre's default (2 / 1.05). `distance` is accumulated in Double and stored in Float32 (24-bit mantissa).
// Tiny but non-zero segments are kept as they are (simplification belongs to the tiler).
//
// Shader recipe (MapLibre's line.vertex.glsl / line.fragment.glsl semantics; lengths in px):
//   h = line-width/2, g = line-gap-width/2, o = line-offset, aa = 1/(2·pixelRatio)
//   inset  = g > 0 ? g + aa : 0
//   outset = g + (g > 0 ? 2h : h) + (h == 0 ? 0 : aa)
//   w = (ex, ey)·ny;  u = 0.5·direction;  t = 1 − |u|
//   offset = −o · (t·w.x − u·w.y, u·w.x + t·w.y)          (positive o moves the line right)
//   position = (x, y) in px + (ex, ey)·outset + offset        (extrusion lies in the map plane)
//   v_normal = (nx, ny);  fragment: dist = length(v_normal)·outset,
//   alpha = clamp(min(dist − (inset − blur), outset − dist) / blur, 0, 1)
//   with blur = line-blur + 1/pixelRatio; dashes and gradients read `distance` (input units).
import GLMapStyle

/// Extrudes polylines into triangles with MapLibre's joins and caps (see the contract above).
public struct LineTessellator {
    /// Join used at interior vertices (and at the first point of closed rings).
    public var join: LineJoin
    /// Cap used at both ends of open lines.
    public var cap: LineCap
    /// `line-miter-limit`: miter joins longer than this many half widths become bevels.
    public var miterLimit: Double
    /// `line-round-limit`: round joins shorter than this many half widths become miters.
    public var roundLimit: Double
    /// CSS px per input unit at the zoom the data is meant for; nil places no sharp-corner vertices.
    public var pixelsPerUnit: Double?
    /// MapLibre's `linesofar` reset (input units; nil: none): after a vertex pair whose distance
    /// passes this, the distance restarts at 0 and the pair is emitted again at 0 (GL JS's line
    /// bucket does this at 16384 tile units, half its 15-bit storage, for lines without metrics).
    public var distanceResetLimit: Double?
    /// Origin subtracted from every input point before it is stored as Float32.
    public var originX: Double = 0
    /// Origin subtracted from every input point before it is stored as Float32.
    public var originY: Double = 0

    /// Cleaned points of the line being processed (reused between calls, never shrunk).
    private var scratch: [Double] = []

    /// MapLibre's distance from a sharp corner to its extra vertex pair, in CSS px.
    static let sharpCornerOffsetPixels = 15.0
    /// cos(75°/2): corners whose half-angle cosine is below this are "sharp".
    static let cosHalfSharpCorner = 0.7933533402912352
    /// Points closer than this in both coordinates count as equal (keeps squared lengths normal).
    static let duplicateDistance = 1e-150
    /// Most vertices one input point can produce (round-cap join 8, or fan 9, plus 4 corner extras).
    static let maxVerticesPerPoint = 13

    /// Creates a tessellator with the given layout values (MapLibre's defaults otherwise).
    public init(join: LineJoin = .miter, cap: LineCap = .butt, miterLimit: Double = 2,
                roundLimit: Double = 1.05, pixelsPerUnit: Double? = nil) {
        (self.join, self.cap, self.miterLimit, self.roundLimit) = (join, cap, miterLimit, roundLimit)
        self.pixelsPerUnit = pixelsPerUnit
    }

    /// Appends one polyline (x0, y0, x1, y1, …); `closed` = polygon ring (joins at the start
    /// point, no caps). Returns the distance at the line's end in input units (its length; for a
    /// ring, its length plus the closing segment's, see the contract; 0 when nothing was appended).
    @discardableResult
    public mutating func append(_ points: UnsafeBufferPointer<Double>, closed: Bool,
                                into out: inout LineGeometry) -> Double {
        let count = cleanPoints(points, closed: closed)
        guard count >= 2 else { return 0 }
        let worstVertices = count * Self.maxVerticesPerPoint + 16
        guard out.vertices.count <= Int(UInt32.max) - worstVertices else { return 0 }
        let perPoint: Int
        switch join {
        case .miter: perPoint = 2
        case .bevel: perPoint = 4
        case .round: perPoint = 6
        }
        out.reserveAdditional(vertices: count * perPoint + 8, indices: count * perPoint * 3 + 12)
        var settings = Settings(join: join, cap: cap, miterLimit: miterLimit,
                                roundLimit: roundLimit)
        if let ppu = pixelsPerUnit, ppu > 0, ppu.isFinite {
            settings.sharpCornerOffset = Self.sharpCornerOffsetPixels / ppu
        }
        let ox = originX, oy = originY
        return scratch.withUnsafeBufferPointer { pts -> Double in
            var walker = Walker(points: pts, count: count, originX: ox, originY: oy,
                                settings: settings)
            if let limit = distanceResetLimit, limit > 0 { walker.resetLimit = limit }
            return closed ? walker.walkRing(into: &out) : walker.walkOpen(into: &out)
        }
    }

    /// Appends one polyline given as an array of interleaved coordinates (see the pointer form).
    @discardableResult
    public mutating func append(_ points: [Double], closed: Bool, into out: inout LineGeometry) -> Double {
        points.withUnsafeBufferPointer { append($0, closed: closed, into: &out) }
    }

    /// Copies the usable, distinct points into `scratch`; returns how many there are.
    private mutating func cleanPoints(_ points: UnsafeBufferPointer<Double>, closed: Bool) -> Int {
        let pairs = points.count / 2
        if scratch.count < pairs * 2 { scratch = [Double](repeating: 0, count: pairs * 2) }
        let limit = Double(Float.greatestFiniteMagnitude)
        let ox = originX, oy = originY
        var n = 0
        scratch.withUnsafeMutableBufferPointer { dst in
            var lastX = Double.nan, lastY = Double.nan
            for i in 0..<pairs {
                let x = points[2 * i], y = points[2 * i + 1]
                guard x.isFinite, y.isFinite, abs(x - ox) <= limit, abs(y - oy) <= limit else { continue }
                if abs(x - lastX) < Self.duplicateDistance && abs(y - lastY) < Self.duplicateDistance { continue }
                dst[2 * n] = x
                dst[2 * n + 1] = y
                lastX = x
                lastY = y
                n += 1
            }
            if closed {
                while n >= 2 && abs(dst[2 * n - 2] - dst[0]) < Self.duplicateDistance
                        && abs(dst[2 * n - 1] - dst[1]) < Self.duplicateDistance { n -= 1 }
            }
        }
        return n
    }
}
