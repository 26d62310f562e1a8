import Foundation
import GLMapCore
import GLMapStyle
import GLMapText

/// A symbol layer as the CPU reference renderer draws it: the frame's placement (GLMapText's
/// `SymbolLayerFrame`: positions, opacities, draw order, uniforms), the tiles' layouts (quads and
/// atlases) by input index, and the layer's paint expressions (values at the frame zoom).
public struct ReferenceSymbolLayer: Sendable {
    /// The placed frame.
    public var frame: SymbolLayerFrame
    /// Layouts by the frame's `SymbolTileFrame.input`.
    public var layouts: [SymbolTileLayout]
    /// The layer's bound paint expressions.
    public var paint: PaintSource

    /// A layer to draw.
    public init(frame: SymbolLayerFrame, layouts: [SymbolTileLayout], paint: PaintSource) {
        self.frame = frame
        self.layouts = layouts
        self.paint = paint
    }
}

/// Draws symbol quads on the CPU: each quad's corners computed as GL JS's symbol vertex stage
/// computes them (size at the zoom, perspective ratio, rotation with the map or along the line,
/// label plane → clip), rasterised as two triangles over pixel centres (top-left rule),
/// texture coordinates interpolated perspective-correctly, the atlas sampled bilinearly (glyphs,
/// SDF icons, linear icons) or at the nearest texel, and the fragment computed as the symbol
/// fragment stages do (distance-field edge at 0.75 ± gamma, halo pass, premultiplied icons).
/// Its own arithmetic throughout: nothing of the GPU path or the tessellator is used.
struct SymbolPainter {
    let view: ViewTransform
    let ratio: Double

    func paint(_ layer: ReferenceSymbolLayer, into canvas: inout Compositor) {
        let f = layer.frame
        for (isText, items) in [(false, f.iconItems), (true, f.textItems)] {
            for item in items {
                let tile = f.tiles[item.tile]
                guard let kind = isText ? tile.text : tile.icon, tile.input < layer.layouts.count else { continue }
                let layout = layer.layouts[tile.input]
                let quads = kind.segments[item.segment].quads
                let u = kind.uniforms
                var paint = layer.paint
                paint.tileZoom = Double(layout.tile.overscaledZ)
                if u.isSDF && u.hasHalo { draw(quads, kind, layout, isText: isText, halo: true, paint: paint, into: &canvas) }
                draw(quads, kind, layout, isText: isText, halo: false, paint: paint, into: &canvas)
            }
        }
        if let debug = f.debug { paintDebug(debug, into: &canvas) }
    }

    /// Paint values of one quad at the frame zoom (the GPU's uniform or mixed attributes).
    func paintValues(_ entry: SymbolPaint?, _ properties: [StyleProperty], _ paint: PaintSource) -> [Value] {
        properties.enumerated().map { i, p in
            switch paint.variation(p) {
            case .camera:
                return paint.value(p, zoom: view.camera.zoom)
            case .constant, .source:
                return entry?.values[i] ?? paint.value(p, zoom: view.camera.zoom)
            case .composite:
                guard let e = entry else { return paint.value(p, zoom: view.camera.zoom) }
                let t = paint.mixFactor(p, zoom: view.camera.zoom)
                switch (e.values[i], e.next[i]) {
                case (.number(let a), .number(let b)): return .number(a + (b - a) * t)
                case (.color(let a), .color(let b)):
                    return .color(Color(premultipliedR: a.r + (b.r - a.r) * t, g: a.g + (b.g - a.g) * t, b: a.b + (b.b - a.b) * t, a: a.a + (b.a - a.a) * t))
                default: return e.values[i]
                }
            }
        }
    }

    /// One draw (halo or fill pass) of a segment's quads.
    func draw(_ quads: [UInt32], _ kind: SymbolKindFrame, _ layout: SymbolTileLayout, isText: Bool, halo: Bool, paint: PaintSource,
              into canvas: inout Compositor) {
        let u = kind.uniforms
        let buffer = isText ? layout.text : layout.icon
        let properties = isText ? SymbolLayout.textPaintProperties : SymbolLayout.iconPaintProperties
        var paintCache: [Int32: [Value]] = [:]
        let glyphAtlas = layout.glyphAtlas
        let iconAtlas = layout.iconAtlas
        for q in quads {
            let quad = buffer.quads[Int(q)]
            let values: [Value]
            if let v = paintCache[quad.paint] { values = v } else {
                let entry = Int(quad.paint) < buffer.paint.count ? buffer.paint[Int(quad.paint)] : nil
                values = paintValues(entry, properties, paint)
                paintCache[quad.paint] = values
            }
            let d = Int(q) * 16
            let dyn = (Double(kind.dynamic[d]), Double(kind.dynamic[d + 1]), Double(kind.dynamic[d + 2]), Double(kind.dynamic[d + 3]))
            guard dyn.3 > 0 else { continue }
            guard let (corners, size) = vertices(quad, dyn, u) else { continue }
            let isSDFQuad = u.program == .textAndIcon ? (Int(quad.sizeA) % 2 == 1) : u.isSDF
            let color = values[0].color ?? .black, haloColor = values[1].color ?? .black
            let opacity = values[2].number ?? 1, haloWidth = values[3].number ?? 0, haloBlur = values[4].number ?? 0
            let shade = Shade(isSDF: isSDFQuad, halo: halo, color: color, haloColor: haloColor, opacity: opacity, fade: dyn.3,
                              haloWidth: haloWidth, haloBlur: haloBlur, size: size, u: u)
            let atlasIsIcon = !isText || (u.program == .textAndIcon && !isSDFQuad)
            let texSize = atlasIsIcon && isText ? u.texSizeIcon : u.texSize
            let linear = atlasIsIcon && isText ? u.linearIcon : u.linear
            let sample: (Double, Double) -> SIMD4<Double>
            if atlasIsIcon {
                sample = { x, y in SymbolPainter.sampleRGBA(iconAtlas, x * Double(iconAtlas.width) / texSize.w,
                                                             y * Double(iconAtlas.height) / texSize.h, linear: linear) }
            } else {
                sample = { x, y in
                    let a = SymbolPainter.sampleAlpha(glyphAtlas, x * Double(glyphAtlas.width) / texSize.w, y * Double(glyphAtlas.height) / texSize.h)
                    return SIMD4(0, 0, 0, a)
                }
            }
            rasterize(corners, canvas: &canvas) { tex, w in
                shade.fragment(sample(tex.0, tex.1), gammaScale: w)
            }
        }
    }

    /// A vertex after the symbol vertex stage: clip position, texture position (atlas pixels), w.
    typealias Corner = (x: Double, y: Double, w: Double, tx: Double, ty: Double)

    /// The four corners (tl, tr, bl, br) of a quad as the vertex stage places them; nil when the
    /// quad is hidden (off-screen positions).
    func vertices(_ q: SymbolVertexQuad, _ dyn: (Double, Double, Double, Double), _ u: SymbolDrawUniforms) -> (corners: [Corner], size: Double)? {
        guard dyn.0.isFinite, dyn.1.isFinite else { return nil }
        let sizeMin = (Double(q.sizeA) * 0.5).rounded(.down)
        var size: Double
        if !u.sizeZoomConstant && !u.sizeFeatureConstant {
            size = (sizeMin + (Double(q.sizeB) - sizeMin) * u.sizeT) / 128
        } else if u.sizeZoomConstant && !u.sizeFeatureConstant {
            size = sizeMin / 128
        } else {
            size = u.size
        }
        let ax = Double(q.anchorX) + u.translation.x, ay = Double(q.anchorY) + u.translation.y
        let m = u.posMatrix
        let pp = m.transform(ax, ay, 0)
        let distanceRatio = u.pitchWithMap ? pp.w / u.cameraToCenterDistance : u.cameraToCenterDistance / pp.w
        size *= min(max(0.5 + 0.5 * distanceRatio, 0), 4)
        let fontScale = u.isText ? size / 24 : size
        var rotation = 0.0
        if u.rotateSymbol {
            let b = m.transform(ax + 1, ay, 0)
            rotation = atan2((b.y / b.w - pp.y / pp.w) / u.aspectRatio, b.x / b.w - pp.x / pp.w)
        }
        let angle = -dyn.2 + rotation
        let s = sin(angle), c = cos(angle)
        var projected: (x: Double, y: Double, z: Double, w: Double)
        if u.alongLine || u.variableAnchor {
            projected = (dyn.0, dyn.1, 0, 1)
        } else if u.pitchWithMap {
            projected = u.labelPlaneMatrix.transform(dyn.0 + u.translation.x, dyn.1 + u.translation.y, 0)
        } else {
            let t = m.transform(dyn.0 + u.translation.x, dyn.1 + u.translation.y, 0)
            let l = u.labelPlaneMatrix.m
            projected = (l[0] * t.x + l[4] * t.y + l[8] * t.z + l[12] * t.w, l[1] * t.x + l[5] * t.y + l[9] * t.z + l[13] * t.w,
                         l[2] * t.x + l[6] * t.y + l[10] * t.z + l[14] * t.w, l[3] * t.x + l[7] * t.y + l[11] * t.z + l[15] * t.w)
        }
        let z = u.pitchWithMap ? projected.z / projected.w : 0
        let o = q.offsets, p = q.pixelOffsets
        let corners: [(Double, Double, Float, Float, Float, Float)] = [
            (Double(o.0), Double(o.1), q.tex.x0, q.tex.y0, p.0, p.1),
            (Double(o.2), Double(o.3), q.tex.x1, q.tex.y0, p.2, p.1),
            (Double(o.4), Double(o.5), q.tex.x0, q.tex.y1, p.0, p.3),
            (Double(o.6), Double(o.7), q.tex.x1, q.tex.y1, p.2, p.3),
        ]
        let icon = u.program == .icon
        let placed: [Corner] = corners.map { cn in
            var ox: Double, oy: Double
            if icon {
                let fx = max(Double(q.minFontScale.0) / 256, fontScale), fy = max(Double(q.minFontScale.1) / 256, fontScale)
                ox = cn.0 / 32 * fx + Double(cn.4) / 16
                oy = cn.1 / 32 * fy + Double(cn.5) / 16
            } else {
                ox = cn.0 / 32 * fontScale
                oy = cn.1 / 32 * fontScale
            }
            let rx = c * ox + s * oy, ry = -s * ox + c * oy
            var f = u.coordMatrix.transform(projected.x / projected.w + rx, projected.y / projected.w + ry, z)
            if u.pitchWithMap { f = m.transform(f.x, f.y, f.z) }
            return (f.x, f.y, f.w, Double(cn.2), Double(cn.3))
        }
        return (placed, size)
    }

    /// Rasterises the quad (tl, tr, bl, br) as the triangles (tl, bl, tr) and (tr, bl, br): each
    /// covered pixel centre gets `fragment(texture position, w)`.
    func rasterize(_ c: [Corner], canvas: inout Compositor, fragment: ((Double, Double), Double) -> SIMD4<Double>?) {
        let wd = Double(canvas.width), hd = Double(canvas.height)
        func screen(_ v: Corner) -> (x: Double, y: Double)? {
            guard v.w > 0 else { return nil }
            return ((v.x / v.w + 1) / 2 * wd, (1 - v.y / v.w) / 2 * hd)
        }
        guard let s0 = screen(c[0]), let s1 = screen(c[1]), let s2 = screen(c[2]), let s3 = screen(c[3]) else { return }
        let screens = [s0, s1, s2, s3]
        for tri in [[0, 2, 1], [1, 2, 3]] {
            let a = screens[tri[0]], b = screens[tri[1]], d = screens[tri[2]]
            let area = (b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x)
            guard area != 0, area.isFinite else { continue }
            let x0 = max(0, Int((min(a.x, b.x, d.x) - 0.5).rounded(.up))), x1 = min(canvas.width - 1, Int((max(a.x, b.x, d.x) - 0.5).rounded(.down)))
            let y0 = max(0, Int((min(a.y, b.y, d.y) - 0.5).rounded(.up))), y1 = min(canvas.height - 1, Int((max(a.y, b.y, d.y) - 0.5).rounded(.down)))
            guard x0 <= x1, y0 <= y1 else { continue }
            let va = c[tri[0]], vb = c[tri[1]], vd = c[tri[2]]
            let sign = area > 0 ? 1.0 : -1.0
            // Top-left rule in y-down screen space for the (sign-normalised) edges.
            func edge(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double)) -> (Double, Double, Double, Bool) {
                let ea = -(q.y - p.y) * sign, eb = (q.x - p.x) * sign
                let topLeft = (ea > 0) || (ea == 0 && eb < 0)
                return (ea, eb, -(ea * p.x + eb * p.y), topLeft)
            }
            let e0 = edge(b, d), e1 = edge(d, a), e2 = edge(a, b)
            let total = abs(area)
            for y in y0...y1 {
                let py = Double(y) + 0.5
                for x in x0...x1 {
                    let px = Double(x) + 0.5
                    let w0 = e0.0 * px + e0.1 * py + e0.2
                    let w1 = e1.0 * px + e1.1 * py + e1.2
                    let w2 = e2.0 * px + e2.1 * py + e2.2
                    guard w0 > 0 || (w0 == 0 && e0.3) else { continue }
                    guard w1 > 0 || (w1 == 0 && e1.3) else { continue }
                    guard w2 > 0 || (w2 == 0 && e2.3) else { continue }
                    guard canvas.allows(x, y) else { continue }
                    let l0 = w0 / total / va.w, l1 = w1 / total / vb.w, l2 = w2 / total / vd.w
                    let sum = l0 + l1 + l2
                    let b0 = l0 / sum, b1 = l1 / sum, b2 = l2 / sum
                    let tex = (b0 * va.tx + b1 * vb.tx + b2 * vd.tx, b0 * va.ty + b1 * vb.ty + b2 * vd.ty)
                    let w = b0 * va.w + b1 * vb.w + b2 * vd.w
                    guard let color = fragment(tex, w) else { continue }
                    canvas.blend(x, y, SIMD4<Float>(Float(color.x), Float(color.y), Float(color.z), Float(color.w)))
                }
            }
        }
    }

    /// Bilinear sample of an alpha atlas at atlas-pixel position (x, y), clamped to the edge (0…1).
    static func sampleAlpha(_ image: AlphaImage, _ x: Double, _ y: Double) -> Double {
        let fx = x - 0.5, fy = y - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = fx - Double(x0), ty = fy - Double(y0)
        func at(_ x: Int, _ y: Int) -> Double {
            Double(image[min(max(x, 0), image.width - 1), min(max(y, 0), image.height - 1)]) / 255
        }
        return (at(x0, y0) * (1 - tx) + at(x0 + 1, y0) * tx) * (1 - ty) + (at(x0, y0 + 1) * (1 - tx) + at(x0 + 1, y0 + 1) * tx) * ty
    }

    /// A premultiplied RGBA atlas sampled bilinearly or at the nearest texel (0…1 components).
    static func sampleRGBA(_ image: PremultipliedImage, _ x: Double, _ y: Double, linear: Bool) -> SIMD4<Double> {
        func at(_ x: Int, _ y: Int) -> SIMD4<Double> {
            let p = image[min(max(x, 0), image.width - 1), min(max(y, 0), image.height - 1)]
            return SIMD4(Double(p.r), Double(p.g), Double(p.b), Double(p.a)) / 255
        }
        guard linear else { return at(Int(x.rounded(.down)), Int(y.rounded(.down))) }
        let fx = x - 0.5, fy = y - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = fx - Double(x0), ty = fy - Double(y0)
        return (at(x0, y0) * (1 - tx) + at(x0 + 1, y0) * tx) * (1 - ty) + (at(x0, y0 + 1) * (1 - tx) + at(x0 + 1, y0 + 1) * tx) * ty
    }
}

/// The symbol fragment stages (symbol_sdf, symbol_icon, symbol_text_and_icon) for one quad.
struct Shade {
    var isSDF: Bool
    var halo: Bool
    var color: Color
    var haloColor: Color
    var opacity: Double
    var fade: Double
    var haloWidth: Double
    var haloBlur: Double
    /// The vertex stage's size (after the perspective ratio).
    var size: Double
    var u: SymbolDrawUniforms

    /// GLSL's `smoothstep`.
    static func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
        let t = min(max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }

    /// The premultiplied colour for a texel value (`sample`: premultiplied RGBA; its alpha is the
    /// distance field for SDF quads) at a fragment whose clip w is `gammaScale`; nil for nothing.
    func fragment(_ sample: SIMD4<Double>, gammaScale: Double) -> SIMD4<Double>? {
        guard isSDF else {
            let c = sample * (opacity * fade)
            return c == .zero ? nil : c
        }
        let edgeGamma = 0.105 / u.devicePixelRatio
        let fontScale = u.isText ? size / 24 : size
        var c = color
        var gamma = edgeGamma / (fontScale * u.gammaScale)
        var inner = (256.0 - 64.0) / 256.0
        if halo {
            c = haloColor
            gamma = (haloBlur * 1.19 / 8 + edgeGamma) / (fontScale * u.gammaScale)
            inner += gamma * gammaScale
        }
        let dist = sample.w
        let g = gamma * gammaScale
        var alpha = Shade.smoothstep(inner - g, inner + g, dist)
        if halo {
            let haloEdge = (6 - haloWidth / fontScale) / 8
            alpha = min(Shade.smoothstep(haloEdge - g, haloEdge + g, dist), 1 - alpha)
        }
        let k = alpha * opacity * fade
        guard k > 0 else { return nil }
        return SIMD4(c.r * k, c.g * k, c.b * k, c.a * k)
    }
}

extension Compositor {
    /// Blends a premultiplied colour over pixel (x, y).
    mutating func blend(_ x: Int, _ y: Int, _ src: SIMD4<Float>) {
        let q = quantizeEachDraw, i = y * width + x
        pixels.withUnsafeMutableBufferPointer { buf in Compositor.blend(buf.baseAddress! + i, src, quantize: q) }
    }
}
