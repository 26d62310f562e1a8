import Foundation
import GLMapCore
import GLMapText
import XCTest

/// Shaping and quads with hand-run numbers from GL JS's algorithms (synthetic glyphs of known
/// metrics), then on the render suite's glyphs: line breaks, vertical CJK, images in text, bidi.
final class ShapingTests: XCTestCase {
    /// A map and atlas of synthetic glyphs: letters advance 10 (ink 8×10, left 1, top −5), space 5.
    func synthetic(_ stack: String = "S") -> (GlyphMap, GlyphAtlas) {
        var glyphs: [UInt32: Glyph] = [:]
        for cp in UInt32(0x61)...0x7A {
            glyphs[cp] = Glyph(id: cp, bitmap: AlphaImage(width: 14, height: 16), metrics: GlyphMetrics(width: 8, height: 10, left: 1, top: -5, advance: 10))
        }
        glyphs[0x20] = Glyph(id: 0x20, bitmap: AlphaImage(width: 6, height: 6), metrics: GlyphMetrics(width: 0, height: 0, left: 0, top: -26, advance: 5))
        var map = GlyphMap()
        map.set(glyphs, for: stack)
        return (map, GlyphAtlas(glyphs: map))
    }

    func testOneLineCentred() throws {
        let (map, atlas) = synthetic()
        let o = TextShapingOptions(defaultFontStack: "S", lineHeight: 24)
        let s = try XCTUnwrap(Shaper.shapeText(FormattedText("ab"), glyphs: map, glyphPositions: atlas.positions, imagePositions: [:], options: o, bidi: nil))
        XCTAssertEqual(s.lines.count, 1)
        XCTAssertEqual(s.lines[0].glyphs.map(\.x), [-10, 0])
        XCTAssertEqual(s.lines[0].glyphs.map(\.y), [-17, -17])
        XCTAssertEqual([s.top, s.bottom, s.left, s.right], [-12, 12, -10, 10])
        // Quad of 'a': half advance 5, built-in offset (−5, −17); x1 = (1 − 4) − 5 − 5 = −13,
        // y1 = (5 − 4) − 17 = −16, the padded 16×18 bin wide and tall.
        let q = SymbolQuads.glyphQuads(s, textOffset: (0, 0), textRotate: 0, alongLine: false, allowVerticalPlacement: false, images: [:])
        XCTAssertEqual(q.count, 2)
        XCTAssertEqual(q[0].tl, QuadPoint(-13, -16))
        XCTAssertEqual(q[0].br, QuadPoint(3, 2))
        XCTAssertEqual(q[0].tex.w, 16)
        XCTAssertEqual(q[0].writingMode, .horizontal)
        // text-rotate 90: (x, y) → (−y, x).
        let r = SymbolQuads.glyphQuads(s, textOffset: (0, 0), textRotate: 90, alongLine: false, allowVerticalPlacement: false, images: [:])
        XCTAssertEqual(r[0].tl.x, 16, accuracy: 1e-9)
        XCTAssertEqual(r[0].tl.y, -13, accuracy: 1e-9)
    }

    func testBalancedLineBreaksAndAnchors() throws {
        let (map, atlas) = synthetic()
        // 9 letters and 2 spaces: 100 wide; max width 45 → 3 lines of 33.3. Breaks after each
        // space: badness (30 − 33.3)² + … chooses both (hand-run: 11.1, 22.2, final 27.8).
        var o = TextShapingOptions(defaultFontStack: "S", maxWidth: 45, lineHeight: 24, anchor: .topLeft, justify: .left)
        let s = try XCTUnwrap(Shaper.shapeText(FormattedText("aaa bbb ccc"), glyphs: map, glyphPositions: atlas.positions, imagePositions: [:], options: o, bidi: nil))
        XCTAssertEqual(s.lines.map { $0.glyphs.count }, [3, 3, 3], "lines are trimmed")
        // top-left: shiftY = −0 · 3 · 24 + 12; lines 24 apart from −17 + 12.
        XCTAssertEqual(s.lines.map { $0.glyphs[0].y }, [-5, 19, 43])
        XCTAssertEqual(s.lines[1].glyphs.map(\.x), [0, 10, 20])
        XCTAssertEqual([s.top, s.bottom, s.left, s.right], [0, 72, 0, 30])
        // Right-justified bottom-right.
        o.anchor = .bottomRight
        o.justify = .right
        let r = try XCTUnwrap(Shaper.shapeText(FormattedText("aaa bbb ccc"), glyphs: map, glyphPositions: atlas.positions, imagePositions: [:], options: o, bidi: nil))
        XCTAssertEqual(r.lines[2].glyphs.map(\.x), [-30, -20, -10])
        XCTAssertEqual(r.lines.map { $0.glyphs[0].y }, [-77, -53, -29])
        XCTAssertEqual([r.top, r.bottom, r.left, r.right], [-72, 0, -30, 0])
        // A newline forces a break; an infinite max width (line placement) keeps one line.
        o.maxWidth = .infinity
        let one = try XCTUnwrap(Shaper.shapeText(FormattedText("aaa bbb ccc"), glyphs: map, glyphPositions: atlas.positions, imagePositions: [:], options: o, bidi: nil))
        XCTAssertEqual(one.lines.count, 1)
        let two = try XCTUnwrap(Shaper.shapeText(FormattedText("aa\nbb"), glyphs: map, glyphPositions: atlas.positions, imagePositions: [:], options: o, bidi: nil))
        XCTAssertEqual(two.lines.count, 2)
    }

    func testLetterSpacingTranslateAndScaledSections() throws {
        let (map, atlas) = synthetic()
        let o = TextShapingOptions(defaultFontStack: "S", lineHeight: 24, anchor: .left, justify: .left, spacing: 2.4, translate: (x: 12, y: -24))
        let s = try XCTUnwrap(Shaper.shapeText(FormattedText("abc"), glyphs: map, glyphPositions: atlas.positions, imagePositions: [:], options: o, bidi: nil))
        XCTAssertEqual(s.lines[0].glyphs.map(\.x), [0, 12.4, 24.8])
        XCTAssertEqual(s.left, 12)
        XCTAssertEqual(s.right, 12 + 3 * 12.4 - 2.4, accuracy: 1e-9, "line length is x − spacing")
        XCTAssertEqual(s.top, -36)
        // A section at scale 2: the line is 48 tall, the small glyph sits on the bottom
        // (baseline offset (48 − 24) · 1), and the block is shifted by −48 · 0.5 + 17.
        let f = FormattedText(sections: [FormattedSection(text: "a"), FormattedSection(text: "b", scale: 2)])
        let t = try XCTUnwrap(Shaper.shapeText(f, glyphs: map, glyphPositions: atlas.positions, imagePositions: [:],
                                               options: TextShapingOptions(defaultFontStack: "S", lineHeight: 24), bidi: nil))
        XCTAssertEqual(t.lines[0].glyphs.map(\.y), [-17 + 24 - 7, -17 - 7])
        XCTAssertEqual(t.lines[0].glyphs.map(\.x), [-15, -5])
        XCTAssertEqual(t.lines[0].lineOffset, 24)
        XCTAssertEqual(t.lines[0].glyphs.map(\.sectionIndex), [0, 1])
    }

    func testImagesInText() throws {
        let (map, atlas) = synthetic()
        let icon = StyleImage(data: StraightImage(width: 20, height: 20))
        let images = ImageAtlas(icons: [("star", icon)])
        let f = FormattedText(sections: [FormattedSection(text: "a"), .image("star")])
        // Text size 12: the image is scaled by 24 / 12, 40 layout units wide and tall (20 px).
        let o = TextShapingOptions(defaultFontStack: "S", lineHeight: 24, layoutTextSize: 12, layoutTextSizeThisZoom: 12)
        let s = try XCTUnwrap(Shaper.shapeText(f, glyphs: map, glyphPositions: atlas.positions, imagePositions: images.iconPositions, options: o, bidi: nil))
        XCTAssertTrue(s.iconsInText)
        let img = s.lines[0].glyphs[1]
        XCTAssertEqual(img.imageName, "star")
        XCTAssertEqual(img.scale, 2)
        XCTAssertEqual(img.metrics.advance, 20)
        XCTAssertEqual(s.right - s.left, 50)
        // Line content height 40: the glyph sits 16 lower, the image on the line; the image pushes
        // the line by 40 − 24 = 16 (imageOffset).
        XCTAssertEqual(s.lines[0].lineOffset, 16)
        let q = SymbolQuads.glyphQuads(s, textOffset: (0, 0), textRotate: 0, alongLine: false, allowVerticalPlacement: false, images: ["star": icon])
        XCTAssertEqual(q.count, 2)
        XCTAssertFalse(q[1].isSDF)
        XCTAssertEqual(q[1].br.x - q[1].tl.x, 22 * 2, "the padded 22-pixel bin at scale 2")
    }

    func testMissingGlyphsAreLeftOut() {
        let (map, atlas) = synthetic()
        let o = TextShapingOptions(defaultFontStack: "S")
        XCTAssertNil(Shaper.shapeText(FormattedText("ÄÖ"), glyphs: map, glyphPositions: atlas.positions, imagePositions: [:], options: o, bidi: nil))
        let s = Shaper.shapeText(FormattedText("aÄb"), glyphs: map, glyphPositions: atlas.positions, imagePositions: [:], options: o, bidi: nil)
        XCTAssertEqual(s?.lines[0].glyphs.map(\.glyph), [0x61, 0x62])
    }

    func testIconShapingFitAndTextFit() {
        let image = StyleImage(data: StraightImage(width: 40, height: 40), pixelRatio: 2, stretchX: [(10, 30)], stretchY: [(10, 30)],
                               content: (10, 10, 30, 30))
        let atlas = ImageAtlas(icons: [("nine", image)])
        let position = atlas.iconPositions["nine"]!
        let icon = Shaper.shapeIcon(position, offset: (2, 0), anchor: .bottom)
        XCTAssertEqual([icon.left, icon.right, icon.top, icon.bottom], [-8, 12, -20, 0])
        // Text box −10…10 × −12…12 layout units at font scale 0.5; padding 1, 2, 3, 4.
        let text = Shaping(lines: [], top: -12, bottom: 12, left: -10, right: 10, writingMode: .horizontal, text: "", iconsInText: false, verticalizable: false)
        let fitted = Shaper.fitIconToText(icon, text: text, fit: .both, padding: (1, 2, 3, 4), offset: (0, 0), fontScale: 0.5)
        XCTAssertEqual([fitted.left, fitted.right, fitted.top, fitted.bottom], [-9, 7, -7, 9])
        XCTAssertEqual(fitted.collisionPadding.map { [$0.top, $0.right, $0.bottom, $0.left] }, [5, 5, 5, 5])
        let width = Shaper.fitIconToText(icon, text: text, fit: .width, padding: (0, 0, 0, 0), offset: (0, 0), fontScale: 1)
        XCTAssertEqual([width.left, width.right, width.top, width.bottom], [-10, 10, -10, 10])
        // Nine-part stretch: 9 cells; the top-left corner stays 11 px (border 1 + 10) wide.
        let quads = SymbolQuads.iconQuads(fitted, iconRotate: 0, isSDF: false, hasIconTextFit: true)
        XCTAssertEqual(quads.count, 9)
        XCTAssertEqual(quads[0].tl.x, -9)
        XCTAssertEqual(quads[0].tr.x, -9)
        XCTAssertEqual(quads[0].pixelOffsetTL.x, (-1 - 10) / 2.0, accuracy: 1e-9, "border and fixed part left of the content, at pixel ratio 2")
        XCTAssertEqual(quads[0].pixelOffsetBR.x - quads[0].pixelOffsetTL.x, 11 / 2.0, accuracy: 1e-9)
        XCTAssertEqual(quads[0].tex.x, Double(position.paddedRect.x))
        XCTAssertEqual(quads[0].tex.w, 11)
        // Without icon-text-fit: one quad over the padded image.
        let plain = SymbolQuads.iconQuads(icon, iconRotate: 0, isSDF: true, hasIconTextFit: false)
        XCTAssertEqual(plain.count, 1)
        // The stretch zones still scale the 1-pixel border: −1 / 20 of the 20-unit icon.
        XCTAssertEqual(plain[0].tl, QuadPoint(-8 - 1, -20 - 1))
        XCTAssertEqual(plain[0].pixelOffsetTL, QuadPoint(0.5, 0.5))
        XCTAssertEqual(plain[0].tex.w, 42)
        XCTAssertTrue(plain[0].isSDF)
    }

    func testApplyTextFitAsGLJSUnitTests() {
        // GL JS's applyTextFit tests: a 100×20 image with content 5,5,95,15 fitted to 14×14.
        func fitted(_ w: TextFit?, _ h: TextFit?) -> [Double] {
            let image = StyleImage(data: StraightImage(width: 98, height: 18), content: (5, 5, 95, 15), textFitWidth: w, textFitHeight: h)
            let position = ImagePosition(paddedRect: AtlasRect(x: 0, y: 0, w: 100, h: 20), image: image)
            let b = Shaper.applyTextFit(PositionedIcon(image: position, top: 0, bottom: 14, left: 0, right: 14))
            return [b.x1, b.y1, b.x2, b.y2]
        }
        XCTAssertEqual(fitted(nil, nil), [0, 0, 14, 14])
        XCTAssertEqual(fitted(.stretchOrShrink, .stretchOrShrink), [0, 0, 14, 14])
        XCTAssertEqual(fitted(.stretchOnly, .proportional), [0, 0, 126, 14])
        XCTAssertEqual(fitted(.proportional, .stretchOnly), [0, 0, 14, 14], "14/14 is not wider than 9: no change")
    }

    func testVariableOffsets() {
        let top = VariableAnchor.offset(anchor: .top, .radial(24))
        XCTAssertEqual(top.x, 0)
        XCTAssertEqual(top.y, 17)
        let tl = VariableAnchor.offset(anchor: .topLeft, .radial(24))
        XCTAssertEqual(tl.x, 24 / 2.0.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(tl.y, 24 / 2.0.squareRoot() - 7, accuracy: 1e-12)
        let br = VariableAnchor.offset(anchor: .bottomRight, .text(x: -12, y: 24))
        XCTAssertEqual(br.x, -12)
        XCTAssertEqual(br.y, -17)
        XCTAssertEqual(VariableAnchor.offset(anchor: .center, .radial(-5)).x, 0)
        let pairs = VariableAnchor.anchorOffsets(variableAnchorOffset: [(.top, (0, 1)), (.left, (1, 0))], variableAnchor: nil,
                                                 radialOffset: nil, textOffset: (0, 0))!
        XCTAssertEqual(pairs[0].offset.y, 17)
        XCTAssertEqual(pairs[1].offset.x, 24)
        XCTAssertEqual(VariableAnchor.staticTextOffset(anchor: .bottom, radialOffset: 1, textOffset: (5, 5)).y, -17)
        XCTAssertEqual(VariableAnchor.staticTextOffset(anchor: .bottom, radialOffset: 0, textOffset: (0.5, 1)).x, 12)
        XCTAssertEqual(SymbolAnchor.topRight.justification, .right)
    }
}

/// `number-format` as Intl.NumberFormat in an English browser formats (values as Chrome prints them).
final class NumberFormattingTests: XCTestCase {
    func testDecimalAndCurrency() {
        XCTAssertEqual(NumberFormatting.format(123456.789), "123,456.789")
        XCTAssertEqual(NumberFormatting.format(1.23456), "1.235")
        XCTAssertEqual(NumberFormatting.format(3, minFractionDigits: 2), "3.00")
        XCTAssertEqual(NumberFormatting.format(2.5, maxFractionDigits: 0), "3", "half away from zero, as Intl")
        XCTAssertEqual(NumberFormatting.format(-2.5, maxFractionDigits: 0), "-3")
        XCTAssertEqual(NumberFormatting.format(1234.5, currency: "USD"), "$1,234.50")
        XCTAssertEqual(NumberFormatting.format(1234.5, currency: "JPY"), "¥1,235")
        XCTAssertEqual(NumberFormatting.format(1234.5, locale: "de-DE", currency: "EUR"), "1.234,50\u{A0}€")
        XCTAssertEqual(NumberFormatting.format(1234.5678, locale: "de"), "1.234,568")
        XCTAssertNil(NumberFormatting.format(1, minFractionDigits: 3, maxFractionDigits: 1), "RangeError in JavaScript")
        XCTAssertEqual(NumberFormatting.format(1, maxFractionDigits: 1), "1")
    }
}
