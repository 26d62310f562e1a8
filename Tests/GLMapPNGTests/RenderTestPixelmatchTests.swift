import Foundation
import GLMapCore
import GLMapPNG
import XCTest
import GLMapTestSupport
import GLMapTesting

/// Outside check of `Pixelmatch` on the render-test images (lives here rather than in
/// GLMapCoreTests because it needs the PNG decoder).
///
/// The expected numbers were cross-checked against the pixelmatch 7.1.0 JavaScript source run
/// under Node 20 on the same pairs (its own PNG reader): every count and every diff image agreed.
/// Set `GLMAP_PIXELMATCH_DUMP=/some/file.tsv` to write one line per pair
/// (`a, b, threshold, includeAA, count, diff checksum`) for such a comparison.
final class RenderTestPixelmatchTests: XCTestCase {
    struct Pair { var a: URL; var b: URL; var threshold: Double; var includeAA: Bool }

    var dump = ""

    func run(_ pair: Pair, images: inout [URL: StraightImage]) throws -> (count: Int, checksum: UInt64) {
        func load(_ url: URL) throws -> StraightImage {
            if let image = images[url] { return image }
            let image = try PNGDecoder.decode(contentsOf: url.path)
            images[url] = image
            return image
        }
        let a = try load(pair.a), b = try load(pair.b)
        var diff: StraightImage? = StraightImage(width: a.width, height: a.height)
        let count = try Pixelmatch.compare(a, b, options: .init(threshold: pair.threshold, includeAA: pair.includeAA), diff: &diff)
        // Position-weighted byte sum of the diff image, as computed on the JavaScript side.
        let checksum: UInt64 = diff!.pixels.withUnsafeBufferPointer { p in
            var sum: UInt64 = 0
            for i in 0..<p.count { sum = (sum + UInt64(p[i]) * UInt64(i % 65521 + 1)) % 4_294_967_291 }
            return sum
        }
        dump += "\(pair.a.path)\t\(pair.b.path)\t\(pair.threshold)\t\(pair.includeAA ? 1 : 0)\t\(count)\t\(checksum)\n"
        return (count, checksum)
    }

    func testExpectedImagesAgainstThemselvesAlternatesAndEachOther() throws {
        let cases = SharedData.renderCases
        try SharedData.require("render tests", at: SharedData.renderTests.appendingPathComponent("cases"))
        guard !cases.isEmpty else { return XCTFail("no render test cases under \(SharedData.renderTests.path)") }
        var images: [URL: StraightImage] = [:]

        // 1. Every expected.png against itself: 0.
        for c in cases {
            guard let expected = c.expectedPNGs.first else { continue }
            let r = try run(Pair(a: expected, b: expected, threshold: c.threshold, includeAA: false), images: &images)
            XCTAssertEqual(r.count, 0, c.name)
        }

        // 2. The platform alternates against expected.png: small, positive.
        var alternates: [String: [Int]] = [:]
        for c in cases where c.expectedPNGs.count > 1 {
            for alt in c.expectedPNGs.dropFirst() {
                alternates[c.name + "/" + alt.lastPathComponent] = try [false, true].map {
                    try run(Pair(a: c.expectedPNGs[0], b: alt, threshold: c.threshold, includeAA: $0), images: &images).count
                }
            }
        }
        print("pixelmatch expected.png vs alternates [count, count with includeAA]: \(alternates.sorted { $0.key < $1.key })")
        XCTAssertEqual(alternates, [
            "combinations/circle-translucent--fill-translucent/expected-ubuntu-22.png": [1, 18],
            "within/within-feature-collection-geojson/expected-ubuntu-22.png": [3, 15],
        ])

        // 3. Neighbouring cases of the same size (sorted by name) against each other, at the default
        //    threshold, with and without includeAA: many real and anti-aliased differences.
        var groups: [String: [URL]] = [:]
        for c in cases { if let e = c.expectedPNGs.first { groups["\(c.deviceSize.width)x\(c.deviceSize.height)", default: []].append(e) } }
        var totals: [Bool: (pairs: Int, count: Int, checksum: UInt64)] = [false: (0, 0, 0), true: (0, 0, 0)]
        for key in groups.keys.sorted() {
            let files = groups[key]!.sorted { $0.path < $1.path }
            for (a, b) in zip(files, files.dropFirst()) {
                for includeAA in [false, true] {
                    let r = try run(Pair(a: a, b: b, threshold: 0.1285, includeAA: includeAA), images: &images)
                    totals[includeAA]!.pairs += 1
                    totals[includeAA]!.count += r.count
                    totals[includeAA]!.checksum += r.checksum
                }
            }
        }
        print("pixelmatch cross-case pairs: without AA \(totals[false]!), with AA \(totals[true]!)")
        XCTAssertEqual(totals[false]!.pairs, 173)
        XCTAssertEqual(totals[false]!.count, 1_136_140)
        XCTAssertEqual(totals[false]!.checksum, 416_145_868_725)
        XCTAssertEqual(totals[true]!.count, 1_206_225)
        XCTAssertEqual(totals[true]!.checksum, 402_143_974_859)

        if let path = ProcessInfo.processInfo.environment["GLMAP_PIXELMATCH_DUMP"] {
            try dump.write(toFile: path, atomically: true, encoding: .utf8)
            print("wrote \(path)")
        }
    }
}
