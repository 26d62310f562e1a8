// CPU raster painters — contract
// Input: a `RasterLayerDraw` (a raster, hillshade or color-relief layer's tiles with their
// pictures or elevations, in GL JS's drawing order), the view and pixel ratio. Tiles are placed
// with GL JS's pixel-aligned matrix (`ViewTransform.pixelAlignment`), as the GPU places them.
// Output: the layer blended into the frame (`Compositor`), each tile drawn over the pixels whose
// centres fall in its quad (the tile's square, or an image source's four corners as two
// triangles split top-right → bottom-left like GL JS's quad), with GL JS's overlap stencil: a
// tile draws only where no deeper tile of the layer drew (raster and raster-dem sources).
// Independence: sampling is this file's own — texel centres, clamp to edge, bilinear or nearest,
// and for raster tiles the mip level a GPU picks for LINEAR_MIPMAP_NEAREST from the footprint of
// the pixel (the derivative of the texture coordinates, the magnification/minification switch at
// λ = ½ when magnifying linearly) — never the GL backend's shaders; shading follows GL JS's
// fragment shaders (raster.fragment, hillshade_prepare / hillshade, color_relief) in Double.
// Quantisation: pictures are premultiplied to bytes as WebGL's upload does; hillshade slopes are
// stored in 8 bits per channel (GL JS's RGBA8 prepare framebuffer); colour ramps in 8 bits.
// Limits: pixels above the horizon get nothing; one tile's quad is one "draw" for quantisation.
import Foundation
import GLMapCore
import GLMapStyle
import GLMapTiles

/// Paints raster-like layers on the CPU (see the contract above).
struct RasterPainter {
    /// Paints one layer's tiles into `canvas`.
    func paint(_ layer: RasterLayerDraw, view: ViewTransform, ratio: Double, into canvas: inout Compositor) {
        guard !layer.tiles.isEmpty else { return }
        var shader: (RasterTileDraw) -> TileShader?
        // Only pictures with mip levels need each pixel's footprint (hillshade and color relief
        // sample without mipmaps).
        var footprints = false
        switch layer.paint {
        case .raster(let p):
            guard p.opacity > 0 else { return }
            footprints = true
            shader = { t in t.texture.map { RasterShader(paint: p, texture: TextureCache.shared.texture($0)) } }
        case .hillshade(let p):
            guard p.exaggeration != 0 else { return }
            let lights = p.lights(bearing: view.camera.bearing)
            shader = { t in t.dem.map { HillshadeShader(paint: p, lights: lights, slopes: HillshadePrepare.slopes($0, zoom: t.tile.overscaledZ), tile: t.tile) } }
        case .colorRelief(let p):
            shader = { t in t.dem.map { ColorReliefShader(paint: p, dem: $0.dem) } }
        }
        // GL JS's overlap stencil: one reference per zoom, deeper zooms higher; a tile passes
        // where its reference is ≥ the stored one and writes it.
        let zooms = layer.tiles.map(\.tile.overscaledZ)
        let minZ = zooms.min() ?? 0
        let useStencil = layer.stencilOverlap && zooms.contains { $0 != minZ }
        var stencil = useStencil ? [UInt8](repeating: 0, count: canvas.width * canvas.height) : []
        for t in layer.tiles {
            guard let s = shader(t) else { continue }
            let ref = UInt8(clamping: t.tile.overscaledZ - minZ + 1)
            let quad = RasterQuad(t, view: view, ratio: ratio)
            quad.forEachPixel(width: canvas.width, height: canvas.height, footprints: footprints) { x, y, uv, footprint in
                let i = y * canvas.width + x
                if useStencil {
                    guard ref >= stencil[i] else { return }
                    stencil[i] = ref
                }
                let c = s.color(u: uv.u, v: uv.v, footprint: footprint)
                guard c != .zero else { return }
                let clamped = c.clamped(lowerBound: .zero, upperBound: SIMD4<Float>(repeating: 1))
                canvas.pixels.withUnsafeMutableBufferPointer { buf in
                    Compositor.blend(buf.baseAddress! + i, clamped, quantize: canvas.quantizeEachDraw)
                }
            }
        }
    }
}

/// What a tile's fragments are: a colour per texture coordinate (premultiplied, unclamped).
protocol TileShader {
    /// The fragment colour at texture coordinate (u, v) ∈ [0, 1]²; `footprint` is the texel-space
    /// derivative scale (texture-coordinate units per device pixel) for mip selection.
    func color(u: Double, v: Double, footprint: Double) -> SIMD4<Float>
}

/// A tile's quad seen through the camera: which device pixels it covers and the texture
/// coordinate at each pixel centre.
struct RasterQuad {
    let proj: PlaneProjection
    /// The quad's corners on the plane (top left, top right, bottom right, bottom left).
    let corners: [(x: Double, y: Double)]
    /// Plane → texture coordinate per triangle (TL-TR-BL, TR-BL-BR): u = a·x + b·y + c, v = d·x + e·y + f.
    let maps: [(Double, Double, Double, Double, Double, Double)]
    /// Whether the quad is the tile's square (one affine map, half-open edges).
    let isSquare: Bool

    init(_ t: RasterTileDraw, view: ViewTransform, ratio: Double) {
        let b = t.tile.unitBounds
        let ws = view.worldSize
        proj = PlaneProjection(view: view, ratio: ratio, origin: (b.x, b.y), copy: 0, translate: view.pixelAlignment, anchor: .map)
        let scale = b.side * ws / Double(TileExtent.extent)
        let plane = t.quad.map { (x: $0.x * scale, y: $0.y * scale) }
        corners = plane
        isSquare = t.corners == nil
        let tex: [(Double, Double)] = [(0, 0), (1, 0), (1, 1), (0, 1)]
        maps = [[0, 1, 3], [1, 3, 2]].map { idx in
            RasterQuad.affine(from: idx.map { plane[$0] }, to: idx.map { tex[$0] })
        }
    }

    /// The affine map sending three plane points to three texture points.
    static func affine(from p: [(x: Double, y: Double)], to t: [(Double, Double)]) -> (Double, Double, Double, Double, Double, Double) {
        let x1 = p[1].x - p[0].x, y1 = p[1].y - p[0].y, x2 = p[2].x - p[0].x, y2 = p[2].y - p[0].y
        let det = x1 * y2 - x2 * y1
        guard det != 0, det.isFinite else { return (0, 0, 0, 0, 0, 0) }
        let u1 = t[1].0 - t[0].0, u2 = t[2].0 - t[0].0, v1 = t[1].1 - t[0].1, v2 = t[2].1 - t[0].1
        let a = (u1 * y2 - u2 * y1) / det, b = (u2 * x1 - u1 * x2) / det
        let d = (v1 * y2 - v2 * y1) / det, e = (v2 * x1 - v1 * x2) / det
        return (a, b, t[0].0 - a * p[0].x - b * p[0].y, d, e, t[0].1 - d * p[0].x - e * p[0].y)
    }

    @inline(__always)
    static func apply(_ m: (Double, Double, Double, Double, Double, Double), _ x: Double, _ y: Double) -> (u: Double, v: Double) {
        (m.0 * x + m.1 * y + m.2, m.3 * x + m.4 * y + m.5)
    }

    /// Which triangle holds the plane point (0, 1), nil when neither.
    @inline(__always)
    func triangle(_ x: Double, _ y: Double) -> Int? {
        if isSquare {
            let t = RasterQuad.apply(maps[0], x, y)
            return t.u >= 0 && t.u < 1 && t.v >= 0 && t.v < 1 ? 0 : nil
        }
        // Barycentric through the triangle's own map: inside when u, v and 1 − (u+v) (in the
        // triangle's parameters) are non-negative; the diagonal belongs to the first.
        for k in 0..<2 {
            let idx = k == 0 ? [0, 1, 3] : [1, 3, 2]
            let a = corners[idx[0]], b = corners[idx[1]], c = corners[idx[2]]
            let d = (b.y - c.y) * (a.x - c.x) + (c.x - b.x) * (a.y - c.y)
            guard d != 0 else { continue }
            let l1 = ((b.y - c.y) * (x - c.x) + (c.x - b.x) * (y - c.y)) / d
            let l2 = ((c.y - a.y) * (x - c.x) + (a.x - c.x) * (y - c.y)) / d
            let l3 = 1 - l1 - l2
            if k == 0 ? (l1 >= 0 && l2 >= 0 && l3 >= 0) : (l1 >= 0 && l2 > 0 && l3 > 0) { return k }
        }
        return nil
    }

    /// Calls `body(x, y, (u, v), footprint)` for every device pixel whose centre lies in the quad
    /// (footprint 0 unless `footprints`).
    func forEachPixel(width: Int, height: Int, footprints: Bool, _ body: (Int, Int, (u: Double, v: Double), Double) -> Void) {
        var lx = Double.infinity, ly = Double.infinity, hx = -Double.infinity, hy = -Double.infinity
        for c in corners { lx = min(lx, c.x); ly = min(ly, c.y); hx = max(hx, c.x); hy = max(hy, c.y) }
        guard let box = proj.screenBox((lx, ly, hx, hy), margin: 1, width: width, height: height) else { return }
        for y in box.y0..<box.y1 {
            for x in box.x0..<box.x1 {
                let sx = Double(x) + 0.5, sy = Double(y) + 0.5
                guard let p = proj.toPlane(sx, sy), let k = triangle(p.x, p.y) else { continue }
                let uv = RasterQuad.apply(maps[k], p.x, p.y)
                // The footprint of the pixel in texture coordinates (the GPU's derivatives).
                var footprint = 0.0
                if footprints, let px = proj.toPlane(sx + 1, sy), let py = proj.toPlane(sx, sy + 1) {
                    let ux = RasterQuad.apply(maps[k], px.x, px.y), uy = RasterQuad.apply(maps[k], py.x, py.y)
                    let dx = ((ux.u - uv.u) * (ux.u - uv.u) + (ux.v - uv.v) * (ux.v - uv.v)).squareRoot()
                    let dy = ((uy.u - uv.u) * (uy.u - uv.u) + (uy.v - uv.v) * (uy.v - uv.v)).squareRoot()
                    footprint = max(dx, dy)
                }
                body(x, y, uv, footprint)
            }
        }
    }
}

/// A texture as GL samples it: premultiplied RGBA8 levels (level 0 the picture, then 2×2 box
/// averages while the picture is a power-of-two square: the mipmaps GL JS asks for).
final class SampledTexture: @unchecked Sendable {
    let width: Int
    let height: Int
    /// Levels, each premultiplied RGBA8 rows top to bottom.
    let levels: [(width: Int, height: Int, pixels: [UInt8])]

    init(_ image: StraightImage, mipmaps: Bool) {
        width = image.width
        height = image.height
        let px = image.premultiplied().pixels
        var levels = [(width: image.width, height: image.height, pixels: px)]
        if mipmaps && width == height && width > 0 && width & (width - 1) == 0 {
            var w = width
            while w > 1 {
                let prev = levels[levels.count - 1].pixels, nw = w / 2
                var next = [UInt8](repeating: 0, count: nw * nw * 4)
                for y in 0..<nw {
                    for x in 0..<nw {
                        let top = ((2 * y) * w + 2 * x) * 4, bottom = ((2 * y + 1) * w + 2 * x) * 4
                        for k in 0..<4 {
                            let a = Int(prev[top + k]), b = Int(prev[top + 4 + k])
                            let c = Int(prev[bottom + k]), d = Int(prev[bottom + 4 + k])
                            next[(y * nw + x) * 4 + k] = UInt8((a + b + c + d + 2) / 4)
                        }
                    }
                }
                levels.append((nw, nw, next))
                w = nw
            }
        }
        self.levels = levels
    }

    /// Whether mip levels exist.
    var hasMipmaps: Bool { levels.count > 1 }

    /// Bytes of texels held (every level).
    var byteCount: Int { levels.reduce(0) { $0 + $1.pixels.count } }

    /// The texel (clamped to the edge) of a level, as 0…1 floats.
    @inline(__always)
    func texel(_ level: Int, _ x: Int, _ y: Int) -> SIMD4<Double> {
        let l = levels[level]
        let cx = min(max(x, 0), l.width - 1), cy = min(max(y, 0), l.height - 1)
        let o = (cy * l.width + cx) * 4
        return SIMD4(Double(l.pixels[o]), Double(l.pixels[o + 1]), Double(l.pixels[o + 2]), Double(l.pixels[o + 3])) / 255
    }

    /// Bilinear sample of a level at texture coordinate (u, v) (texel centres at (i + ½) / size).
    func linear(_ level: Int, _ u: Double, _ v: Double) -> SIMD4<Double> {
        let l = levels[level]
        let x = u * Double(l.width) - 0.5, y = v * Double(l.height) - 0.5
        let x0 = x.rounded(.down), y0 = y.rounded(.down)
        let fx = x - x0, fy = y - y0
        let ix = Int(x0), iy = Int(y0)
        let a = texel(level, ix, iy), b = texel(level, ix + 1, iy), c = texel(level, ix, iy + 1), d = texel(level, ix + 1, iy + 1)
        return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
    }

    /// Nearest sample of level 0.
    func nearest(_ u: Double, _ v: Double) -> SIMD4<Double> {
        texel(0, Int((u * Double(width)).rounded(.down)), Int((v * Double(height)).rounded(.down)))
    }

    /// GL's sample for a magnification filter (`nearest` or linear) and a LINEAR_MIPMAP_NEAREST
    /// minification filter when mip levels exist (LINEAR otherwise), at footprint `footprint`
    /// (texture-coordinate units per pixel).
    func sample(_ u: Double, _ v: Double, footprint: Double, nearestMagnification: Bool) -> SIMD4<Double> {
        let lambda = log2(max(footprint * Double(max(width, height)), 1e-300))
        // The switch point between magnification and minification: ½ when magnifying linearly
        // with a mipmapped NEAREST-level minification filter, else 0 (GLES 3.0 §3.8.11).
        let c = !nearestMagnification && hasMipmaps ? 0.5 : 0
        if lambda <= c {
            return nearestMagnification ? nearest(u, v) : linear(0, u, v)
        }
        guard hasMipmaps else { return linear(0, u, v) }
        let level = lambda <= 0.5 ? 0 : min(levels.count - 1, Int((lambda + 0.5).rounded(.up)) - 1)
        return linear(level, u, v)
    }
}

/// Textures sampled by the painters, by picture key (premultiplying and mip levels once), the
/// most recently made kept up to a byte budget.
final class TextureCache: @unchecked Sendable {
    static let shared = TextureCache()
    /// Bytes of texels kept (the oldest textures go first past it).
    static let budget = 96 << 20
    private let lock = NSLock()
    private var entries: [UInt64: SampledTexture] = [:]
    private var order: [UInt64] = []
    private var bytes = 0

    /// The sampled texture of a picture (raster tiles with mip levels: GL JS generates them).
    func texture(_ t: RasterTexture) -> SampledTexture {
        lock.lock(); defer { lock.unlock() }
        if let hit = entries[t.key] { return hit }
        let s = SampledTexture(t.image, mipmaps: true)
        entries[t.key] = s
        order.append(t.key)
        bytes += s.byteCount
        while bytes > TextureCache.budget, order.count > 1 {
            let old = order.removeFirst()
            bytes -= entries[old]?.byteCount ?? 0
            entries[old] = nil
        }
        return s
    }
}

/// GL JS's raster.fragment: the picture un-premultiplied, hue-rotated, saturated, contrasted,
/// mapped into the brightness range, then premultiplied by its alpha times the opacity.
struct RasterShader: TileShader {
    let paint: EvaluatedRasterPaint
    let texture: SampledTexture

    func color(u: Double, v: Double, footprint: Double) -> SIMD4<Float> {
        let c0 = texture.sample(u, v, footprint: footprint, nearestMagnification: paint.resampling == .nearest)
        var color = c0
        if color.w > 0 { color = SIMD4(color.x / color.w, color.y / color.w, color.z / color.w, color.w) }
        let a = color.w * paint.opacity
        let w = paint.spinWeights
        var r = color.x * w.0 + color.y * w.1 + color.z * w.2
        var g = color.x * w.2 + color.y * w.0 + color.z * w.1
        var b = color.x * w.1 + color.y * w.2 + color.z * w.0
        let average = (color.x + color.y + color.z) / 3
        let s = paint.saturationFactor
        r += (average - r) * s; g += (average - g) * s; b += (average - b) * s
        let k = paint.contrastFactor
        r = (r - 0.5) * k + 0.5; g = (g - 0.5) * k + 0.5; b = (b - 0.5) * k + 0.5
        let lo = paint.brightnessMin, hi = paint.brightnessMax
        return SIMD4<Float>(Float((lo + (hi - lo) * r) * a), Float((lo + (hi - lo) * g) * a), Float((lo + (hi - lo) * b) * a), Float(a))
    }
}

/// GL JS's hillshade_prepare pass on the CPU: per DEM pixel the Sobel slopes from its 3×3
/// neighbourhood (borders included), scaled by the zoom's exaggeration, stored as bytes
/// (deriv / 8 + ½, clamped: the RGBA8 framebuffer GL JS renders them into).
enum HillshadePrepare {
    /// The slopes image of a DEM tile prepared at zoom `zoom` (its overscaled zoom): dim × dim,
    /// two bytes per pixel (x then y).
    static func slopes(_ t: DEMTexture, zoom: Int) -> (dim: Int, pixels: [UInt8]) {
        let key = SlopesKey(dem: t.key, zoom: zoom)
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let dem = t.dem, dim = dem.dim
        let z = Double(zoom)
        let factor = z < 2 ? 0.4 : z < 4.5 ? 0.35 : 0.3
        let exaggeration = z < 15 ? (z - 15) * factor : 0
        let scale = Double(dim) / pow(2, exaggeration + (28.2562 - z))
        var out = [UInt8](repeating: 0, count: dim * dim * 2)
        for y in 0..<dim {
            for x in 0..<dim {
                let a = dem.elevation(x: x - 1, y: y - 1), b = dem.elevation(x: x, y: y - 1), c = dem.elevation(x: x + 1, y: y - 1)
                let d = dem.elevation(x: x - 1, y: y), f = dem.elevation(x: x + 1, y: y)
                let g = dem.elevation(x: x - 1, y: y + 1), h = dem.elevation(x: x, y: y + 1), i = dem.elevation(x: x + 1, y: y + 1)
                let dx = ((c + f + f + i) - (a + d + d + g)) * scale
                let dy = ((g + h + h + i) - (a + b + b + c)) * scale
                out[(y * dim + x) * 2] = byte(dx / 8 + 0.5)
                out[(y * dim + x) * 2 + 1] = byte(dy / 8 + 0.5)
            }
        }
        let result = (dim, out)
        cache.withLock { c in
            if c.count > 64 { c.removeAll() }
            c[key] = result
        }
        return result
    }

    @inline(__always)
    static func byte(_ v: Double) -> UInt8 {
        UInt8((min(max(v, 0), 1) * 255).rounded(.toNearestOrAwayFromZero))
    }

    /// A DEM picture (its key) prepared at a zoom.
    struct SlopesKey: Hashable { var dem: UInt64; var zoom: Int }
    /// Slopes computed for recent frames.
    static let cache = Locked<[SlopesKey: (dim: Int, pixels: [UInt8])]>([:])
}

/// GL JS's hillshade.fragment over one tile's prepared slopes.
struct HillshadeShader: TileShader {
    let paint: EvaluatedHillshadePaint
    let lights: [HillshadeLight]
    let slopes: (dim: Int, pixels: [UInt8])
    /// Latitudes of the tile's north and south edges in degrees.
    let latRange: (Double, Double)

    init(paint: EvaluatedHillshadePaint, lights: [HillshadeLight], slopes: (dim: Int, pixels: [UInt8]), tile: OverscaledTileID) {
        self.paint = paint
        self.lights = lights
        self.slopes = slopes
        let c = tile.canonical
        latRange = (c.lonLat(x: 0, y: 0).lat, c.lonLat(x: 0, y: Double(TileExtent.extent)).lat)
    }

    /// The prepared slopes bilinearly sampled at (u, v), as 0…1 channels.
    func sample(_ u: Double, _ v: Double) -> (Double, Double) {
        let n = slopes.dim
        let x = u * Double(n) - 0.5, y = v * Double(n) - 0.5
        let x0 = x.rounded(.down), y0 = y.rounded(.down)
        let fx = x - x0, fy = y - y0
        func t(_ i: Int, _ j: Int, _ k: Int) -> Double {
            let cx = min(max(i, 0), n - 1), cy = min(max(j, 0), n - 1)
            return Double(slopes.pixels[(cy * n + cx) * 2 + k]) / 255
        }
        let ix = Int(x0), iy = Int(y0)
        func mix(_ k: Int) -> Double {
            (t(ix, iy, k) * (1 - fx) + t(ix + 1, iy, k) * fx) * (1 - fy) + (t(ix, iy + 1, k) * (1 - fx) + t(ix + 1, iy + 1, k) * fx) * fy
        }
        return (mix(0), mix(1))
    }

    func color(u: Double, v: Double, footprint: Double) -> SIMD4<Float> {
        let px = sample(u, v)
        let scaleFactor = cos(((latRange.0 - latRange.1) * (1 - v) + latRange.1) * Double.pi / 180)
        let deriv = ((px.0 * 8 - 4) / scaleFactor, (px.1 * 8 - 4) / scaleFactor)
        let c = HillshadeShading.shade(deriv: deriv, paint: paint, lights: lights)
        return SIMD4<Float>(Float(c.x), Float(c.y), Float(c.z), Float(c.w))
    }
}

/// The five shading methods of GL JS's hillshade.fragment, on a slope vector.
enum HillshadeShading {
    static func vec(_ c: Color) -> SIMD4<Double> { SIMD4(c.r, c.g, c.b, c.a) }

    static func aspect(_ d: (Double, Double)) -> Double {
        d.0 != 0 ? atan2(d.1, -d.0) : Double.pi / 2 * (d.1 > 0 ? 1 : -1)
    }

    /// GLSL's mod (x − y·floor(x/y)).
    static func mod(_ x: Double, _ y: Double) -> Double { x - y * (x / y).rounded(.down) }

    static func shade(deriv d0: (Double, Double), paint: EvaluatedHillshadePaint, lights: [HillshadeLight]) -> SIMD4<Double> {
        guard let first = lights.first else { return .zero }
        let pi = Double.pi
        let ex = paint.exaggeration
        switch paint.method {
        case .standard:
            let d = d0
            let azimuth = first.azimuth + pi
            let slope = atan(0.625 * (d.0 * d.0 + d.1 * d.1).squareRoot())
            let asp = aspect(d)
            let intensity = ex
            let base = 1.875 - intensity * 1.75
            let maxValue = 0.5 * pi
            let scaledSlope = intensity != 0.5 ? ((pow(base, slope) - 1) / (pow(base, maxValue) - 1)) * maxValue : slope
            let accent = cos(scaledSlope)
            let k = min(max(intensity * 2, 0), 1)
            let accentColor = vec(paint.accentColor) * ((1 - accent) * k)
            let shadeT = abs(mod((asp + azimuth) / pi + 0.5, 2) - 1)
            let s = vec(first.shadow), h = vec(first.highlight)
            let shadeColor = (s + (h - s) * shadeT) * (sin(scaledSlope) * k)
            return accentColor * (1 - shadeColor.w) + shadeColor
        case .basic:
            let d = (d0.0 * ex * 2, d0.1 * ex * 2)
            let azimuth = first.azimuth + pi
            let cang = (sin(first.altitude) - (d.1 * cos(azimuth) * cos(first.altitude) - d.0 * sin(azimuth) * cos(first.altitude)))
                / (1 + d.0 * d.0 + d.1 * d.1).squareRoot()
            let shade = min(max(cang, 0), 1)
            return shade > 0.5 ? vec(first.highlight) * (2 * shade - 1) : vec(first.shadow) * (1 - 2 * shade)
        case .multidirectional:
            let d = (d0.0 * ex * 2, d0.1 * ex * 2)
            var out = SIMD4<Double>.zero
            let n = Double(lights.count)
            for l in lights {
                let cosAz = -cos(l.azimuth), sinAz = -sin(l.azimuth)
                let cang = (sin(l.altitude) - (d.1 * cosAz * cos(l.altitude) - d.0 * sinAz * cos(l.altitude)))
                    / (1 + d.0 * d.0 + d.1 * d.1).squareRoot()
                let shade = min(max(cang, 0), 1)
                if shade > 0.5 {
                    out += vec(l.highlight) * ((2 * shade - 1) / n)
                } else {
                    out += vec(l.shadow) * ((1 - 2 * shade) / n)
                }
            }
            return out
        case .combined:
            let d = (d0.0 * ex * 2, d0.1 * ex * 2)
            let azimuth = first.azimuth + pi
            let arg = (sin(first.altitude) - (d.1 * cos(azimuth) * cos(first.altitude) - d.0 * sin(azimuth) * cos(first.altitude)))
                / (1 + d.0 * d.0 + d.1 * d.1).squareRoot()
            var cang = acos(min(max(arg, -1), 1))
            cang = min(max(cang, 0), pi / 2)
            let len = atan((d.0 * d.0 + d.1 * d.1).squareRoot())
            let shade = cang * len * 4 / pi / pi
            let highlight = (pi / 2 - cang) * len * 4 / pi / pi
            return vec(first.shadow) * shade + vec(first.highlight) * highlight
        case .igor:
            let d = (d0.0 * ex * 2, d0.1 * ex * 2)
            let asp = aspect(d)
            let azimuth = first.azimuth + pi
            let slopeStrength = atan((d.0 * d.0 + d.1 * d.1).squareRoot()) * 2 / pi
            let aspectStrength = 1 - abs(mod((asp + azimuth) / pi + 0.5, 2) - 1)
            return vec(first.shadow) * (slopeStrength * aspectStrength) + vec(first.highlight) * (slopeStrength * (1 - aspectStrength))
        }
    }
}

/// GL JS's color_relief.fragment: the DEM bilinearly sampled (its border included), the
/// elevation found between the ramp's stops (stored as the DEM encodes elevations), the colour
/// read from the 8-bit ramp with linear filtering, times the opacity.
struct ColorReliefShader: TileShader {
    let opacity: Double
    let dem: DEMData
    let stops: [Double]
    /// Premultiplied ramp colours as bytes / 255.
    let colors: [SIMD4<Double>]

    init(paint: EvaluatedColorReliefPaint, dem: DEMData) {
        opacity = paint.opacity
        self.dem = dem
        let ramp = ColorReliefRamp(paint, encoding: dem.encoding)
        stops = ramp.elevations
        colors = ramp.colors.map { SIMD4(Double($0.r), Double($0.g), Double($0.b), Double($0.a)) / 255 }
    }

    func color(u: Double, v: Double, footprint: Double) -> SIMD4<Float> {
        // v_pos = uv · dim/stride + 1/stride: texel coordinate uv · dim + ½ of the padded grid.
        let x = u * Double(dem.dim) + 0.5, y = v * Double(dem.dim) + 0.5
        let x0 = x.rounded(.down), y0 = y.rounded(.down)
        let fx = x - x0, fy = y - y0
        func e(_ i: Int, _ j: Int) -> Double {
            dem.elevation(x: min(max(i - 1, -1), dem.dim), y: min(max(j - 1, -1), dem.dim))
        }
        let ix = Int(x0), iy = Int(y0)
        let el = (e(ix, iy) * (1 - fx) + e(ix + 1, iy) * fx) * (1 - fy) + (e(ix, iy + 1) * (1 - fx) + e(ix + 1, iy + 1) * fx) * fy
        var r = stops.count - 1, l = 0
        var elL = stops[l], elR = stops[r]
        while r - l > 1 {
            let m = (r + l) / 2
            if el < stops[m] { r = m; elR = stops[m] } else { l = m; elL = stops[m] }
        }
        let t = Double(l) + (el - elL) / (elR - elL)
        let t0 = t.rounded(.down), f = t - t0
        let i0 = min(max(Int(t0), 0), colors.count - 1), i1 = min(max(Int(t0) + 1, 0), colors.count - 1)
        let c = (colors[i0] * (1 - f) + colors[i1] * f) * opacity
        return SIMD4<Float>(Float(c.x), Float(c.y), Float(c.z), Float(c.w))
    }
}
