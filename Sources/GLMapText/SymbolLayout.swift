// SymbolLayout — contract
// Input: one symbol layer, one tile (its overscaled zoom), the tile's features that passed the
// layer's filter (GLMapStyle's `filteredFeatures`: geometry in the tile's 8192 units, expression
// contexts), a `StyleEvaluator` (frame-independent parts only are read: every value here is at
// the tile zoom, zoom + 1, zoom 18 or a size's covering stops), and `SymbolAssets`.
// Output: a `SymbolTileLayout` — what GL JS's `SymbolBucket.populate` + `performSymbolLayout`
// make: per feature its text (`text-field` as sections, `{token}`s resolved for literal values,
// `text-transform`, Arabic shaping) and icon, the glyph and image dependencies loaded into one
// glyph atlas and one icon atlas for the layout, shapings (horizontal per justification,
// vertical), anchors by `symbol-placement` (points; polygon poles of inaccessibility; line
// starts; line labels every `symbol-spacing` along lines clipped to the tile, lines of the same
// text merged first, checked against `text-max-angle`; `line-center`), anchors outside the tile
// square dropped, labels of the same text closer than half the spacing dropped, then per anchor a
// symbol instance with its quads (glyphs and icon, GL JS's vertex values), collision boxes or
// the collision-circle diameter of line labels, variable anchors and sort key. Features are
// sorted by `symbol-sort-key` when it varies.
// Invariants: quads and placed symbols appear in GL JS's order (icon first, then the horizontal
// shapings by justification, then the vertical one, per instance); every index points into
// the layout's arrays; atlases are at least 1×1.
// Limits: glyphs missing from a range that could not be loaded are left out of the text (the
// glyph manager keeps one warning per range); an image name that is not in the style draws no icon.
import Foundation
import GLMapCore
import GLMapGeoJSON
import GLMapStyle
import GLMapTiles

/// Builds `SymbolTileLayout`s (see the contract above).
public enum SymbolLayout {
    /// The text paint the text programs read, in `SymbolPaint.values` order.
    public static let textPaintProperties: [StyleProperty] = [
        SymbolProperties.textColor, SymbolProperties.textHaloColor, SymbolProperties.textOpacity,
        SymbolProperties.textHaloWidth, SymbolProperties.textHaloBlur,
    ]
    /// The icon paint the icon programs read, in `SymbolPaint.values` order.
    public static let iconPaintProperties: [StyleProperty] = [
        SymbolProperties.iconColor, SymbolProperties.iconHaloColor, SymbolProperties.iconOpacity,
        SymbolProperties.iconHaloWidth, SymbolProperties.iconHaloBlur,
    ]
    /// GL JS's largest packed size (255 × 128).
    static let maxPackedSize = 32640.0
    /// Tile extent.
    static let extent = Double(TileExtent.extent)

    /// A feature with what symbol layout made of it (GL JS's `SymbolFeature`).
    struct Feature {
        var index: Int
        var context: FeatureContext
        var type: FeatureGeometryType
        var geometry: [[TileVector]]
        var text: FormattedText?
        var icon: String?
        var sortKey: Double?
    }

    /// Lays out `layer` over one tile; nil when no feature gives a symbol.
    public static func build(layer: Layer, tile: OverscaledTileID, features: [FilteredFeature], evaluator: StyleEvaluator,
                             assets: SymbolAssets) -> SymbolTileLayout? {
        var builder = Builder(layer: layer, tile: tile, evaluator: evaluator, assets: assets)
        return builder.run(features)
    }

    /// JavaScript's `Math.round`.
    @inline(__always) static func jsRound(_ x: Double) -> Double { (x + 0.5).rounded(.down) }

    /// A number stored in an Int16Array (ToInt16: truncated, wrapped).
    @inline(__always) static func int16(_ x: Double) -> Double {
        guard x.isFinite else { return 0 }
        var v = x.rounded(.towardZero).truncatingRemainder(dividingBy: 65536)
        if v < 0 { v += 65536 }
        return v >= 32768 ? v - 65536 : v
    }

    /// A number stored in a Uint16Array (ToUint16: truncated, wrapped).
    @inline(__always) static func uint16(_ x: Double) -> Double {
        guard x.isFinite else { return 0 }
        var v = x.rounded(.towardZero).truncatingRemainder(dividingBy: 65536)
        if v < 0 { v += 65536 }
        return v
    }

    /// A number stored in a Float32Array.
    @inline(__always) static func float32(_ x: Double) -> Double { Double(Float(x)) }

    /// JavaScript's `String(value)` of a feature property (`{token}` replacement).
    static func jsString(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): return s
        case .number(let n): return JSONValue.formatNumber(n)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let a): return a.map { $0.isNull ? "" : jsString($0) }.joined(separator: ",")
        case .object: return "[object Object]"
        }
    }
}

extension SymbolLayout {
    /// The per-tile state of one layout run.
    struct Builder {
        typealias P = SymbolProperties
        let layer: Layer
        let tile: OverscaledTileID
        let assets: SymbolAssets
        /// Evaluators at the tile zoom, the next zoom and zoom 18.
        let atTile: StyleEvaluator, atNext: StyleEvaluator, at18: StyleEvaluator
        let tileZoom: Double
        let values: SymbolLayerValues
        var out: SymbolTileLayout
        /// Anchors per shaped text already used (GL JS's `compareText`).
        var compareText: [String: [TileVector]] = [:]
        var sdfIconsSet = false
        /// Paint table indices per (feature index, section) and per feature (icons).
        var textPaintIndex: [Int: [Int: Int32]] = [:]
        var iconPaintIndex: [Int: Int32] = [:]
        /// The last text/icon segment's vertex count (GL JS splits segments at 65535 vertices).
        var textSegmentVertices = 0, iconSegmentVertices = 0

        init(layer: Layer, tile: OverscaledTileID, evaluator: StyleEvaluator, assets: SymbolAssets) {
            self.layer = layer
            self.tile = tile
            self.assets = assets
            tileZoom = Double(tile.overscaledZ)
            var a = evaluator
            a.zoom = tileZoom
            a.tileZoomOverride = tileZoom
            a.compositeZoom = nil
            atTile = a
            var b = a
            b.zoom = tileZoom + 1
            atNext = b
            var c = a
            c.zoom = 18
            at18 = c
            values = SymbolLayerValues(layer: layer, evaluator: a)
            out = SymbolTileLayout(tile: tile, layerID: layer.id, sourceID: layer.source ?? "")
            out.tilePixelRatio = SymbolLayout.extent / (512 * tile.overscaleFactor)
            out.textSizeData = SymbolSizeData.make(P.textSize, layer: layer, evaluator: a, tileZoom: tileZoom)
            out.iconSizeData = SymbolSizeData.make(P.iconSize, layer: layer, evaluator: a, tileZoom: tileZoom)
            out.canOverlap = values.canOverlap
            out.sortFeaturesByKey = values.sortFeaturesByKey
            out.sortFeaturesByY = values.sortFeaturesByY
            out.writingModes = values.writingModes
            out.allowVerticalPlacement = values.writingModes.contains(.vertical)
        }

        // MARK: populate

        /// Whether a literal (or zoom-function) value of `p` gets `{token}`s resolved (GL JS's
        /// `getValueAndResolveTokens`: not data-driven and not an expression).
        func resolvesTokens(_ p: StyleProperty) -> Bool {
            guard let pv = layer.values[p.name] else { return false }
            switch pv.json {
            case .string: return true
            case .object(let o): return o["property"] == nil
            default: return false
            }
        }

        func resolve(_ s: String, _ properties: JSONObject) -> String {
            TokenResolver.resolve(s) { key in properties[key].map(SymbolLayout.jsString) }
        }

        /// The layer's text for a feature (nil: none).
        func text(_ c: FeatureContext) -> FormattedText? {
            let v = atTile.value(P.textField, in: layer, feature: c)
            guard let f = Formatted(evaluated: v) else { return nil }
            let tokens = resolvesTokens(P.textField)
            let sections = f.sections.map { s in
                if let image = s.image { return FormattedSection.image(image, verticalAlign: s.verticalAlign.flatMap(VerticalAlign.init)) }
                return FormattedSection(text: tokens ? resolve(s.text, c.properties) : s.text, scale: s.scale,
                                        fontStack: s.fontStack?.joined(separator: ","), textColor: s.textColor,
                                        verticalAlign: s.verticalAlign.flatMap(VerticalAlign.init))
            }
            let transform = TextTransform(rawValue: atTile.value(P.textTransform, layer, c).rawValue) ?? .none
            return FormattedText(sections: sections).transformed(transform, bidi: assets.bidi)
        }

        /// The layer's icon name for a feature (nil: none).
        func icon(_ c: FeatureContext) -> String? {
            let v = atTile.value(P.iconImage, in: layer, feature: c)
            guard var name = ResolvedImage(evaluated: v)?.name else { return nil }
            if resolvesTokens(P.iconImage) { name = resolve(name, c.properties) }
            return name.isEmpty ? nil : name
        }

        /// The layer-wide text switch (GL JS's `hasText`): a text field that is not the constant
        /// empty string and a font stack that is not the constant empty list.
        var hasText: Bool {
            guard let field = layer.values[P.textField.name] else { return false }
            if let c = field.expression.constantValue, let f = Formatted(evaluated: c),
               !f.sections.contains(where: { !$0.text.isEmpty || !($0.image ?? "").isEmpty }) { return false }
            if let font = layer.values[P.textFont.name], let c = font.expression.constantValue, case .array(let a) = c, a.isEmpty { return false }
            return true
        }

        mutating func run(_ input: [FilteredFeature]) -> SymbolTileLayout? {
            let withText = hasText, withIcon = layer.values[P.iconImage.name] != nil
            guard withText || withIcon else { return nil }
            var features: [Feature] = []
            var glyphDeps = GlyphDependencies()
            var imageIDs: [String] = []
            for f in input {
                let c = f.context
                let text = withText ? self.text(c) : nil
                let icon = withIcon ? self.icon(c) : nil
                if (text == nil || text!.isEmpty) && icon == nil { continue }
                let sortKey: Double? = values.sortFeaturesByKey ? (atTile.value(P.symbolSortKey, layer, c) ?? 0) : nil
                features.append(Feature(index: f.feature.index, context: c, type: f.feature.type,
                                        geometry: LabelAnchors.vectors(f.feature.geometry), text: text, icon: icon, sortKey: sortKey))
                if let icon, !imageIDs.contains(icon) { imageIDs.append(icon) }
                if let text {
                    var v = SymbolLayoutValues()
                    v.textFont = atTile.value(P.textFont, layer, c)
                    v.symbolPlacement = SymbolPlacement(rawValue: values.placement.rawValue) ?? .point
                    v.textRotationAlignment = RotationAlignment(rawValue: atTile.value(P.textRotationAlignment, layer).rawValue) ?? .auto
                    v.allowVerticalPlacement = out.allowVerticalPlacement
                    SymbolTextLayout.dependencies(of: text, values: v, glyphs: &glyphDeps, images: &imageIDs)
                }
            }
            if values.placement == .line { features = SymbolLayout.mergeLines(features) }
            if values.sortFeaturesByKey {
                features = features.enumerated().sorted { a, b in
                    let ka = a.element.sortKey ?? 0, kb = b.element.sortKey ?? 0
                    return ka != kb ? ka < kb : a.offset < b.offset
                }.map(\.element)
            }
            guard !features.isEmpty else { return nil }
            let glyphs = assets.glyphs.glyphs(for: glyphDeps)
            let glyphAtlas = GlyphAtlas(glyphs: glyphs)
            let images = assets.images.images(for: imageIDs)
            let imageAtlas = ImageAtlas(icons: images)
            var imageMap: [String: StyleImage] = [:]
            for (id, image) in images { imageMap[id] = image }
            out.glyphAtlas = glyphAtlas.image
            out.iconAtlas = imageAtlas.premultipliedImage
            for feature in features {
                layoutFeature(feature, glyphs: glyphs, glyphAtlas: glyphAtlas, imageMap: imageMap, imageAtlas: imageAtlas)
            }
            return out.isEmpty ? nil : out
        }

        // MARK: performSymbolLayout

        /// The layout values of one feature at the tile zoom.
        func layoutValues(_ c: FeatureContext) -> SymbolLayoutValues {
            var v = SymbolLayoutValues()
            v.textFont = atTile.value(P.textFont, layer, c)
            v.textSize = atTile.value(P.textSize, layer, c)
            v.textSizeNextZoom = atNext.value(P.textSize, layer, c)
            v.textMaxWidth = atTile.value(P.textMaxWidth, layer, c)
            v.textLineHeight = atTile.value(P.textLineHeight, layer)
            v.textLetterSpacing = atTile.value(P.textLetterSpacing, layer, c)
            v.textJustify = TextJustifyValue(rawValue: atTile.value(P.textJustify, layer, c).rawValue) ?? .center
            v.textAnchor = SymbolAnchor(rawValue: atTile.value(P.textAnchor, layer, c).rawValue) ?? .center
            let offset = atTile.value(P.textOffset, layer, c)
            v.textOffset = offset.count == 2 ? (offset[0], offset[1]) : (0, 0)
            if layer.values[P.textRadialOffset.name] != nil { v.textRadialOffset = atTile.value(P.textRadialOffset, layer, c) }
            if let anchors = atTile.value(P.textVariableAnchor, layer, c) {
                v.textVariableAnchor = anchors.compactMap { SymbolAnchor(rawValue: $0.rawValue) }
            }
            if let collection = atTile.value(P.textVariableAnchorOffset, layer, c) {
                v.textVariableAnchorOffset = collection.entries.compactMap { e in
                    guard let a = SymbolAnchor(rawValue: e.anchor.rawValue), e.offset.count == 2 else { return nil }
                    return (a, (e.offset[0], e.offset[1]))
                }
            }
            v.allowVerticalPlacement = out.allowVerticalPlacement
            v.textRotationAlignment = RotationAlignment(rawValue: atTile.value(P.textRotationAlignment, layer).rawValue) ?? .auto
            v.symbolPlacement = SymbolPlacement(rawValue: values.placement.rawValue) ?? .point
            v.textKeepUpright = values.textKeepUpright
            v.textRotate = atTile.value(P.textRotate, layer, c)
            let iconOffset = atTile.value(P.iconOffset, layer, c)
            v.iconOffset = iconOffset.count == 2 ? (iconOffset[0], iconOffset[1]) : (0, 0)
            v.iconAnchor = SymbolAnchor(rawValue: atTile.value(P.iconAnchor, layer, c).rawValue) ?? .center
            v.iconTextFit = IconTextFit(rawValue: values.iconTextFit.rawValue) ?? .none
            let padding = atTile.value(P.iconTextFitPadding, layer)
            v.iconTextFitPadding = padding.count == 4 ? (padding[0], padding[1], padding[2], padding[3]) : (0, 0, 0, 0)
            v.iconRotate = atTile.value(P.iconRotate, layer, c)
            return v
        }

        /// The justifications GL JS shapes a variable-anchor label for, in its order.
        func variableJustifications(_ v: SymbolLayoutValues, _ anchors: [(anchor: SymbolAnchor, offset: (x: Double, y: Double))]) -> [TextJustify] {
            if v.textJustify != .auto { return [TextJustify(rawValue: v.textJustify.rawValue) ?? .center] }
            var out: [TextJustify] = []
            for (a, _) in anchors where !out.contains(a.justification) { out.append(a.justification) }
            return out
        }

        mutating func layoutFeature(_ feature: Feature, glyphs: GlyphMap, glyphAtlas: GlyphAtlas, imageMap: [String: StyleImage], imageAtlas: ImageAtlas) {
            let c = feature.context
            let v = layoutValues(c)
            var shaped = ShapedText()
            var justifications: [TextJustify] = []
            if let text = feature.text {
                shaped = SymbolTextLayout.shape(text, values: v, glyphs: glyphs, glyphAtlas: glyphAtlas,
                                                imagePositions: imageAtlas.iconPositions, bidi: assets.bidi)
                if !v.textAlongLine, let variable = shaped.variableAnchorOffsets {
                    justifications = variableJustifications(v, variable)
                } else {
                    justifications = shaped.horizontal.map(\.justify)
                }
            }
            var shapedIcon: PositionedIcon?
            var verticalIcon: PositionedIcon?
            var isSDFIcon = false
            if let name = feature.icon, let image = imageMap[name], let position = imageAtlas.iconPositions[name] {
                let fitted = SymbolTextLayout.shapeIcon(position, values: v, text: shaped)
                shapedIcon = fitted.icon
                verticalIcon = fitted.vertical
                isSDFIcon = image.sdf
                if !sdfIconsSet { out.sdfIcons = isSDFIcon; sdfIconsSet = true }
                if image.pixelRatio != assets.pixelRatio {
                    out.iconsNeedLinear = true
                } else if let r = layer.values[P.iconRotate.name]?.expression {
                    if !r.isFeatureConstant || (atTile.value(P.iconRotate, layer) != 0) { out.iconsNeedLinear = true }
                }
            }
            let shapedText = shaped.defaultHorizontal ?? shaped.vertical
            out.iconsInText = shapedText?.iconsInText ?? false
            guard shapedText != nil || shapedIcon != nil else { return }
            addFeature(feature, v: v, shaped: shaped, justifications: justifications, icon: shapedIcon, verticalIcon: verticalIcon,
                       isSDFIcon: isSDFIcon, imageMap: imageMap)
        }

        // MARK: addFeature

        mutating func addFeature(_ feature: Feature, v: SymbolLayoutValues, shaped: ShapedText, justifications: [TextJustify],
                                 icon: PositionedIcon?, verticalIcon: PositionedIcon?, isSDFIcon: Bool, imageMap: [String: StyleImage]) {
            let c = feature.context
            let layoutTextSize = v.textSizeNextZoom
            var textMaxSize = at18.value(P.textSize, layer, c)
            if !textMaxSize.isFinite { textMaxSize = layoutTextSize }
            let layoutIconSize = atNext.value(P.iconSize, layer, c)
            let glyphSize = 24.0
            let tpr = out.tilePixelRatio
            let textBoxScale = tpr * layoutTextSize / glyphSize
            let textMaxBoxScale = tpr * textMaxSize / glyphSize
            let iconBoxScale = tpr * layoutIconSize
            let symbolMinDistance = tpr * atTile.value(P.symbolSpacing, layer)
            let textPadding = values.textPadding * tpr
            let ip = atTile.value(P.iconPadding, layer, c)
            let iconPadding = (top: ip.top * tpr, right: ip.right * tpr, bottom: ip.bottom * tpr, left: ip.left * tpr)
            let textMaxAngle = atTile.value(P.textMaxAngle, layer) / 180 * .pi
            let textAlongLine = values.textAlongLine, iconAlongLine = values.iconAlongLine
            let defaultHorizontal = shaped.defaultHorizontal
            let anchorShaping = shaped.vertical ?? defaultHorizontal
            let textRepeatDistance = symbolMinDistance / 2
            let ctx = SymbolContext(feature: feature, v: v, shaped: shaped, justifications: justifications, icon: icon,
                                    verticalIcon: verticalIcon, isSDFIcon: isSDFIcon, imageMap: imageMap,
                                    textBoxScale: textBoxScale, textPadding: textPadding, textAlongLine: textAlongLine,
                                    iconBoxScale: iconBoxScale, iconPadding: iconPadding, iconAlongLine: iconAlongLine,
                                    layoutTextSize: layoutTextSize)
            func inside(_ a: LabelAnchor) -> Bool { a.x >= 0 && a.x < SymbolLayout.extent && a.y >= 0 && a.y < SymbolLayout.extent }
            switch values.placement {
            case .line:
                for line in LabelAnchors.clipLine(feature.geometry, x1: 0, y1: 0, x2: SymbolLayout.extent, y2: SymbolLayout.extent) {
                    let anchors = LabelAnchors.anchors(line: line, spacing: symbolMinDistance, maxAngle: textMaxAngle, text: anchorShaping,
                                                       icon: icon, glyphSize: glyphSize, boxScale: textMaxBoxScale,
                                                       overscaling: tile.overscaleFactor, tileExtent: SymbolLayout.extent)
                    for anchor in anchors {
                        if let t = defaultHorizontal, anchorIsTooClose(t.text, textRepeatDistance, anchor) { continue }
                        if inside(anchor) { addSymbol(anchor, line: line, ctx) }
                    }
                }
            case .lineCenter:
                for line in feature.geometry where line.count > 1 {
                    if let anchor = LabelAnchors.centerAnchor(line: line, maxAngle: textMaxAngle, text: anchorShaping, icon: icon,
                                                              glyphSize: glyphSize, boxScale: textMaxBoxScale), inside(anchor) {
                        addSymbol(anchor, line: line, ctx)
                    }
                }
            case .point:
                switch feature.type {
                case .polygon:
                    for polygon in LabelAnchors.classifyRings(feature.geometry) where !polygon.isEmpty {
                        let pole = PoleOfInaccessibility.find(polygon, precision: 16)
                        let anchor = LabelAnchor(x: pole.x, y: pole.y, angle: 0)
                        if inside(anchor) { addSymbol(anchor, line: polygon[0], ctx) }
                    }
                case .lineString:
                    for line in feature.geometry where !line.isEmpty {
                        let anchor = LabelAnchor(x: line[0].x, y: line[0].y, angle: 0)
                        if inside(anchor) { addSymbol(anchor, line: line, ctx) }
                    }
                case .point:
                    for points in feature.geometry {
                        for p in points {
                            let anchor = LabelAnchor(x: p.x, y: p.y, angle: 0)
                            if inside(anchor) { addSymbol(anchor, line: [p], ctx) }
                        }
                    }
                }
            }
        }

        /// GL JS's `anchorIsTooClose`: whether an anchor with the same text lies within
        /// `repeatDistance` (and if not, the anchor is remembered).
        mutating func anchorIsTooClose(_ text: String, _ repeatDistance: Double, _ anchor: LabelAnchor) -> Bool {
            let p = TileVector(anchor.x, anchor.y)
            if let others = compareText[text] {
                for o in others.reversed() where p.dist(o) < repeatDistance { return true }
            }
            compareText[text, default: []].append(p)
            return false
        }

        /// What `addSymbol` reads for every anchor of one feature.
        struct SymbolContext {
            var feature: Feature
            var v: SymbolLayoutValues
            var shaped: ShapedText
            var justifications: [TextJustify]
            var icon: PositionedIcon?
            var verticalIcon: PositionedIcon?
            var isSDFIcon: Bool
            var imageMap: [String: StyleImage]
            var textBoxScale: Double
            var textPadding: Double
            var textAlongLine: Bool
            var iconBoxScale: Double
            var iconPadding: CollisionFeature.Padding
            var iconAlongLine: Bool
            var layoutTextSize: Double
        }

        // MARK: addSymbol

        mutating func addSymbol(_ anchor: LabelAnchor, line: [TileVector], _ s: SymbolContext) {
            let c = s.feature.context
            let lineStart = out.lineVertices.count
            addToLineVertexArray(anchor, line)
            let lineLength = out.lineVertices.count - lineStart
            let textPadding: CollisionFeature.Padding = (s.textPadding, s.textPadding, s.textPadding, s.textPadding)
            var textCollision: CollisionFeature?, iconCollision: CollisionFeature?
            var verticalTextCollision: CollisionFeature?, verticalIconCollision: CollisionFeature?
            var numIconVertices = 0, numVerticalIconVertices = 0, numHorizontalGlyphVertices = 0, numVerticalGlyphVertices = 0
            var placedIconIndex = -1, verticalPlacedIconIndex = -1
            var placedText: [TextJustify: Int] = [:]
            var placedVertical = -1
            var key = ""
            let textRotate = s.v.textRotate
            if out.allowVerticalPlacement, let vertical = s.shaped.vertical {
                verticalTextCollision = CollisionFeature(anchor: anchor, text: vertical, boxScale: s.textBoxScale, padding: textPadding,
                                                         alignLine: s.textAlongLine, rotate: textRotate + 90)
                if let vi = s.verticalIcon {
                    verticalIconCollision = CollisionFeature(anchor: anchor, icon: vi, boxScale: s.iconBoxScale, padding: s.iconPadding,
                                                             alignLine: s.textAlongLine, rotate: textRotate + 90)
                }
            }
            let iconSizeVertex = sizeVertex(out.iconSizeData, P.iconSize, c)
            if let icon = s.icon {
                let iconRotate = s.v.iconRotate
                let fit = values.iconTextFit != .none
                let quads = SymbolQuads.iconQuads(icon, iconRotate: iconRotate, isSDF: s.isSDFIcon, hasIconTextFit: fit)
                let verticalQuads = s.verticalIcon.map { SymbolQuads.iconQuads($0, iconRotate: iconRotate, isSDF: s.isSDFIcon, hasIconTextFit: fit) }
                iconCollision = CollisionFeature(anchor: anchor, icon: icon, boxScale: s.iconBoxScale, padding: s.iconPadding,
                                                 alignLine: false, rotate: iconRotate)
                numIconVertices = quads.count * 4
                let paint = iconPaint(s.feature)
                addSymbols(text: false, quads, sizeVertex: iconSizeVertex, lineOffset: s.v.iconOffset, feature: s.feature,
                           writingMode: .none, anchor: anchor, lineStart: lineStart, lineLength: lineLength, associatedIconIndex: -1,
                           paint: { _ in paint })
                placedIconIndex = out.icon.placed.count - 1
                if let verticalQuads {
                    numVerticalIconVertices = verticalQuads.count * 4
                    addSymbols(text: false, verticalQuads, sizeVertex: iconSizeVertex, lineOffset: s.v.iconOffset, feature: s.feature,
                               writingMode: .vertical, anchor: anchor, lineStart: lineStart, lineLength: lineLength, associatedIconIndex: -1,
                               paint: { _ in paint })
                    verticalPlacedIconIndex = out.icon.placed.count - 1
                }
            }
            let textSizeVertex = sizeVertex(out.textSizeData, P.textSize, c)
            let writingMode: WritingMode = s.shaped.vertical != nil ? .horizontal : .horizontalOnly
            for (justify, shaping) in s.shaped.horizontal {
                if textCollision == nil {
                    key = shaping.text
                    textCollision = CollisionFeature(anchor: anchor, text: shaping, boxScale: s.textBoxScale, padding: textPadding,
                                                     alignLine: s.textAlongLine, rotate: textRotate)
                }
                let singleLine = shaping.lines.count == 1
                numHorizontalGlyphVertices += addTextVertices(anchor, shaping, s, writingMode: writingMode, sizeVertex: textSizeVertex,
                                                              lineStart: lineStart, lineLength: lineLength, associatedIcon: placedIconIndex)
                let index = out.text.placed.count - 1
                if singleLine {
                    for j in (s.justifications.isEmpty ? [justify] : s.justifications) { placedText[j] = index }
                    break
                }
                placedText[justify] = index
            }
            if let vertical = s.shaped.vertical {
                numVerticalGlyphVertices += addTextVertices(anchor, vertical, s, writingMode: .vertical, sizeVertex: textSizeVertex,
                                                            lineStart: lineStart, lineLength: lineLength, associatedIcon: verticalPlacedIconIndex)
                placedVertical = out.text.placed.count - 1
            }
            var diameter = -1.0
            for f in [textCollision, verticalTextCollision, iconCollision, verticalIconCollision] {
                if let d = f?.circleDiameter, d != 0 { diameter = max(d, diameter) }
            }
            let useCircles = diameter > -1
            if useCircles { diameter *= s.layoutTextSize / GlyphConstants.oneEm }
            if let sortKey = s.feature.sortKey {
                let i = out.instances.count
                if let last = out.sortKeyRanges.last, last.sortKey == sortKey {
                    out.sortKeyRanges[out.sortKeyRanges.count - 1].range = last.range.lowerBound..<(i + 1)
                } else {
                    out.sortKeyRanges.append((sortKey, i..<(i + 1)))
                }
            }
            let anchorStart = out.textAnchorOffsets.count
            if let variable = VariableAnchor.anchorOffsets(variableAnchorOffset: s.v.textVariableAnchorOffset, variableAnchor: s.v.textVariableAnchor,
                                                           radialOffset: s.v.textRadialOffset, textOffset: s.v.textOffset) {
                for (a, o) in variable {
                    out.textAnchorOffsets.append((a, SymbolLayout.float32(o.x), SymbolLayout.float32(o.y)))
                }
            }
            func box(_ f: CollisionFeature?) -> SymbolCollisionBox? {
                guard let b = f?.box else { return nil }
                return SymbolCollisionBox(anchorX: SymbolLayout.int16(b.anchorX), anchorY: SymbolLayout.int16(b.anchorY),
                                          x1: SymbolLayout.float32(b.x1), y1: SymbolLayout.float32(b.y1),
                                          x2: SymbolLayout.float32(b.x2), y2: SymbolLayout.float32(b.y2), featureIndex: s.feature.index)
            }
            out.instances.append(SymbolInstanceRecord(
                anchorX: SymbolLayout.int16(anchor.x), anchorY: SymbolLayout.int16(anchor.y),
                rightText: placedText[.right] ?? -1, centerText: placedText[.center] ?? -1, leftText: placedText[.left] ?? -1,
                verticalText: placedVertical > 0 ? placedVertical : -1,
                icon: placedIconIndex, verticalIcon: verticalPlacedIconIndex, key: key,
                textBox: box(textCollision), verticalTextBox: box(verticalTextCollision),
                iconBox: box(iconCollision), verticalIconBox: box(verticalIconCollision),
                featureIndex: s.feature.index,
                numHorizontalGlyphVertices: numHorizontalGlyphVertices, numVerticalGlyphVertices: numVerticalGlyphVertices,
                numIconVertices: numIconVertices, numVerticalIconVertices: numVerticalIconVertices,
                useRuntimeCollisionCircles: useCircles, textBoxScale: SymbolLayout.float32(s.textBoxScale),
                collisionCircleDiameter: SymbolLayout.float32(diameter), textAnchorOffsets: anchorStart..<out.textAnchorOffsets.count,
                sortKey: s.feature.sortKey))
        }

        /// GL JS's size vertex of a feature: [size × 128] per feature, or the sizes at the covering
        /// stops for composite sizes; nil for sizes that read no feature.
        func sizeVertex(_ data: SymbolSizeData, _ key: PropertyKey<Double>, _ c: FeatureContext) -> (Double, Double?)? {
            switch data {
            case .constant, .camera: return nil
            case .source: return (128 * atTile.value(key, layer, c), nil)
            case .composite(let z0, let z1, _):
                var a = atTile, b = atTile
                a.zoom = z0
                b.zoom = z1
                return (128 * a.value(key, layer, c), 128 * b.value(key, layer, c))
            }
        }

        /// GL JS's `addToLineVertexArray`: the line's vertices with their distance from the anchor
        /// (only for anchors on a line segment).
        mutating func addToLineVertexArray(_ anchor: LabelAnchor, _ line: [TileVector]) {
            guard let segment = anchor.segment, segment + 1 < line.count else { return }
            let a = TileVector(anchor.x, anchor.y)
            var distances = [Double](repeating: 0, count: line.count)
            var forward = a.dist(line[segment + 1])
            var backward = a.dist(line[segment])
            for i in (segment + 1)..<line.count {
                distances[i] = forward
                if i < line.count - 1 { forward += line[i + 1].dist(line[i]) }
            }
            for i in stride(from: segment, through: 0, by: -1) {
                distances[i] = backward
                if i > 0 { backward += line[i - 1].dist(line[i]) }
            }
            for i in 0..<line.count {
                out.lineVertices.append(SymbolLineVertex(x: SymbolLayout.int16(line[i].x), y: SymbolLayout.int16(line[i].y),
                                                         distanceFromAnchor: SymbolLayout.float32(distances[i])))
            }
        }

        mutating func addTextVertices(_ anchor: LabelAnchor, _ shaping: Shaping, _ s: SymbolContext, writingMode: WritingMode,
                                      sizeVertex: (Double, Double?)?, lineStart: Int, lineLength: Int, associatedIcon: Int) -> Int {
            let quads = SymbolQuads.glyphQuads(shaping, textOffset: s.shaped.textOffset, textRotate: s.v.textRotate, alongLine: s.textAlongLine,
                                               allowVerticalPlacement: out.allowVerticalPlacement, images: s.imageMap)
            let feature = s.feature
            var paints: [Int: Int32] = [:]
            for q in quads where paints[q.sectionIndex] == nil { paints[q.sectionIndex] = textPaint(feature, section: q.sectionIndex) }
            addSymbols(text: true, quads, sizeVertex: sizeVertex, lineOffset: s.shaped.textOffset, feature: feature, writingMode: writingMode,
                       anchor: anchor, lineStart: lineStart, lineLength: lineLength, associatedIconIndex: associatedIcon,
                       paint: { section in paints[section] ?? 0 })
            return quads.count * 4
        }

        // MARK: paint

        /// Paint values of `properties` for a feature at the tile zoom and the next.
        func paint(_ properties: [StyleProperty], _ c: FeatureContext) -> SymbolPaint {
            var lower = atTile, upper = atTile
            lower.zoom = tileZoom
            upper.zoom = tileZoom + 1
            return SymbolPaint(values: properties.map { lower.value($0, in: layer, feature: c) },
                               next: properties.map { upper.value($0, in: layer, feature: c) })
        }

        mutating func textPaint(_ feature: Feature, section: Int) -> Int32 {
            if let i = textPaintIndex[feature.index]?[section] { return i }
            var p = paint(SymbolLayout.textPaintProperties, feature.context)
            if let sections = feature.text?.sections, section < sections.count, let color = sections[section].textColor {
                p.values[0] = .color(color)
                p.next[0] = .color(color)
            }
            let i = Int32(out.text.paint.count)
            out.text.paint.append(p)
            textPaintIndex[feature.index, default: [:]][section] = i
            return i
        }

        mutating func iconPaint(_ feature: Feature) -> Int32 {
            if let i = iconPaintIndex[feature.index] { return i }
            let i = Int32(out.icon.paint.count)
            out.icon.paint.append(paint(SymbolLayout.iconPaintProperties, feature.context))
            iconPaintIndex[feature.index] = i
            return i
        }

        // MARK: addSymbols

        /// GL JS's `SymbolBucket.addSymbols`: the quads' vertex values, glyph offsets and the
        /// placed symbol, into the text or icon buffer.
        mutating func addSymbols(text isText: Bool, _ quads: [SymbolQuad], sizeVertex: (Double, Double?)?, lineOffset: (x: Double, y: Double),
                                 feature: Feature, writingMode: WritingMode, anchor: LabelAnchor, lineStart: Int, lineLength: Int,
                                 associatedIconIndex: Int, paint: (Int) -> Int32) {
            var buffer = isText ? out.text : out.icon
            defer { if isText { out.text = buffer } else { out.icon = buffer } }
            // GL JS's segments: a new one when the sort key changes (layers that may overlap) or
            // the vertices would pass 65535.
            let sortKey = out.canOverlap ? feature.sortKey : nil
            var vertices = isText ? textSegmentVertices : iconSegmentVertices
            if buffer.segments.isEmpty || vertices + 4 * quads.count > 65535 || (sortKey != nil && buffer.segments.last!.sortKey != sortKey!) {
                buffer.segments.append((buffer.quads.count, sortKey ?? .nan))
                vertices = 0
            }
            vertices += 4 * quads.count
            if isText { textSegmentVertices = vertices } else { iconSegmentVertices = vertices }
            let glyphStart = out.glyphOffsets.count
            let quadStart = buffer.quads.count
            let ax = SymbolLayout.int16(anchor.x), ay = SymbolLayout.int16(anchor.y)
            let sizeA: Double, sizeB: Double
            if let sv = sizeVertex {
                sizeA = min(SymbolLayout.maxPackedSize, SymbolLayout.jsRound(sv.0))
                sizeB = sv.1.map { min(SymbolLayout.maxPackedSize, SymbolLayout.jsRound($0)) } ?? 0
            } else {
                sizeA = 0
                sizeB = 0
            }
            for q in quads {
                let y = q.glyphOffset.y
                func o(_ v: Double) -> Float { Float(SymbolLayout.int16(SymbolLayout.jsRound(v * 32))) }
                func t(_ v: Double) -> Float { Float(SymbolLayout.uint16(v)) }
                func px(_ v: Double) -> Float { Float(SymbolLayout.int16(v * 16)) }
                buffer.quads.append(SymbolVertexQuad(
                    anchorX: Float(ax), anchorY: Float(ay),
                    offsets: (o(q.tl.x), o(y + q.tl.y), o(q.tr.x), o(y + q.tr.y), o(q.bl.x), o(y + q.bl.y), o(q.br.x), o(y + q.br.y)),
                    tex: (t(q.tex.x), t(q.tex.y), t(q.tex.x + q.tex.w), t(q.tex.y + q.tex.h)),
                    sizeA: Float(SymbolLayout.uint16(sizeA * 2 + (q.isSDF ? 1 : 0))), sizeB: Float(SymbolLayout.uint16(sizeB)),
                    pixelOffsets: (px(q.pixelOffsetTL.x), px(q.pixelOffsetTL.y), px(q.pixelOffsetBR.x), px(q.pixelOffsetBR.y)),
                    minFontScale: (Float(SymbolLayout.int16(q.minFontScaleX * 256)), Float(SymbolLayout.int16(q.minFontScaleY * 256))),
                    paint: paint(q.sectionIndex)))
                out.glyphOffsets.append(SymbolLayout.float32(q.glyphOffset.x))
            }
            buffer.placed.append(PlacedSymbolRecord(
                anchorX: ax, anchorY: ay, glyphStart: glyphStart, numGlyphs: quads.count, quadStart: quadStart,
                lineStart: lineStart, lineLength: lineLength, segment: anchor.segment ?? 0,
                lowerSize: sizeVertex.map { SymbolLayout.uint16($0.0) } ?? 0,
                upperSize: sizeVertex.map { SymbolLayout.uint16($0.1 ?? 0) } ?? 0,
                lineOffsetX: SymbolLayout.float32(lineOffset.x), lineOffsetY: SymbolLayout.float32(lineOffset.y),
                writingMode: writingMode, associatedIconIndex: associatedIconIndex))
        }
    }
}
