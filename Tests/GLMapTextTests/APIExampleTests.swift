import Foundation
import GLMapText
import XCTest

/// The example of the module's API from font stack + string + layout values to positioned quads
/// (the one the hand-over report shows), kept compiling and checked here.
final class APIExampleTests: XCTestCase {
    func testFromFontStackAndStringToQuads() throws {
        try TextFixtures.requireSuite()
        let fetch = TextFixtures.localFetch()                       // glmap's ResourceLoader in production

        // Style-level assets, loaded once.
        let glyphManager = GlyphManager(urlTemplate: "local://glyphs/{fontstack}/{range}.pbf", fetch: fetch)
        var images = StyleImageStore()
        _ = images.add(SpriteLoader.load(SpriteLoader.references(.string("local://sprites/icon-text-fit")), pixelRatio: 1, fetch: fetch))

        // One feature's evaluated layout values (the evaluator fills these per tile zoom).
        var values = SymbolLayoutValues()
        values.textFont = ["Open Sans Semibold", "Arial Unicode MS Bold"]
        values.textSize = 16
        values.textSizeNextZoom = 16
        values.textMaxWidth = 5
        values.textAnchor = .top
        values.iconTextFit = .both
        let text = FormattedText("Hello world, again").transformed(.none, bidi: Bidi())

        // Per tile: dependencies → glyphs and images → atlases.
        var glyphDeps = GlyphDependencies()
        var imageIDs: [String] = ["label"]
        SymbolTextLayout.dependencies(of: text, values: values, glyphs: &glyphDeps, images: &imageIDs)
        let glyphs = glyphManager.glyphs(for: glyphDeps)
        let glyphAtlas = GlyphAtlas(glyphs: glyphs)
        let imageAtlas = ImageAtlas(icons: images.images(for: imageIDs))

        // Shaping, then quads (layout units: 24 per em, relative to the anchor).
        let shaped = SymbolTextLayout.shape(text, values: values, glyphs: glyphs, glyphAtlas: glyphAtlas,
                                            imagePositions: imageAtlas.iconPositions, bidi: Bidi())
        let shaping = try XCTUnwrap(shaped.defaultHorizontal)
        let glyphQuads = SymbolQuads.glyphQuads(shaping, textOffset: shaped.textOffset, textRotate: values.textRotate,
                                                alongLine: values.textAlongLine, allowVerticalPlacement: false, images: [:])
        let icon = SymbolTextLayout.shapeIcon(try XCTUnwrap(imageAtlas.iconPositions["label"]), values: values, text: shaped).icon
        let iconQuads = SymbolQuads.iconQuads(icon, iconRotate: values.iconRotate, isSDF: false, hasIconTextFit: true)

        XCTAssertEqual(shaping.lines.count, 2)
        XCTAssertEqual(glyphQuads.count, 17, "\"Hello world,\" and \"again\": 16 characters and the space inside the first line (a blank 6×6 bin, drawn as GL JS draws it)")
        XCTAssertEqual(shaping.top, 0, "anchor top: the text hangs below the anchor")
        XCTAssertFalse(iconQuads.isEmpty)
        XCTAssertTrue(glyphManager.warnings.isEmpty)
    }
}
