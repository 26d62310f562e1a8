import Foundation
import GLMapCore
import GLMapStyle
import GLMapTiles

// The collision debug overlay (GL JS's `showCollisionBoxes`, as GL JS 5 draws it): for every
// instance one text box and one icon box, each the screen box placement last tried for it
// (`storeCollisionData`; a label no variable anchor could place shows its centred box), blue
// when placed, red when not, a tenth as strong when the box is not the one in use; and the
// circles placed along line labels, blue or red as they collided. Boxes are drawn as GL_LINES
// through pixel centres (GL JS stores the box as Int16 and adds half a pixel), where the
// instance's anchor is in front of the camera and not past GL JS's far plane.

extension Placer {
    /// The debug states of an instance's boxes after placement (GL JS's `updateCollisionVertices`
    /// calls in `updateBucketOpacities`).
    func debugStates(_ v: SymbolLayerValues, _ instance: SymbolInstanceRecord, index s: Int, tile t: Int, layer l: Int, id: Int,
                     placed: (text: Bool, icon: Bool), horizontalHidden: Bool, verticalHidden: Bool) -> DebugBoxStates {
        var states = DebugBoxStates()
        let real = buckets[l][t].debugPlacedBoxes[s]
        if instance.textBox != nil || instance.verticalTextBox != nil {
            let used = !v.hasVariablePlacement || variableOffsets[id] != nil
            let hidden = instance.verticalTextBox != nil ? verticalHidden : horizontalHidden
            states.text = DebugBoxState(placed: placed.text, notUsed: !used || hidden, box: real?.text)
        }
        if instance.iconBox != nil || instance.verticalIconBox != nil {
            let verticalIconUsed = !verticalHidden && instance.verticalIconBox != nil
            let hidden = instance.verticalIconBox != nil ? !verticalIconUsed : verticalIconUsed
            states.icon = DebugBoxState(placed: placed.icon, notUsed: hidden, box: real?.icon)
        }
        return states
    }

    /// The debug overlay of layer `l`: its tiles in draw order, text boxes, circles, icon boxes.
    func debug(_ l: Int) -> SymbolCollisionDebug {
        var out = SymbolCollisionDebug()
        let pad = CollisionIndex.viewportPadding
        let depth = DebugDepth(view)
        for t in drawOrder(l) {
            let (tile, layout) = layers[l].tiles[t]
            let state = buckets[l][t]
            let m = posMatrix(tile)
            if state.debugStates.count == layout.instances.count {
                func box(_ s: DebugBoxState?, _ instance: SymbolInstanceRecord) -> SymbolDebugBox? {
                    guard let s else { return nil }
                    // Clipped when the anchor is behind the camera or past GL JS's far plane.
                    let anchor = m.transform(instance.anchorX, instance.anchorY)
                    guard anchor.w >= 0.5, depth.ndcZ(anchor.w) < 1.1 else { return nil }
                    let b = s.box.flatMap { $0.count == 4 ? $0 : nil } ?? [0, 0, 0, 0]
                    // GL JS stores the box as Int16 (`a_box_real`), then adds half a pixel.
                    let x1 = SymbolLayout.int16(b[0] - pad) + 0.5, y1 = SymbolLayout.int16(b[1] - pad) + 0.5
                    let x2 = SymbolLayout.int16(b[2] - pad) + 0.5, y2 = SymbolLayout.int16(b[3] - pad) + 0.5
                    let f = s.notUsed ? 0.1 : 1
                    let color = s.placed ? (r: 0.0, g: 0.0, b: 0.5 * f, a: 0.25 * f) : (r: 0.5 * f, g: 0.0, b: 0.0, a: 0.5 * f)
                    return SymbolDebugBox(corners: [LabelPoint(x1, y1), LabelPoint(x2, y1), LabelPoint(x2, y2), LabelPoint(x1, y2)], color: color)
                }
                for (i, instance) in layout.instances.enumerated() {
                    if let b = box(state.debugStates[i].text, instance) { out.textBoxes.append(b) }
                    if let b = box(state.debugStates[i].icon, instance) { out.iconBoxes.append(b) }
                }
            }
            let circles = state.debugCircles
            let ground = circles.isEmpty ? nil : GroundDepth(m, view)
            for k in stride(from: 0, to: circles.count - 3, by: 4) {
                // GL JS's collision_circle.vertex: the centre's point on the ground, its camera
                // distance, the perspective ratio clamped to [0, 4].
                let w = ground?.w(circles[k], circles[k + 1]) ?? view.cameraToCenterDistance
                let ratio = w > 0 ? min(max(0.5 + 0.5 * view.cameraToCenterDistance / w, 0), 4) : 4
                out.circles.append(SymbolDebugCircle(center: LabelPoint(circles[k], circles[k + 1]), radius: circles[k + 2],
                                                     collided: circles[k + 3] != 0, perspectiveRatio: ratio))
            }
        }
        return out
    }
}

/// GL JS's depth range for Mercator (`MercatorTransform._calcMatrices`: the far plane where the
/// ground meets the top of the screen or 0.85 of the horizon, whichever is nearer, plus 1 %;
/// the near plane height / 50). glmap's own projection keeps its far plane further out at high
/// pitch, so the debug boxes' far-plane clip uses this one.
struct DebugDepth {
    let near: Double
    let far: Double

    init(_ view: SymbolView) {
        let fov = ViewTransform.fieldOfView, pitch = view.pitchInRadians, dist = view.cameraToCenterDistance
        func clamped(_ a: Double) -> Double { min(max(a, 0.01), .pi - 0.01) }
        let groundAngle = .pi / 2 + pitch
        let top = sin(fov / 2) * dist / sin(clamped(.pi - groundAngle - fov / 2))
        let horizon = tan(.pi / 2 - pitch) * dist * 0.85
        let horizonAngle = atan(horizon / dist)
        let topToHorizon = sin(horizonAngle) * dist / sin(clamped(.pi - groundAngle - horizonAngle))
        far = (cos(.pi / 2 - pitch) * min(top, topToHorizon) + dist) * 1.01
        near = view.height / 50
    }

    /// Normalised device z of a point at clip w (its distance along the view axis).
    func ndcZ(_ w: Double) -> Double {
        (far + near) / (far - near) - 2 * far * near / ((far - near) * w)
    }
}

/// The camera distance (clip w) of the ground point under a screen point: on a plane 1/w is
/// affine in screen coordinates, fitted here from three tile points projected by `m`.
struct GroundDepth {
    let a: Double, b: Double, c: Double

    init?(_ m: Matrix4, _ view: SymbolView) {
        var rows: [(x: Double, y: Double, inv: Double)] = []
        for (tx, ty) in [(0.0, 0.0), (8192.0, 0.0), (0.0, 8192.0)] {
            let p = m.transform(tx, ty)
            guard p.w != 0 else { return nil }
            rows.append(((p.x / p.w + 1) / 2 * view.width, (1 - p.y / p.w) / 2 * view.height, 1 / p.w))
        }
        // Solve [x y 1]·[a b c] = 1/w for the three points (Cramer's rule).
        let (p, q, r) = (rows[0], rows[1], rows[2])
        let det = p.x * (q.y - r.y) - p.y * (q.x - r.x) + (q.x * r.y - r.x * q.y)
        guard abs(det) > 1e-12 else { return nil }
        a = (p.inv * (q.y - r.y) - p.y * (q.inv - r.inv) + (q.inv * r.y - r.inv * q.y)) / det
        b = (p.x * (q.inv - r.inv) - p.inv * (q.x - r.x) + (q.x * r.inv - r.x * q.inv)) / det
        c = (p.x * (q.y * r.inv - r.y * q.inv) - p.y * (q.x * r.inv - r.x * q.inv) + p.inv * (q.x * r.y - r.x * q.y)) / det
    }

    /// Clip w at screen point (x, y), CSS px; negative or infinite beyond the horizon.
    func w(_ x: Double, _ y: Double) -> Double { 1 / (a * x + b * y + c) }
}
