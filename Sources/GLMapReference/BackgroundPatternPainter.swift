import Foundation
import GLMapCore
import GLMapStyle
import GLMapTiles

/// Draws a `background-pattern` on the CPU: where the view shows the world, each pixel centre's
/// point on the map plane read through the pattern as MapLibre's background_pattern places it —
/// anchored at the covering tiles' origins at the frame's tile zoom, which makes it continuous:
/// the point's world position in pattern pixels at floor(zoom) over the image's size. Nothing
/// when an image is missing.
enum BackgroundPatternPainter {
    static func paint(_ b: EvaluatedBackground, view: ViewTransform, band: WorldBand, ratio: Double, into canvas: inout Compositor) {
        guard let p = b.pattern, let atlas = b.patternAtlas, b.opacity > 0 else { return }
        let sampler = PatternSampler(atlas: atlas.image)
        let proj = PlaneProjection(view: view, ratio: ratio, origin: (0, 0), copy: 0, translate: (0, 0), anchor: .map)
        let ws = view.worldSize
        let scale = 512 * exp2(max(0, view.camera.zoom).rounded(.down)) / ws   // plane px → pattern px
        let size = p.to.displaySize
        let w = canvas.width, q = canvas.quantizeEachDraw
        canvas.pixels.withUnsafeMutableBufferPointer { px in
            for y in 0..<canvas.height {
                for x in 0..<w {
                    let sx = Double(x) + 0.5, sy = Double(y) + 0.5
                    guard band.coversView || band.contains(x: sx / ratio, y: sy / ratio), let g = proj.toPlane(sx, sy) else { continue }
                    let vpos = (g.x * scale / size.width, g.y * scale / size.height)
                    let c = sampler.color(p.to, at: vpos) * b.opacity
                    if c == .zero { continue }
                    Compositor.blend(px.baseAddress! + y * w + x, SIMD4<Float>(c), quantize: q)
                }
            }
        }
    }
}
