import Foundation
import GLMapCore
import GLMapStyle
import GLMapTiles

/// A placed label's variable anchor (GL JS's `VariableOffset`).
struct VariableOffset {
    var textOffset: (x: Double, y: Double)
    var width: Double
    var height: Double
    var anchor: SymbolAnchor
    var textBoxScale: Double
}

/// What placement decides per (layer, tile) bucket (GL JS keeps it on the bucket's arrays).
struct BucketState {
    var crossTileIDs: [Int]
    /// Per text placed symbol: the cross-tile id of the justification in use (0: not in use).
    var textCrossTileID: [Int]
    /// Per text placed symbol: the orientation placed (0: none).
    var textOrientation: [Int]
    var textHidden: [Bool]
    var iconHidden: [Bool]
    /// Opacity per quad (0 or 1).
    var textOpacity: [Float]
    var iconOpacity: [Float]
    /// Instance order for viewport-y drawing (nil: layout order).
    var sortedInstances: [Int]?
    /// Collision debug: per instance index, the screen boxes placement tried for its text and
    /// icon (grid coordinates; GL JS's `storeCollisionData`).
    var debugPlacedBoxes: [Int: (text: [Double]?, icon: [Double]?)] = [:]
    /// Collision debug: per instance, how its text and icon boxes are drawn.
    var debugStates: [DebugBoxStates] = []
    /// Collision debug: the line labels' circles placed from this bucket, 4 values each
    /// (x, y, radius in screen CSS px, 1 when it collided).
    var debugCircles: [Double] = []
}

/// How the debug overlay draws one collision box (GL JS's collision vertex: placed, not used,
/// and the box as placement put it on the screen).
struct DebugBoxState {
    var placed: Bool
    var notUsed: Bool
    /// x1, y1, x2, y2 in grid coordinates (nil: never placed this frame).
    var box: [Double]?
}

/// The debug states of an instance's text and icon boxes (nil: the instance has none).
struct DebugBoxStates {
    var text: DebugBoxState?
    var icon: DebugBoxState?
}

/// One frame's placement state (see `SymbolFramePlacement`).
struct Placer {
    let view: SymbolView
    let ratio: Double
    let crossSourceCollisions: Bool
    /// Whether the collision debug overlay is drawn (circles are then kept even when they collide).
    let collisionDebug: Bool
    let layers: [SymbolLayerInput]
    var collision: CollisionIndex
    /// Per layer: its tiles' indices in placement order.
    var order: [[Int]] = []
    var buckets: [[BucketState]] = []
    var groups: [String: Int] = [:]
    var placements: [Int: (text: Bool, icon: Bool)] = [:]
    var variableOffsets: [Int: VariableOffset] = [:]
    var placedOrientations: [Int: WritingMode] = [:]

    init(view: SymbolView, ratio: Double, crossSourceCollisions: Bool, collisionDebug: Bool, layers: [SymbolLayerInput]) {
        (self.view, self.ratio, self.crossSourceCollisions) = (view, ratio, crossSourceCollisions)
        (self.collisionDebug, self.layers) = (collisionDebug, layers)
        collision = CollisionIndex(view: view)
    }

    // MARK: per tile values

    func posMatrix(_ tile: OverscaledTileID) -> Matrix4 { view.tileMatrix(tile) }

    /// GL JS's `translatePosition`: a `*-translate` in tile units.
    func translation(_ t: (x: Double, y: Double), _ anchor: TranslateAnchor, _ tile: OverscaledTileID) -> (x: Double, y: Double) {
        if t.x == 0 && t.y == 0 { return (0, 0) }
        var v = t
        if anchor == .viewport {
            let a = view.bearingInRadians
            v = (t.x * cos(a) - t.y * sin(a), t.x * sin(a) + t.y * cos(a))
        }
        let s = view.pixelsToTileUnits(tile)
        return (v.x * s, v.y * s)
    }

    func sizeUniforms(_ data: SymbolSizeData, _ key: StyleProperty, _ layer: Layer) -> SymbolSizeUniforms {
        let e = layer.values[key.name]?.expression
        return SymbolSizeUniforms(data, zoom: view.zoom) { z, lo, hi in e?.interpolationFactor(zoom: z, lower: lo, upper: hi) ?? 0 }
    }

    // MARK: run

    mutating func run() {
        var crossIndex = CrossTileSymbolIndex()
        for input in layers {
            let indices = Array(input.tiles.indices).sorted { a, b in
                let ta = input.tiles[a].tile, tb = input.tiles[b].tile
                if ta.overscaledZ != tb.overscaledZ { return ta.overscaledZ > tb.overscaledZ }
                return ta.placementPrecedes(tb)
            }
            order.append(indices)
            let ids = crossIndex.assign(indices.map { input.tiles[$0] })
            var states = [BucketState?](repeating: nil, count: input.tiles.count)
            for (k, i) in indices.enumerated() {
                let l = input.tiles[i].layout
                states[i] = BucketState(crossTileIDs: ids[k], textCrossTileID: [Int](repeating: 0, count: l.text.placed.count),
                                        textOrientation: [Int](repeating: 0, count: l.text.placed.count),
                                        textHidden: [Bool](repeating: false, count: l.text.placed.count),
                                        iconHidden: [Bool](repeating: false, count: l.icon.placed.count),
                                        textOpacity: [Float](repeating: 0, count: l.text.quads.count),
                                        iconOpacity: [Float](repeating: 0, count: l.icon.quads.count))
            }
            buckets.append(states.map { $0! })
        }
        for l in layers.indices.reversed() where !follows(l) { placeLayer(l) }
        for l in layers.indices {
            if follows(l) { buckets[l] = buckets[layers[l].leader!] } else { updateLayerOpacities(l) }
        }
    }

    /// Whether layer `l` shares an earlier layer's placement (same layout group, same tiles).
    func follows(_ l: Int) -> Bool {
        guard let leader = layers[l].leader, leader < l else { return false }
        let a = layers[l].tiles, b = layers[leader].tiles
        return a.count == b.count && zip(a, b).allSatisfy { $0.tile == $1.tile && $0.layout.instances.count == $1.layout.instances.count }
    }

    /// GL JS's `LayerPlacement.continuePlacement` for one layer.
    mutating func placeLayer(_ l: Int) {
        let input = layers[l]
        let sortAcrossTiles = input.values.zOrder != .viewportY && input.values.hasSortKey
        var parts: [(sortKey: Double, tile: Int, range: Range<Int>)] = []
        for t in order[l] {
            let layout = input.tiles[t].layout
            _ = group(layout.sourceID)
            if sortAcrossTiles {
                for r in layout.sortKeyRanges { parts.append((r.sortKey, t, r.range)) }
            } else {
                parts.append((0, t, 0..<layout.instances.count))
            }
        }
        if sortAcrossTiles {
            parts = parts.enumerated().sorted { a, b in
                a.element.sortKey != b.element.sortKey ? a.element.sortKey < b.element.sortKey : a.offset < b.offset
            }.map(\.element)
        }
        var seen = Set<Int>()
        for part in parts { placeBucketPart(l, tile: part.tile, range: part.range, seen: &seen) }
    }

    /// The collision group of a source (GL JS's `CollisionGroups.get`).
    mutating func group(_ source: String) -> Int {
        if crossSourceCollisions { return 0 }
        if let g = groups[source] { return g }
        let g = groups.count + 1
        groups[source] = g
        return g
    }

    // MARK: placeLayerBucketPart

    mutating func placeBucketPart(_ l: Int, tile t: Int, range: Range<Int>, seen: inout Set<Int>) {
        let input = layers[l]
        let (tile, layout) = input.tiles[t]
        let v = input.values
        let textOverlap = v.textOverlap, iconOverlap = v.iconOverlap
        let rotateWithMap = v.textRotationAlignment == .map
        let pitchWithMap = v.textPitchAlignment == .map
        let hasIconTextFit = v.iconTextFit != .none
        let alwaysShowText = textOverlap == .always && (iconOverlap == .always || !layout.hasIconData || v.iconOptional)
        let alwaysShowIcon = iconOverlap == .always && (textOverlap == .always || !layout.hasTextData || v.textOptional)
        let textPixelRatio = 1 / layout.tilePixelRatio
        let m = posMatrix(tile)
        let pixelsToTiles = view.pixelsToTileUnits(tile)
        let translationText = translation(v.textTranslate, v.textTranslateAnchor, tile)
        let translationIcon = translation(v.iconTranslate, v.iconTranslateAnchor, tile)
        let pitchedLabelPlane = view.pitchedLabelPlaneMatrix(rotateWithMap: rotateWithMap, pixelsToTileUnits: pixelsToTiles)
        let textSize = sizeUniforms(layout.textSizeData, SymbolProperties.textSize, input.layer)
        let groupID = group(layout.sourceID)
        let predicate: ((CollisionKey) -> Bool)? = crossSourceCollisions ? nil : { $0.group == groupID }
        let bucketID = l * 1_000_000 + t + 1

        func placeBox(_ box: SymbolCollisionBox, _ overlap: OverlapMode, _ translation: (x: Double, y: Double), shift: LabelPoint? = nil) -> PlacedBox {
            collision.placeCollisionBox(box, overlap: overlap, textPixelRatio: textPixelRatio, posMatrix: m, tileOverscaledZ: tile.overscaledZ,
                                        pitchWithMap: pitchWithMap, rotateWithMap: rotateWithMap, translation: translation,
                                        group: predicate, shift: shift)
        }

        func placeSymbol(_ s: Int) {
            let instance = layout.instances[s]
            let id = buckets[l][t].crossTileIDs[s]
            if seen.contains(id) { return }
            var placeText = false, placeIcon = false
            var shift: LabelPoint?
            var placed: PlacedBox? = PlacedBox(box: [], placeable: false, offscreen: false)
            var placedVerticalText = PlacedBox(box: [], placeable: false, offscreen: false)
            var placedCircles: PlacedCircles?
            var placedIcon: PlacedBox?
            var textFeatureIndex = instance.textBox?.featureIndex ?? 0
            if textFeatureIndex == 0 && instance.useRuntimeCollisionCircles { textFeatureIndex = instance.featureIndex }
            let verticalTextFeatureIndex = instance.verticalTextBox?.featureIndex ?? 0
            if let textBox = instance.textBox {
                let verticalPossible = layout.allowVerticalPlacement && instance.numVerticalGlyphVertices > 0 && instance.verticalTextBox != nil
                func forModes(_ horizontal: () -> PlacedBox?, _ vertical: () -> PlacedBox?) {
                    if verticalPossible {
                        for mode in layout.writingModes {
                            if mode == .vertical {
                                placed = vertical()
                                placedVerticalText = placed ?? PlacedBox(box: [], placeable: false, offscreen: false)
                            } else {
                                placed = horizontal()
                            }
                            if placed?.placeable == true { break }
                        }
                    } else {
                        placed = horizontal()
                    }
                }
                if instance.textAnchorOffsets.isEmpty {
                    func place(_ box: SymbolCollisionBox, _ orientation: WritingMode) -> PlacedBox {
                        let r = placeBox(box, textOverlap, translationText)
                        if r.placeable {
                            markUsedOrientation(l, t, orientation, instance)
                            placedOrientations[id] = orientation
                        }
                        return r
                    }
                    forModes({ place(textBox, .horizontal) }, {
                        guard verticalPossible, let vb = instance.verticalTextBox else { return PlacedBox(box: [], placeable: false, offscreen: false) }
                        return place(vb, .vertical)
                    })
                } else {
                    func placeVariable(_ box: SymbolCollisionBox, _ iconBox: SymbolCollisionBox?, _ orientation: WritingMode) -> PlacedBox? {
                        let width = box.x2 - box.x1, height = box.y2 - box.y1
                        let variableIconBox = hasIconTextFit && iconOverlap == .never ? iconBox : nil
                        let passes = textOverlap == .never ? 1 : 2
                        var overlapMode = OverlapMode.never
                        for _ in 0..<passes {
                            for i in instance.textAnchorOffsets {
                                let a = layout.textAnchorOffsets[i]
                                let (h, vv) = a.anchor.alignment
                                let sh = LabelPoint(-(h - 0.5) * width + a.x * instance.textBoxScale, -(vv - 0.5) * height + a.y * instance.textBoxScale)
                                let glyphs = placeBox(box, overlapMode, translationText, shift: sh)
                                if let ib = variableIconBox {
                                    if !placeBox(ib, overlapMode, translationIcon, shift: sh).placeable { continue }
                                }
                                if glyphs.placeable {
                                    variableOffsets[id] = VariableOffset(textOffset: (a.x, a.y), width: width, height: height, anchor: a.anchor,
                                                                         textBoxScale: instance.textBoxScale)
                                    markUsedJustification(l, t, a.anchor, instance, id: id, orientation: orientation)
                                    if layout.allowVerticalPlacement {
                                        markUsedOrientation(l, t, orientation, instance)
                                        placedOrientations[id] = orientation
                                    }
                                    placeText = true
                                    shift = sh
                                    return glyphs
                                }
                            }
                            overlapMode = textOverlap
                        }
                        if collisionDebug {
                            // GL JS shows a centred box for a label no anchor could place.
                            let fake = placeBox(textBox, .always, translationText)
                            return PlacedBox(box: fake.box, placeable: false, offscreen: false)
                        }
                        return nil
                    }
                    forModes({ placeVariable(textBox, instance.iconBox, .horizontal) }, {
                        guard verticalPossible, placed?.placeable != true, let vb = instance.verticalTextBox else { return nil }
                        return placeVariable(vb, instance.verticalIconBox, .vertical)
                    })
                }
            }
            placeText = placed?.placeable == true
            if instance.useRuntimeCollisionCircles && instance.centerText >= 0 {
                let symbol = layout.text.placed[instance.centerText]
                let fontSize = textSize.size(layout.textSizeData, lowerSize: symbol.lowerSize, upperSize: symbol.upperSize)
                let circles = collision.placeCollisionCircles(overlap: textOverlap, symbol: symbol, layout: layout, fontSize: fontSize,
                                                              posMatrix: m, labelPlaneMatrix: pitchedLabelPlane, pitchWithMap: pitchWithMap,
                                                              group: predicate, circlePixelDiameter: instance.collisionCircleDiameter,
                                                              textPixelPadding: v.textPadding, translation: translationText,
                                                              showCollisionCircles: collisionDebug)
                placedCircles = circles
                placeText = textOverlap == .always || (!circles.circles.isEmpty && !circles.collisionDetected)
            }
            let iconFeatureIndex = instance.iconBox?.featureIndex ?? 0
            if let iconBox = instance.iconBox {
                let iconShift = hasIconTextFit ? shift : nil
                if placedVerticalText.placeable, let vb = instance.verticalIconBox {
                    placedIcon = placeBox(vb, iconOverlap, translationIcon, shift: iconShift)
                } else {
                    placedIcon = placeBox(iconBox, iconOverlap, translationIcon, shift: iconShift)
                }
                placeIcon = placedIcon!.placeable
            }
            let iconWithoutText = v.textOptional || (instance.numHorizontalGlyphVertices == 0 && instance.numVerticalGlyphVertices == 0)
            let textWithoutIcon = v.iconOptional || instance.numIconVertices == 0
            if !iconWithoutText && !textWithoutIcon {
                placeText = placeIcon && placeText
                placeIcon = placeText
            } else if !textWithoutIcon {
                placeText = placeIcon && placeText
            } else if !iconWithoutText {
                placeIcon = placeIcon && placeText
            }
            if placeText, let p = placed, p.placeable {
                let featureIndex = placedVerticalText.placeable && verticalTextFeatureIndex != 0 ? verticalTextFeatureIndex : textFeatureIndex
                collision.insertCollisionBox(p.box, overlap: textOverlap, ignorePlacement: v.textIgnorePlacement,
                                             key: CollisionKey(bucket: bucketID, featureIndex: featureIndex, group: groupID))
            }
            if placeIcon, let p = placedIcon, p.placeable {
                collision.insertCollisionBox(p.box, overlap: iconOverlap, ignorePlacement: v.iconIgnorePlacement,
                                             key: CollisionKey(bucket: bucketID, featureIndex: iconFeatureIndex, group: groupID))
            }
            if let c = placedCircles, placeText {
                collision.insertCollisionCircles(c.circles, overlap: textOverlap, ignorePlacement: v.textIgnorePlacement,
                                                 key: CollisionKey(bucket: bucketID, featureIndex: textFeatureIndex, group: groupID))
            }
            if collisionDebug {
                if instance.textBox != nil || instance.iconBox != nil {
                    var entry = buckets[l][t].debugPlacedBoxes[s] ?? (nil, nil)
                    if instance.textBox != nil { entry.text = placed?.box }
                    if instance.iconBox != nil { entry.icon = placedIcon?.box }
                    buckets[l][t].debugPlacedBoxes[s] = entry
                }
                if let c = placedCircles {
                    let pad = CollisionIndex.viewportPadding
                    for k in stride(from: 0, to: c.circles.count - 3, by: 4) {
                        buckets[l][t].debugCircles += [c.circles[k] - pad, c.circles[k + 1] - pad, c.circles[k + 2], c.collisionDetected ? 1 : 0]
                    }
                }
            }
            placements[id] = (placeText || alwaysShowText, placeIcon || alwaysShowIcon)
            seen.insert(id)
        }

        if v.zOrder == .viewportY {
            for s in sortedInstances(layout, angle: -view.bearingInRadians).reversed() { placeSymbol(s) }
        } else {
            for s in range { placeSymbol(s) }
        }
    }

    /// GL JS's `getSortedSymbolIndexes`: instances by rotated y, then feature index descending.
    func sortedInstances(_ layout: SymbolTileLayout, angle: Double) -> [Int] {
        let s = sin(angle), c = cos(angle)
        let ys = layout.instances.map { i -> Int in Int(Int32(truncatingIfNeeded: Int(SymbolLayout.jsRound(s * i.anchorX + c * i.anchorY)))) }
        return Array(layout.instances.indices).sorted { a, b in
            ys[a] != ys[b] ? ys[a] < ys[b] : layout.instances[a].featureIndex > layout.instances[b].featureIndex
        }
    }

    /// GL JS's `markUsedJustification`: the justification matching `anchor` (or the vertical
    /// shaping) carries the instance's id `id`, the others 0.
    mutating func markUsedJustification(_ l: Int, _ t: Int, _ anchor: SymbolAnchor, _ instance: SymbolInstanceRecord, id: Int,
                                        orientation: WritingMode?) {
        let autoIndex: Int
        if orientation == .vertical {
            autoIndex = instance.verticalText
        } else {
            switch anchor.justification {
            case .left: autoIndex = instance.leftText
            case .center: autoIndex = instance.centerText
            case .right: autoIndex = instance.rightText
            }
        }
        for index in [instance.leftText, instance.centerText, instance.rightText, instance.verticalText] where index >= 0 {
            buckets[l][t].textCrossTileID[index] = (autoIndex >= 0 && index != autoIndex) ? 0 : id
        }
    }

    /// GL JS's `markUsedOrientation`.
    mutating func markUsedOrientation(_ l: Int, _ t: Int, _ orientation: WritingMode, _ instance: SymbolInstanceRecord) {
        let horizontal = orientation == .horizontal || orientation == .horizontalOnly ? orientation.rawValue : 0
        let vertical = orientation == .vertical ? orientation.rawValue : 0
        for index in [instance.leftText, instance.centerText, instance.rightText] where index >= 0 {
            buckets[l][t].textOrientation[index] = horizontal
        }
        if instance.verticalText >= 0 { buckets[l][t].textOrientation[instance.verticalText] = vertical }
    }
}
