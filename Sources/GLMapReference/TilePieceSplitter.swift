/// One tile's piece of a line, as MapLibre's GeoJSON tiler hands it to that tile.
struct TilePiece {
    /// Tile column and row at the splitter's zoom.
    var tileX: Int, tileY: Int
    /// Flat unit-world coordinates.
    var coords: [Double]
    /// Distance along the original line (unit-world) of the first and of the last point.
    var start: Double, end: Double
}

/// Cuts a line into per-tile pieces the way geojson-vt does before MapLibre draws it: each tile of
/// the Web Mercator grid at `zoom` receives the part of the line inside its square widened by
/// `buffer` (fraction of a side) on every side. An open line starts a new piece each time it
/// leaves that buffered square; a closed ring stays one ring (its cut edges run along the
/// buffered border). Cutting is along x first, then y; a point on the border counts as inside.
///
/// The reference draws each piece only inside its own (unbuffered) tile, which is what makes
/// dash phases restart at tile entries and gradients use per-piece progress, as on the GPU.
/// Cutting a strip of a strip gives the same pieces as geojson-vt's recursive bisection, so this
/// clips straight to each tile's square. Limits: no simplification, no snapping to tile units.
struct TilePieceSplitter {
    /// Zoom of the tile grid.
    let zoom: Int
    /// Buffer around each tile as a fraction of its side.
    let buffer: Double
    /// Most tiles (columns × rows) a line may cover before it is drawn whole (as the tessellator's
    /// clipper: the pieces of a ring grow with its area).
    static let maxTiles = 1 << 16

    init(zoom: Int, buffer: Double) {
        self.zoom = max(0, min(zoom, 30))
        self.buffer = max(0, buffer)
    }

    /// The pieces of one line or ring (flat unit-world coordinates); nil when it spans more than
    /// `maxTiles` tiles and is to be drawn whole.
    func split(_ coords: [Double], closed: Bool) -> [TilePiece]? {
        let scale = Double(1 << zoom)
        // (x, y, distance) in tile units.
        var pts: [Double] = []
        pts.reserveCapacity(coords.count / 2 * 3)
        var lx = Double.infinity, hx = -Double.infinity, ly = Double.infinity, hy = -Double.infinity
        var travelled = 0.0
        var i = 0
        while i + 1 < coords.count {
            let x = coords[i] * scale, y = coords[i + 1] * scale
            i += 2
            guard x.isFinite, y.isFinite else { continue }
            if pts.count >= 3 {
                let dx = x - pts[pts.count - 3], dy = y - pts[pts.count - 2]
                travelled += (dx * dx + dy * dy).squareRoot()
            }
            pts.append(x); pts.append(y); pts.append(travelled)
            lx = min(lx, x); hx = max(hx, x); ly = min(ly, y); hy = max(hy, y)
        }
        guard pts.count >= 6 else { return [] }
        let b = buffer
        let cols = Self.tileRange(lx, hx, b), rows = Self.tileRange(ly, hy, b)
        guard Double(cols.count) * Double(rows.count) <= Double(Self.maxTiles) else { return nil }
        var out: [TilePiece] = []
        var strips: [[Double]] = [], cells: [[Double]] = []
        for tx in cols {
            strips.removeAll(keepingCapacity: true)
            Self.keep(pts, from: Double(tx) - b, to: Double(tx + 1) + b, axis: 0, closed: closed, into: &strips)
            for strip in strips {
                var sy0 = Double.infinity, sy1 = -Double.infinity
                var k = 1
                while k < strip.count { sy0 = min(sy0, strip[k]); sy1 = max(sy1, strip[k]); k += 3 }
                for ty in Self.tileRange(sy0, sy1, b).clamped(to: rows) {
                    cells.removeAll(keepingCapacity: true)
                    Self.keep(strip, from: Double(ty) - b, to: Double(ty + 1) + b, axis: 1, closed: closed, into: &cells)
                    for cell in cells where cell.count >= 6 {
                        var flat = [Double]()
                        flat.reserveCapacity(cell.count / 3 * 2)
                        var j = 0
                        while j + 2 < cell.count { flat.append(cell[j] / scale); flat.append(cell[j + 1] / scale); j += 3 }
                        out.append(TilePiece(tileX: tx, tileY: ty, coords: flat,
                                             start: cell[2] / scale, end: cell[cell.count - 1] / scale))
                    }
                }
            }
        }
        return out
    }

    /// Tiles whose buffered side range [t − b, t + 1 + b] meets [lo, hi].
    static func tileRange(_ lo: Double, _ hi: Double, _ b: Double) -> Range<Int> {
        guard lo <= hi else { return 0..<0 }
        let first = Int((lo - 1 - b).rounded(.up)), last = Int((hi + b).rounded(.down))
        return first..<(last + 1)
    }

    /// Appends the parts of a polyline of (x, y, distance) points with k1 ≤ coordinate ≤ k2 on
    /// `axis` to `out`: open lines split where they leave the band, rings stay one closed ring.
    static func keep(_ p: [Double], from k1: Double, to k2: Double, axis: Int, closed: Bool, into out: inout [[Double]]) {
        let n = p.count / 3
        guard n >= 2 else { return }
        var current: [Double] = []
        // The point where segment i → i+1 crosses coordinate k on `axis`, distance interpolated.
        func crossing(_ i: Int, _ k: Double) {
            let a = 3 * i, c = a + 3
            let t = (k - p[a + axis]) / (p[c + axis] - p[a + axis])
            for m in 0..<3 { current.append(m == axis ? k : p[a + m] + (p[c + m] - p[a + m]) * t) }
        }
        for i in 0..<(n - 1) {
            let a = p[3 * i + axis], b = p[3 * i + 3 + axis]
            if a < k1 {
                if b > k1 { crossing(i, k1) }                 // comes in over the low border
            } else if a > k2 {
                if b < k2 { crossing(i, k2) }                 // comes in over the high border
            } else {
                current.append(contentsOf: p[(3 * i)..<(3 * i + 3)])
            }
            var left = false
            if b < k1 && a >= k1 { crossing(i, k1); left = true }
            if b > k2 && a <= k2 { crossing(i, k2); left = true }
            if left && !closed {
                out.append(current)
                current = []
            }
        }
        let last = p[3 * n - 3 + axis]
        if last >= k1 && last <= k2 { current.append(contentsOf: p[(3 * n - 3)..<(3 * n)]) }
        if closed && current.count >= 3 {
            let c = current.count
            if current[0] != current[c - 3] || current[1] != current[c - 2] {
                current.append(current[0]); current.append(current[1]); current.append(current[2])
            }
        }
        if !current.isEmpty { out.append(current) }
    }
}
