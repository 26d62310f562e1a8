// SymbolQuads — contract
// Input: a `Shaping` (text) or a `PositionedIcon` (icon), with the feature's `text-rotate` /
// `icon-rotate` (degrees), the text offset, whether the label runs along a line, whether the
// layer allows vertical placement, and the style images (for images inside text).
// Output: one `SymbolQuad` per glyph with an atlas rect (per stretch cell for stretchable icons
// with `icon-text-fit`): corner offsets from the anchor in layout units (text: 24 per em, to be
// scaled by text-size / 24; icons: CSS px at icon-size 1), the texture rect in atlas pixels, pixel
// offsets of fixed stretch parts, glyph offset along the line, section index, SDF flag and the
// smallest font scale at which fixed parts fit.
// Rules: GL JS's getGlyphQuads (rect buffer 3 + 1 for glyphs, 1 / pixel ratio for images;
// double-resolution glyphs halve the texture rect; vertical glyphs rotated −90° about
// (−½ advance, ½ advance + 17) and shifted; text-rotate last) and getIconQuads (applyTextFit for
// images with textFitWidth/Height, stretch zones cut into cells, icon-rotate).
import Foundation

/// A 2-D point (MapLibre's `Point` for quads).
public struct QuadPoint: Equatable, Sendable {
    /// x.
    public var x: Double
    /// y.
    public var y: Double
    /// A point.
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }

    /// `Point._matMult` with the rotation matrix [cos, −sin, sin, cos].
    func rotated(sin s: Double, cos c: Double) -> QuadPoint { QuadPoint(c * x - s * y, s * x + c * y) }

    /// `Point._rotateAround`.
    func rotated(around p: QuadPoint, angle: Double) -> QuadPoint {
        let c = Foundation.cos(angle), s = Foundation.sin(angle)
        return QuadPoint(p.x + c * (x - p.x) - s * (y - p.y), p.y + s * (x - p.x) + c * (y - p.y))
    }
}

/// A textured quad of one glyph or icon (cell) relative to the symbol's anchor (MapLibre's `SymbolQuad`).
public struct SymbolQuad: Equatable, Sendable {
    /// Top-left corner offset.
    public var tl: QuadPoint
    /// Top-right corner offset.
    public var tr: QuadPoint
    /// Bottom-left corner offset.
    public var bl: QuadPoint
    /// Bottom-right corner offset.
    public var br: QuadPoint
    /// Texture rectangle in atlas pixels (x, y, w, h).
    public var tex: (x: Double, y: Double, w: Double, h: Double)
    /// Fixed-size offset of the top-left corner in CSS px (stretchable icons).
    public var pixelOffsetTL: QuadPoint
    /// Fixed-size offset of the bottom-right corner.
    public var pixelOffsetBR: QuadPoint
    /// The shaping's writing mode (nil for icons).
    public var writingMode: WritingMode?
    /// The glyph's offset along the line (line-placed text), else (0, 0).
    public var glyphOffset: (x: Double, y: Double)
    /// The `FormattedText` section (for per-section colours).
    public var sectionIndex: Int
    /// Whether the texture is an SDF.
    public var isSDF: Bool
    /// Smallest horizontal scale at which the fixed parts of a stretched icon fit.
    public var minFontScaleX: Double
    /// Smallest vertical scale.
    public var minFontScaleY: Double

    /// Whether two quads are the same.
    public static func == (a: SymbolQuad, b: SymbolQuad) -> Bool {
        a.tl == b.tl && a.tr == b.tr && a.bl == b.bl && a.br == b.br && a.tex == b.tex && a.pixelOffsetTL == b.pixelOffsetTL
            && a.pixelOffsetBR == b.pixelOffsetBR && a.writingMode == b.writingMode && a.glyphOffset == b.glyphOffset
            && a.sectionIndex == b.sectionIndex && a.isSDF == b.isSDF && a.minFontScaleX == b.minFontScaleX && a.minFontScaleY == b.minFontScaleY
    }
}


/// Quads for shaped text and icons (see the contract above).
public enum SymbolQuads {
    /// GL JS's `getGlyphQuads`.
    public static func glyphQuads(_ shaping: Shaping, textOffset: (x: Double, y: Double), textRotate degrees: Double, alongLine: Bool,
                                  allowVerticalPlacement: Bool, images: [String: StyleImage]) -> [SymbolQuad] {
        let oneEm = GlyphConstants.oneEm
        let textRotate = degrees * .pi / 180
        var quads: [SymbolQuad] = []
        for line in shaping.lines {
            for g in line.glyphs {
                guard let rect = g.rect else { continue }
                var rectBuffer = Double(GlyphConstants.pbfBorder) + 1
                var isSDF = true
                var pixelRatio = 1.0
                var lineOffset = 0.0
                let rotateVertical = (alongLine || allowVerticalPlacement) && g.vertical
                let halfAdvance = g.metrics.advance * g.scale / 2
                if allowVerticalPlacement && shaping.verticalizable {
                    let scaledGlyphOffset = (g.scale - 1) * oneEm
                    let imageOffset = (oneEm - g.metrics.width * g.scale) / 2
                    lineOffset = line.lineOffset / 2 - (g.imageName != nil ? -imageOffset : scaledGlyphOffset)
                }
                if let name = g.imageName {
                    let image = images[name]
                    isSDF = image?.sdf ?? false
                    pixelRatio = image?.pixelRatio ?? 1
                    rectBuffer = Double(ImagePosition.padding) / pixelRatio
                }
                let glyphOffset = alongLine ? (g.x + halfAdvance, g.y) : (0.0, 0.0)
                var builtIn = alongLine ? (0.0, 0.0) : (g.x + halfAdvance + textOffset.x, g.y + textOffset.y - lineOffset)
                var verticalized = (0.0, 0.0)
                if rotateVertical {
                    verticalized = builtIn
                    builtIn = (0, 0)
                }
                let textureScale = g.metrics.isDoubleResolution ? 2.0 : 1.0
                let x1 = (g.metrics.left - rectBuffer) * g.scale - halfAdvance + builtIn.0
                let y1 = (-g.metrics.top - rectBuffer) * g.scale + builtIn.1
                let x2 = x1 + Double(rect.w) / textureScale * g.scale / pixelRatio
                let y2 = y1 + Double(rect.h) / textureScale * g.scale / pixelRatio
                var tl = QuadPoint(x1, y1), tr = QuadPoint(x2, y1), bl = QuadPoint(x1, y2), br = QuadPoint(x2, y2)
                if rotateVertical {
                    let center = QuadPoint(-halfAdvance, halfAdvance - Shaper.defaultOffset)
                    let rotation = -Double.pi / 2
                    let xHalfWidthCorrection = oneEm / 2 - halfAdvance
                    let yImageCorrection = g.imageName != nil ? xHalfWidthCorrection : 0
                    func place(_ p: QuadPoint) -> QuadPoint {
                        let r = p.rotated(around: center, angle: rotation)
                        return QuadPoint(r.x + (5 - Shaper.defaultOffset - xHalfWidthCorrection) + verticalized.0, r.y - yImageCorrection + verticalized.1)
                    }
                    tl = place(tl); tr = place(tr); bl = place(bl); br = place(br)
                }
                if textRotate != 0 {
                    let s = sin(textRotate), c = cos(textRotate)
                    tl = tl.rotated(sin: s, cos: c); tr = tr.rotated(sin: s, cos: c)
                    bl = bl.rotated(sin: s, cos: c); br = br.rotated(sin: s, cos: c)
                }
                quads.append(SymbolQuad(tl: tl, tr: tr, bl: bl, br: br, tex: (Double(rect.x), Double(rect.y), Double(rect.w), Double(rect.h)),
                                        pixelOffsetTL: QuadPoint(0, 0), pixelOffsetBR: QuadPoint(0, 0), writingMode: shaping.writingMode,
                                        glyphOffset: glyphOffset, sectionIndex: g.sectionIndex, isSDF: isSDF, minFontScaleX: 0, minFontScaleY: 0))
            }
        }
        return quads
    }

    private struct Cut { var fixed: Double; var stretch: Double }

    /// GL JS's `getIconQuads`.
    public static func iconQuads(_ icon: PositionedIcon, iconRotate degrees: Double, isSDF: Bool, hasIconTextFit: Bool) -> [SymbolQuad] {
        let border = Double(ImagePosition.padding)
        let image = icon.image
        let pixelRatio = image.pixelRatio
        let imageWidth = Double(image.paddedRect.w) - 2 * border
        let imageHeight = Double(image.paddedRect.h) - 2 * border
        var box = (x1: icon.left, y1: icon.top, x2: icon.right, y2: icon.bottom)
        let stretchX = image.stretchX ?? [(0, imageWidth)]
        let stretchY = image.stretchY ?? [(0, imageHeight)]
        let stretchWidth = stretchX.reduce(0) { $0 + $1.1 - $1.0 }
        let stretchHeight = stretchY.reduce(0) { $0 + $1.1 - $1.0 }
        let fixedWidth = imageWidth - stretchWidth, fixedHeight = imageHeight - stretchHeight
        var stretchOffsetX = 0.0, stretchContentWidth = stretchWidth, stretchOffsetY = 0.0, stretchContentHeight = stretchHeight
        var fixedOffsetX = 0.0, fixedContentWidth = fixedWidth, fixedOffsetY = 0.0, fixedContentHeight = fixedHeight
        if let c = image.content, hasIconTextFit {
            if image.textFitWidth != nil || image.textFitHeight != nil { box = Shaper.applyTextFit(icon) }
            stretchOffsetX = sumWithinRange(stretchX, 0, c.0)
            stretchOffsetY = sumWithinRange(stretchY, 0, c.1)
            stretchContentWidth = sumWithinRange(stretchX, c.0, c.2)
            stretchContentHeight = sumWithinRange(stretchY, c.1, c.3)
            fixedOffsetX = c.0 - stretchOffsetX
            fixedOffsetY = c.1 - stretchOffsetY
            fixedContentWidth = c.2 - c.0 - stretchContentWidth
            fixedContentHeight = c.3 - c.1 - stretchContentHeight
        }
        let iconLeft = box.x1, iconTop = box.y1
        let iconWidth = box.x2 - iconLeft, iconHeight = box.y2 - iconTop
        let angle = degrees * .pi / 180

        func makeBox(_ left: Cut, _ top: Cut, _ right: Cut, _ bottom: Cut) -> SymbolQuad {
            let leftEm = (left.stretch - stretchOffsetX) / stretchContentWidth * iconWidth + iconLeft
            let leftPx = left.fixed - fixedOffsetX - fixedContentWidth * left.stretch / stretchWidth
            let topEm = (top.stretch - stretchOffsetY) / stretchContentHeight * iconHeight + iconTop
            let topPx = top.fixed - fixedOffsetY - fixedContentHeight * top.stretch / stretchHeight
            let rightEm = (right.stretch - stretchOffsetX) / stretchContentWidth * iconWidth + iconLeft
            let rightPx = right.fixed - fixedOffsetX - fixedContentWidth * right.stretch / stretchWidth
            let bottomEm = (bottom.stretch - stretchOffsetY) / stretchContentHeight * iconHeight + iconTop
            let bottomPx = bottom.fixed - fixedOffsetY - fixedContentHeight * bottom.stretch / stretchHeight
            var tl = QuadPoint(leftEm, topEm), tr = QuadPoint(rightEm, topEm)
            var br = QuadPoint(rightEm, bottomEm), bl = QuadPoint(leftEm, bottomEm)
            if angle != 0 {
                let s = sin(angle), c = cos(angle)
                tl = tl.rotated(sin: s, cos: c); tr = tr.rotated(sin: s, cos: c)
                bl = bl.rotated(sin: s, cos: c); br = br.rotated(sin: s, cos: c)
            }
            let x1 = left.stretch + left.fixed, x2 = right.stretch + right.fixed
            let y1 = top.stretch + top.fixed, y2 = bottom.stretch + bottom.fixed
            let tex = (Double(image.paddedRect.x) + border + x1, Double(image.paddedRect.y) + border + y1, x2 - x1, y2 - y1)
            return SymbolQuad(tl: tl, tr: tr, bl: bl, br: br, tex: tex,
                              pixelOffsetTL: QuadPoint(leftPx / pixelRatio, topPx / pixelRatio),
                              pixelOffsetBR: QuadPoint(rightPx / pixelRatio, bottomPx / pixelRatio), writingMode: nil,
                              glyphOffset: (0, 0), sectionIndex: 0, isSDF: isSDF,
                              minFontScaleX: fixedContentWidth / pixelRatio / iconWidth,
                              minFontScaleY: fixedContentHeight / pixelRatio / iconHeight)
        }

        if !hasIconTextFit || (image.stretchX == nil && image.stretchY == nil) {
            return [makeBox(Cut(fixed: 0, stretch: -1), Cut(fixed: 0, stretch: -1),
                            Cut(fixed: 0, stretch: imageWidth + 1), Cut(fixed: 0, stretch: imageHeight + 1))]
        }
        let xCuts = cuts(stretchX, fixedWidth, stretchWidth, border)
        let yCuts = cuts(stretchY, fixedHeight, stretchHeight, border)
        var quads: [SymbolQuad] = []
        for xi in 0..<(xCuts.count - 1) {
            for yi in 0..<(yCuts.count - 1) {
                quads.append(makeBox(xCuts[xi], yCuts[yi], xCuts[xi + 1], yCuts[yi + 1]))
            }
        }
        return quads
    }

    private static func sumWithinRange(_ ranges: [(Double, Double)], _ lo: Double, _ hi: Double) -> Double {
        ranges.reduce(0) { sum, r in sum + max(lo, min(hi, r.1)) - max(lo, min(hi, r.0)) }
    }

    private static func cuts(_ zones: [(Double, Double)], _ fixedSize: Double, _ stretchSize: Double, _ border: Double) -> [Cut] {
        var cuts = [Cut(fixed: -border, stretch: 0)]
        for (c1, c2) in zones {
            let last = cuts[cuts.count - 1]
            cuts.append(Cut(fixed: c1 - last.stretch, stretch: last.stretch))
            cuts.append(Cut(fixed: c1 - last.stretch, stretch: last.stretch + (c2 - c1)))
        }
        cuts.append(Cut(fixed: fixedSize + border, stretch: stretchSize))
        return cuts
    }
}
