// CPU reference renderer — contract
// Input: evaluated layers in draw order (`EvaluatedLayer`: unit-world Web Mercator geometry with
// per-feature paint), a `ViewTransform` (camera, CSS-pixel viewport) and the pixel ratio.
// Output: a `PremultipliedImage` (RGBA8) of (width·ratio) × (height·ratio) device pixels,
// rows top to bottom, cleared to transparent black.
// Independence: draws straight from the projected geometry with analytic coverage — exact-area
// scanline fills, exact stroked line shapes, per-pixel circle formulas — and never imports
// GLMapTessellation, so a tessellation or shader bug shows up as a difference from the GPU.
// Semantics follow the GPU path (and MapLibre): world copies from `WorldCopies.offsets`,
// translate and anchor as `WorldCopies.matrix`, blending ONE, ONE_MINUS_SRC_ALPHA. Fill
// interiors use exact area coverage (the GPU samples pixel centres and relies on the outline);
// lines, outlines and circles sample pixel centres with the shaders' ramps.
// Quantisation: by default every blended pixel is rounded to 8 bits at once (a UNORM8
// framebuffer rounds after each fragment's blend); one "draw" is a fill feature's interior,
// one outline edge, a line feature (max coverage over its pieces) or one circle.
// Dashes and gradients follow MapLibre's per-tile measurement (see `LineEffectsPainter`).
// Limits: pixels whose ray misses the map plane (above the horizon) get nothing. Single-threaded; a renderer value
// holds no state between frames and may be used from any thread.
import GLMapCore
import GLMapStyle

/// Draws evaluated style layers on the CPU with analytic coverage: the oracle for the GPU path
/// and the fallback backend when no EGL is available.
public struct ReferenceRenderer: Sendable {
    /// When blended colour is rounded to 8 bits.
    public enum Quantization: Sendable {
        /// After every draw, like a UNORM8 framebuffer (the default; matches the GPU best).
        case everyDraw
        /// Only once at the end (Float accumulation throughout).
        case once
    }

    /// When blended colour is rounded to 8 bits (default `.everyDraw`).
    public var quantization: Quantization

    /// A renderer that quantises after every draw.
    public init() { quantization = .everyDraw }

    /// A renderer with an explicit quantisation policy.
    public init(quantization: Quantization) { self.quantization = quantization }

    /// Draws evaluated layers (draw order) for a view into a premultiplied RGBA8 image of
    /// (view.width·ratio) × (view.height·ratio) device pixels, cleared to transparent black.
    public func render(_ layers: [EvaluatedLayer], view: ViewTransform, ratio: Double) -> PremultipliedImage {
        let w = max(0, Int((view.width * ratio).rounded())), h = max(0, Int((view.height * ratio).rounded()))
        var canvas = Compositor(width: w, height: h, quantizeEachDraw: quantization == .everyDraw)
        guard w > 0, h > 0, ratio > 0 else { return canvas.image() }
        var fills = FillPainter()
        var lines = LinePainter()
        let circles = CirclePainter()
        let band = view.worldBand
        for layer in layers {
            switch layer {
            case .background(let b):
                // only where the view shows the world (a pitched view can see past its edges)
                if band.coversView {
                    canvas.fillAll(Compositor.premultiplied(b.color, opacity: b.opacity))
                } else {
                    canvas.fill(Compositor.premultiplied(b.color, opacity: b.opacity)) { x, y in
                        band.contains(x: (Double(x) + 0.5) / ratio, y: (Double(y) + 0.5) / ratio)
                    }
                }
            case .fill(let f):
                fills.paint(f, view: view, ratio: ratio, into: &canvas)
            case .line(let l):
                lines.paint(l, view: view, ratio: ratio, into: &canvas)
            case .circle(let c):
                circles.paint(c, view: view, ratio: ratio, into: &canvas)
            }
        }
        return canvas.image()
    }
}
