import Foundation
import GLMapText
import XCTest

/// Glyph PBF decoding against the render suite's ranges (checked against the values
/// `glyphs/fontstack-glyphs.json` lists for the same font), the writer read back by the decoder,
/// and hostile bytes.
final class GlyphPBFTests: XCTestCase {
    func testDecodesTheSuitesLatinRange() throws {
        try TextFixtures.requireSuite()
        let url = TextFixtures.glyphs.appendingPathComponent("\(TextFixtures.openSans)/0-255.pbf")
        let glyphs = try GlyphPBF.decode(TextFixtures.bytes(url))
        XCTAssertEqual(glyphs.count, 191)
        let byID = Dictionary(glyphs.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // 'A' and ' ' as fontstack-glyphs.json states them for this font.
        let a = try XCTUnwrap(byID[65])
        XCTAssertEqual(a.metrics, GlyphMetrics(width: 16, height: 18, left: 0, top: -8, advance: 15))
        XCTAssertEqual(a.bitmap.width, 22)
        XCTAssertEqual(a.bitmap.height, 24)
        XCTAssertGreaterThan(a.bitmap.pixels.max() ?? 0, 191, "the SDF has inside values")
        let space = try XCTUnwrap(byID[32])
        XCTAssertEqual(space.metrics, GlyphMetrics(width: 0, height: 0, left: 0, top: -26, advance: 6))
        XCTAssertEqual(space.bitmap.width, 6, "an absent bitmap is a zeroed border-only image, as GL JS makes it")
        XCTAssertTrue(space.bitmap.pixels.allSatisfy { $0 == 0 })
        for g in glyphs {
            XCTAssertEqual(g.bitmap.width, Int(g.metrics.width) + 6)
            XCTAssertEqual(g.bitmap.height, Int(g.metrics.height) + 6)
        }
    }

    func testAnEmptyRangeHasNoGlyphs() throws {
        try TextFixtures.requireSuite()
        let url = TextFixtures.glyphs.appendingPathComponent("\(TextFixtures.openSans)/5888-6143.pbf")
        XCTAssertEqual(try GlyphPBF.decode(TextFixtures.bytes(url)).count, 0)
    }

    func testWrittenRangesDecodeToTheSameGlyphs() throws {
        let bitmap = AlphaImage(width: 8, height: 9, pixels: (0..<72).map { UInt8($0 * 3) })!
        let glyphs = [
            Glyph(id: 65, bitmap: bitmap, metrics: GlyphMetrics(width: 2, height: 3, left: -1, top: -20, advance: 7)),
            Glyph(id: 32, bitmap: AlphaImage(width: 6, height: 6), metrics: GlyphMetrics(width: 0, height: 0, left: 0, top: -26, advance: 6)),
            Glyph(id: 0x10FFFF, bitmap: AlphaImage(width: 7, height: 6, pixels: [UInt8](repeating: 200, count: 42))!,
                  metrics: GlyphMetrics(width: 1, height: 0, left: 300, top: 12, advance: 1000)),
        ]
        let bytes = GlyphPBF.encode(fontStack: "Test Regular", rangeStart: 0, glyphs: glyphs)
        XCTAssertEqual(try GlyphPBF.decode(bytes), glyphs)
    }

    func testRealRangesSurviveARoundTrip() throws {
        try TextFixtures.requireSuite()
        let url = TextFixtures.glyphs.appendingPathComponent("NotoCJK/19968-20223.pbf")
        let glyphs = try GlyphPBF.decode(TextFixtures.bytes(url))
        XCTAssertGreaterThan(glyphs.count, 200)
        XCTAssertEqual(try GlyphPBF.decode(GlyphPBF.encode(fontStack: "NotoCJK", rangeStart: 19968, glyphs: glyphs)), glyphs)
    }

    func testBadBytesThrowWithAnOffset() {
        // A glyph whose bitmap is 3 bytes for a 2×2 ink box (8×8 expected).
        var glyph: [UInt8] = [0x08, 65, 0x12, 3, 1, 2, 3, 0x18, 2, 0x20, 2]
        var stack: [UInt8] = [0x1A, UInt8(glyph.count)] + glyph
        var file: [UInt8] = [0x0A, UInt8(stack.count)] + stack
        XCTAssertThrowsError(try GlyphPBF.decode(file)) { error in
            let e = error as? GlyphPBFError
            XCTAssertNotNil(e)
            XCTAssertTrue(e?.description.contains("mismatched image size") ?? false, "\(error)")
        }
        // Truncated: the outer length runs past the end.
        file = [0x0A, 50, 0x1A]
        XCTAssertThrowsError(try GlyphPBF.decode(file)) { XCTAssertTrue("\($0)".contains("length 50"), "\($0)") }
        // A huge declared size without a bitmap is refused rather than allocated.
        glyph = [0x08, 66, 0x18, 0xFF, 0xFF, 0x3F, 0x20, 0xFF, 0xFF, 0x3F]
        stack = [0x1A, UInt8(glyph.count)] + glyph
        file = [0x0A, UInt8(stack.count)] + stack
        XCTAssertThrowsError(try GlyphPBF.decode(file))
        // Wire type 7 does not exist.
        XCTAssertThrowsError(try GlyphPBF.decode([0x0F]))
    }

    func testRandomMutationsNeverTrap() throws {
        try TextFixtures.requireSuite()
        let url = TextFixtures.glyphs.appendingPathComponent("\(TextFixtures.openSans)/0-255.pbf")
        let base = Array(try TextFixtures.bytes(url).prefix(3000))
        var rng = SystemRandomNumberGenerator()
        var decoded = 0, rejected = 0
        for _ in 0..<3000 {
            var b = base
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let i = Int.random(in: 0..<b.count, using: &rng)
                b[i] = UInt8.random(in: 0...255, using: &rng)
            }
            if Bool.random(using: &rng) { b = Array(b.prefix(Int.random(in: 0...b.count, using: &rng))) }
            do { _ = try GlyphPBF.decode(b); decoded += 1 } catch { rejected += 1 }
        }
        XCTAssertEqual(decoded + rejected, 3000)
        XCTAssertGreaterThan(rejected, 0, "some mutations must be refused")
    }
}
