import Foundation
import GLMapCore
import GLMapStyle
import GLMapTiles

/// Draws a `heatmap` layer (all its tiles) as MapLibre's two passes define it, on the CPU: the
/// density is summed on a grid a quarter of the frame's device size (truncated, at least 1 × 1;
/// MapLibre's offscreen texture), at each cell centre from every point whose kernel square covers
/// it — the square is `HeatmapKernel.extent` radii each side in the map plane (so the cell's
/// ground point is found through the camera, pitch included), the value MapLibre's Gaussian.
/// Then every device pixel reads the grid bilinearly (LINEAR, edges clamped), looks the density
/// up in the colour ramp (LINEAR, clamped) and blends the colour × opacity over the frame.
/// Never calls the tessellator.
struct HeatmapPainter {
    /// Paints one layer's tiles into `canvas`; returns the colour blended at each pixel (nil when
    /// the layer draws nothing), for `repeatColors`.
    @discardableResult
    func paint(_ tiles: [EvaluatedHeatmapLayer], view: ViewTransform, ratio: Double, into canvas: inout Compositor) -> [SIMD4<Float>]? {
        guard let first = tiles.first, first.opacity > 0 else { return nil }
        let gw = max(1, canvas.width / 4), gh = max(1, canvas.height / 4)
        var grid = [Double](repeating: 0, count: gw * gh)
        let m = view.projectionMatrix
        guard let inv = m.inverted else { return nil }
        let ws = view.worldSize
        for layer in tiles {
            guard let tile = layer.tile else { continue }
            for f in layer.features {
                let s = HeatmapKernel.extent(weight: f.weight, intensity: f.intensity)
                guard s.isFinite, s > 0, f.radius > 0, f.radius.isFinite else { continue }
                let half = s * f.radius   // CSS px (= world px at the frame zoom) each side
                var i = 0
                while i + 1 < f.centers.count {
                    let u = TileSquare.world(tile, f.centers[i], f.centers[i + 1])
                    i += 2
                    let cx = u.x * ws, cy = u.y * ws
                    splat(cx, cy, half: half, f, &grid, gw, gh, m, inv)
                }
            }
        }
        // The colour pass, every device pixel.
        let opacity = first.opacity, ramp = first.ramp, q = canvas.quantizeEachDraw
        let w = canvas.width, h = canvas.height
        var out = [SIMD4<Float>](repeating: .zero, count: w * h)
        canvas.pixels.withUnsafeMutableBufferPointer { px in
            for y in 0..<h {
                // v_pos: 0…1 over the frame, y up (the grid's row 0 is the frame's top here).
                let gy = (Double(y) + 0.5) / Double(h) * Double(gh) - 0.5
                for x in 0..<w {
                    let gx = (Double(x) + 0.5) / Double(w) * Double(gw) - 0.5
                    let t = bilinear(grid, gw, gh, gx, gy)
                    let c = ramp.sample(t) * opacity
                    if c == .zero { continue }
                    out[y * w + x] = SIMD4<Float>(c)
                    Compositor.blend(px.baseAddress! + y * w + x, SIMD4<Float>(c), quantize: q)
                }
            }
        }
        return out
    }

    /// Blends a heatmap's colours again over the pixels `covered` selects: MapLibre's heatmap
    /// colour pass has no depth test, so it shows over the opaque layers drawn above it.
    static func repeatColors(_ colors: [SIMD4<Float>], where covered: (Int, Int) -> Bool, into canvas: inout Compositor) {
        let w = canvas.width, q = canvas.quantizeEachDraw
        canvas.pixels.withUnsafeMutableBufferPointer { px in
            for i in 0..<colors.count where colors[i] != .zero && covered(i % w, i / w) {
                Compositor.blend(px.baseAddress! + i, colors[i], quantize: q)
            }
        }
    }

    /// Adds one point's kernel to the cells whose ground point lies in its square.
    private func splat(_ cx: Double, _ cy: Double, half: Double, _ f: EvaluatedHeatmapPoint, _ grid: inout [Double],
                       _ gw: Int, _ gh: Int, _ m: Matrix4, _ inv: Matrix4) {
        // The square's cells: its corners through the camera (the whole grid when one is behind it).
        var lx = Double.infinity, ly = Double.infinity, hx = -Double.infinity, hy = -Double.infinity
        var behind = false
        for (dx, dy) in [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)] {
            let p = m.transform(cx + dx * half, cy + dy * half, 0)
            guard p.w > 1e-9 else { behind = true; break }
            let sx = (p.x / p.w + 1) / 2 * Double(gw), sy = (1 - p.y / p.w) / 2 * Double(gh)
            lx = min(lx, sx); hx = max(hx, sx); ly = min(ly, sy); hy = max(hy, sy)
        }
        let box = behind ? (x0: 0, y0: 0, x1: gw, y1: gh) : PlaneProjection.clampBox(lx, ly, hx, hy, width: gw, height: gh)
        guard let box else { return }
        for r in box.y0..<box.y1 {
            let ny = 1 - (Double(r) + 0.5) / Double(gh) * 2
            for c in box.x0..<box.x1 {
                let nx = (Double(c) + 0.5) / Double(gw) * 2 - 1
                let a = inv.transform(nx, ny, -1), b = inv.transform(nx, ny, 1)
                guard a.w != 0, b.w != 0 else { continue }
                let az = a.z / a.w, bz = b.z / b.w
                guard az != bz else { continue }
                let k = az / (az - bz)
                guard k >= 0, k <= 1 else { continue }   // the ground is not seen at this cell
                let gx = a.x / a.w + (b.x / b.w - a.x / a.w) * k, gy = a.y / a.w + (b.y / b.w - a.y / a.w) * k
                let vx = (gx - cx) / f.radius, vy = (gy - cy) / f.radius
                let s = half / f.radius
                guard abs(vx) <= s, abs(vy) <= s else { continue }
                grid[r * gw + c] += HeatmapKernel.value(weight: f.weight, intensity: f.intensity, vx: vx, vy: vy)
            }
        }
    }

    /// The grid read bilinearly at cell coordinates (centres at integers), edges clamped.
    private func bilinear(_ g: [Double], _ w: Int, _ h: Int, _ x: Double, _ y: Double) -> Double {
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let ax = x - Double(x0), ay = y - Double(y0)
        func at(_ i: Int, _ j: Int) -> Double { g[min(max(j, 0), h - 1) * w + min(max(i, 0), w - 1)] }
        let top = at(x0, y0) * (1 - ax) + at(x0 + 1, y0) * ax
        let bottom = at(x0, y0 + 1) * (1 - ax) + at(x0 + 1, y0 + 1) * ax
        return top * (1 - ay) + bottom * ay
    }
}
