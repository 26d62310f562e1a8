import Foundation
import GLMapCore
import GLMapStyle
import GLMapTiles

extension Placer {
    // MARK: opacities

    /// GL JS's `updateLayerOpacities` with `fadeDuration: 0`: per quad 1 (placed) or 0, duplicates
    /// hidden, vertical or horizontal shapings hidden by the placed orientation, placed symbols'
    /// hidden flags and justifications.
    mutating func updateLayerOpacities(_ l: Int) {
        var seen = Set<Int>()
        let v = layers[l].values
        for t in order[l] {
            let layout = layers[l].tiles[t].layout
            let defaultText = v.textAllowOverlap && (v.iconAllowOverlap || !layout.hasIconData || v.iconOptional)
            let defaultIcon = v.iconAllowOverlap && (v.textAllowOverlap || !layout.hasTextData || v.textOptional)
            var textQuad = 0, iconQuad = 0
            for (s, instance) in layout.instances.enumerated() {
                let id = buckets[l][t].crossTileIDs[s]
                let state: (text: Bool, icon: Bool)
                if seen.contains(id) {
                    state = (false, false)
                } else if let p = placements[id] {
                    state = p
                } else {
                    state = (defaultText, defaultIcon)
                    placements[id] = state
                }
                seen.insert(id)
                let orientation = placedOrientations[id]
                let horizontalHidden = orientation == .vertical
                let verticalHidden = orientation == .horizontal || orientation == .horizontalOnly
                let numH = instance.numHorizontalGlyphVertices / 4, numV = instance.numVerticalGlyphVertices / 4
                if numH > 0 || numV > 0 {
                    let o: Float = state.text ? 1 : 0
                    for q in 0..<numH { buckets[l][t].textOpacity[textQuad + q] = horizontalHidden ? 0 : o }
                    textQuad += numH
                    for q in 0..<numV { buckets[l][t].textOpacity[textQuad + q] = verticalHidden ? 0 : o }
                    textQuad += numV
                    let symbolHidden = !state.text
                    for index in [instance.rightText, instance.centerText, instance.leftText] where index >= 0 {
                        buckets[l][t].textHidden[index] = symbolHidden || horizontalHidden
                    }
                    if instance.verticalText >= 0 { buckets[l][t].textHidden[instance.verticalText] = symbolHidden || verticalHidden }
                    if let offset = variableOffsets[id] {
                        markUsedJustification(l, t, offset.anchor, instance, id: id, orientation: orientation)
                    }
                    if let o = orientation {
                        markUsedJustification(l, t, .left, instance, id: id, orientation: o)
                        markUsedOrientation(l, t, o, instance)
                    }
                }
                let numIcon = instance.numIconVertices / 4, numVerticalIcon = instance.numVerticalIconVertices / 4
                if numIcon > 0 {
                    let o: Float = state.icon ? 1 : 0
                    // GL JS tests the vertical icon's index for truth: −1 counts as present.
                    let useHorizontal = !(v.iconTextFit != .none && instance.verticalIcon != 0 && horizontalHidden)
                    if instance.icon >= 0 {
                        for q in 0..<numIcon { buckets[l][t].iconOpacity[iconQuad + q] = useHorizontal ? o : 0 }
                        buckets[l][t].iconHidden[instance.icon] = !state.icon
                    }
                    iconQuad += numIcon
                    if instance.verticalIcon >= 0 {
                        for q in 0..<numVerticalIcon { buckets[l][t].iconOpacity[iconQuad + q] = useHorizontal ? 0 : o }
                        buckets[l][t].iconHidden[instance.verticalIcon] = !state.icon
                    }
                    iconQuad += numVerticalIcon
                }
                if collisionDebug {
                    buckets[l][t].debugStates.append(debugStates(v, instance, index: s, tile: t, layer: l, id: id, placed: state,
                                                                 horizontalHidden: horizontalHidden, verticalHidden: verticalHidden))
                }
            }
            if layout.sortFeaturesByY && layout.text.segments.count <= 1 && layout.icon.segments.count <= 1 {
                buckets[l][t].sortedInstances = sortedInstances(layout, angle: -view.bearingInRadians)
            }
        }
    }

    // MARK: frames

    /// The frames of every layer.
    func frames() -> [SymbolLayerFrame] {
        layers.indices.map(frame)
    }

    /// GL JS's symbol draw order of a layer's tiles (`getVisibleCoordinates(true).reverse()`).
    func drawOrder(_ l: Int) -> [Int] {
        let a = -view.bearingInRadians
        let tiles = layers[l].tiles
        func rotated(_ t: OverscaledTileID) -> (x: Double, y: Double) {
            let x = Double(t.canonical.x), y = Double(t.canonical.y)
            return (cos(a) * x - sin(a) * y, sin(a) * x + cos(a) * y)
        }
        return Array(tiles.indices).sorted { i, j in
            let ta = tiles[i].tile, tb = tiles[j].tile
            if ta.overscaledZ != tb.overscaledZ { return ta.overscaledZ > tb.overscaledZ }
            let ra = rotated(ta), rb = rotated(tb)
            if ra.y != rb.y { return ra.y < rb.y }
            if ra.x != rb.x { return ra.x < rb.x }
            return ta.wrap < tb.wrap
        }
    }

    func frame(_ l: Int) -> SymbolLayerFrame {
        var out = SymbolLayerFrame()
        let v = layers[l].values
        for t in drawOrder(l) {
            let (tile, layout) = layers[l].tiles[t]
            let variable = variablePositions(l, t)
            let icon = v.drawsIcons ? kindFrame(l, t, isText: false, variable: variable) : nil
            let text = v.drawsText ? kindFrame(l, t, isText: true, variable: variable) : nil
            guard icon != nil || text != nil else { continue }
            _ = layout
            out.tiles.append(SymbolTileFrame(tile: tile, input: t, text: text, icon: icon))
        }
        let sortByKey = v.hasSortKey
        func items(_ kind: (SymbolTileFrame) -> SymbolKindFrame?) -> [SymbolDrawItem] {
            var list: [(key: Double?, item: SymbolDrawItem)] = []
            for (i, tf) in out.tiles.enumerated() {
                guard let k = kind(tf) else { continue }
                for (s, segment) in k.segments.enumerated() { list.append((segment.sortKey, SymbolDrawItem(tile: i, segment: s))) }
            }
            if sortByKey && list.allSatisfy({ $0.key != nil }) {
                list = list.enumerated().sorted { a, b in
                    a.element.key! != b.element.key! ? a.element.key! < b.element.key! : a.offset < b.offset
                }.map(\.element)
            }
            return list.map(\.item)
        }
        out.iconItems = items { $0.icon }
        out.textItems = items { $0.text }
        if collisionDebug { out.debug = debug(l) }
        return out
    }

    /// Label-plane positions of the text shapings and fitted icons of a variable-anchor layer
    /// (GL JS's `updateVariableAnchorsForBucket`); nil when the layer has no variable anchors.
    func variablePositions(_ l: Int, _ t: Int) -> (text: [(LabelPoint, Double)?], icon: [Int: (LabelPoint, Double)])? {
        let v = layers[l].values
        let (tile, layout) = layers[l].tiles[t]
        guard v.hasVariablePlacement, layout.hasTextData else { return nil }
        let rotateWithMap = v.textRotationAlignment == .map, pitchWithMap = v.textPitchAlignment == .map
        let size = sizeUniforms(layout.textSizeData, SymbolProperties.textSize, layers[l].layer)
        let s = view.pixelsToTileUnits(tile)
        let labelPlane = view.pitchedLabelPlaneMatrix(rotateWithMap: rotateWithMap, pixelsToTileUnits: s)
        let tileScale = pow(2, view.zoom - Double(tile.overscaledZ))
        let translationText = translation(v.textTranslate, v.textTranslateAnchor, tile)
        let m = posMatrix(tile)
        let updateTextFitIcon = v.iconTextFit != .none && layout.hasIconData
        var text: [(LabelPoint, Double)?] = []
        var icon: [Int: (LabelPoint, Double)] = [:]
        let state = buckets[l][t]
        for (i, symbol) in layout.text.placed.enumerated() {
            let skipOrientation = layout.allowVerticalPlacement && state.textOrientation[i] == 0
            let id = state.textCrossTileID[i]
            guard !state.textHidden[i], id != 0, !skipOrientation, let offset = variableOffsets[id] else {
                text.append(nil)
                continue
            }
            let projection = LineProjection(posMatrix: m, labelPlaneMatrix: labelPlane, pitchWithMap: pitchWithMap, width: view.width,
                                            height: view.height, translation: translationText,
                                            tileAnchor: LabelPoint(symbol.anchorX, symbol.anchorY), line: [])
            let projectedAnchor = pitchWithMap ? project(symbol.anchorX, symbol.anchorY, m) : projection.toLabelPlane(symbol.anchorX, symbol.anchorY)
            let ratio = perspectiveRatio(view.cameraToCenterDistance, projectedAnchor.signedDistanceFromCamera)
            var renderTextSize = size.size(layout.textSizeData, lowerSize: symbol.lowerSize, upperSize: symbol.upperSize) * ratio / GlyphConstants.oneEm
            if pitchWithMap { renderTextSize *= layout.tilePixelRatio / tileScale }
            let (h, vv) = offset.anchor.alignment
            let shiftX = -(h - 0.5) * offset.width, shiftY = -(vv - 0.5) * offset.height
            let shift = LabelPoint((shiftX / offset.textBoxScale + offset.textOffset.x) * renderTextSize,
                                   (shiftY / offset.textBoxScale + offset.textOffset.y) * renderTextSize)
            let shifted: LabelPoint
            let anchor = LabelPoint(symbol.anchorX + translationText.x, symbol.anchorY + translationText.y)
            if pitchWithMap {
                var adjusted = shift
                if !rotateWithMap { adjusted = adjusted.rotated(view.bearingInRadians) }
                let p = anchor + adjusted
                shifted = project(p.x, p.y, labelPlane).point
            } else if rotateWithMap {
                let right = projection.toLabelPlane(symbol.anchorX + 1, symbol.anchorY).point
                let east = right - projectedAnchor.point
                let angle = atan(east.y / east.x) + (east.x < 0 ? .pi : 0)
                shifted = projectedAnchor.point + shift.rotated(angle)
            } else {
                shifted = projectedAnchor.point + shift
            }
            let angle = layout.allowVerticalPlacement && state.textOrientation[i] == WritingMode.vertical.rawValue ? Double.pi / 2 : 0
            text.append((shifted, angle))
            if updateTextFitIcon && symbol.associatedIconIndex >= 0 { icon[symbol.associatedIconIndex] = (shifted, angle) }
        }
        return (text, icon)
    }

    /// One tile's text or icons for the frame: positions, opacities, draw order and uniforms.
    func kindFrame(_ l: Int, _ t: Int, isText: Bool, variable: (text: [(LabelPoint, Double)?], icon: [Int: (LabelPoint, Double)])?) -> SymbolKindFrame? {
        let input = layers[l]
        let v = input.values
        let (tile, layout) = input.tiles[t]
        let buffer = isText ? layout.text : layout.icon
        guard !buffer.isEmpty else { return nil }
        let state = buckets[l][t]
        let opacity = isText ? state.textOpacity : state.iconOpacity
        guard opacity.contains(where: { $0 > 0 }) else { return nil }
        let rotationIsMap = isText ? v.textRotationAlignment == .map : v.iconRotationAlignment == .map
        let rotationIsViewport = isText ? v.textRotationAlignment == .viewport : v.iconRotationAlignment == .viewport
        let pitchWithMap = isText ? v.textPitchAlignment == .map : v.iconPitchAlignment == .map
        let keepUpright = isText ? v.textKeepUpright : v.iconKeepUpright
        let alongLine = !rotationIsViewport && v.placement != .point
        let rotateInShader = rotationIsMap && !pitchWithMap && !alongLine
        let isSDF = isText || layout.sdfIcons
        let sizeData = isText ? layout.textSizeData : layout.iconSizeData
        let size = sizeUniforms(sizeData, isText ? SymbolProperties.textSize : SymbolProperties.iconSize, input.layer)
        let transformed = pitchWithMap || view.pitchInRadians != 0
        let s = view.pixelsToTileUnits(tile)
        let labelPlane = view.pitchedLabelPlaneMatrix(rotateWithMap: rotationIsMap, pixelsToTileUnits: s)
        let glCoord = view.glCoordMatrix(pitchWithMap: pitchWithMap, rotateWithMap: rotationIsMap, pixelsToTileUnits: s)
        let translate = isText ? translation(v.textTranslate, v.textTranslateAnchor, tile) : translation(v.iconTranslate, v.iconTranslateAnchor, tile)
        let hasVariableAnchors = v.hasVariablePlacement && layout.hasTextData
        let updateTextFitIcon = v.iconTextFit != .none && hasVariableAnchors && layout.hasIconData
        let shaderVariableAnchor = (isText && v.hasVariablePlacement) || updateTextFitIcon
        let combined = pitchWithMap ? labelPlane : view.clipSpaceToPixelsMatrix
        let m = posMatrix(tile)
        let program: SymbolProgramKind = isText ? (layout.iconsInText ? .textAndIcon : .text) : (isSDF ? .iconSDF : .icon)
        let iconAtlas = (Double(layout.iconAtlas.width), Double(layout.iconAtlas.height))
        let glyphAtlas = (Double(layout.glyphAtlas.width), Double(layout.glyphAtlas.height))
        let zoomDependentText: Bool = { if case .constant = layout.textSizeData { return false }; if case .source = layout.textSizeData { return false }; return true }()
        let iconScaled = v.iconScaled || layout.iconsNeedLinear
        let uniforms = SymbolDrawUniforms(
            program: program, isText: isText, isSDF: isSDF,
            hasHalo: isSDF && (isText ? v.textHasHalo : v.iconHasHalo),
            pitchWithMap: pitchWithMap, alongLine: alongLine, variableAnchor: shaderVariableAnchor, rotateSymbol: rotateInShader,
            sizeZoomConstant: sizeData.isZoomConstant, sizeFeatureConstant: sizeData.isFeatureConstant, sizeT: size.uSizeT, size: size.uSize,
            posMatrix: m, labelPlaneMatrix: (alongLine || shaderVariableAnchor) ? .identity : combined, coordMatrix: glCoord,
            translation: translate, gammaScale: pitchWithMap ? cos(view.pitchInRadians) * view.cameraToCenterDistance : 1,
            texSize: isText ? glyphAtlas : iconAtlas, texSizeIcon: isText && layout.iconsInText ? iconAtlas : (0, 0),
            linear: isText ? true : (isSDF || iconScaled || transformed),
            linearIcon: transformed || zoomDependentText,
            aspectRatio: view.width / view.height, cameraToCenterDistance: view.cameraToCenterDistance, devicePixelRatio: ratio)

        // Positions: along lines, at variable anchors, or at the anchor.
        var positions = [(LabelPoint, Double)?](repeating: nil, count: buffer.quads.count)
        if alongLine {
            lineLabelPositions(l, t, isText: isText, pitchWithMap: pitchWithMap, rotateWithMap: rotationIsMap, keepUpright: keepUpright,
                               translation: translate, labelPlane: labelPlane, into: &positions)
        } else if let variable, (isText && v.hasVariablePlacement) || (!isText && v.iconTextFit != .none) {
            for (i, symbol) in buffer.placed.enumerated() {
                let p: (LabelPoint, Double)? = isText ? variable.text[i] : (state.iconHidden[i] ? nil : variable.icon[i])
                for q in symbol.quadStart..<(symbol.quadStart + symbol.numGlyphs) { positions[q] = p }
            }
        } else {
            for symbol in buffer.placed {
                let angle = layout.allowVerticalPlacement && symbol.writingMode == .vertical ? Double.pi / 2 : 0
                let p = (LabelPoint(symbol.anchorX, symbol.anchorY), angle)
                for q in symbol.quadStart..<(symbol.quadStart + symbol.numGlyphs) { positions[q] = p }
            }
        }
        var dynamic = [Float](repeating: 0, count: buffer.quads.count * 16)
        var visible = [Bool](repeating: false, count: buffer.quads.count)
        for q in 0..<buffer.quads.count {
            let o = opacity[q]
            guard let (p, angle) = positions[q] else {
                for k in 0..<4 { dynamic[q * 16 + k * 4] = -.infinity; dynamic[q * 16 + k * 4 + 1] = -.infinity }
                continue
            }
            for k in 0..<4 {
                dynamic[q * 16 + k * 4] = Float(p.x)
                dynamic[q * 16 + k * 4 + 1] = Float(p.y)
                dynamic[q * 16 + k * 4 + 2] = Float(angle)
                dynamic[q * 16 + k * 4 + 3] = o
            }
            visible[q] = o > 0 && p.x.isFinite && p.y.isFinite
        }
        // Draw order: viewport-y sorted instances, else the layout's order, split by sort key.
        var segments: [(sortKey: Double?, quads: [UInt32])] = []
        if let sorted = state.sortedInstances {
            var quads: [UInt32] = []
            func add(_ index: Int) {
                guard index >= 0 else { return }
                let p = buffer.placed[index]
                for q in p.quadStart..<(p.quadStart + p.numGlyphs) where visible[q] { quads.append(UInt32(q)) }
            }
            for s in sorted {
                let instance = layout.instances[s]
                if isText {
                    var seen: [Int] = []
                    for index in [instance.rightText, instance.centerText, instance.leftText] where index >= 0 && !seen.contains(index) {
                        seen.append(index)
                        add(index)
                    }
                    add(instance.verticalText)
                } else {
                    add(instance.icon)
                    add(instance.verticalIcon)
                }
            }
            segments = [(nil, quads)]
        } else if v.hasSortKey && layout.canOverlap {
            for (i, segment) in buffer.segments.enumerated() {
                let end = i + 1 < buffer.segments.count ? buffer.segments[i + 1].start : buffer.quads.count
                let quads = (segment.start..<end).filter { visible[$0] }.map { UInt32($0) }
                segments.append((segment.sortKey.isNaN ? nil : segment.sortKey, quads))
            }
        } else {
            segments = [(nil, (0..<buffer.quads.count).filter { visible[$0] }.map { UInt32($0) })]
        }
        return SymbolKindFrame(dynamic: dynamic, segments: segments, uniforms: uniforms)
    }

    /// GL JS's `updateLineLabels`: each placed symbol's glyphs along its projected line.
    func lineLabelPositions(_ l: Int, _ t: Int, isText: Bool, pitchWithMap: Bool, rotateWithMap: Bool, keepUpright: Bool,
                            translation: (x: Double, y: Double), labelPlane: Matrix4, into positions: inout [(LabelPoint, Double)?]) {
        let input = layers[l]
        let (tile, layout) = input.tiles[t]
        let buffer = isText ? layout.text : layout.icon
        let state = buckets[l][t]
        let sizeData = isText ? layout.textSizeData : layout.iconSizeData
        let size = sizeUniforms(sizeData, isText ? SymbolProperties.textSize : SymbolProperties.iconSize, input.layer)
        let m = posMatrix(tile)
        let inverse = labelPlane.inverted ?? .identity
        let clipX = 256 / (view.width * ratio) * 2 + 1, clipY = 256 / (view.height * ratio) * 2 + 1
        let aspectRatio = view.width / view.height
        // GL JS rotates glyphs to the line by the text's rotation alignment, for icons too.
        let rotateToLine = input.values.textRotationAlignment == .map
        var useVertical = false
        for (i, symbol) in buffer.placed.enumerated() {
            let hidden = isText ? state.textHidden[i] : state.iconHidden[i]
            if hidden || (symbol.writingMode == .vertical && !useVertical) { continue }
            useVertical = false
            let anchorClip = project(symbol.anchorX, symbol.anchorY, m)
            let a = anchorClip.point
            guard a.x >= -clipX && a.x <= clipX && a.y >= -clipY && a.y <= clipY else { continue }
            let ratio = perspectiveRatio(view.cameraToCenterDistance, anchorClip.signedDistanceFromCamera)
            let fontSize = size.size(sizeData, lowerSize: symbol.lowerSize, upperSize: symbol.upperSize)
            let pitchScaled = pitchWithMap ? fontSize / ratio : fontSize * ratio
            var projection = LineProjection(posMatrix: m, labelPlaneMatrix: labelPlane, pitchWithMap: pitchWithMap, width: view.width,
                                            height: view.height, translation: translation, tileAnchor: LabelPoint(symbol.anchorX, symbol.anchorY),
                                            line: layout.lineVertices)
            let glyphs = layout.glyphOffsets[symbol.glyphStart..<(symbol.glyphStart + symbol.numGlyphs)]
            var result = projection.placeGlyphs(symbol: symbol, glyphOffsets: glyphs, fontSize: pitchScaled, flip: false, keepUpright: keepUpright,
                                                inverse: inverse, aspectRatio: aspectRatio, rotateToLine: rotateToLine)
            if case .useVertical = result { useVertical = true; continue }
            if case .needsFlipping = result {
                result = projection.placeGlyphs(symbol: symbol, glyphOffsets: glyphs, fontSize: pitchScaled, flip: true, keepUpright: keepUpright,
                                                inverse: inverse, aspectRatio: aspectRatio, rotateToLine: rotateToLine)
            }
            guard case .placed(let placed) = result else { continue }
            for (g, p) in placed.enumerated() where g < symbol.numGlyphs { positions[symbol.quadStart + g] = p }
        }
    }
}
