import Foundation
import GLMapText
import XCTest

/// The glyph manager over the render suite's `glyphs/` folder: one URL per font stack, the
/// per-font fallback, missing ranges (one warning each) and local glyphs from DejaVu Sans.
final class GlyphManagerTests: XCTestCase {
    let template = "local://glyphs/{fontstack}/{range}.pbf"

    func testURLTemplateReplacesOnlyTheFirstTokens() {
        XCTAssertEqual(GlyphManager.url(template: template, fontStack: "A B,C D", rangeIndex: 1),
                       "local://glyphs/A B,C D/256-511.pbf")
        XCTAssertEqual(GlyphManager.url(template: "x/{range}.pbf?ignore={fontstack}&again={fontstack}", fontStack: "F", rangeIndex: 0),
                       "x/0-255.pbf?ignore=F&again={fontstack}")
    }

    func testAFontStackIsOneURLAndEachRangeLoadsOnce() throws {
        try TextFixtures.requireSuite()
        let log = LockedLog()
        let manager = GlyphManager(urlTemplate: template, fetch: TextFixtures.localFetch(log: log))
        var deps = GlyphDependencies()
        deps.add(text: "Hello ÿĀ", fontStack: TextFixtures.openSans)
        let map = manager.glyphs(for: deps)
        XCTAssertEqual(log.all, ["local://glyphs/\(TextFixtures.openSans)/0-255.pbf", "local://glyphs/\(TextFixtures.openSans)/256-511.pbf"])
        XCTAssertEqual(map[TextFixtures.openSans, 72]?.metrics.advance, 18)
        XCTAssertNotNil(map[TextFixtures.openSans, 0x100])
        _ = manager.glyphs(for: deps)
        XCTAssertEqual(log.all.count, 2, "cached")
        XCTAssertTrue(manager.warnings.isEmpty)
    }

    func testSeparateFontsResolveGlyphByGlyph() throws {
        try TextFixtures.requireSuite()
        // No folder holds the combined stack; "Noto Sans Regular" exists alone.
        let log = LockedLog()
        let manager = GlyphManager(urlTemplate: template, fetch: TextFixtures.localFetch(log: log))
        let stack = "Missing Font,Noto Sans Regular"
        let g = manager.glyph(65, fontStack: stack)
        XCTAssertNotNil(g)
        XCTAssertEqual(log.all, ["local://glyphs/\(stack)/0-255.pbf", "local://glyphs/Missing Font/0-255.pbf",
                                 "local://glyphs/Noto Sans Regular/0-255.pbf"])
        let direct = GlyphManager(urlTemplate: template, fetch: TextFixtures.localFetch()).glyph(65, fontStack: "Noto Sans Regular")
        XCTAssertEqual(g, direct)
        XCTAssertTrue(manager.warnings.isEmpty)
    }

    func testAMissingRangeWarnsOnceAndDropsOnlyItsGlyphs() throws {
        try TextFixtures.requireSuite()
        let manager = GlyphManager(urlTemplate: template, fetch: TextFixtures.localFetch())
        var deps = GlyphDependencies()
        deps.add(text: "Georgia (საქართველო)", fontStack: TextFixtures.openSans)   // Georgian: range 4096-4351 is absent
        let map = manager.glyphs(for: deps)
        XCTAssertNotNil(map[TextFixtures.openSans, 71])
        XCTAssertNil(map[TextFixtures.openSans, 0x10E1])
        XCTAssertEqual(manager.warnings.count, 1)
        let w = try XCTUnwrap(manager.warnings.first)
        XCTAssertEqual(w.fontStack, TextFixtures.openSans)
        XCTAssertEqual(w.rangeStart, 4096)
        XCTAssertTrue(w.description.contains("4096-4351"), w.description)
        XCTAssertTrue(w.description.contains("left out"), w.description)
    }

    func testABrokenRangeIsAWarningNotAnError() throws {
        let fetch: ResourceFetch = { url in url.contains("0-255") ? [0x0A, 0x7F, 0x01] : nil }
        let manager = GlyphManager(urlTemplate: template, fetch: fetch)
        XCTAssertNil(manager.glyph(65, fontStack: "X"))
        XCTAssertNil(manager.glyph(66, fontStack: "X"))
        XCTAssertEqual(manager.warnings.count, 1)
        XCTAssertTrue(manager.warnings[0].message.contains("not a glyph PBF"), manager.warnings[0].message)
    }

    func testMissingRangesAreDrawnLocallyWhenFontsAreGiven() throws {
        try TextFixtures.requireSuite()
        try TextFixtures.requireDejaVu()
        let local = LocalGlyphRasterizer(faces: [try FontFace(path: TextFixtures.dejaVu), try FontFace(path: TextFixtures.dejaVuBold)])
        let manager = GlyphManager(urlTemplate: template, fetch: TextFixtures.localFetch(), local: local)
        let georgian = try XCTUnwrap(manager.glyph(0x10E1, fontStack: TextFixtures.openSans))
        XCTAssertTrue(georgian.metrics.isDoubleResolution)
        XCTAssertTrue(manager.warnings[0].description.contains("drawn from local fonts"))
        // The PBF glyph of a loaded range is still the server's.
        XCTAssertEqual(manager.glyph(65, fontStack: TextFixtures.openSans)?.metrics.advance, 15)
        // localIdeographs: CJK is drawn locally even where a range exists (DejaVu has hiragana? no:
        // then the glyph is missing rather than fetched).
        let log = LockedLog()
        let ideographs = GlyphManager(urlTemplate: template, fetch: TextFixtures.localFetch(log: log), local: local, localIdeographs: true)
        _ = ideographs.glyph(0x3042, fontStack: "NotoCJK")
        XCTAssertTrue(log.all.isEmpty, "no range is fetched for a local ideograph")
        XCTAssertNotNil(ideographs.glyph(65, fontStack: "NotoCJK"))
        XCTAssertEqual(log.all.count, 1)
        // No glyphs URL at all: everything is local.
        let noURL = GlyphManager(urlTemplate: nil, fetch: nil, local: local)
        XCTAssertEqual(noURL.glyph(65, fontStack: TextFixtures.openSans)?.metrics.isDoubleResolution, true)
        XCTAssertTrue(noURL.warnings.isEmpty)
    }

    func testDependenciesAddVerticalFormsWhenAsked() {
        var deps = GlyphDependencies()
        deps.add(text: "（a）", fontStack: "S", verticalize: true)
        XCTAssertEqual(deps.codePoints["S"], [0xFF08, 0x61, 0xFF09, 0xFE35, 0xFE36])
        var plain = GlyphDependencies()
        plain.add(text: "（a）", fontStack: "S")
        XCTAssertEqual(plain.codePoints["S"], [0xFF08, 0x61, 0xFF09])
    }
}

/// Local glyphs from font files: TinySDF's box and metrics, and the SDF's shape.
final class LocalGlyphTests: XCTestCase {
    func testTinySDFMetricsFollowGLJS() throws {
        try TextFixtures.requireDejaVu()
        let face = try FontFace(path: TextFixtures.dejaVu)
        XCTAssertEqual(face.name, "DejaVu Sans Book")
        // DejaVu Sans 'H' (FreeType, unscaled): advance 1540, ink 1138 wide from x 201, 1493 tall
        // from the baseline; em 2048. At 48 px TinySDF's box is ceil(right − left) × ceil(ascent),
        // where canvas' actualBoundingBoxLeft is −201 (ink right of the pen): from the pen to the
        // ink's right edge plus the left bearing again.
        let h = try XCTUnwrap(LocalGlyphRasterizer.tinySDFGlyph(face: face, codePoint: 72, textureScale: 2))
        let inkW = ((201.0 + 1138 + 201) * 48 / 2048).rounded(.up)
        XCTAssertEqual(h.metrics.width, inkW / 2, accuracy: 0.51)
        XCTAssertEqual(h.metrics.top, (1493.0 * 48 / 2048).rounded(.up) / 2 - 27.5, accuracy: 0.51)
        XCTAssertEqual(h.metrics.left, 0.5)
        XCTAssertEqual(h.metrics.advance, 1540.0 * 48 / 2048 / 2, accuracy: 0.01)
        XCTAssertEqual(h.bitmap.width, Int(h.metrics.width * 2) + 12)
        XCTAssertEqual(h.bitmap.height, Int(h.metrics.height * 2) + 12)
        // Inside the stem: above the 0.75 edge value (191); far outside: 0.
        let stemX = 6 + Int(201.0 * 48 / 2048) + 2, midY = h.bitmap.height / 2
        XCTAssertGreaterThan(h.bitmap[stemX, midY], 191)
        XCTAssertLessThan(h.bitmap[0, 0], 32, "the corner is ~12 px (of radius 16) from the ink")
        // A space has no ink: GL JS's `|| 24` turns its zero width into 24.
        let space = try XCTUnwrap(LocalGlyphRasterizer.tinySDFGlyph(face: face, codePoint: 32, textureScale: 2))
        XCTAssertEqual(space.metrics.width, 24)
        XCTAssertEqual(space.metrics.top, -27.5)
        XCTAssertTrue(space.bitmap.pixels.allSatisfy { $0 == 0 })
        // A format character (ZWJ) takes no room.
        if let zwj = LocalGlyphRasterizer.tinySDFGlyph(face: face, codePoint: 0x200D, textureScale: 2) {
            XCTAssertEqual(zwj.metrics.advance, 0)
            XCTAssertEqual(zwj.metrics.width, 0)
        }
    }

    func testTheSDFFallsOffWithDistance() throws {
        try TextFixtures.requireDejaVu()
        let face = try FontFace(path: TextFixtures.dejaVu)
        let g = try XCTUnwrap(LocalGlyphRasterizer.tinySDFGlyph(face: face, codePoint: 0x2588, textureScale: 1))   // full block
        // Along the middle row, values fall monotonically from the block's inside to the border,
        // by 255/8 per pixel (radius 8) once outside the anti-aliased edge.
        let y = g.bitmap.height / 2
        let row = (0..<g.bitmap.width).map { Int(g.bitmap[$0, y]) }
        // The block's ink starts left of the pen, so TinySDF's capture starts at the pen: column 0
        // is the buffer's 3 px from the ink, 255 − 255·(3/8 + 0.25) = 95.6 → 96.
        XCTAssertEqual(row.first, 96)
        XCTAssertEqual(row[1], 128, "2 px: 255 − 255·(2/8 + 0.25) = 127.5 → 128")
        XCTAssertLessThanOrEqual(row[0], row[1])
        XCTAssertLessThanOrEqual(row[1], row[2])
    }

    func testFaceChoiceFollowsTheStack() throws {
        try TextFixtures.requireDejaVu()
        let book = try FontFace(path: TextFixtures.dejaVu), bold = try FontFace(path: TextFixtures.dejaVuBold)
        let r = LocalGlyphRasterizer(faces: [book, bold])
        XCTAssertTrue(r.face(for: 65, fontStack: "DejaVu Sans Bold")?.isBold ?? false)
        XCTAssertTrue(r.face(for: 65, fontStack: "Open Sans Semibold,Arial Unicode MS Bold")?.isBold ?? false)
        XCTAssertFalse(r.face(for: 65, fontStack: "Noto Sans Regular")?.isBold ?? true)
        XCTAssertNil(r.face(for: 0x4E00, fontStack: "Noto Sans Regular"), "DejaVu has no CJK")
    }

    func testWrittenRangesDecode() throws {
        try TextFixtures.requireDejaVu()
        let face = try FontFace(path: TextFixtures.dejaVu)
        let ranges = GlyphRangeWriter.ranges(faces: [face], fontStack: "DejaVu Sans Book", only: Set(0...600))
        XCTAssertEqual(ranges.first?.rangeStart, 0)
        XCTAssertEqual(GlyphRangeWriter.fileName(rangeStart: 256), "256-511.pbf")
        let latin = try GlyphPBF.decode(try XCTUnwrap(ranges.first).bytes)
        let a = try XCTUnwrap(latin.first { $0.id == 65 })
        XCTAssertEqual(a.bitmap.width, Int(a.metrics.width) + 6)
        XCTAssertEqual(a.metrics.advance, (1401.0 * 24 / 2048).rounded())
        XCTAssertLessThan(a.metrics.top, 0)
        let space = try XCTUnwrap(latin.first { $0.id == 32 })
        XCTAssertEqual(space.metrics.width, 0)
        XCTAssertGreaterThan(space.metrics.advance, 0)
        XCTAssertTrue(ranges.allSatisfy { r in (try? GlyphPBF.decode(r.bytes))?.allSatisfy { $0.id / 256 * 256 == r.rangeStart } ?? false })
    }
}
