import GLMapCore
import GLMapStyle

/// Draws a `line` layer from the exact stroked shape of each feature (see `StrokeGeometry`).
///
/// Per pixel centre: d = the distance from the (offset) centre line on the map plane in CSS px,
/// and MapLibre's ramp across the line (`LineRamp`).
/// Within one feature the pieces take the maximum coverage per pixel (no double blending where a
/// line overlaps itself); the feature is then blended once in colour × opacity.
/// Layers with `line-dasharray`, `line-gradient` or `line-pattern` are drawn by `LineEffectsPainter`.
struct LinePainter {
    private var effects = LineEffectsPainter()
    /// Per-pixel coverage of the feature being drawn (frame sized, zero outside the touched box).
    private var coverage: [Float] = []
    private var pieces: [StrokePiece] = []
    private var local: [Double] = []

    /// Paints the layer's lines (unit-world coordinates) in every world copy that may show them,
    /// or only in `copies`.
    mutating func paint(_ layer: EvaluatedLineLayer, view: ViewTransform, ratio: Double, copies: [Int]? = nil, into canvas: inout Compositor) {
        if layer.hasDashes || layer.gradient != nil || layer.patterned {
            effects.paint(layer, view: view, ratio: ratio, copies: copies, into: &canvas)
            return
        }
        var bounds = WorldBounds.empty
        for f in layer.features { for p in f.parts { bounds.add(flat: p.coords) } }
        let origin = bounds.center
        let ws = view.worldSize
        // MapLibre's sharp-corner pairs sit 15 px away at the tile's zoom (none past 16× over-scale).
        let overscale = layer.tile?.overscaleFactor ?? 1
        let sharpCornerOffset = overscale <= 16
            ? 15 * ws / (512 * Double(layer.tile?.canonical.tilesPerSide ?? 1) * overscale) : 0
        if coverage.count != canvas.width * canvas.height {
            coverage = [Float](repeating: 0, count: canvas.width * canvas.height)
        }
        for copy in copies ?? WorldCopies.offsets(view, bounds: bounds) {
            let proj = PlaneProjection(view: view, ratio: ratio, origin: origin, copy: copy,
                                       translate: layer.translate, anchor: layer.translateAnchor)
            for f in layer.features {
                let color = Compositor.premultiplied(f.color, opacity: f.opacity)
                guard color != .zero else { continue }
                let ramp = LineRamp(width: f.width, gapWidth: f.gapWidth, blur: f.blur, ratio: ratio)
                guard ramp.draws else { continue }
                var geometry = StrokeGeometry(join: f.join, cap: layer.cap, miterLimit: layer.miterLimit,
                                              roundLimit: layer.roundLimit, offset: f.offset, outset: ramp.outset)
                // MapLibre's sharp-corner vertex pairs (15 CSS px away at floor(zoom)) bound the
                // quads a flip-bevel join cuts.
                geometry.sharpCornerOffset = sharpCornerOffset
                pieces.removeAll(keepingCapacity: true)
                for part in f.parts {
                    LinePainter.plane(part.coords, origin: origin, worldSize: ws, into: &local)
                    geometry.append(local, closed: part.closed, to: &pieces)
                }
                draw(color, ramp: ramp, proj: proj, into: &canvas)
            }
        }
    }

    /// Unit-world coordinates → plane pixels relative to `origin` (replacing `local`'s contents).
    static func plane(_ coords: [Double], origin: (x: Double, y: Double), worldSize ws: Double, into local: inout [Double]) {
        local.removeAll(keepingCapacity: true)
        var i = 0
        while i + 1 < coords.count {
            local.append((coords[i] - origin.x) * ws)
            local.append((coords[i + 1] - origin.y) * ws)
            i += 2
        }
    }

    /// Rasterises the current pieces into `coverage` (max per pixel) and blends the result.
    private mutating func draw(_ color: SIMD4<Float>, ramp: LineRamp, proj: PlaneProjection, into canvas: inout Compositor) {
        let width = canvas.width, height = canvas.height
        var ux0 = width, uy0 = height, ux1 = 0, uy1 = 0
        let outset = ramp.outset
        coverage.withUnsafeMutableBufferPointer { cov in
            for piece in pieces {
                guard let box = proj.screenBox(piece.bounds(outset), margin: 1, width: width, height: height) else { continue }
                ux0 = min(ux0, box.x0); uy0 = min(uy0, box.y0); ux1 = max(ux1, box.x1); uy1 = max(uy1, box.y1)
                for y in box.y0..<box.y1 {
                    let sy = Double(y) + 0.5
                    for x in box.x0..<box.x1 {
                        guard let p = proj.toPlane(Double(x) + 0.5, sy), let h = piece.distance(p.x, p.y),
                              h.d < outset else { continue }
                        let b = ramp.blur(atX: p.x, y: p.y, gx: h.gx, gy: h.gy, proj)
                        let a = Float(ramp.alpha(h.d, blur: b))
                        let k = y * width + x
                        if a > cov[k] { cov[k] = a }
                    }
                }
            }
        }
        guard ux0 < ux1, uy0 < uy1 else { return }
        coverage.withUnsafeMutableBufferPointer { cov in
            for y in uy0..<uy1 {
                let row = UnsafeMutableBufferPointer(rebasing: cov[(y * width + ux0)..<(y * width + ux1)])
                canvas.blendRow(y: y, x0: ux0, coverage: UnsafeBufferPointer(row), color: color)
                row.update(repeating: 0)
            }
        }
    }
}
