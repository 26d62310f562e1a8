// Shaping — contract
// Input: an evaluated `text-field` (`FormattedText`, already `transformed`), the tile's glyphs
// (`GlyphMap`) and glyph atlas positions, the icon atlas positions (images inside text), and the
// evaluated layout values of one feature (`TextShapingOptions`: default font stack, max width
// and line height in ems×24, anchor, justification, letter spacing, offset, writing mode, text
// size at the tile zoom and zoom + 1), optionally `Bidi` (GL JS with the RTL plugin loaded).
// Output: a `Shaping` — lines of positioned glyphs in layout units (24 per em, y down, relative to
// the anchor; the −17 baseline offset of GL JS included), the text box (top/bottom/left/right),
// whether images are in the text and whether any glyph is verticalized; nil when no glyph could
// be placed (GL JS's `false`).
// Rules: GL JS's shapeText (tagged sections, vertical punctuation in vertical mode, balanced line
// breaking, bidi per line — single-section text unstyled, several sections styled — trimming
// each line, per-section scale and vertical-align, images scaled by 24 / text size, justify,
// align to the anchor). Characters without a glyph are left out (and, as GL JS's index does,
// shift the section lookup of the rest of their line). `shapeIcon`, `fitIconToText` and
// `applyTextFit` follow GL JS's arithmetic for icons.
// Limits: line breaking is quadratic in the number of break opportunities, as GL JS's.

/// GL JS's writing modes.
public enum WritingMode: Int, Sendable {
    /// Icons.
    case none = 0
    /// Horizontal text that has a vertical alternative.
    case horizontal = 1
    /// Vertical text.
    case vertical = 2
    /// Horizontal text without a vertical alternative.
    case horizontalOnly = 3
}

/// `text-anchor`, `icon-anchor` and the variable anchors.
public enum SymbolAnchor: String, Sendable, CaseIterable {
    /// Centre.
    case center
    /// Left edge centre.
    case left
    /// Right edge centre.
    case right
    /// Top edge centre.
    case top
    /// Bottom edge centre.
    case bottom
    /// Top-left corner.
    case topLeft = "top-left"
    /// Top-right corner.
    case topRight = "top-right"
    /// Bottom-left corner.
    case bottomLeft = "bottom-left"
    /// Bottom-right corner.
    case bottomRight = "bottom-right"

    /// GL JS's `getAnchorAlignment`: horizontal 0 (left) … 1 (right), vertical 0 (top) … 1 (bottom).
    public var alignment: (horizontal: Double, vertical: Double) {
        let h: Double, v: Double
        switch self {
        case .right, .topRight, .bottomRight: h = 1
        case .left, .topLeft, .bottomLeft: h = 0
        case .center, .top, .bottom: h = 0.5
        }
        switch self {
        case .bottom, .bottomRight, .bottomLeft: v = 1
        case .top, .topRight, .topLeft: v = 0
        case .center, .left, .right: v = 0.5
        }
        return (h, v)
    }

    /// The justification matching the anchor's side (`getAnchorJustification`).
    public var justification: TextJustify {
        switch self {
        case .right, .topRight, .bottomRight: return .right
        case .left, .topLeft, .bottomLeft: return .left
        case .center, .top, .bottom: return .center
        }
    }
}

/// `text-justify` once `auto` is resolved.
public enum TextJustify: String, Sendable, CaseIterable {
    /// Left.
    case left
    /// Centre.
    case center
    /// Right.
    case right

    var factor: Double {
        switch self {
        case .right: return 1
        case .left: return 0
        case .center: return 0.5
        }
    }
}

/// A glyph (or an image in text) placed relative to the label's anchor.
public struct PositionedGlyph: Equatable, Sendable {
    /// The code point (a Private Use Area code for an image).
    public var glyph: UInt32
    /// The image's name, for an image.
    public var imageName: String?
    /// Left edge of the pen position, layout units.
    public var x: Double
    /// Baseline-related y, layout units (includes the −17 offset).
    public var y: Double
    /// Whether the glyph is drawn upright in a vertical line (rotated in the quads).
    public var vertical: Bool
    /// The section's scale (for images: 24 / text size, times the section's).
    public var scale: Double
    /// The glyph's font stack (empty for images).
    public var fontStack: String
    /// Index of the `FormattedText` section it came from.
    public var sectionIndex: Int
    /// Metrics (for images: display size, left 1, top −3).
    public var metrics: GlyphMetrics
    /// Atlas bin (glyph atlas for glyphs, icon atlas for images); nil for glyphs not in the atlas.
    public var rect: AtlasRect?
}

/// One line of a shaping.
public struct PositionedLine: Equatable, Sendable {
    /// The glyphs in visual order.
    public var glyphs: [PositionedGlyph] = []
    /// How far the line is pushed by taller images or scaled text.
    public var lineOffset: Double = 0
}

/// Shaped text (MapLibre's `Shaping`).
public struct Shaping: Equatable, Sendable {
    /// The lines.
    public var lines: [PositionedLine]
    /// Text box top, layout units relative to the anchor (includes the offset).
    public var top: Double
    /// Text box bottom.
    public var bottom: Double
    /// Text box left.
    public var left: Double
    /// Text box right.
    public var right: Double
    /// Horizontal or vertical.
    public var writingMode: WritingMode
    /// The logical text (after vertical punctuation), for collision keys.
    public var text: String
    /// Whether the text holds images.
    public var iconsInText: Bool
    /// Whether any glyph was verticalized.
    public var verticalizable: Bool

    /// A shaping.
    public init(lines: [PositionedLine], top: Double, bottom: Double, left: Double, right: Double, writingMode: WritingMode,
                text: String, iconsInText: Bool, verticalizable: Bool) {
        (self.lines, self.top, self.bottom, self.left, self.right) = (lines, top, bottom, left, right)
        (self.writingMode, self.text, self.iconsInText) = (writingMode, text, iconsInText)
        self.verticalizable = verticalizable
    }
}

/// The evaluated layout values `shapeText` reads for one feature.
public struct TextShapingOptions: Sendable {
    /// `text-font` joined with commas.
    public var defaultFontStack: String
    /// `text-max-width` × 24 for point placement, `.infinity` along lines.
    public var maxWidth: Double
    /// `text-line-height` × 24.
    public var lineHeight: Double
    /// `text-anchor` (center for variable anchors).
    public var anchor: SymbolAnchor
    /// `text-justify`, resolved.
    public var justify: TextJustify
    /// `text-letter-spacing` × 24 (0 where the text has a cursive script).
    public var spacing: Double
    /// The text offset in layout units (`text-offset` × 24 or the radial offset's).
    public var translate: (x: Double, y: Double)
    /// `.horizontal` or `.vertical`.
    public var writingMode: WritingMode
    /// Whether the layer allows vertical placement (`text-writing-mode` has vertical).
    public var allowVerticalPlacement: Bool
    /// `text-size` at the tile zoom + 1 (GL JS's `layoutTextSize`: images' line-breaking widths).
    public var layoutTextSize: Double
    /// `text-size` at the tile zoom (images' scale in the text).
    public var layoutTextSizeThisZoom: Double

    /// Options with GL JS's defaults for what is not given.
    public init(defaultFontStack: String, maxWidth: Double = 10 * 24, lineHeight: Double = 1.2 * 24,
                anchor: SymbolAnchor = .center, justify: TextJustify = .center, spacing: Double = 0,
                translate: (x: Double, y: Double) = (0, 0), writingMode: WritingMode = .horizontal,
                allowVerticalPlacement: Bool = false, layoutTextSize: Double = 16, layoutTextSizeThisZoom: Double = 16) {
        (self.defaultFontStack, self.maxWidth, self.lineHeight) = (defaultFontStack, maxWidth, lineHeight)
        (self.anchor, self.justify, self.spacing, self.translate) = (anchor, justify, spacing, translate)
        (self.writingMode, self.allowVerticalPlacement) = (writingMode, allowVerticalPlacement)
        (self.layoutTextSize, self.layoutTextSizeThisZoom) = (layoutTextSize, layoutTextSizeThisZoom)
    }
}

/// Text and icon shaping (see the contract above).
public enum Shaper {
    /// GL JS's baseline offset: glyph y positions are pulled up by 17 layout units.
    public static let defaultOffset: Double = -17

    /// Shapes `text`; nil when no glyph could be placed.
    public static func shapeText(_ text: FormattedText, glyphs: GlyphMap, glyphPositions: [String: [UInt32: GlyphPosition]],
                                 imagePositions: [String: ImagePosition], options o: TextShapingOptions, bidi: Bidi?) -> Shaping? {
        var (logical, sections) = TaggedString.make(text, defaultFontStack: o.defaultFontStack)
        if o.writingMode == .vertical { logical.verticalizePunctuation() }
        var breaks = LineBreaker.lineBreaks(logical, sections: sections, spacing: o.spacing, maxWidth: o.maxWidth, glyphs: glyphs,
                                            images: imagePositions, layoutTextSize: o.layoutTextSize)
        var lines: [TaggedString] = []
        if let bidi {
            breaks = breaks.map { logical.codeUnitIndex($0) }
            if sections.count == 1 {
                for line in bidi.processBidirectionalText(logical.string, lineBreaks: breaks) {
                    let cps = line.unicodeScalars.map(\.value)
                    lines.append(TaggedString(codePoints: cps, sectionIndex: [Int](repeating: 0, count: cps.count)))
                }
            } else {
                var unitSections: [Int] = []
                for (i, cp) in logical.codePoints.enumerated() {
                    unitSections.append(contentsOf: [Int](repeating: logical.sectionIndex[i], count: cp > 0xFFFF ? 2 : 1))
                }
                for (line, styles) in bidi.processStyledBidirectionalText(logical.string, sectionIndices: unitSections, lineBreaks: breaks) {
                    var cps: [UInt32] = [], idx: [Int] = []
                    var offset = 0
                    for scalar in line.unicodeScalars {
                        cps.append(scalar.value)
                        idx.append(offset < styles.count ? styles[offset] : 0)
                        offset += scalar.value > 0xFFFF ? 2 : 1
                    }
                    lines.append(TaggedString(codePoints: cps, sectionIndex: idx))
                }
            }
        } else {
            var start = 0
            for b in breaks {
                lines.append(logical.substring(start, b))
                start = b
            }
            if start < logical.count { lines.append(logical.substring(start, logical.count)) }
        }
        var shaping = Shaping(lines: [], top: o.translate.y, bottom: o.translate.y, left: o.translate.x, right: o.translate.x,
                              writingMode: o.writingMode, text: logical.string, iconsInText: false, verticalizable: false)
        shapeLines(&shaping, lines: lines, sections: &sections, glyphs: glyphs, glyphPositions: glyphPositions,
                   imagePositions: imagePositions, options: o)
        return shaping.lines.allSatisfy { $0.glyphs.isEmpty } ? nil : shaping
    }

    static func isVertical(_ mode: WritingMode, allowVerticalPlacement: Bool, _ cp: UInt32) -> Bool {
        !(mode == .horizontal
          || (!allowVerticalPlacement && !ScriptDetection.hasUprightVerticalOrientation(cp))
          || (allowVerticalPlacement && (ScriptDetection.isWhitespace(cp) || ScriptDetection.isInComplexShapingScript(cp))))
    }

    private static func shapeLines(_ shaping: inout Shaping, lines: [TaggedString], sections: inout [SectionOptions], glyphs: GlyphMap,
                                   glyphPositions: [String: [UInt32: GlyphPosition]], imagePositions: [String: ImagePosition],
                                   options o: TextShapingOptions) {
        let oneEm = GlyphConstants.oneEm
        var x = 0.0, y = 0.0
        var maxLineLength = 0.0, maxLineHeight = 0.0
        let justify = o.justify.factor
        let sizeFactor = oneEm / o.layoutTextSizeThisZoom
        for var line in lines {
            line.trim()
            let lineMaxScale = line.sectionIndex.reduce(0.0) { max($0, sections[$1].scale) }
            var positioned = PositionedLine()
            var imageOffset = 0.0
            if line.count == 0 {
                y += o.lineHeight
                shaping.lines.append(positioned)
                continue
            }
            // Line content size (images at their scale before this line changes it).
            var maxImageWidth = 0.0, maxImageHeight = 0.0
            for si in line.sectionIndex {
                if let name = sections[si].imageName, let p = imagePositions[name] {
                    maxImageWidth = max(maxImageWidth, p.displaySize.width)
                    maxImageHeight = max(maxImageHeight, p.displaySize.height)
                }
            }
            let maxGlyphSize = lineMaxScale * oneEm
            let horizontalContentHeight = max(maxGlyphSize, maxImageHeight * sizeFactor)
            let verticalContentWidth = max(maxGlyphSize, maxImageWidth * sizeFactor)

            var i = 0
            for cp in line.codePoints {
                let si = line.sectionIndex[min(i, line.sectionIndex.count - 1)]
                let vertical = isVertical(o.writingMode, allowVerticalPlacement: o.allowVerticalPlacement, cp)
                var g = PositionedGlyph(glyph: cp, imageName: nil, x: x, y: y + defaultOffset, vertical: vertical, scale: 1,
                                        fontStack: "", sectionIndex: si, metrics: GlyphMetrics(width: 0, height: 0, left: 0, top: 0, advance: 0),
                                        rect: nil)
                let baselineOffset: Double
                if let stack = sections[si].fontStack {
                    let section = sections[si]
                    let position = glyphPositions[stack]?[cp]
                    if let position {
                        g.rect = position.rect
                        g.metrics = position.metrics
                    } else if let glyph = glyphs[stack, cp] {
                        g.metrics = glyph.metrics
                    } else {
                        continue
                    }
                    if vertical {
                        baselineOffset = verticalContentWidth - section.scale * oneEm
                    } else {
                        baselineOffset = (horizontalContentHeight - section.scale * oneEm) * alignFactor(section.verticalAlign)
                    }
                    g.fontStack = stack
                } else {
                    shaping.iconsInText = true
                    sections[si].scale *= sizeFactor
                    let section = sections[si]
                    guard let name = section.imageName, let p = imagePositions[name] else { continue }
                    let size = p.displaySize
                    g.rect = p.paddedRect
                    g.metrics = GlyphMetrics(width: size.width, height: size.height, left: Double(ImagePosition.padding),
                                             top: -Double(GlyphConstants.pbfBorder), advance: vertical ? size.height : size.width)
                    if vertical {
                        baselineOffset = verticalContentWidth - size.height * section.scale
                    } else {
                        baselineOffset = (horizontalContentHeight - size.height * section.scale) * alignFactor(section.verticalAlign)
                    }
                    imageOffset = max(imageOffset, (vertical ? size.width : size.height) * section.scale - oneEm * lineMaxScale)
                    g.imageName = name
                }
                let scale = sections[si].scale
                g.y += baselineOffset
                g.scale = scale
                positioned.glyphs.append(g)
                if !vertical {
                    x += g.metrics.advance * scale + o.spacing
                } else {
                    shaping.verticalizable = true
                    let verticalAdvance = sections[si].imageName != nil ? g.metrics.advance : oneEm
                    x += verticalAdvance * scale + o.spacing
                }
                i += 1
            }
            if !positioned.glyphs.isEmpty {
                maxLineLength = max(x - o.spacing, maxLineLength)
                if justify != 0 {
                    let last = positioned.glyphs[positioned.glyphs.count - 1]
                    let indent = (last.x + last.metrics.advance * last.scale) * justify
                    for k in positioned.glyphs.indices { positioned.glyphs[k].x -= indent }
                }
            }
            x = 0
            positioned.lineOffset = max(imageOffset, (lineMaxScale - 1) * oneEm)
            let currentLineHeight = o.lineHeight * lineMaxScale + imageOffset
            y += currentLineHeight
            maxLineHeight = max(currentLineHeight, maxLineHeight)
            shaping.lines.append(positioned)
        }
        let (hAlign, vAlign) = o.anchor.alignment
        let shiftX = (justify - hAlign) * maxLineLength
        let shiftY = maxLineHeight != o.lineHeight
            ? -y * vAlign - defaultOffset
            : -vAlign * Double(lines.count) * o.lineHeight + 0.5 * o.lineHeight
        for l in shaping.lines.indices {
            for k in shaping.lines[l].glyphs.indices {
                shaping.lines[l].glyphs[k].x += shiftX
                shaping.lines[l].glyphs[k].y += shiftY
            }
        }
        shaping.top += -vAlign * y
        shaping.bottom = shaping.top + y
        shaping.left += -hAlign * maxLineLength
        shaping.right = shaping.left + maxLineLength
    }

    static func alignFactor(_ v: VerticalAlign) -> Double {
        switch v {
        case .top: return 0
        case .center: return 0.5
        case .bottom: return 1
        }
    }
}
