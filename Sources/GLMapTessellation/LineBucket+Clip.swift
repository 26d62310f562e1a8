import GLMapStyle
import GLMapTiles

// Plain lines cut near the tile square — contract
// Input: one part of a line feature (tile units, 8192 a side) of a tile's line layer drawn through
// the stencil's tile clip: no `line-translate`, no dashes, gradient or pattern (those read the
// distance along the line from where the tile's data starts it).
// Output: the pieces of the part inside the square grown by `cutMargin` on every side (open
// polylines, a cut end where the part leaves that square); nil when the part lies inside it.
// Why: a tile's data reaches past its square by the source's buffer (GeoJSON's default 128 px of
// 512, a quarter each way) and the stencil throws away everything drawn there, yet llvmpipe
// transforms, sets up and rasterizes it: the buffer doubled the Helsinki scene's line triangles.
// Exact inside the square when the margin is wider than anything a cut end changes reaches: a cut
// end is a cap where the line went on (the join at the last kept vertex is the same, its segments
// keep their directions), and the extra vertex pairs MapLibre puts 15 px from sharp corners are
// placed the same when the cut segment is longer than two of those offsets. So the margin is the
// larger of that (30 px in tile units at the tile's own zoom) and four times the layer's widest
// reach — outset (gap, width, offset, blur) times the miter limit, plus 2 px of antialiasing —
// in those units: 4× covers a line drawn up to two zooms past its tile and perspective
// foreshortening. Where that margin is wider than the buffer nothing is cut.
extension LineBucket {
    /// The margin for `layer` (tile units), or nil when its lines are not cut.
    static func cutMargin(_ layer: EvaluatedLineLayer, next: [EvaluatedLine]?, pixelsPerUnit: Double?) -> Double? {
        guard let tile = layer.tile, layer.translate == (0, 0), !layer.hasDashes, layer.gradient == nil, !layer.patterned
        else { return nil }
        let unitsPerPixel = LineTiling.tileExtent / (512 * tile.overscaleFactor)
        var outset = 0.0
        for f in [layer.features, next ?? []].joined() {   // no copy of the features
            outset = max(outset, f.gapWidth / 2 + f.width + abs(f.offset) + f.blur)
        }
        guard outset.isFinite else { return nil }
        let reach = (outset * max(layer.miterLimit, 2) + 2) * unitsPerPixel * 4
        let corners = pixelsPerUnit.map { 2 * LineTessellator.sharpCornerOffsetPixels / $0 + 1 } ?? 0
        return max(reach, corners, 256)
    }

    /// `coords`' pieces inside the square grown by `margin`, or nil when it lies wholly inside.
    /// A closed ring cut into pieces becomes open pieces; the piece through its first point runs on
    /// across it, as the ring did.
    static func pieces(_ coords: [Double], closed: Bool, margin: Double) -> [[Double]]? {
        let lo = -margin, hi = Double(TileExtent.extent) + margin
        guard coords.leavesSquare(lo, hi) else { return nil }
        var points = coords
        if closed, points.count >= 4 { points.append(points[0]); points.append(points[1]) }
        var result: [[Double]] = []
        var current: [Double] = []
        var lastEnd: (Double, Double)?
        for k in Swift.stride(from: 0, to: points.count - 3, by: 2) {
            let ax = points[k], ay = points[k + 1], bx = points[k + 2], by = points[k + 3]
            guard let (t0, t1) = clipSegment(ax, ay, bx, by, lo: lo, hi: hi) else {
                if !current.isEmpty { result.append(current); current = [] }
                lastEnd = nil
                continue
            }
            // A cut point lies on the grown square: clamping puts it there exactly.
            func cut(_ a: Double, _ b: Double, _ t: Double) -> Double { min(max(a + (b - a) * t, lo), hi) }
            let sx = t0 == 0 ? ax : cut(ax, bx, t0), sy = t0 == 0 ? ay : cut(ay, by, t0)
            let ex = t1 == 1 ? bx : cut(ax, bx, t1), ey = t1 == 1 ? by : cut(ay, by, t1)
            if t0 > 0 || lastEnd == nil {
                if !current.isEmpty { result.append(current) }
                current = [sx, sy]
            }
            current.append(ex); current.append(ey)
            lastEnd = t1 == 1 ? (bx, by) : nil
            if t1 < 1 { result.append(current); current = []; lastEnd = nil }
        }
        if !current.isEmpty { result.append(current) }
        // A ring whose first point is kept: the piece ending there and the one starting there are one.
        if closed, result.count > 1, let first = result.first, let last = result.last,
           first.count >= 2, last.count >= 2, first[0] == coords[0], first[1] == coords[1],
           last[last.count - 2] == coords[0], last[last.count - 1] == coords[1] {
            result[result.count - 1] = last + first.dropFirst(2)
            result.removeFirst()
        }
        return result
    }

    /// The parameter range [t0, t1] ⊂ [0, 1] of the segment a → b inside [lo, hi]² (Liang–Barsky),
    /// nil when none of it is.
    static func clipSegment(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, lo: Double, hi: Double) -> (Double, Double)? {
        var t0 = 0.0, t1 = 1.0
        let dx = bx - ax, dy = by - ay
        for (p, q) in [(-dx, ax - lo), (dx, hi - ax), (-dy, ay - lo), (dy, hi - ay)] {
            if p == 0 {
                if q < 0 { return nil }
                continue
            }
            let r = q / p
            if p < 0 {
                if r > t1 { return nil }
                if r > t0 { t0 = r }
            } else {
                if r < t0 { return nil }
                if r < t1 { t1 = r }
            }
        }
        return (t0, t1)
    }
}
