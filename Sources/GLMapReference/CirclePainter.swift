import GLMapCore
import GLMapStyle

/// Draws a `circle` layer analytically: for each centre (every vertex of a feature), each pixel
/// centre gets the circle.frag value — `opacity_t · mix(color·opacity, strokeColor·strokeOpacity,
/// color_t)` from its normalised distance to the centre — blended independently per circle
/// (overlapping circles of one feature blend twice, as GPU instances do).
///
/// `circle-pitch-alignment: viewport` measures the distance on screen (round on screen), scaled
/// by `cameraToCenterDistance / w` when `circle-pitch-scale` is `map`; `map` alignment measures
/// it on the map plane (an ellipse under pitch), scaled by `w / cameraToCenterDistance` when the
/// scale is `viewport` — exactly circle.vert's four cases.
struct CirclePainter {
    /// Paints the layer's circles (unit-world centres) in every world copy that may show them,
    /// or only in `copies`.
    func paint(_ layer: EvaluatedCircleLayer, view: ViewTransform, ratio: Double, copies: [Int]? = nil, into canvas: inout Compositor) {
        var bounds = WorldBounds.empty
        for f in layer.features { bounds.add(flat: f.centers) }
        let origin = bounds.center
        let ws = view.worldSize
        let ccd = view.cameraToCenterDistance
        let pitchWithMap = layer.pitchAlignment == .map, scaleWithMap = layer.pitchScale == .map
        for copy in copies ?? WorldCopies.offsets(view, bounds: bounds) {
            let proj = PlaneProjection(view: view, ratio: ratio, origin: origin, copy: copy,
                                       translate: layer.translate, anchor: layer.translateAnchor)
            for f in layer.features {
                let size = f.radius + f.strokeWidth
                guard size > 0 else { continue }
                let fill = Compositor.premultiplied(f.color, opacity: f.opacity)
                let stroke = Compositor.premultiplied(f.strokeColor, opacity: f.strokeOpacity)
                let shape = Shape(radius: f.radius, strokeWidth: f.strokeWidth, blur: f.blur,
                                  antialiasBlur: 1 / ratio / max(size, 1e-6), fill: fill, stroke: stroke)
                var i = 0
                while i + 1 < f.centers.count {
                    let cx = (f.centers[i] - origin.x) * ws, cy = (f.centers[i + 1] - origin.y) * ws
                    i += 2
                    guard cx.isFinite, cy.isFinite else { continue }
                    let c = proj.toScreenHomogeneous(cx, cy)
                    guard c.w > 0 else { continue }
                    if pitchWithMap {
                        let s = size * (scaleWithMap ? 1 : c.w / ccd)
                        drawOnPlane(shape, cx, cy, s, proj, into: &canvas)
                    } else {
                        let s = size * ratio * (scaleWithMap ? ccd / c.w : 1)
                        drawOnScreen(shape, c.x / c.w, c.y / c.w, s, into: &canvas)
                    }
                }
            }
        }
    }

    /// A circle's paint, as circle.frag receives it.
    struct Shape {
        var radius, strokeWidth, blur, antialiasBlur: Double
        var fill, stroke: SIMD4<Float>

        /// The fragment colour at normalised distance `len` from the centre (1 = radius + stroke).
        @inline(__always)
        func color(_ len: Double) -> SIMD4<Float>? {
            let b = -max(blur, antialiasBlur)
            let opacityT = CirclePainter.ramp(0, b, len - 1)
            guard opacityT > 0 else { return nil }
            let colorT = strokeWidth < 0.01 ? 0 : CirclePainter.ramp(b, 0, len - radius / (radius + strokeWidth))
            let mixed = fill + (stroke - fill) * Float(colorT)
            return mixed * Float(opacityT)
        }
    }

    /// circle.frag's smoothstep that accepts e0 > e1.
    @inline(__always)
    static func ramp(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
        let t = min(max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }

    /// A circle of `size` device pixels around a screen point.
    private func drawOnScreen(_ shape: Shape, _ sx: Double, _ sy: Double, _ size: Double, into canvas: inout Compositor) {
        guard size > 0, let box = PlaneProjection.clampBox(sx - size, sy - size, sx + size, sy + size,
                                                           width: canvas.width, height: canvas.height) else { return }
        let width = canvas.width, q = canvas.quantizeEachDraw
        let inv = 1 / size
        canvas.pixels.withUnsafeMutableBufferPointer { buf in
            for y in box.y0..<box.y1 {
                let dy = (Double(y) + 0.5 - sy) * inv
                for x in box.x0..<box.x1 {
                    let dx = (Double(x) + 0.5 - sx) * inv
                    guard abs(dx) <= 1, abs(dy) <= 1, let c = shape.color((dx * dx + dy * dy).squareRoot()) else { continue }
                    Compositor.blend(buf.baseAddress! + (y * width + x), c, quantize: q)
                }
            }
        }
    }

    /// A circle of `size` plane pixels around a plane point, seen through the camera.
    private func drawOnPlane(_ shape: Shape, _ cx: Double, _ cy: Double, _ size: Double, _ proj: PlaneProjection,
                             into canvas: inout Compositor) {
        guard size > 0, let box = proj.screenBox((cx - size, cy - size, cx + size, cy + size), margin: 1,
                                                 width: canvas.width, height: canvas.height) else { return }
        let width = canvas.width, q = canvas.quantizeEachDraw
        let inv = 1 / size
        canvas.pixels.withUnsafeMutableBufferPointer { buf in
            for y in box.y0..<box.y1 {
                for x in box.x0..<box.x1 {
                    guard let p = proj.toPlane(Double(x) + 0.5, Double(y) + 0.5) else { continue }
                    let dx = (p.x - cx) * inv, dy = (p.y - cy) * inv
                    guard abs(dx) <= 1, abs(dy) <= 1, let c = shape.color((dx * dx + dy * dy).squareRoot()) else { continue }
                    Compositor.blend(buf.baseAddress! + (y * width + x), c, quantize: q)
                }
            }
        }
    }
}
