/// Exact-area polygon coverage on a pixel grid, the accumulation-buffer way of font rasterisers
/// (font-rs, tiny-skia's analytic path): every edge adds, per pixel row it crosses, the signed
/// area it leaves to its right into an accumulation cell; a running sum along each row then
/// gives the signed winding integral over each pixel, i.e. the exact covered area for simple
/// and for properly oriented (outer +, holes −) rings.
///
/// Works inside a box of the frame (device pixels); edges are clipped to it: parts left of the
/// box collapse onto its left side (they still cover everything to their right), parts right of
/// it and rows outside it are dropped.
struct CoverageRasterizer {
    private(set) var x0 = 0, y0 = 0, width = 0, height = 0
    private var acc: [Double] = []
    private var row: [Float] = []

    /// Starts a new shape covering pixels [x0, x0+width) × [y0, y0+height).
    mutating func reset(x0: Int, y0: Int, width: Int, height: Int) {
        self.x0 = x0; self.y0 = y0; self.width = width; self.height = height
        let n = width * height
        if acc.count < n { acc = [Double](repeating: 0, count: n) }
        if row.count < width { row = [Float](repeating: 0, count: width) }
    }

    /// Adds the directed edge a → b (device pixels) with a winding weight (+1 or −1).
    mutating func addEdge(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, weight: Double) {
        // Box-local coordinates.
        var xa = ax - Double(x0), ya = ay - Double(y0), xb = bx - Double(x0), yb = by - Double(y0)
        guard ya != yb, ya.isFinite, yb.isFinite, xa.isFinite, xb.isFinite else { return }
        var w = weight
        if ya > yb { swap(&xa, &xb); swap(&ya, &yb); w = -w }
        let top = max(ya, 0), bottom = min(yb, Double(height))
        guard top < bottom else { return }
        // Clip horizontally: split at x = 0 and x = width.
        let fw = Double(width)
        let dxdy = (xb - xa) / (yb - ya)
        func xAt(_ y: Double) -> Double { xa + (y - ya) * dxdy }
        // Up to two cuts where the edge crosses x = 0 or x = width, kept in order (no allocation).
        var c1 = bottom, c2 = bottom
        if xa != xb {
            for bound in [0.0, fw] {
                let y = ya + (bound - xa) / dxdy
                if y > top && y < bottom {
                    if y < c1 { c2 = c1; c1 = y } else if y < c2 { c2 = y }
                }
            }
        }
        clipPiece(top, c1, w, xAt)
        clipPiece(c1, c2, w, xAt)
        clipPiece(c2, bottom, w, xAt)
    }

    /// Adds the part of an edge between rows s0 and s1 that does not cross the box sides.
    @inline(__always)
    private mutating func clipPiece(_ s0: Double, _ s1: Double, _ w: Double, _ xAt: (Double) -> Double) {
        guard s1 > s0 else { return }
        let fw = Double(width)
        let mid = xAt((s0 + s1) / 2)
        if mid >= fw { return }                             // right of the box: no pixel here
        if mid <= 0 {
            addPiece(0, s0, 0, s1, w)                       // left of the box: a vertical edge on its side
        } else {
            addPiece(min(max(xAt(s0), 0), fw), s0, min(max(xAt(s1), 0), fw), s1, w)
        }
    }

    /// Adds a piece lying inside the box, top-down (y0 < y1), in box-local coordinates.
    private mutating func addPiece(_ px0: Double, _ py0: Double, _ px1: Double, _ py1: Double, _ w: Double) {
        let dxdy = (px1 - px0) / (py1 - py0)
        var y = Int(py0.rounded(.down))
        let yEnd = Int(py1.rounded(.up))
        acc.withUnsafeMutableBufferPointer { acc in
            while y < yEnd {
                let r0 = max(py0, Double(y)), r1 = min(py1, Double(y + 1))
                if r1 > r0 {
                    let xs = px0 + (r0 - py0) * dxdy, xe = px0 + (r1 - py0) * dxdy
                    CoverageRasterizer.accumulateRow(acc.baseAddress! + y * width, width, min(xs, xe), max(xs, xe),
                                                     (r1 - r0) * w)
                }
                y += 1
            }
        }
    }

    /// ∫ clamp(u, 0, 1) du from −∞.
    @inline(__always)
    private static func integral(_ u: Double) -> Double {
        u <= 0 ? 0 : (u >= 1 ? u - 0.5 : 0.5 * u * u)
    }

    /// Adds to cells the differences of A(i) = mean over the piece of clamp(i + 1 − x, 0, 1),
    /// the fraction of pixel i right of the edge, times the signed height `d`.
    @inline(__always)
    private static func accumulateRow(_ cells: UnsafeMutablePointer<Double>, _ width: Int,
                                      _ lo: Double, _ hi: Double, _ d: Double) {
        let i0 = Int(lo.rounded(.down)), i1 = min(Int(hi.rounded(.up)), width - 1)
        guard i0 <= i1 else { return }
        let span = hi - lo
        var prev = 0.0
        for i in i0...i1 {
            let t = Double(i + 1)
            let a: Double
            if span < 1e-12 {
                a = min(max(t - lo, 0), 1)
            } else {
                a = (integral(t - lo) - integral(t - hi)) / span
            }
            cells[i] += d * (a - prev)
            prev = a
        }
    }

    /// Visits each row of the box with its coverage (clamp(winding integral, 0, 1)) and clears
    /// the accumulation for the next shape.
    mutating func sweep(_ visit: (_ y: Int, _ x0: Int, _ coverage: UnsafeBufferPointer<Float>) -> Void) {
        let w = width
        for y in 0..<height {
            var any = false
            acc.withUnsafeMutableBufferPointer { acc in
                row.withUnsafeMutableBufferPointer { out in
                    let cells = acc.baseAddress! + y * w
                    var sum = 0.0
                    for i in 0..<w {
                        sum += cells[i]
                        cells[i] = 0
                        let c = sum < 1e-9 ? 0 : min(sum, 1)
                        out[i] = Float(c)
                        if c > 0 { any = true }
                    }
                }
            }
            if any { row.withUnsafeBufferPointer { visit(y0 + y, x0, UnsafeBufferPointer(rebasing: $0[0..<w])) } }
        }
    }
}
