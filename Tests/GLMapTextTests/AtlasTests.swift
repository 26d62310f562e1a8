import Foundation
import GLMapCore
import GLMapText
import XCTest

/// potpack against hand-run packings, and the glyph and image atlases' layout and padding.
final class AtlasTests: XCTestCase {
    func testPotpackMatchesAHandRunPacking() {
        // area 150 → start width max(ceil(sqrt(150 / 0.95)), 10) = 13. The 10×10 box splits the
        // unbounded space; the first 5×5 goes under it at (0, 10) and splits again; the second
        // 5×5 fills the 8×5 space beside it at (5, 10).
        let r = Potpack.pack([(5, 5), (10, 10), (5, 5)])
        XCTAssertEqual(r.positions, [AtlasRect(x: 0, y: 10, w: 5, h: 5), AtlasRect(x: 0, y: 0, w: 10, h: 10), AtlasRect(x: 5, y: 10, w: 5, h: 5)])
        XCTAssertEqual(r.width, 10)
        XCTAssertEqual(r.height, 15)
        XCTAssertEqual(Potpack.pack([]).width, 0)
        // Equal heights keep input order (JavaScript's stable sort).
        let same = Potpack.pack([(3, 4), (2, 4), (1, 4)])
        XCTAssertEqual(same.positions.map(\.x), [0, 3, 5])
    }

    func testPackedBinsNeverOverlap() {
        var rng = SplitMix(seed: 7)
        for _ in 0..<50 {
            let sizes = (0..<Int(rng.next() % 60 + 1)).map { _ in (Int(rng.next() % 30 + 1), Int(rng.next() % 30 + 1)) }
            let r = Potpack.pack(sizes)
            for (i, a) in r.positions.enumerated() {
                XCTAssertLessThanOrEqual(a.x + a.w, r.width)
                XCTAssertLessThanOrEqual(a.y + a.h, r.height)
                for b in r.positions[(i + 1)...] {
                    XCTAssertFalse(a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h, "\(a) overlaps \(b)")
                }
            }
        }
    }

    func testJavaScriptKeyOrder() {
        XCTAssertEqual(JSKeyOrder.ordered(["b", "10", "a", "2", "01", "b", "4294967295", "4294967294"]),
                       ["2", "10", "4294967294", "b", "a", "01", "4294967295"])
    }

    func testGlyphAtlasHoldsEveryGlyphAtItsBin() throws {
        try TextFixtures.requireSuite()
        let manager = GlyphManager(urlTemplate: "local://glyphs/{fontstack}/{range}.pbf", fetch: TextFixtures.localFetch())
        var deps = GlyphDependencies()
        deps.add(text: "Hello, World! 123", fontStack: TextFixtures.openSans)
        deps.add(text: "中文字", fontStack: "NotoCJK")
        let map = manager.glyphs(for: deps)
        let atlas = GlyphAtlas(glyphs: map)
        XCTAssertEqual(map.fontStacks, [TextFixtures.openSans, "NotoCJK"])
        var bins: [AtlasRect] = []
        for stack in map.fontStacks {
            for (cp, glyph) in map.glyphs[stack]! {
                let p = try XCTUnwrap(atlas.position(fontStack: stack, codePoint: cp))
                XCTAssertEqual(p.rect.w, glyph.bitmap.width + 2)
                XCTAssertEqual(p.metrics, glyph.metrics)
                for y in 0..<glyph.bitmap.height {
                    for x in 0..<glyph.bitmap.width {
                        XCTAssertEqual(atlas.image[p.rect.x + 1 + x, p.rect.y + 1 + y], glyph.bitmap[x, y])
                    }
                }
                bins.append(p.rect)
            }
        }
        XCTAssertEqual(bins.count, 16, "13 distinct Latin characters (the space too: its 6×6 border counts) and 3 CJK")
        XCTAssertEqual(AlphaImage(width: 0, height: 0).pixels.count, 0)
        XCTAssertEqual(GlyphAtlas(glyphs: GlyphMap()).image.width, 1, "an empty atlas is 1×1")
    }

    func testImageAtlasPadsIconsClearAndPatternsWrapped() {
        func image(_ w: Int, _ h: Int, _ seed: UInt8) -> StyleImage {
            StyleImage(data: StraightImage(width: w, height: h, pixels: (0..<(w * h * 4)).map { UInt8(truncatingIfNeeded: Int(seed) + $0) }))
        }
        let icon = image(3, 2, 10), pattern = image(2, 3, 100)
        let atlas = ImageAtlas(icons: [("icon", icon)], patterns: [("pat", pattern)])
        let ip = atlas.iconPositions["icon"]!, pp = atlas.patternPositions["pat"]!
        XCTAssertEqual(ip.displaySize.width, 3)
        func px(_ x: Int, _ y: Int) -> [UInt8] { let p = atlas.image[x, y]; return [p.r, p.g, p.b, p.a] }
        func src(_ img: StyleImage, _ x: Int, _ y: Int) -> [UInt8] { let p = img.data[x, y]; return [p.r, p.g, p.b, p.a] }
        XCTAssertEqual(px(ip.tl.x, ip.tl.y), src(icon, 0, 0))
        XCTAssertEqual(px(ip.paddedRect.x, ip.paddedRect.y + 1), [0, 0, 0, 0], "icon padding is transparent")
        // Pattern: the row above is the image's last row, the column left of it its last column.
        XCTAssertEqual(px(pp.tl.x, pp.tl.y - 1), src(pattern, 0, 2))
        XCTAssertEqual(px(pp.tl.x - 1, pp.tl.y), src(pattern, 1, 0))
        XCTAssertEqual(px(pp.tl.x + 2, pp.tl.y + 1), src(pattern, 0, 1))
        XCTAssertEqual(px(pp.tl.x, pp.tl.y + 3), src(pattern, 0, 0))
    }

    func testEmptyImagesPackWithoutTrapping() {
        let empty = StyleImage(data: StraightImage(width: 3, height: 0))
        let atlas = ImageAtlas(icons: [("e", empty)], patterns: [("p", empty), ("q", StyleImage(data: StraightImage(width: 0, height: 2)))])
        XCTAssertEqual(atlas.patternPositions["p"]?.paddedRect.h, 2)
        XCTAssertEqual(atlas.iconPositions["e"]?.displaySize.height, 0)
    }

    func testPremultipliedUploadRounding() {
        let img = StyleImage(data: StraightImage(width: 1, height: 1, pixels: [255, 128, 1, 128]))
        let p = ImageAtlas(icons: [("a", img)]).premultipliedImage
        XCTAssertEqual(p[1, 1].r, 128)   // (255·128 + 127) / 255
        XCTAssertEqual(p[1, 1].g, 64)    // (128·128 + 127) / 255 = 64.7 → 64
        XCTAssertEqual(p[1, 1].b, 1)    // (1·128 + 127) / 255 = 1
    }
}

/// A small seeded generator for the packing property test.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}
