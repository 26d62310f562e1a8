import Foundation
import GLMapText
import XCTest

/// A folder of font files (`--fonts DIR`): faces matched to `text-font` names by family and style
/// ("Book" and "Regular" implied), stacks resolved font by font, broken files costing only
/// themselves, and the glyph manager's order (PBF first, the folder after or alone).
final class FontFolderTests: XCTestCase {
    var folder: URL!

    /// DejaVu Sans (Book) and Bold, one in a sub-folder, beside a garbage `.otf`, a truncated
    /// `.ttf` and a file that is not a font by name.
    override func setUpWithError() throws {
        try TextFixtures.requireDejaVu()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-fonts-\(UUID().uuidString)")
        let sub = folder.appendingPathComponent("bold")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TextFixtures.dejaVu, toPath: folder.appendingPathComponent("DejaVuSans.ttf").path)
        try FileManager.default.copyItem(atPath: TextFixtures.dejaVuBold, toPath: sub.appendingPathComponent("DejaVuSans-Bold.TTF").path)
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: folder.appendingPathComponent("garbage.otf"))
        try Data(try Data(contentsOf: URL(fileURLWithPath: TextFixtures.dejaVu)).prefix(30_000)).write(to: folder.appendingPathComponent("truncated.ttf"))
        try Data("not a font".utf8).write(to: folder.appendingPathComponent("README.txt"))
    }

    override func tearDownWithError() throws {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    func testFacesAreNamedByFamilyAndStyleWithRegularImplied() throws {
        let fonts = FontFolder(path: folder.path)
        XCTAssertEqual(fonts.faces.map(\.name).sorted(), ["DejaVu Sans Bold", "DejaVu Sans Book"])
        let book = try XCTUnwrap(fonts.face(named: "DejaVu Sans Book"))
        XCTAssertEqual(book.familyName, "DejaVu Sans")
        XCTAssertEqual(book.styleName, "Book", "FreeType's style name of DejaVuSans.ttf")
        for name in ["DejaVu Sans", "DejaVu Sans Regular", "dejavu sans book", "DejaVuSans", "DejaVuSans-Regular"] {
            XCTAssertTrue(fonts.face(named: name) === book, name)
        }
        let bold = try XCTUnwrap(fonts.face(named: "DejaVu Sans Bold"))
        XCTAssertTrue(fonts.face(named: "DejaVuSans-Bold") === bold)
        XCTAssertNil(fonts.face(named: "DejaVu Sans Italic"))
        XCTAssertNil(fonts.face(named: "DejaVu Serif"))
    }

    func testBrokenFilesCostOnlyThemselvesWithAWarning() {
        let fonts = FontFolder(path: folder.path)
        let warned = fonts.fileWarnings.map { URL(fileURLWithPath: $0.path).lastPathComponent }.sorted()
        XCTAssertEqual(warned, ["garbage.otf", "truncated.ttf"], "\(fonts.fileWarnings)")
        for w in fonts.fileWarnings { XCTAssertTrue(w.description.hasPrefix(w.path + ": "), w.description) }
        XCTAssertEqual(fonts.faces.count, 2, "the good fonts still load")
        XCTAssertNotNil(fonts.glyph(codePoint: 65, fontStack: "DejaVu Sans Book"))
    }

    func testAMissingFolderIsOneWarning() {
        let fonts = FontFolder(path: folder.appendingPathComponent("nope").path)
        XCTAssertTrue(fonts.faces.isEmpty)
        XCTAssertEqual(fonts.fileWarnings.count, 1)
        XCTAssertNotNil(fonts.missingFont(fontStack: "DejaVu Sans"))
    }

    func testAStackResolvesFontByFont() throws {
        let fonts = FontFolder(path: folder.path)
        XCTAssertNil(fonts.missingFont(fontStack: "Open Sans Semibold,DejaVu Sans Bold"))
        let viaStack = try XCTUnwrap(fonts.glyph(codePoint: 72, fontStack: "Open Sans Semibold,DejaVu Sans Bold"))
        let bold = try XCTUnwrap(LocalGlyphRasterizer.tinySDFGlyph(face: try XCTUnwrap(fonts.face(named: "DejaVu Sans Bold")),
                                                                   codePoint: 72, textureScale: 2))
        let book = try XCTUnwrap(fonts.glyph(codePoint: 72, fontStack: "DejaVu Sans"))
        XCTAssertEqual(viaStack, bold, "the stack's first font in the folder draws it")
        XCTAssertNotEqual(viaStack, book)
        XCTAssertTrue(viaStack.metrics.isDoubleResolution, "GL JS 5's local glyphs: 48 px, scale 2")
        // No font of the stack: nothing is drawn, not even from another font of the folder.
        XCTAssertNil(fonts.glyph(codePoint: 72, fontStack: "Open Sans Semibold,Arial Unicode MS Bold"))
        let why = try XCTUnwrap(fonts.missingFont(fontStack: "Open Sans Semibold,Arial Unicode MS Bold"))
        XCTAssertTrue(why.contains("\"Open Sans Semibold\" or \"Arial Unicode MS Bold\""), why)
        XCTAssertTrue(why.contains("DejaVu Sans Book"), "names what the folder has: \(why)")
    }

    func testWithoutGlyphsURLTheFolderDrawsAndAMissingStackWarnsOnce() {
        let manager = GlyphManager(urlTemplate: nil, fetch: nil, local: FontFolder(path: folder.path))
        var deps = GlyphDependencies()
        deps.add(text: "Hi", fontStack: "DejaVu Sans Book")
        deps.add(text: "Hi", fontStack: "Noto Sans Regular")
        let map = manager.glyphs(for: deps)
        XCTAssertNotNil(map["DejaVu Sans Book", 72])
        XCTAssertNil(map["Noto Sans Regular", 72])
        XCTAssertEqual(manager.fontStackWarnings.map(\.fontStack), ["Noto Sans Regular"])
        XCTAssertEqual(manager.warningMessages.count, 1)
        XCTAssertTrue(manager.warningMessages[0].hasPrefix("font stack \"Noto Sans Regular\": no font in "), manager.warningMessages[0])
        XCTAssertTrue(manager.warnings.isEmpty, "no range warnings")
    }

    func testWithoutGlyphsURLOrFontsTextIsLeftOutWithAWarning() {
        let manager = GlyphManager(urlTemplate: nil, fetch: nil)
        XCTAssertNil(manager.glyph(72, fontStack: "DejaVu Sans"))
        XCTAssertNil(manager.glyph(73, fontStack: "DejaVu Sans"))
        XCTAssertEqual(manager.fontStackWarnings.count, 1)
        XCTAssertTrue(manager.fontStackWarnings[0].message.contains("no glyphs URL"), manager.fontStackWarnings[0].message)
    }

    func testPBFFirstThenTheFolder() throws {
        // Range 0-255 is a PBF of one glyph ("A", 10 px advance); range 256-511 is missing.
        let pbf = GlyphPBF.encode(fontStack: "DejaVu Sans", rangeStart: 0, glyphs: [
            Glyph(id: 65, bitmap: AlphaImage(width: 0, height: 0), metrics: GlyphMetrics(width: 0, height: 0, left: 0, top: -20, advance: 10))])
        let fetch: ResourceFetch = { url in url.hasSuffix("/0-255.pbf") ? pbf : nil }
        let manager = GlyphManager(urlTemplate: "x/{fontstack}/{range}.pbf", fetch: fetch, local: FontFolder(path: folder.path))
        let a = try XCTUnwrap(manager.glyph(65, fontStack: "DejaVu Sans"))
        XCTAssertEqual(a.metrics.advance, 10, "the PBF's glyph")
        XCTAssertFalse(a.metrics.isDoubleResolution)
        XCTAssertNil(manager.glyph(66, fontStack: "DejaVu Sans"), "a loaded range's missing glyph stays missing")
        let aMacron = try XCTUnwrap(manager.glyph(0x100, fontStack: "DejaVu Sans"), "the missing range comes from the folder")
        XCTAssertTrue(aMacron.metrics.isDoubleResolution)
        XCTAssertEqual(manager.warnings.count, 1)
        XCTAssertTrue(manager.warnings[0].message.contains("drawn from local fonts"), manager.warnings[0].message)
        // A missing range for a stack the folder lacks: the text is left out, and both say so.
        XCTAssertNil(manager.glyph(0x100, fontStack: "Noto Sans Regular"))
        XCTAssertTrue(manager.warnings[1].message.contains("left out"), manager.warnings[1].message)
        XCTAssertEqual(manager.fontStackWarnings.map(\.fontStack), ["Noto Sans Regular"])
    }
}
