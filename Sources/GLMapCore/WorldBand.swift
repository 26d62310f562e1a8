import Foundation

/// The part of a view that shows the Mercator world, where MapLibre draws the background layer.
///
/// MapLibre GL JS draws a background layer tile by tile over the tiles covering the view
/// (`draw_background.ts`: `coveringTiles(transform, …)`), and tiles exist only between the
/// world's north and south edges (y from 0 to 1, every world copy side by side). A flat view
/// always shows the world edge to edge (the camera constraint keeps it so), but a pitched view can
/// look past the north or south edge (or above the horizon), and there the background is not
/// drawn. The band is three linear inequalities in screen coordinates (a ground plane seen in
/// perspective maps lines to lines): in front of the camera, south of the north edge, north of
/// the south edge.
public struct WorldBand: Sendable {
    /// `a·x + b·y + c ≥ 0` for a screen point (CSS pixels, x right, y down) that shows the world,
    /// one per edge: in front of the camera, south of the north edge, north of the south edge.
    public let edges: [SIMD3<Double>]
    /// Whether the whole viewport shows the world (the band needs no clipping).
    public let coversView: Bool
    /// The viewport's part inside the band: a convex polygon in screen CSS pixels (the whole
    /// viewport's corners when `coversView`; fewer than 3 points when nothing shows the world).
    public let polygon: [SIMD2<Double>]
    /// The viewport the band was cut from, in CSS pixels (nil for a degenerate view).
    public let viewSize: (width: Double, height: Double)?

    /// Whether the screen point (CSS pixels) shows the world.
    public func contains(x: Double, y: Double) -> Bool {
        edges.allSatisfy { $0.x * x + $0.y * y + $0.z >= 0 }
    }

    /// The band of `view`.
    public init(_ view: ViewTransform) {
        // Homogeneous screen point (sx·w, sy·w, w) of the ground point (centre + (u, v)): linear
        // in (u, v, 1); its inverse gives the ground point (U, V, G) ∝ (u, v, 1) of a screen point,
        // with G > 0 exactly in front of the camera (G = 1/w).
        let w = view.width, h = view.height
        func screen(_ u: Double, _ v: Double) -> SIMD3<Double> {
            let p = view.projectionMatrix.transform(view.centerX + u, view.centerY + v, 0)
            return SIMD3((p.x + p.w) / 2 * w, (p.w - p.y) / 2 * h, p.w)
        }
        let o = screen(0, 0), cu = screen(1, 0) - o, cv = screen(0, 1) - o
        // columns cu, cv, o; rows of the inverse by cross products
        let r0 = cross(cv, o), r1 = cross(o, cu), r2 = cross(cu, cv)
        let det = (cu * r0).sum()
        guard det != 0, det.isFinite else {
            edges = []
            viewSize = nil
            coversView = true
            polygon = [SIMD2(0, 0), SIMD2(w, 0), SIMD2(w, h), SIMD2(0, h)]
            return
        }
        // (U, V, G) = (r0·s, r1·s, r2·s) / det for s = (x, y, 1)
        let g = r2 / det, vRow = r1 / det
        let front = g
        let north = vRow + g * view.centerY                      // centreY + V/G ≥ 0
        let south = g * (view.worldSize - view.centerY) - vRow   // centreY + V/G ≤ worldSize
        edges = [front, north, south]
        viewSize = (w, h)
        let corners = [SIMD2(0, 0), SIMD2(w, 0), SIMD2(w, h), SIMD2(0, h)]
        let inside = { (p: SIMD2<Double>) in [front, north, south].allSatisfy { $0.x * p.x + $0.y * p.y + $0.z >= 0 } }
        if corners.allSatisfy(inside) {
            coversView = true
            polygon = corners
            return
        }
        coversView = false
        var poly = corners
        for e in edges {   // Sutherland–Hodgman against each half-plane
            guard !poly.isEmpty else { break }
            var out: [SIMD2<Double>] = []
            for i in poly.indices {
                let a = poly[i], b = poly[(i + 1) % poly.count]
                let fa = e.x * a.x + e.y * a.y + e.z, fb = e.x * b.x + e.y * b.y + e.z
                if fa >= 0 { out.append(a) }
                if (fa >= 0) != (fb >= 0) { out.append(a + (b - a) * (fa / (fa - fb))) }
            }
            poly = out
        }
        polygon = poly
    }
}

private func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

extension ViewTransform {
    /// The part of the view that shows the world (`WorldBand`).
    public var worldBand: WorldBand { WorldBand(self) }
}
