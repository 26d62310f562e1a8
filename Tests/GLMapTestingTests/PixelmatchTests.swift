import GLMapCore
@testable import GLMapTesting
import XCTest

final class PixelmatchTests: XCTestCase {
    /// A `width`×`height` image filled with one colour.
    func filled(_ width: Int, _ height: Int, _ c: (UInt8, UInt8, UInt8, UInt8)) -> StraightImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = c.0; pixels[i + 1] = c.1; pixels[i + 2] = c.2; pixels[i + 3] = c.3
        }
        return StraightImage(width: width, height: height, pixels: pixels)
    }

    /// A `width`×`height` grey image whose level at (x, y) is `level(x, y)`, opaque.
    func grey(_ width: Int, _ height: Int, _ level: (Int, Int) -> UInt8) -> StraightImage {
        var image = StraightImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { let v = level(x, y); set(&image, x, y, (v, v, v, 255)) }
        }
        return image
    }

    func set(_ image: inout StraightImage, _ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8, UInt8)) {
        let i = (y * image.width + x) * 4
        image.pixels[i] = c.0; image.pixels[i + 1] = c.1; image.pixels[i + 2] = c.2; image.pixels[i + 3] = c.3
    }

    func delta(_ p: [UInt8], _ q: [UInt8], offset k: Int = 0, yOnly: Bool = false) -> Double {
        // Place both pixels at byte offset k so the background pattern of that offset applies.
        var a = [UInt8](repeating: 0, count: k + 4), b = a
        a.replaceSubrange(k..<(k + 4), with: p)
        b.replaceSubrange(k..<(k + 4), with: q)
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                Pixelmatch.colorDelta(pa.baseAddress!, pb.baseAddress!, k, k, yOnly: yOnly)
            }
        }
    }

    // MARK: colorDelta

    func testColorDeltaOfOpaquePixelsIsYIQDistanceSignedByBrightness() {
        // Red against black: y = 255·0.29889531, i = 255·0.59597799, q = 255·0.21147017.
        let d = delta([255, 0, 0, 255], [0, 0, 0, 255])
        XCTAssertEqual(d, -10410.2468520858, accuracy: 1e-9, "second pixel darker → negative")
        XCTAssertEqual(delta([0, 0, 0, 255], [255, 0, 0, 255]), 10410.2468520858, accuracy: 1e-9)
        XCTAssertEqual(delta([9, 8, 7, 6], [9, 8, 7, 6]), 0)
        XCTAssertEqual(delta([255, 0, 0, 255], [0, 0, 0, 255], yOnly: true), 255 * 0.29889531, accuracy: 1e-12)
    }

    func testTranslucentPixelsBlendOverTheByteOffsetPattern() {
        // Transparent vs opaque black: the difference is the background itself. At byte offset 12:
        // r: 12 % 2 = 0 → 48; g: ⌊12/φ⌋ = 7 odd → 207; b: ⌊12/φ²⌋ = 4 even → 48.
        XCTAssertEqual(delta([0, 0, 0, 0], [0, 0, 0, 255], offset: 12, yOnly: true),
                       48 * 0.29889531 + 207 * 0.58662247 + 48 * 0.11448223, accuracy: 1e-9)
        // At offset 4: r 48, g ⌊4/φ⌋ = 2 → 48, b ⌊4/φ²⌋ = 1 → 207.
        XCTAssertEqual(delta([0, 0, 0, 0], [0, 0, 0, 255], offset: 4, yOnly: true),
                       48 * 0.29889531 + 48 * 0.58662247 + 207 * 0.11448223, accuracy: 1e-9)
        // Two fully transparent pixels never differ, whatever their colour bytes.
        XCTAssertEqual(delta([255, 0, 0, 0], [0, 255, 9, 0], offset: 8), 0)
        // Same colour, different alpha: differs.
        XCTAssertNotEqual(delta([200, 10, 10, 255], [200, 10, 10, 128]), 0)
    }

    // MARK: compare

    func testIdenticalImagesTakeTheFastPathAndDrawGrey() throws {
        var image = filled(3, 2, (255, 255, 255, 255))
        set(&image, 1, 0, (0, 0, 0, 255))
        set(&image, 2, 1, (0, 0, 0, 0))
        var diff: StraightImage? = StraightImage(width: 3, height: 2)
        XCTAssertEqual(try Pixelmatch.compare(image, image, diff: &diff), 0)
        // grey = 255 + (luma − 255)·alpha·a/255, stored as a Uint8Array stores it (truncated).
        XCTAssertTrue(diff![0, 0] == (255, 255, 255, 255))
        XCTAssertTrue(diff![1, 0] == (229, 229, 229, 255), "\(diff![1, 0])") // 229.5
        XCTAssertTrue(diff![2, 1] == (255, 255, 255, 255)) // transparent → white
    }

    func testSmallChangeIsBelowThresholdLargeChangeCounts() throws {
        let base = filled(5, 5, (100, 100, 100, 255))
        var small = base
        set(&small, 2, 2, (104, 100, 100, 255))
        var large = base
        set(&large, 2, 2, (200, 100, 100, 255))
        XCTAssertEqual(try Pixelmatch.compare(base, small), 0)
        XCTAssertEqual(try Pixelmatch.compare(base, large), 1)
        // The threshold is strict: with 0 any difference counts.
        XCTAssertEqual(try Pixelmatch.compare(base, small, options: .init(threshold: 0)), 1)
        // 35215·t²: a 4-level red step (delta ≈ 2.65) passes at t = 0.008 (2.25 < 2.65), not at 0.009 (2.85).
        XCTAssertEqual(try Pixelmatch.compare(base, small, options: .init(threshold: 0.008)), 1)
        XCTAssertEqual(try Pixelmatch.compare(base, small, options: .init(threshold: 0.009)), 0)
    }

    func testTransparencyDifferencesCount() throws {
        let opaque = filled(4, 4, (0, 0, 0, 255))
        let clear = filled(4, 4, (0, 0, 0, 0))
        XCTAssertEqual(try Pixelmatch.compare(opaque, clear), 16)
        // Transparent pixels with different colour bytes match.
        XCTAssertEqual(try Pixelmatch.compare(clear, filled(4, 4, (255, 255, 255, 0))), 0)
    }

    /// 7×5: black | grey anti-aliased column | white. The second image replaces the grey edge
    /// pixel at (3, 2) with black.
    func antialiasedEdge() -> (StraightImage, StraightImage) {
        var a = filled(7, 5, (0, 0, 0, 255))
        for y in 0..<5 {
            set(&a, 3, y, (128, 128, 128, 255))
            for x in 4..<7 { set(&a, x, y, (255, 255, 255, 255)) }
        }
        var b = a
        set(&b, 3, 2, (0, 0, 0, 255))
        return (a, b)
    }

    func testAntialiasedEdgePixelIsIgnoredUnlessIncludeAA() throws {
        let (a, b) = antialiasedEdge()
        var diff: StraightImage? = StraightImage(width: 7, height: 5)
        XCTAssertEqual(try Pixelmatch.compare(a, b, diff: &diff), 0)
        XCTAssertTrue(diff![3, 2] == (255, 255, 0, 255), "anti-aliased pixel drawn in aaColor")
        XCTAssertEqual(try Pixelmatch.compare(a, b, options: .init(includeAA: true), diff: &diff), 1)
        XCTAssertTrue(diff![3, 2] == (255, 0, 0, 255), "counted pixel drawn in diffColor")
        // Symmetric: the detector looks at both images.
        XCTAssertEqual(try Pixelmatch.compare(b, a), 0)
    }

    func testEdgeWithoutUniformNeighbourhoodIsNotAntialiasing() throws {
        // A lone bright pixel in a flat field has no darker neighbour: a real difference.
        let flat = filled(5, 5, (100, 100, 100, 255))
        var spot = flat
        set(&spot, 2, 2, (255, 255, 255, 255))
        XCTAssertEqual(try Pixelmatch.compare(flat, spot), 1)
        // A smooth gradient has darker and brighter neighbours everywhere, but no two equal
        // pixels, so the extremes lack the 3 identical siblings the detector needs.
        let gradient = grey(5, 5) { x, y in UInt8(30 * x + 5 * y) }
        var changed = gradient
        set(&changed, 2, 2, (255, 0, 0, 255))
        XCTAssertEqual(try Pixelmatch.compare(gradient, changed), 1)
        // In a checkerboard, by contrast, each neighbour has 4 equal diagonal siblings: a pixel
        // between black and white is taken as anti-aliasing.
        let checker = grey(5, 5) { x, y in (x + y) % 2 == 0 ? 0 : 255 }
        var grey = checker
        set(&grey, 2, 2, (128, 128, 128, 255))
        XCTAssertEqual(try Pixelmatch.compare(checker, grey), 0)
        XCTAssertEqual(try Pixelmatch.compare(checker, grey, options: .init(includeAA: true)), 1)
    }

    func testDiffColorAltMarksDarkerPixelsOfTheSecondImage() throws {
        let base = filled(3, 3, (100, 100, 100, 255))
        var brighter = base
        set(&brighter, 1, 1, (250, 250, 250, 255))
        var darker = base
        set(&darker, 1, 1, (0, 0, 0, 255))
        let options = Pixelmatch.Options(diffColorAlt: (0, 255, 0))
        var diff: StraightImage? = StraightImage(width: 3, height: 3)
        XCTAssertEqual(try Pixelmatch.compare(base, brighter, options: options, diff: &diff), 1)
        XCTAssertTrue(diff![1, 1] == (255, 0, 0, 255))
        XCTAssertEqual(try Pixelmatch.compare(base, darker, options: options, diff: &diff), 1)
        XCTAssertTrue(diff![1, 1] == (0, 255, 0, 255))
        // Without diffColorAlt both use diffColor.
        XCTAssertEqual(try Pixelmatch.compare(base, darker, diff: &diff), 1)
        XCTAssertTrue(diff![1, 1] == (255, 0, 0, 255))
    }

    func testDiffMaskDrawsOnlyCountedDifferences() throws {
        var (a, b) = antialiasedEdge()
        set(&b, 0, 0, (255, 255, 255, 255)) // a real difference in the black corner
        a.pixels[0] = 0
        var diff: StraightImage? = filled(7, 5, (1, 2, 3, 4))
        let options = Pixelmatch.Options(diffColor: (9, 8, 7), diffMask: true)
        XCTAssertEqual(try Pixelmatch.compare(a, b, options: options, diff: &diff), 1)
        XCTAssertTrue(diff![0, 0] == (9, 8, 7, 255))
        XCTAssertTrue(diff![3, 2] == (1, 2, 3, 4), "anti-aliased pixels are not drawn in a mask")
        XCTAssertTrue(diff![5, 4] == (1, 2, 3, 4), "matching pixels are left as they were")
        // Identical images with a mask leave the output untouched.
        XCTAssertEqual(try Pixelmatch.compare(a, a, options: options, diff: &diff), 0)
        XCTAssertTrue(diff![6, 4] == (1, 2, 3, 4))
    }

    func testSizeMismatchIsAnError() {
        XCTAssertThrowsError(try Pixelmatch.compare(filled(2, 3, (0, 0, 0, 0)), filled(3, 2, (0, 0, 0, 0)))) { error in
            XCTAssertEqual((error as? GLMapError)?.kind, .invalidInput)
            XCTAssertTrue(String(describing: error).contains("2×3 vs 3×2"), String(describing: error))
        }
        var wrongDiff: StraightImage? = StraightImage(width: 1, height: 1)
        XCTAssertThrowsError(try Pixelmatch.compare(filled(2, 2, (0, 0, 0, 0)), filled(2, 2, (0, 0, 0, 0)), diff: &wrongDiff))
    }

    func testIncludeAANeverCountsFewer() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5 {
            var a = StraightImage(width: 16, height: 16), b = a
            for i in a.pixels.indices {
                a.pixels[i] = UInt8.random(in: 0...3, using: &rng) * 85
                b.pixels[i] = Bool.random(using: &rng) ? a.pixels[i] : UInt8.random(in: 0...3, using: &rng) * 85
            }
            let without = try Pixelmatch.compare(a, b)
            let with = try Pixelmatch.compare(a, b, options: .init(includeAA: true))
            XCTAssertLessThanOrEqual(without, with)
            XCTAssertLessThanOrEqual(with, 256)
        }
    }

    func testJavaScriptUint8Store() {
        XCTAssertEqual(Pixelmatch.toUint8(229.5), 229)
        XCTAssertEqual(Pixelmatch.toUint8(255.0000026), 255)
        XCTAssertEqual(Pixelmatch.toUint8(256.7), 0)
        XCTAssertEqual(Pixelmatch.toUint8(-1.2), 255)
        XCTAssertEqual(Pixelmatch.toUint8(.nan), 0)
    }
}
