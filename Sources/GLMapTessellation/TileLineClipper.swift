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
/// (0…1 across the world); pieces come out in the same units.
/// Limits: no simplification and no rounding to tile units (geojson-vt does both, moving points
/// by at most a sixteenth of a pixel or the 0.375 px simplification tolerance).
public struct TileLineClipper {
    /// Zoom of the tile grid.
    public let zoom: Int
    /// Buffer around each tile as a fraction of its side.
    public let buffer: Double
    /// Largest number of tile columns or rows a line may span; wider lines are not clipped.
    public static let maxTileSpan = 1 << 18

    /// Creates a clipper for the tile grid at `zoom` with the given buffer (fraction of a tile).
    public init(zoom: Int, buffer: Double) {
        self.zoom = max(0, min(zoom, 30))
        self.buffer = max(0, buffer)
    }

    /// Tiles per unit of world coordinates.
    public var scale: Double { Double(1 << zoom) }

    /// Calls `body` with each tile's pieces: tile column, tile row, and the piece (flat unit-world
    /// coordinates). Returns false, calling nothing, when the line spans too many tiles.
    @discardableResult
    public func clip(_ coords: [Double], closed: Bool, _ body: (_ x: Int, _ y: Int, _ piece: [Double]) -> Void) -> Bool {
        let s = scale
        var pts = [Double]()
        pts.reserveCapacity(coords.count)
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        var i = 0
        while i + 1 < coords.count {
            let x = coords[i] * s, y = coords[i + 1] * s
            i += 2
            guard x.isFinite, y.isFinite else { continue }
            pts.append(x); pts.append(y)
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        guard pts.count >= 4 else { return true }
        let b = buffer
        let x0 = Int((minX - 1 - b).rounded(.up)), x1 = Int((maxX + b).rounded(.down)) + 1
        let y0 = Int((minY - 1 - b).rounded(.up)), y1 = Int((maxY + b).rounded(.down)) + 1
        guard x1 - x0 <= Self.maxTileSpan, y1 - y0 <= Self.maxTileSpan else { return false }
        split([pts], closed: closed, axis: 0, lo: x0, hi: x1) { tx, columnPieces in
            split(columnPieces, closed: closed, axis: 1, lo: y0, hi: y1) { ty, pieces in
                for p in pieces where p.count >= 4 { body(tx, ty, p.map { $0 / s }) }
            }
        }
        return true
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

    /// Keeps the parts of a line (or ring) with k1 ≤ coordinate ≤ k2 on `axis`.
    static func clip(_ p: [Double], _ k1: Double, _ k2: Double, axis: Int, closed: Bool, into out: inout [[Double]]) {
        let n = p.count / 2
        guard n >= 2 else { return }
        var slice: [Double] = []
        @inline(__always) func cut(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ k: Double) {
            if axis == 0 {
                let t = (k - ax) / (bx - ax)
                slice.append(k); slice.append(ay + (by - ay) * t)
            } else {
                let t = (k - ay) / (by - ay)
                slice.append(ax + (bx - ax) * t); slice.append(k)
            }
        }
        for i in 0..<(n - 1) {
            let ax = p[2 * i], ay = p[2 * i + 1], bx = p[2 * i + 2], by = p[2 * i + 3]
            let a = axis == 0 ? ax : ay, b = axis == 0 ? bx : by
            var exited = false
            if a < k1 {
                if b > k1 { cut(ax, ay, bx, by, k1) }          // enters from the low side
            } else if a > k2 {
                if b < k2 { cut(ax, ay, bx, by, k2) }          // enters from the high side
            } else {
                slice.append(ax); slice.append(ay)
            }
            if b < k1 && a >= k1 { cut(ax, ay, bx, by, k1); exited = true }
            if b > k2 && a <= k2 { cut(ax, ay, bx, by, k2); exited = true }
            if !closed && exited {
                out.append(slice)
                slice = []
            }
        }
        let lx = p[2 * n - 2], ly = p[2 * n - 1]
        let last = axis == 0 ? lx : ly
        if last >= k1 && last <= k2 { slice.append(lx); slice.append(ly) }
        if closed && slice.count >= 2 {
            let c = slice.count
            if slice[0] != slice[c - 2] || slice[1] != slice[c - 1] { slice.append(slice[0]); slice.append(slice[1]) }
        }
        if !slice.isEmpty { out.append(slice) }
    }
}
