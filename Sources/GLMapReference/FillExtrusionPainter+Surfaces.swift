import Foundation
import GLMapCore
import GLMapStyle
import GLMapTiles

extension FillExtrusionPainter {
    /// The walls and roofs of one tile's features, in drawing order (per polygon: its rings'
    /// walls, then its roof), as MapLibre's bucket lays them out: an edge along the tile border
    /// outside the tile has no wall, nor has a ring wholly on the far side of a tile edge; walls
    /// carry the distance along the ring (reset past 32768 tile units) for patterns.
    func surfacesOf(_ l: EvaluatedFillExtrusionLayer, view: ViewTransform) -> [Surface] {
        guard let tile = l.tile else { return [] }
        let ws = view.worldSize
        let shift = WorldCopies.translation(view, l.translate, inViewport: l.translateAnchor == .viewport)
        let shading = ExtrusionShading(l.light, bearing: view.camera.bearing, verticalGradient: l.verticalGradient)
        let origin = TileSquare.world(tile, 0, 0)
        let originPx = (origin.x * ws + shift.x, origin.y * ws + shift.y)
        let unitsPerPixel = Double(TileExtent.extent) * Double(tile.canonical.tilesPerSide) / ws
        func world(_ x: Double, _ y: Double) -> (Double, Double) {
            let u = TileSquare.world(tile, x, y)
            return (u.x * ws + shift.x, u.y * ws + shift.y)
        }
        let extent = Double(TileExtent.extent)
        var out: [Surface] = []
        for f in l.features {
            if l.patterned && f.pattern == nil { continue }
            let base = max(0, f.base), height = max(0, f.height)
            func colors(_ nx: Double, _ ny: Double, roof: Bool) -> (SIMD4<Double>, SIMD4<Double>) {
                func one(_ t: Double) -> SIMD4<Double> {
                    let n = ExtrusionShading.packedNormal(nx: nx, ny: ny, roof: roof, t: t)
                    return f.pattern == nil
                        ? shading.color(f.color, normal: n, t: t, base: base, height: height, opacity: l.opacity)
                        : shading.patternLighting(normal: n, t: t, base: base, height: height, opacity: l.opacity)
                }
                return roof ? (one(1), one(1)) : (one(0), one(1))
            }
            for poly in f.polygons {
                let c = poly.coords
                guard c.allSatisfy({ $0.isFinite }) else { continue }
                for r in poly.ringRanges where !r.isEmpty {
                    let xs = r.map { c[2 * $0] }, ys = r.map { c[2 * $0 + 1] }
                    if xs.allSatisfy({ $0 < 0 }) || xs.allSatisfy({ $0 > extent }) || ys.allSatisfy({ $0 < 0 }) || ys.allSatisfy({ $0 > extent }) { continue }
                    var distance = 0.0
                    for i in r.dropFirst() {
                        let x1 = c[2 * i], y1 = c[2 * i + 1], x2 = c[2 * i - 2], y2 = c[2 * i - 1]
                        if (x1 == x2 && (x1 < 0 || x1 > extent)) || (y1 == y2 && (y1 < 0 || y1 > extent)) { continue }
                        let dx = x1 - x2, dy = y1 - y2
                        let length = (dx * dx + dy * dy).squareRoot()
                        if distance + length > 32768 { distance = 0 }
                        let d1 = distance.rounded()
                        distance += length
                        guard length > 0 else { continue }
                        let (c0, c1) = colors(-dy / length, dx / length, roof: false)
                        let a = world(x1, y1), b = world(x2, y2)
                        var s = Surface(shape: .wall(x1: a.0, y1: a.1, x2: b.0, y2: b.1, z0: base, z1: height), color0: c0, color1: c1)
                        if let p = f.pattern { s.pattern = (p.to, tile, d1, distance.rounded(), originPx, unitsPerPixel) }
                        out.append(s)
                    }
                }
                guard f.hasRoof else { continue }
                let rings = poly.ringRanges.filter { !$0.isEmpty }.map { r in r.flatMap { i -> [Double] in let p = world(c[2 * i], c[2 * i + 1]); return [p.0, p.1] } }
                let (c0, c1) = colors(0, 0, roof: true)
                var s = Surface(shape: .roof(rings: rings, z: height), color0: c0, color1: c1)
                if let p = f.pattern { s.pattern = (p.to, tile, 0, 0, originPx, unitsPerPixel) }
                out.append(s)
            }
        }
        return out
    }
}

/// Pixel centres of a frame seen as rays through the extrusion space (x, y world pixels, z metres).
struct Raster {
    /// Extrusion space → clip space, and back.
    let m: Matrix4, inv: Matrix4
    /// Device pixels.
    let width: Int, height: Int
    let ratio: Double

    /// Calls `body(pixel index, NDC depth, point)` for every pixel centre whose ray meets the
    /// surface's front side between the near and far planes; `point.t` is the top flag (0 at
    /// z0, 1 at z1) for walls, 1 for roofs.
    func each(_ s: FillExtrusionPainter.Surface, _ body: (Int, Double, (x: Double, y: Double, z: Double, t: Double)) -> Void) {
        let corners: [(Double, Double, Double)]
        switch s.shape {
        case .roof(let rings, let z):
            guard let outer = rings.first, outer.count >= 6 else { return }
            corners = stride(from: 0, to: outer.count - 1, by: 2).map { (outer[$0], outer[$0 + 1], z) }
        case .wall(let x1, let y1, let x2, let y2, let z0, let z1):
            guard z0 != z1, x1 != x2 || y1 != y2 else { return }
            corners = [(x1, y1, z0), (x2, y2, z0), (x2, y2, z1), (x1, y1, z1)]
        }
        guard let (box, area) = screen(corners) else { return }
        if case .wall = s.shape, area <= 0 { return }   // a back face (clockwise on screen)
        for py in box.y0..<box.y1 {
            let ny = 1 - (Double(py) + 0.5) / Double(height) * 2
            for px in box.x0..<box.x1 {
                let nx = (Double(px) + 0.5) / Double(width) * 2 - 1
                let a = inv.transform(nx, ny, -1), b = inv.transform(nx, ny, 1)
                guard a.w != 0, b.w != 0 else { continue }
                let o = (a.x / a.w, a.y / a.w, a.z / a.w)
                let d = (b.x / b.w - o.0, b.y / b.w - o.1, b.z / b.w - o.2)
                guard let hit = intersect(s.shape, o, d) else { continue }
                let clip = m.transform(hit.x, hit.y, hit.z)
                guard clip.w > 0 else { continue }
                let depth = clip.z / clip.w
                guard depth >= -1, depth <= 1 else { continue }
                body(py * width + px, depth, hit)
            }
        }
    }

    /// Where the ray o + d·k (k in 0…1) meets the surface, if it does from its front.
    private func intersect(_ shape: FillExtrusionPainter.Surface.Shape, _ o: (Double, Double, Double),
                           _ d: (Double, Double, Double)) -> (x: Double, y: Double, z: Double, t: Double)? {
        switch shape {
        case .roof(let rings, let z):
            guard d.2 < 0 else { return nil }   // roofs face up
            let k = (z - o.2) / d.2
            guard k >= 0, k <= 1 else { return nil }
            let x = o.0 + d.0 * k, y = o.1 + d.1 * k
            var inside = false
            for r in rings {
                var j = r.count - 2
                var i = 0
                while i + 1 < r.count {
                    let xi = r[i], yi = r[i + 1], xj = r[j], yj = r[j + 1]
                    if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi { inside.toggle() }
                    j = i
                    i += 2
                }
            }
            return inside ? (x, y, z, 1) : nil
        case .wall(let x1, let y1, let x2, let y2, let z0, let z1):
            let nx = -(y2 - y1), ny = x2 - x1
            let denom = nx * d.0 + ny * d.1
            guard denom != 0 else { return nil }
            let k = (nx * (x1 - o.0) + ny * (y1 - o.1)) / denom
            guard k >= 0, k <= 1 else { return nil }
            let x = o.0 + d.0 * k, y = o.1 + d.1 * k, z = o.2 + d.2 * k
            let len2 = (x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)
            let u = ((x - x1) * (x2 - x1) + (y - y1) * (y2 - y1)) / len2
            let t = (z - z0) / (z1 - z0)
            guard u >= 0, u <= 1, t >= 0, t <= 1 else { return nil }
            return (x, y, z, t)
        }
    }

    /// The device-pixel box of a planar loop seen by the camera (cut at the near side of the
    /// camera) and its signed area in clip space (x right, y up: positive counter-clockwise, the
    /// GL front face); nil when nothing of it is in front of the camera.
    private func screen(_ loop: [(Double, Double, Double)]) -> (box: (x0: Int, y0: Int, x1: Int, y1: Int), area: Double)? {
        let clip = loop.map { m.transform($0.0, $0.1, $0.2) }
        let eps = 1e-9
        var pts: [(Double, Double)] = []
        for i in clip.indices {
            let p = clip[i], q = clip[(i + 1) % clip.count]
            if p.w > eps { pts.append((p.x / p.w, p.y / p.w)) }
            if (p.w > eps) != (q.w > eps) {
                let t = (eps - p.w) / (q.w - p.w)
                let x = p.x + (q.x - p.x) * t, y = p.y + (q.y - p.y) * t
                pts.append((x / eps, y / eps))
            }
        }
        guard pts.count >= 3 else { return nil }
        var area = 0.0
        var lx = Double.infinity, ly = Double.infinity, hx = -Double.infinity, hy = -Double.infinity
        for i in pts.indices {
            let p = pts[i], q = pts[(i + 1) % pts.count]
            area += p.0 * q.1 - q.0 * p.1
            let sx = (p.0 + 1) / 2 * Double(width), sy = (1 - p.1) / 2 * Double(height)
            lx = min(lx, sx); hx = max(hx, sx); ly = min(ly, sy); hy = max(hy, sy)
        }
        guard let box = PlaneProjection.clampBox(lx, ly, hx, hy, width: width, height: height) else { return nil }
        return (box, area / 2)
    }
}
