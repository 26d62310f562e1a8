import Foundation
import XCTest
import GLMapCore
import GLMapPNG
@testable import GLMapTesting
import GLMapTestSupport

/// GLMapTesting's pieces on their own: the known-failures reader, case discovery and metadata,
/// the best-of-several comparison, the verdict with a known list, and the report writers' escaping.
final class GLMapTestingTests: FolderTestCase {
    override var folderPrefix: String { "glmap-testing" }

    func testKnownFailuresFormat() throws {
        let k = try KnownFailures(parsing: "# header\r\n\nfloor\t7\r\na/b\twhy it fails\nc/d#1\tanother\treason with a tab\n", file: "k.txt")
        XCTAssertEqual(k.floor, 7)
        XCTAssertEqual(k.reasons, ["a/b": "why it fails", "c/d#1": "another\treason with a tab"])
        XCTAssertEqual(try KnownFailures(parsing: "").floor, 0)
        for (text, line) in [("a/b\n", 1), ("# x\nfloor\t-1\n", 2), ("a\tx\nfloor\t1\nfloor\t2\n", 3), ("a\tx\na\ty\n", 2), ("a/b\t \n", 1)] {
            XCTAssertThrowsError(try KnownFailures(parsing: text, file: "k.txt"), text.debugDescription) { e in
                XCTAssertTrue("\(e)".hasPrefix("k.txt:\(line):"), "\(e)")
            }
        }
    }

    func write(_ rel: String, _ text: String) throws {
        let url = tmp.appendingPathComponent(rel)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func testDiscoveryNamesAndMetadata() throws {
        try write("suite/cases/g/one/style.json", #"{"version":8,"metadata":{"test":{"width":32,"height":16,"pixelRatio":2,"allowed":0.001,"threshold":0.05}}}"#)
        try write("suite/cases/g/deep/two/style.json", #"{"version":8}"#)
        try write("suite/cases/g/bad/style.json", #"{"version":8,"metadata":{"test":{"height":-4}}}"#)
        try write("suite/data/x.geojson", "{}")
        let all = try RenderTestCase.discover(in: [tmp.appendingPathComponent("suite").path])
        XCTAssertEqual(all.map(\.name), ["g/bad", "g/deep/two", "g/one"], "named below cases/")
        let one = all[2]
        XCTAssertEqual([one.width, one.height], [32, 16])
        XCTAssertEqual([one.pixelRatio, one.allowed, one.threshold], [2, 0.001, 0.05])
        XCTAssertNil(one.setupError)
        XCTAssertEqual(one.group, "g")
        let two = all[1]
        XCTAssertEqual([two.width, two.height], [512, 512], "MapLibre's defaults")
        XCTAssertEqual([two.pixelRatio, two.allowed, two.threshold], [1, 0.00025, 0.1285])
        XCTAssertEqual(all[0].setupError?.contains("metadata.test.height: expected a positive number"), true, all[0].setupError ?? "")
        XCTAssertEqual(try RenderTestCase.discover(in: [tmp.appendingPathComponent("suite").path], filter: "^g/(one|bad)$").map(\.name), ["g/bad", "g/one"])
        XCTAssertEqual(try RenderTestCase.discover(in: [tmp.appendingPathComponent("suite/cases/g").path]).map(\.name), ["bad", "deep/two", "one"])
        // The same folder given twice is one case.
        XCTAssertEqual(try RenderTestCase.discover(in: [tmp.appendingPathComponent("suite").path, tmp.appendingPathComponent("suite/cases/g/one").path]).count, 3)
        XCTAssertThrowsError(try RenderTestCase.discover(in: [tmp.appendingPathComponent("nope").path]))
        XCTAssertThrowsError(try RenderTestCase.discover(in: [tmp.path], filter: "["))
    }

    func testSmallestDifferenceWins() throws {
        func image(_ v: UInt8, dark: Int) -> StraightImage {
            var img = StraightImage(width: 8, height: 8, pixels: Array(repeating: 255, count: 256))
            for i in 0..<dark { img.pixels[i * 4] = v; img.pixels[i * 4 + 1] = v; img.pixels[i * 4 + 2] = v }
            return img
        }
        let actual = image(0, dark: 0)
        let far = tmp.appendingPathComponent("expected.png").path, near = tmp.appendingPathComponent("expected-b.png").path
        try PNGEncoder.write(image(0, dark: 20), to: far)
        try PNGEncoder.write(image(0, dark: 2), to: near)
        let best = try XCTUnwrap(BestMatch.find(actual: actual, expectedFiles: [far, near], threshold: 0.1285))
        XCTAssertEqual(best.expectedFile, near)
        XCTAssertEqual(best.comparison.mismatched, 2)
        XCTAssertEqual(best.comparison.difference, 2.0 / 64)
        XCTAssertNil(try BestMatch.find(actual: actual, expectedFiles: [], threshold: 0.1285))
        XCTAssertThrowsError(try ImageComparison.compare(actual, StraightImage(width: 4, height: 8))) { e in
            XCTAssertTrue("\(e)".contains("8×8") && "\(e)".contains("4×8"), "\(e)")
        }
    }

    func result(_ name: String, _ status: RenderTestResult.Status) -> RenderTestResult {
        RenderTestResult(testCase: RenderTestCase(name: name, directory: tmp.appendingPathComponent(name).path),
                         status: status, message: "m", seconds: 0)
    }

    func testSummaryAppliesTheKnownList() throws {
        let results = [result("a", .passed), result("b", .failed), result("c", .error), result("d", .updated), result("e", .passed)]
        let plain = RenderTestSummary(results: results)
        XCTAssertEqual(plain.closingLine, "3 passed, 2 failed")
        XCTAssertFalse(plain.succeeded)
        let known = KnownFailures(reasons: ["b": "r", "c": "r", "e": "r"], floor: 3)
        let s = RenderTestSummary(results: results, known: known)
        XCTAssertEqual(s.closingLine, "3 passed, 2 failed (2 known, 0 unexpected)")
        XCTAssertTrue(s.succeeded)
        XCTAssertEqual(s.nowPassing.map(\.testCase.name), ["e"])
        XCTAssertEqual(s.failuresFirst.map(\.testCase.name), ["b", "c", "a", "d", "e"])
        let high = RenderTestSummary(results: results, known: KnownFailures(reasons: known.reasons, floor: 4))
        XCTAssertNotNil(high.floorProblem)
        XCTAssertFalse(high.succeeded)
        XCTAssertTrue(RenderTestSummary(results: results, known: high.known, checksFloor: false).succeeded)
    }

    func testReportsEscapeWhatTheyQuote() {
        XCTAssertEqual(JUnitReport.escape("a<b>&\"c\"'\u{1}\n"), "a&lt;b&gt;&amp;&quot;c&quot;&apos;\u{FFFD}&#10;")
        XCTAssertEqual(HTMLReport.escape("<img src=\"x\">&'"), "&lt;img src=&quot;x&quot;&gt;&amp;&#39;")
        XCTAssertEqual(RenderTestRunner.folderName(index: 3, name: "regressions/mapbox-gl-js#3320 é"), "0003-regressions_mapbox-gl-js_3320__")
        XCTAssertEqual(HTMLReport.displaySize(64, 64).0, 256)
        XCTAssertEqual(HTMLReport.displaySize(100, 50).0, 200)
        XCTAssertEqual(HTMLReport.displaySize(300, 200).0, 300)
        XCTAssertEqual(HTMLReport.displaySize(1024, 512).0, 384)
        XCTAssertEqual(ProgressBar.line(done: 12, total: 24, current: "x/y", failed: 1), "[############............] 12/24 1 failed  x/y")
        XCTAssertEqual(ProgressBar.line(done: 1, total: 2, current: String(repeating: "n", count: 200), failed: 0, columns: 40).count, 39)
    }
}
