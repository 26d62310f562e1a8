// CPU reference renderer — contract
// Input: a frame's layers in draw order (`ReferenceLayer`: a background, or a layer evaluated over
// each tile of its source, geometry in the tile's units with per-feature paint), a
// `ViewTransform` (camera, CSS-pixel viewport) and the pixel ratio.
// Output: a `PremultipliedImage` (RGBA8) of (width·ratio) × (height·ratio) device pixels,
// rows top to bottom, cleared to transparent black.
// Independence: draws straight from the tiles' geometry with analytic coverage — exact-area
// scanline fills, exact stroked line shapes, per-pixel circle formulas — and never imports
// GLMapTessellation, so a tessellation or shader bug shows up as a difference from the GPU.
// Semantics follow the GPU path (and MapLibre): each tile's geometry in its world copy, translate
// and anchor as the GPU's matrices, fill and line tiles drawn only inside their tile's square
// (pixel centres inside the projected square: MapLibre's stencil clip), blending ONE,
// ONE_MINUS_SRC_ALPHA. Fill interiors use exact area coverage (the GPU samples pixel centres and
// relies on the outline); lines, outlines and circles sample pixel centres with the shaders' ramps.
// Quantisation: by default every blended pixel is rounded to 8 bits at once (a UNORM8
// framebuffer rounds after each fragment's blend); one "draw" is a fill feature's interior,
// one outline edge, a line feature (max coverage over its pieces) or one circle.
// Dashes and gradients follow MapLibre's per-tile measurement (see `LineEffectsPainter`).
// Extrusions are depth-tested against every extrusion drawn before them in the frame
// (`FillExtrusionPainter`); 2D layers neither test nor write depth, as in MapLibre.
// Raster, hillshade and color-relief layers sample their tiles' pictures and elevations with
// this module's own texture sampling (`RasterPainter`).
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

    /// Draws a frame's layers (draw order) for a view into a premultiplied RGBA8 image of
    /// (view.width·ratio) × (view.height·ratio) device pixels, cleared to transparent black.
    public func render(_ layers: [ReferenceLayer], view: ViewTransform, ratio: Double) -> PremultipliedImage {
        let w = max(0, Int((view.width * ratio).rounded())), h = max(0, Int((view.height * ratio).rounded()))
        var canvas = Compositor(width: w, height: h, quantizeEachDraw: quantization == .everyDraw)
        guard w > 0, h > 0, ratio > 0 else { return canvas.image() }
        var fills = FillPainter()
        var lines = LinePainter()
        let circles = CirclePainter()
        let rasters = RasterPainter()
        let band = view.worldBand
        var depth: ExtrusionDepth?
        // Heatmap colours drawn below the first 3D layer, repeated over the opaque layers above
        // them as MapLibre's depth-test-free heatmap colour pass shows them (see HeatmapPainter).
        var heatmapColors: [[SIMD4<Float>]] = []
        var past3D = false
        let zoom = max(0, view.camera.zoom)
        for layer in layers {
            switch layer {
            case .background(let b) where b.patterned:
                BackgroundPatternPainter.paint(b, view: view, band: band, ratio: ratio, into: &canvas)
            case .background(let b):
                // only where the view shows the world (a pitched view can see past its edges)
                let shows = { (x: Int, y: Int) in band.coversView || band.contains(x: (Double(x) + 0.5) / ratio, y: (Double(y) + 0.5) / ratio) }
                if band.coversView {
                    canvas.fillAll(Compositor.premultiplied(b.color, opacity: b.opacity))
                } else {
                    canvas.fill(Compositor.premultiplied(b.color, opacity: b.opacity), where: shows)
                }
                if b.drawsInOpaquePass { for colors in heatmapColors { HeatmapPainter.repeatColors(colors, where: shows, into: &canvas) } }
            case .tiled(let tiles):
                let extrusions = tiles.compactMap { t -> EvaluatedFillExtrusionLayer? in if case .fillExtrusion(let x) = t { return x }; return nil }
                if !extrusions.isEmpty {
                    past3D = true
                    heatmapColors = []
                    var d = depth ?? ExtrusionDepth(count: w * h)
                    FillExtrusionPainter().paint(extrusions, view: view, ratio: ratio, depth: &d, into: &canvas)
                    depth = d
                }
                let heatmaps = tiles.compactMap { t -> EvaluatedHeatmapLayer? in if case .heatmap(let h) = t { return h }; return nil }
                if !heatmaps.isEmpty, let colors = HeatmapPainter().paint(heatmaps, view: view, ratio: ratio, into: &canvas), !past3D {
                    heatmapColors.append(colors)
                }
                if !heatmapColors.isEmpty, case .fill(let f)? = tiles.first, f.drawsInOpaquePass(zoom: zoom) {
                    fills.interiorMask = [Bool](repeating: false, count: w * h)
                }
                defer {
                    if let mask = fills.interiorMask {
                        for colors in heatmapColors { HeatmapPainter.repeatColors(colors, where: { mask[$1 * w + $0] }, into: &canvas) }
                        fills.interiorMask = nil
                    }
                }
                for tileLayer in tiles {
                    switch tileLayer {
                    case .background: break
                    case .fill(let f):
                        guard let tile = f.tile else { continue }
                        canvas.clip = TileSquare.clip(tile, view: view, ratio: ratio)
                        fills.paint(f.inWorld(tile), view: view, ratio: ratio, copies: [0], into: &canvas)
                    case .line(let l):
                        guard let tile = l.tile else { continue }
                        canvas.clip = TileSquare.clip(tile, view: view, ratio: ratio)
                        lines.paint(l.inWorld(tile), view: view, ratio: ratio, copies: [0], into: &canvas)
                    case .circle(let c):
                        guard let tile = c.tile else { continue }
                        canvas.clip = nil
                        circles.paint(c.inWorld(tile), view: view, ratio: ratio, copies: [0], into: &canvas)
                    case .fillExtrusion, .heatmap:
                        break   // the whole layer at once, above
                    }
                    canvas.clip = nil
                }
            case .raster(let r):
                rasters.paint(r, view: view, ratio: ratio, into: &canvas)
            case .symbol(let s):
                canvas.clip = nil
                SymbolPainter(view: view, ratio: ratio).paint(s, into: &canvas)
            }
        }
        return canvas.image()
    }
}

/// One layer of a frame as the CPU reference renderer draws it.
public enum ReferenceLayer: Sendable {
    /// A background layer: its paint.
    case background(EvaluatedBackground)
    /// A layer evaluated over each tile of its source (each with its `tile` set), in MapLibre's
    /// drawing order.
    case tiled([EvaluatedLayer])
    /// A `raster`, `hillshade` or `color-relief` layer: its tiles' pictures or elevations
    /// (`RasterPainter` samples and shades them).
    case raster(RasterLayerDraw)
    /// A symbol layer placed for the frame.
    case symbol(ReferenceSymbolLayer)
}
