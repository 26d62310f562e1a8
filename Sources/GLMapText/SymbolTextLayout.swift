// SymbolTextLayout — contract
// Input: one feature's evaluated symbol layout values (`SymbolLayoutValues`: plain Swift values
// the style evaluator fills at the tile's zoom) and its `FormattedText` (resolved `text-field`);
// the tile's glyphs, glyph atlas and icon atlas; optionally `Bidi`.
// Output: the glyph and image dependencies a tile must load (`dependencies`), and the shapings
// GL JS's performSymbolLayout makes for the feature (`shape`): horizontal shapings by
// justification (all of a variable-anchor layer's justifications, centred; one otherwise), a
// vertical shaping when the layer or a line label allows it, and the text offset; then the icon
// (`shapeIcon`, fitted to the text with icon-text-fit) — from which `SymbolQuads` makes quads.
// Rules: text along lines when placement is not `point` and rotation alignment is not
// `viewport`; justify `center` along lines, `auto` → the anchor's side; max width × 24 only for
// point placement; letter spacing 0 for text in a cursive script; with variable anchors the text
// offset is applied at placement (0 here) and single-line text is shaped once (GL JS reuses it).

/// `symbol-placement`.
public enum SymbolPlacement: String, Sendable {
    /// At the feature's points (polygon poles, line starts).
    case point
    /// Repeated along lines.
    case line
    /// At each line's centre.
    case lineCenter = "line-center"
}

/// `text-rotation-alignment` / `icon-rotation-alignment`.
public enum RotationAlignment: String, Sendable {
    /// With the map.
    case map
    /// With the viewport.
    case viewport
    /// Each glyph along the line, the label with the viewport.
    case viewportGlyph = "viewport-glyph"
    /// `map` along lines, `viewport` at points.
    case auto
}

/// `text-justify` including `auto`.
public enum TextJustifyValue: String, Sendable {
    /// The anchor's side.
    case auto
    /// Left.
    case left
    /// Centre.
    case center
    /// Right.
    case right
}

/// The evaluated layout values symbol layout reads for one feature (defaults are the spec's).
public struct SymbolLayoutValues: Sendable {
    /// `text-font`.
    public var textFont: [String] = ["Open Sans Regular", "Arial Unicode MS Regular"]
    /// `text-size` at the tile's zoom.
    public var textSize: Double = 16
    /// `text-size` at the tile's zoom + 1 (image widths in line breaking, icon-text-fit scale).
    public var textSizeNextZoom: Double = 16
    /// `text-max-width` in ems.
    public var textMaxWidth: Double = 10
    /// `text-line-height` in ems.
    public var textLineHeight: Double = 1.2
    /// `text-letter-spacing` in ems.
    public var textLetterSpacing: Double = 0
    /// `text-justify`.
    public var textJustify: TextJustifyValue = .center
    /// `text-anchor`.
    public var textAnchor: SymbolAnchor = .center
    /// `text-offset` in ems.
    public var textOffset: (x: Double, y: Double) = (0, 0)
    /// `text-radial-offset` in ems, nil when the style does not set it (GL JS tells the two apart).
    public var textRadialOffset: Double?
    /// `text-variable-anchor`, nil when unset.
    public var textVariableAnchor: [SymbolAnchor]?
    /// `text-variable-anchor-offset` (anchor, offset in ems), nil when unset.
    public var textVariableAnchorOffset: [(SymbolAnchor, (x: Double, y: Double))]?
    /// `text-writing-mode` contains `vertical`.
    public var allowVerticalPlacement = false
    /// `text-rotation-alignment`.
    public var textRotationAlignment: RotationAlignment = .auto
    /// `symbol-placement`.
    public var symbolPlacement: SymbolPlacement = .point
    /// `text-keep-upright`.
    public var textKeepUpright = true
    /// `text-rotate` in degrees.
    public var textRotate: Double = 0
    /// `icon-offset` in CSS px.
    public var iconOffset: (x: Double, y: Double) = (0, 0)
    /// `icon-anchor`.
    public var iconAnchor: SymbolAnchor = .center
    /// `icon-text-fit`.
    public var iconTextFit: IconTextFit = .none
    /// `icon-text-fit-padding` (top, right, bottom, left) in CSS px.
    public var iconTextFitPadding: (top: Double, right: Double, bottom: Double, left: Double) = (0, 0, 0, 0)
    /// `icon-rotate` in degrees.
    public var iconRotate: Double = 0

    /// The spec's defaults.
    public init() {}

    /// `text-font` joined with commas (the font stack).
    public var fontStack: String { textFont.joined(separator: ",") }
    /// Whether text follows lines.
    public var textAlongLine: Bool { symbolPlacement != .point && textRotationAlignment != .viewport }
}

/// The shapings of one feature's text (GL JS's `ShapedTextOrientations` plus the text offset).
public struct ShapedText: Sendable {
    /// Horizontal shapings by justification, in the order made (the first is the default).
    public var horizontal: [(justify: TextJustify, shaping: Shaping)] = []
    /// True when the text is one line and one shaping serves every justification.
    public var singleLine = false
    /// The vertical shaping, when made.
    public var vertical: Shaping?
    /// The text offset in layout units (0 with variable anchors: placement applies it).
    public var textOffset: (x: Double, y: Double) = (0, 0)
    /// The variable anchors and their offsets, when the layer has them.
    public var variableAnchorOffsets: [(anchor: SymbolAnchor, offset: (x: Double, y: Double))]?

    /// GL JS's `getDefaultHorizontalShaping`: the first horizontal shaping.
    public var defaultHorizontal: Shaping? { horizontal.first?.shaping }
    /// The shaping used for collisions and icon-text-fit.
    public var primary: Shaping? { defaultHorizontal ?? vertical }
}

/// Symbol layout for one feature's text and icon (see the contract above).
public enum SymbolTextLayout {
    /// Adds what `text` needs to `glyphs` and `images` (GL JS's glyph dependencies: every code
    /// point per section font stack, plus vertical punctuation forms when text runs along lines
    /// or may be vertical and allows vertical writing; image sections' names).
    public static func dependencies(of text: FormattedText, values: SymbolLayoutValues, glyphs: inout GlyphDependencies, images: inout [String]) {
        let verticalize = (values.textAlongLine || values.allowVerticalPlacement) && ScriptDetection.allowsVerticalWritingMode(text.string)
        for section in text.sections {
            if let image = section.image {
                if !images.contains(image) { images.append(image) }
            } else {
                glyphs.add(text: section.text, fontStack: section.fontStack ?? values.fontStack, verticalize: verticalize)
            }
        }
    }

    /// GL JS's text shaping for one feature (`performSymbolLayout`'s text part).
    public static func shape(_ text: FormattedText, values v: SymbolLayoutValues, glyphs: GlyphMap, glyphAtlas: GlyphAtlas,
                             imagePositions: [String: ImagePosition], bidi: Bidi?) -> ShapedText {
        let em = GlyphConstants.oneEm
        var out = ShapedText()
        let plain = text.string
        let spacing = ScriptDetection.allowsLetterSpacing(plain) ? v.textLetterSpacing * em : 0
        let alongLine = v.textAlongLine
        let variable = VariableAnchor.anchorOffsets(variableAnchorOffset: v.textVariableAnchorOffset, variableAnchor: v.textVariableAnchor,
                                                     radialOffset: v.textRadialOffset, textOffset: v.textOffset)
        out.variableAnchorOffsets = variable
        if variable == nil {
            out.textOffset = VariableAnchor.staticTextOffset(anchor: v.textAnchor, radialOffset: v.textRadialOffset ?? 0, textOffset: v.textOffset)
        }
        let maxWidth = v.symbolPlacement == .point ? v.textMaxWidth * em : .infinity
        func options(anchor: SymbolAnchor, justify: TextJustify, mode: WritingMode, allowVertical: Bool) -> TextShapingOptions {
            TextShapingOptions(defaultFontStack: v.fontStack, maxWidth: maxWidth, lineHeight: v.textLineHeight * em, anchor: anchor,
                               justify: justify, spacing: spacing, translate: out.textOffset, writingMode: mode,
                               allowVerticalPlacement: allowVertical, layoutTextSize: v.textSizeNextZoom, layoutTextSizeThisZoom: v.textSize)
        }
        func shapeOnce(_ o: TextShapingOptions) -> Shaping? {
            Shaper.shapeText(text, glyphs: glyphs, glyphPositions: glyphAtlas.positions, imagePositions: imagePositions, options: o, bidi: bidi)
        }
        let allowsVertical = ScriptDetection.allowsVerticalWritingMode(plain)
        func addVerticalPointShaping() {
            if v.allowVerticalPlacement && allowsVertical {
                out.vertical = shapeOnce(options(anchor: v.textAnchor, justify: .left, mode: .vertical, allowVertical: true))
            }
        }
        if !alongLine, let variable {
            var justifications: [TextJustify] = []
            if v.textJustify == .auto {
                for (anchor, _) in variable where !justifications.contains(anchor.justification) { justifications.append(anchor.justification) }
            } else {
                justifications = [TextJustify(rawValue: v.textJustify.rawValue)!]
            }
            for justify in justifications {
                if out.singleLine { break }
                if let s = shapeOnce(options(anchor: .center, justify: justify, mode: .horizontal, allowVertical: false)) {
                    out.horizontal.append((justify, s))
                    out.singleLine = s.lines.count == 1
                }
            }
            addVerticalPointShaping()
        } else {
            let justify: TextJustify
            if alongLine { justify = .center } else if v.textJustify == .auto { justify = v.textAnchor.justification } else {
                justify = TextJustify(rawValue: v.textJustify.rawValue)!
            }
            if let s = shapeOnce(options(anchor: v.textAnchor, justify: justify, mode: .horizontal, allowVertical: false)) {
                out.horizontal.append((justify, s))
                out.singleLine = s.lines.count == 1
            }
            addVerticalPointShaping()
            if allowsVertical && alongLine && v.textKeepUpright {
                out.vertical = shapeOnce(options(anchor: v.textAnchor, justify: justify, mode: .vertical, allowVertical: false))
            }
        }
        return out
    }

    /// GL JS's icon shaping for one feature: the image placed by icon-anchor and icon-offset,
    /// then, with icon-text-fit, fitted to the default horizontal and (for vertical placement)
    /// the vertical shaping at font scale `textSizeNextZoom / 24`. Returns (icon, vertical icon).
    public static func shapeIcon(_ image: ImagePosition, values v: SymbolLayoutValues, text: ShapedText) -> (icon: PositionedIcon, vertical: PositionedIcon?) {
        var icon = Shaper.shapeIcon(image, offset: v.iconOffset, anchor: v.iconAnchor)
        var vertical: PositionedIcon? = nil
        if v.iconTextFit != .none {
            let fontScale = v.textSizeNextZoom / GlyphConstants.oneEm
            if v.allowVerticalPlacement, let vs = text.vertical {
                vertical = Shaper.fitIconToText(icon, text: vs, fit: v.iconTextFit, padding: v.iconTextFitPadding, offset: v.iconOffset, fontScale: fontScale)
            }
            if let hs = text.defaultHorizontal {
                icon = Shaper.fitIconToText(icon, text: hs, fit: v.iconTextFit, padding: v.iconTextFitPadding, offset: v.iconOffset, fontScale: fontScale)
            }
        }
        return (icon, vertical)
    }
}
