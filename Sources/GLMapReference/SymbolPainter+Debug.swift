import Foundation
import GLMapCore
import GLMapText

// The collision debug overlay on the CPU: the same `SymbolCollisionDebug` the GPU draws, its own
// rasterising — boxes as one-pixel lines lit by GL's diamond-exit rule, circles as the quads
// `collision_circle` shades, blended premultiplied after the layer's symbols.

extension SymbolPainter {
    /// The collision debug overlay of a layer (GL JS's `drawCollisionDebug`): text boxes as
    /// one-pixel lines, the line labels' circles as rings, then icon boxes; the positions are the
    /// placement's (CSS px), scaled to device pixels here.
    func paintDebug(_ debug: SymbolCollisionDebug, into canvas: inout Compositor) {
        for box in debug.textBoxes { paintBox(box, into: &canvas) }
        for circle in debug.circles { paintCircle(circle, into: &canvas) }
        for box in debug.iconBoxes { paintBox(box, into: &canvas) }
    }

    /// A box as four lines (corner k to corner k + 1), each rasterised with GL's diamond-exit rule.
    func paintBox(_ box: SymbolDebugBox, into canvas: inout Compositor) {
        let color = SIMD4<Float>(Float(box.color.r), Float(box.color.g), Float(box.color.b), Float(box.color.a))
        let c = box.corners.map { LabelPoint($0.x * ratio, $0.y * ratio) }
        guard c.count == 4 else { return }
        for k in 0..<4 {
            SymbolPainter.line(from: c[k], to: c[(k + 1) % 4], width: canvas.width, height: canvas.height) { x, y in
                if canvas.allows(x, y) { canvas.blend(x, y, color) }
            }
        }
    }

    /// The pixels a one-pixel GL line from `a` to `b` (device px, pixel centres at +0.5) lights:
    /// along the major axis every pixel centre from the start (included) to the end (left out),
    /// across it the pixel the line crosses at that centre.
    static func line(from a: LabelPoint, to b: LabelPoint, width: Int, height: Int, _ plot: (Int, Int) -> Void) {
        let dx = b.x - a.x, dy = b.y - a.y
        guard dx.isFinite, dy.isFinite, dx != 0 || dy != 0 else { return }
        let xMajor = abs(dx) >= abs(dy)
        let (s0, s1, t0, dt) = xMajor ? (a.x, b.x, a.y, dy / dx) : (a.y, b.y, a.x, dx / dy)
        let forward = s1 > s0
        // Pixel centres c + 0.5 in [s0, s1) going forward, in (s1, s0] going back.
        var first = forward ? Int((s0 - 0.5).rounded(.up)) : Int((s1 - 0.5).rounded(.down)) + 1
        var last = forward ? Int((s1 - 0.5).rounded(.up)) - 1 : Int((s0 - 0.5).rounded(.down))
        let limit = xMajor ? width : height
        first = max(first, 0)
        last = min(last, limit - 1)
        guard first <= last else { return }
        let crossLimit = xMajor ? height : width
        for i in first...last {
            let s = Double(i) + 0.5
            let t = t0 + (s - s0) * dt
            let j = Int(t.rounded(.down))
            guard j >= 0, j < crossLimit else { continue }
            if xMajor { plot(i, j) } else { plot(j, i) }
        }
    }

    /// A circle's ring: the quad 1.2 × the radius around the centre, each covered pixel shaded as
    /// `collision_circle.frag` does.
    func paintCircle(_ circle: SymbolDebugCircle, into canvas: inout Compositor) {
        let r = circle.radius * 1.2
        let wd = Double(canvas.width), hd = Double(canvas.height)
        func corner(_ sx: Double, _ sy: Double) -> Corner {
            let x = (circle.center.x + sx * r) * ratio, y = (circle.center.y + sy * r) * ratio
            return (x / wd * 2 - 1, 1 - y / hd * 2, 1, sx * r, sy * r)
        }
        let corners = [corner(-1, -1), corner(1, -1), corner(-1, 1), corner(1, 1)]
        let alpha = 0.5 * min(circle.perspectiveRatio, 1), stroke = 0.9 * max(circle.perspectiveRatio, 1)
        let base: SIMD4<Double> = circle.collided ? SIMD4(1, 0, 0, 1) : SIMD4(0, 0, 1, 0.5)
        rasterize(corners, canvas: &canvas) { extrude, _ in
            let distanceToEdge = abs((extrude.0 * extrude.0 + extrude.1 * extrude.1).squareRoot() - circle.radius)
            let t = Shade.smoothstep(-stroke, 0, -distanceToEdge)
            let k = alpha * t
            return k > 0 ? base * k : nil
        }
    }
}
