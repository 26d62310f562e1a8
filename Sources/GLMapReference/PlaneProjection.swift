import GLMapCore
import GLMapStyle

/// The map plane of one world copy seen by the camera, as a 3×3 homography to device pixels.
///
/// Plane coordinates are world CSS pixels at the view's zoom relative to a unit-world `origin`
/// (x right, y down), before `*-translate`; the homography folds in the copy offset and the
/// translation exactly as `WorldCopies.matrix` does for the GPU, then clip → device pixels
/// (y down). Projective maps keep straight lines straight, so polygon edges can be projected
/// vertex by vertex; distances measured on the plane (line widths) are recovered per pixel by
/// `toPlane`.
struct PlaneProjection {
    /// Row-major plane (X, Y, 1) → device (x·w, y·w, w).
    private let h: [Double]
    /// Row-major inverse of `h`.
    private let inv: [Double]
    /// Device pixels per CSS pixel.
    let ratio: Double
    /// Whether the view is pitched (perspective varies over the frame).
    let pitched: Bool

    init(view: ViewTransform, ratio: Double, origin: (x: Double, y: Double), copy: Int,
         translate: (x: Double, y: Double), anchor: TranslateAnchor) {
        let ws = view.worldSize
        let m = WorldCopies.matrix(view, origin: origin, copy: copy, translate: translate,
                                   translateInViewport: anchor == .viewport) * Matrix4.scale(1 / ws, 1 / ws, 1)
        // Clip rows x, y, w restricted to the plane z = 0: columns X, Y and translation.
        func row(_ r: Int) -> (Double, Double, Double) { (m.m[r], m.m[4 + r], m.m[12 + r]) }
        let rx = row(0), ry = row(1), rw = row(3)
        let wd = view.width * ratio, hd = view.height * ratio
        h = [wd / 2 * (rx.0 + rw.0), wd / 2 * (rx.1 + rw.1), wd / 2 * (rx.2 + rw.2),
             hd / 2 * (rw.0 - ry.0), hd / 2 * (rw.1 - ry.1), hd / 2 * (rw.2 - ry.2),
             rw.0, rw.1, rw.2]
        let a = h
        let c0 = a[4] * a[8] - a[5] * a[7], c1 = a[5] * a[6] - a[3] * a[8], c2 = a[3] * a[7] - a[4] * a[6]
        let det = a[0] * c0 + a[1] * c1 + a[2] * c2
        let d = det != 0 ? 1 / det : 0
        inv = [c0 * d, (a[2] * a[7] - a[1] * a[8]) * d, (a[1] * a[5] - a[2] * a[4]) * d,
               c1 * d, (a[0] * a[8] - a[2] * a[6]) * d, (a[2] * a[3] - a[0] * a[5]) * d,
               c2 * d, (a[1] * a[6] - a[0] * a[7]) * d, (a[0] * a[4] - a[1] * a[3]) * d]
        self.ratio = ratio
        pitched = view.camera.pitch != 0
    }

    /// Homogeneous device coordinates of a plane point (divide x, y by w; w ≤ 0 is behind the camera).
    @inline(__always)
    func toScreenHomogeneous(_ x: Double, _ y: Double) -> (x: Double, y: Double, w: Double) {
        (h[0] * x + h[1] * y + h[2], h[3] * x + h[4] * y + h[5], h[6] * x + h[7] * y + h[8])
    }

    /// Device pixel position of a plane point; nil when it is behind the camera.
    @inline(__always)
    func toScreen(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        let p = toScreenHomogeneous(x, y)
        guard p.w > 0 else { return nil }
        return (p.x / p.w, p.y / p.w)
    }

    /// The plane point seen at a device position; nil when that ray does not meet the plane in
    /// front of the camera (above the horizon).
    @inline(__always)
    func toPlane(_ sx: Double, _ sy: Double) -> (x: Double, y: Double)? {
        let a = inv[0] * sx + inv[1] * sy + inv[2]
        let b = inv[3] * sx + inv[4] * sy + inv[5]
        let c = inv[6] * sx + inv[7] * sy + inv[8]
        guard c != 0 else { return nil }
        let x = a / c, y = b / c
        guard h[6] * x + h[7] * y + h[8] > 0 else { return nil }
        return (x, y)
    }

    /// Device pixels moved on screen per plane pixel moved from (x, y) along the unit direction (dx, dy).
    @inline(__always)
    func screenScale(atX x: Double, y: Double, dx: Double, dy: Double) -> Double {
        let p = toScreenHomogeneous(x, y)
        let sx = p.x / p.w, sy = p.y / p.w
        let dw = h[6] * dx + h[7] * dy
        let jx = (h[0] * dx + h[1] * dy - sx * dw) / p.w
        let jy = (h[3] * dx + h[4] * dy - sy * dw) / p.w
        return (jx * jx + jy * jy).squareRoot()
    }

    /// Device-pixel range of a plane box seen through the camera (clamped to the frame, grown by
    /// `margin` device px); the whole frame when a corner is behind the camera, nil when it misses.
    func screenBox(_ b: (lx: Double, ly: Double, hx: Double, hy: Double), margin: Double,
                   width: Int, height: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        var lx = Double.infinity, ly = Double.infinity, hx = -Double.infinity, hy = -Double.infinity
        for (x, y) in [(b.lx, b.ly), (b.hx, b.ly), (b.lx, b.hy), (b.hx, b.hy)] {
            guard let s = toScreen(x, y) else { return (0, 0, width, height) }
            lx = min(lx, s.x); ly = min(ly, s.y); hx = max(hx, s.x); hy = max(hy, s.y)
        }
        return PlaneProjection.clampBox(lx - margin, ly - margin, hx + margin, hy + margin, width: width, height: height)
    }

    /// Pixel range [x0, x1) × [y0, y1) of pixels whose centres may lie in a real-valued box.
    static func clampBox(_ lx: Double, _ ly: Double, _ hx: Double, _ hy: Double,
                         width: Int, height: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        guard lx.isFinite, ly.isFinite, hx.isFinite, hy.isFinite else { return nil }
        let x0 = max(0, Int(max(-1, (lx - 0.5).rounded(.down))))
        let y0 = max(0, Int(max(-1, (ly - 0.5).rounded(.down))))
        let x1 = min(width, Int(min(Double(width) + 1, (hx + 0.5).rounded(.up))))
        let y1 = min(height, Int(min(Double(height) + 1, (hy + 0.5).rounded(.up))))
        guard x0 < x1, y0 < y1 else { return nil }
        return (x0, y0, x1, y1)
    }
}

extension WorldBounds {
    /// The centre of the box, or (0, 0) when empty or not finite.
    var center: (x: Double, y: Double) {
        guard !isEmpty, minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return (0, 0) }
        return ((minX + maxX) / 2, (minY + maxY) / 2)
    }
}
