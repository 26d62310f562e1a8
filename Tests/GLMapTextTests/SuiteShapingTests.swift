import Foundation
import GLMapText
import XCTest

/// Shaping with the render suite's glyphs: a long label's line breaks, vertical CJK
/// (glyphs/NotoCJK), bidi and Arabic shaping as the RTL plugin does them.
final class SuiteShapingTests: XCTestCase {
    let template = "local://glyphs/{fontstack}/{range}.pbf"

    func shape(_ text: String, stack: String, options: (inout TextShapingOptions) -> Void = { _ in }, bidi: Bidi? = nil) throws -> Shaping? {
        let manager = GlyphManager(urlTemplate: template, fetch: TextFixtures.localFetch())
        var deps = GlyphDependencies()
        deps.add(text: text, fontStack: stack, verticalize: true)
        let map = manager.glyphs(for: deps)
        let atlas = GlyphAtlas(glyphs: map)
        var o = TextShapingOptions(defaultFontStack: stack)
        options(&o)
        return Shaper.shapeText(FormattedText(text), glyphs: map, glyphPositions: atlas.positions, imagePositions: [:], options: o, bidi: bidi)
    }

    func testALongLabelBreaksIntoBalancedLines() throws {
        try TextFixtures.requireSuite()
        let text = "Sitting on the bank of the river, watching the water flow by"
        let s = try XCTUnwrap(try shape(text, stack: TextFixtures.openSans) { $0.maxWidth = 10 * 24 })
        let lines = s.lines.map { String(String.UnicodeScalarView($0.glyphs.compactMap { Unicode.Scalar($0.glyph) })) }
        XCTAssertEqual(lines.count, 3, "\(lines)")
        XCTAssertEqual(lines.joined(separator: " "), text)
        let widths = s.lines.map { l in (l.glyphs.last!.x + l.glyphs.last!.metrics.advance) - l.glyphs.first!.x }
        XCTAssertLessThan(widths.max()! - widths.min()!, 60, "balanced: \(widths)")
        XCTAssertEqual(s.bottom - s.top, 3 * 1.2 * 24, accuracy: 1e-9)
        // The same with the bidi pass (GL JS with the RTL plugin loaded) gives the same lines.
        let b = try XCTUnwrap(try shape(text, stack: TextFixtures.openSans, options: { $0.maxWidth = 10 * 24 }, bidi: Bidi()))
        XCTAssertEqual(b.lines, s.lines)
    }

    func testVerticalCJK() throws {
        try TextFixtures.requireSuite()
        let s = try XCTUnwrap(try shape("中文（北京）", stack: "NotoCJK") {
            $0.writingMode = .vertical
            $0.allowVerticalPlacement = true
        })
        let g = s.lines[0].glyphs
        XCTAssertTrue(s.verticalizable)
        XCTAssertEqual(g.map(\.glyph), [0x4E2D, 0x6587, 0xFE35, 0x5317, 0x4EAC, 0xFE36], "fullwidth parentheses verticalized")
        XCTAssertTrue(g.allSatisfy(\.vertical))
        XCTAssertEqual(g[1].x - g[0].x, 24, "vertical glyphs advance one em")
        let q = SymbolQuads.glyphQuads(s, textOffset: (0, 0), textRotate: 0, alongLine: false, allowVerticalPlacement: true, images: [:])
        XCTAssertEqual(q.count, 6)
        for quad in q {
            XCTAssertEqual(quad.tl.x, quad.tr.x, accuracy: 1e-9, "rotated −90°: the top edge is vertical")
            XCTAssertEqual(quad.writingMode, .vertical)
        }
        // Horizontal shaping of the same text keeps the fullwidth parentheses.
        let h = try XCTUnwrap(try shape("中文（北京）", stack: "NotoCJK"))
        XCTAssertEqual(h.lines[0].glyphs[2].glyph, 0xFF08)
        XCTAssertFalse(h.verticalizable)
    }

    func testIdeographicBreaking() throws {
        try TextFixtures.requireSuite()
        let s = try XCTUnwrap(try shape(String(repeating: "中文字体", count: 6), stack: "NotoCJK") { $0.maxWidth = 5 * 24 })
        XCTAssertGreaterThan(s.lines.count, 3, "breaks between ideographs")
    }

    func testBidiReordersAndMirrors() {
        let bidi = Bidi()
        XCTAssertEqual(bidi.processBidirectionalText("abc שלום def", lineBreaks: []), ["abc םולש def"])
        XCTAssertEqual(bidi.processBidirectionalText("(שלום)", lineBreaks: []), ["(םולש)"])
        let lines = bidi.processBidirectionalText("שלום עולם", lineBreaks: [5])
        XCTAssertEqual(lines.map { $0.trimmingCharacters(in: .whitespaces) }, ["םולש", "םלוע"])
        XCTAssertEqual(bidi.processBidirectionalText("ab\ncd", lineBreaks: [3]), ["ab\n", "cd"])
        XCTAssertEqual(bidi.processBidirectionalText("a\u{200F}b", lineBreaks: []), ["ab"], "bidi controls are removed")
        let styled = bidi.processStyledBidirectionalText("ab שלום", sectionIndices: [0, 0, 0, 1, 1, 1, 2], lineBreaks: [])
        XCTAssertEqual(styled.count, 1)
        XCTAssertEqual(styled[0].text, "ab םולש")
        XCTAssertEqual(styled[0].sectionIndices, [0, 0, 0, 2, 1, 1, 1])
    }

    func testArabicShapingGivesPresentationForms() throws {
        let bidi = Bidi()
        // ب ي ت: initial beh FE91, medial yeh FEF4, final teh FE96.
        XCTAssertEqual(bidi.applyArabicShaping("بيت").unicodeScalars.map(\.value), [0xFE91, 0xFEF4, 0xFE96])
        XCTAssertEqual(bidi.applyArabicShaping("abc"), "abc")
        let t = FormattedText("بيت").transformed(.none, bidi: bidi)
        XCTAssertEqual(bidi.processBidirectionalText(t.string, lineBreaks: []).first?.unicodeScalars.map(\.value), [0xFE96, 0xFEF4, 0xFE91])
        XCTAssertEqual(FormattedText("straße").transformed(.uppercase, bidi: nil).string, "STRASSE")
        XCTAssertEqual(FormattedText("ÀB").transformed(.lowercase, bidi: nil).string, "àb")
    }

    func testArabicLabelFromTheSuiteShapes() throws {
        try TextFixtures.requireSuite()
        let bidi = Bidi()
        let text = FormattedText("مجتمع آپارتمانهای مرتفع").transformed(.none, bidi: bidi)
        let s = try XCTUnwrap(try shape(text.string, stack: TextFixtures.openSans, options: { $0.maxWidth = 5 * 24 }, bidi: bidi))
        XCTAssertEqual(s.lines.count, 2, "text-arabic/line-break draws two lines")
        XCTAssertTrue(s.lines.allSatisfy { !$0.glyphs.isEmpty })
        XCTAssertFalse(ScriptDetection.allowsLetterSpacing(text.string))
        XCTAssertTrue(ScriptDetection.containsRTLText(text.string))
    }

    func testTokens() {
        XCTAssertEqual(TokenResolver.resolve("{name} ({ref}) {missing}{}", value: { ["name": "A", "ref": "7"][$0] }), "A (7) {}")
        XCTAssertEqual(TokenResolver.resolve("{{name}}", value: { $0 == "name" ? "x" : nil }), "{x}")
    }
}
