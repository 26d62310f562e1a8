/// Cuts lines into the per-tile pieces MapLibre's GeoJSON tiler (geojson-vt) hands each tile.
///
/// MapLibre measures dash positions (`linesofar`) from the start of each tile's piece of a line,
/// so the dash phase restarts where a line enters a tile's buffered square. To draw the same
/// dashes from untiled data, glmap clips dashed lines the same way and draws each piece only
/// inside its own tile. Tiles are squares of the Web Mercator grid at `zoom`; each is widened by
/// `buffer` (a fraction of its side, 128/512 by default) on every side. As geojson-vt does, lines
/// are clipped along x first, then y, by bisecting the range of tiles; an open line splits into
/// a new piece each time it leaves a tile's buffered square, a closed ring stays one closed ring
/// (its cut edges run along the buffered border, outside the tile). Coordinates are unit-world
/// (0…1 across the world); pieces come out in the same units, each with the distance along the
/// original line (unit-world) of its first and last point — geojson-vt's line metrics
/// (`mapbox_clip_start` / `mapbox_clip_end` once divided by the line's length).
/// Limits: no simplification and no rounding to tile units (geojson-vt does both, moving points
/// by at most a sixteenth of a pixel or the 0.375 px simplification tolerance).
public struct TileLineClipper {
    /// Zoom of the tile grid.
    public let zoom: Int
    /// Buffer around each tile as a fraction of its side.
    public let buffer: Double
    /// Most tiles (columns × rows of the buffered bounding box) a line may cover; larger lines are
    /// not clipped but drawn whole, with the dash phase / gradient running on across tile edges.
    /// A ring cut into every tile of its area grows with the area, so a dashed outline of a big
    /// polygon at a deep zoom would otherwise need gigabytes (found by fuzzing).
    public static let maxTiles = 1 << 16

    /// Creates a clipper for the tile grid at `zoom` with the given buffer (fraction of a tile).
    public init(zoom: Int, buffer: Double) {
        self.zoom = max(0, min(zoom, 30))
        self.buffer = max(0, buffer)
    }

    /// Tiles per unit of world coordinates.
    public var scale: Double { Double(1 << zoom) }

    /// One tile's piece of a line.
    public struct Piece {
        /// Tile column and row.
        public var x: Int, y: Int
        /// Flat unit-world coordinates.
        public var coords: [Double]
        /// Distance along the original line (unit-world) of the first and the last point.
        public var start: Double, end: Double
    }

    /// Calls `body` with each tile's pieces, in tile order. Returns false, calling nothing, when
    /// the line spans too many tiles.
    @discardableResult
    public func clip(_ coords: [Double], closed: Bool, _ body: (Piece) -> Void) -> Bool {
        let s = scale
        // Points as (x, y, distance along the line) in tile units; intersections interpolate all three.
        var pts = [Double]()
        pts.reserveCapacity(coords.count / 2 * 3)
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        var i = 0
        var d = 0.0
        while i + 1 < coords.count {
            let x = coords[i] * s, y = coords[i + 1] * s
            i += 2
            guard x.isFinite, y.isFinite else { continue }
            if pts.count >= 3 {
                let dx = x - pts[pts.count - 3], dy = y - pts[pts.count - 2]
                d += (dx * dx + dy * dy).squareRoot()
            }
            pts.append(x); pts.append(y); pts.append(d)
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        guard pts.count >= 6 else { return true }
        let b = buffer
        let x0 = Int((minX - 1 - b).rounded(.up)), x1 = Int((maxX + b).rounded(.down)) + 1
        let y0 = Int((minY - 1 - b).rounded(.up)), y1 = Int((maxY + b).rounded(.down)) + 1
        guard Double(x1 - x0) * Double(y1 - y0) <= Double(Self.maxTiles) else { return false }
        split([pts], closed: closed, axis: 0, lo: x0, hi: x1) { tx, columnPieces in
            split(columnPieces, closed: closed, axis: 1, lo: y0, hi: y1) { ty, pieces in
                for p in pieces where p.count >= 6 {
                    var flat = [Double]()
                    flat.reserveCapacity(p.count / 3 * 2)
                    var j = 0
                    while j + 2 < p.count { flat.append(p[j] / s); flat.append(p[j + 1] / s); j += 3 }
                    body(Piece(x: tx, y: ty, coords: flat, start: p[2] / s, end: p[p.count - 1] / s))
                }
            }
        }
        return true
    }

    /// Each tile's pieces of a line, in tile order (what `clip` calls its body with); nil when
    /// the line spans too many tiles and is to be drawn whole.
    public func pieces(_ coords: [Double], closed: Bool) -> [Piece]? {
        var out: [Piece] = []
        return clip(coords, closed: closed) { out.append($0) } ? out : nil
    }

    /// Bisects the tile range [lo, hi) along `axis` until each piece list belongs to one tile.
    private func split(_ pieces: [[Double]], closed: Bool, axis: Int, lo: Int, hi: Int,
                       _ body: (Int, [[Double]]) -> Void) {
        guard !pieces.isEmpty else { return }
        if hi - lo <= 1 { body(lo, pieces); return }
        let mid = lo + (hi - lo) / 2
        let b = buffer
        var left: [[Double]] = [], right: [[Double]] = []
        for p in pieces {
            Self.clip(p, Double(lo) - b, Double(mid) + b, axis: axis, closed: closed, into: &left)
            Self.clip(p, Double(mid) - b, Double(hi) + b, axis: axis, closed: closed, into: &right)
        }
        split(left, closed: closed, axis: axis, lo: lo, hi: mid, body)
        split(right, closed: closed, axis: axis, lo: mid, hi: hi, body)
    }

    /// Keeps the parts of a line (or ring) of (x, y, distance) points with k1 ≤ coordinate ≤ k2
    /// on `axis`.
    static func clip(_ p: [Double], _ k1: Double, _ k2: Double, axis: Int, closed: Bool, into out: inout [[Double]]) {
        let n = p.count / 3
        guard n >= 2 else { return }
        var slice: [Double] = []
        @inline(__always) func cut(_ i: Int, _ k: Double) {
            let ax = p[3 * i], ay = p[3 * i + 1], ad = p[3 * i + 2]
            let bx = p[3 * i + 3], by = p[3 * i + 4], bd = p[3 * i + 5]
            if axis == 0 {
                let t = (k - ax) / (bx - ax)
                slice.append(k); slice.append(ay + (by - ay) * t); slice.append(ad + (bd - ad) * t)
            } else {
                let t = (k - ay) / (by - ay)
                slice.append(ax + (bx - ax) * t); slice.append(k); slice.append(ad + (bd - ad) * t)
            }
        }
        for i in 0..<(n - 1) {
            let a = p[3 * i + axis], b = p[3 * i + 3 + axis]
            var exited = false
            if a < k1 {
                if b > k1 { cut(i, k1) }          // enters from the low side
            } else if a > k2 {
                if b < k2 { cut(i, k2) }          // enters from the high side
            } else {
                slice.append(p[3 * i]); slice.append(p[3 * i + 1]); slice.append(p[3 * i + 2])
            }
            if b < k1 && a >= k1 { cut(i, k1); exited = true }
            if b > k2 && a <= k2 { cut(i, k2); exited = true }
            if !closed && exited {
                out.append(slice)
                slice = []
            }
        }
        let last = p[3 * n - 3 + axis]
        if last >= k1 && last <= k2 { slice.append(p[3 * n - 3]); slice.append(p[3 * n - 2]); slice.append(p[3 * n - 1]) }
        if closed && slice.count >= 3 {
            let c = slice.count
            if slice[0] != slice[c - 3] || slice[1] != slice[c - 2] {
                slice.append(slice[0]); slice.append(slice[1]); slice.append(slice[2])
            }
        }
        if !slice.isEmpty { out.append(slice) }
    }
}
