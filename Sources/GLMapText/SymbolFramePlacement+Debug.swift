import Foundation
import GLMapCore
import GLMapStyle
import GLMapTiles

// The collision debug overlay (GL JS's `showCollisionBoxes`, as GL JS 5 draws it): for every
// instance one text box and one icon box, each the screen box placement last tried for it
// (`storeCollisionData`; a label no variable anchor could place shows its centred box), blue
// when placed, red when not, a tenth as strong when the box is not the one in use; and the
// circles placed along line labels, blue or red as they collided. Boxes are drawn as GL_LINES
// half a pixel in (`collision_box.vertex`), where the instance's anchor is in front of the camera.

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
        for t in drawOrder(l) {
            let (tile, layout) = layers[l].tiles[t]
            let state = buckets[l][t]
            let m = posMatrix(tile)
            if state.debugStates.count == layout.instances.count {
                func box(_ s: DebugBoxState?, _ instance: SymbolInstanceRecord) -> SymbolDebugBox? {
                    guard let s else { return nil }
                    // Clipped when the anchor is behind the camera or past the far plane.
                    let anchor = m.transform(instance.anchorX, instance.anchorY)
                    guard anchor.w >= 0.5, anchor.z / anchor.w < 1.1 else { return nil }
                    let b = s.box.flatMap { $0.count == 4 ? $0 : nil } ?? [0, 0, 0, 0]
                    let x1 = b[0] - pad + 0.5, y1 = b[1] - pad + 0.5, x2 = b[2] - pad + 0.5, y2 = b[3] - pad + 0.5
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
            for k in stride(from: 0, to: circles.count - 3, by: 4) {
                out.circles.append(SymbolDebugCircle(center: LabelPoint(circles[k], circles[k + 1]), radius: circles[k + 2],
                                                     collided: circles[k + 3] != 0))
            }
        }
        return out
    }
}
