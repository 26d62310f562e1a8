import Foundation
import XCTest
@testable import GLMapCLI
import GLMapCore
import GLMapPNG
import GLMapTesting
import GLMapTestSupport

/// `glmap compare` and `glmap test`: exit codes, update mode, known failures, several expected
/// images, `local://` data, parallel runs, JUnit XML read by junitparser, and the HTML report
/// looked at in headless Chromium.
final class GoldenTestingCLITests: FolderTestCase {
    override var folderPrefix: String { "glmap-golden" }
    let repo = SharedData.packageRoot

    /// Runs the command in-process with captured streams.
    func run(_ args: [String]) -> (code: Int32, stdout: String, stderr: String) {
        let r = CommandLineRun(args)
        return (r.code, r.stdoutText, r.stderr)
    }

    static func solid(_ w: Int, _ h: Int, _ c: [UInt8]) -> StraightImage {
        StraightImage(width: w, height: h, pixels: Array([[UInt8]](repeating: c, count: w * h).joined()))
    }

    func png(_ image: StraightImage, _ name: String) throws -> String {
        let p = tmp.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try PNGEncoder.write(image, to: p)
        return p
    }

    /// A background-only style of `w`×`h` drawing `rgb`.
    static func backgroundStyle(_ rgb: String, _ w: Int = 64, _ h: Int = 64, allowed: Double? = nil) -> String {
        let a = allowed.map { ",\"allowed\":\($0)" } ?? ""
        return """
        {"version":8,"metadata":{"test":{"width":\(w),"height":\(h)\(a)}},"sources":{},
         "layers":[{"id":"bg","type":"background","paint":{"background-color":"\(rgb)"}}]}
        """
    }

    /// Writes a case folder `root/name` with `style` and optional expected images.
    @discardableResult
    func makeCase(_ root: String, _ name: String, style: String, expected: [String: StraightImage] = [:]) throws -> String {
        let dir = tmp.appendingPathComponent(root).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(style.utf8).write(to: dir.appendingPathComponent("style.json"))
        for (file, image) in expected { try PNGEncoder.write(image, to: dir.appendingPathComponent(file).path) }
        return dir.path
    }

    let magenta: [UInt8] = [200, 0, 200, 255], teal: [UInt8] = [0, 200, 200, 255]

    // MARK: - glmap compare

    /// Left half black, right half white, a grey column between: pixelmatch calls the grey
    /// column anti-aliasing; `other` has white there instead.
    func edgePair() -> (StraightImage, StraightImage) {
        var a = Self.solid(16, 16, [0, 0, 0, 255]), b = a
        for y in 0..<16 {
            for x in 8..<16 {
                let i = (y * 16 + x) * 4
                let v: UInt8 = x == 8 ? 128 : 255
                for k in 0..<3 { a.pixels[i + k] = v; b.pixels[i + k] = 255 }
            }
        }
        return (a, b)
    }

    func testCompareExitCodesAndCounts() throws {
        let (a, b) = edgePair()
        let expected = try png(a, "expected.png"), actual = try png(b, "actual.png")
        let same = run(["compare", expected, expected])
        XCTAssertEqual(same.code, 0, same.stderr)
        XCTAssertTrue(same.stdout.hasPrefix("0 of 256 pixels differ"), same.stdout)

        // The grey column is anti-aliasing: not counted by default, counted with --include-aa.
        let aa = run(["compare", expected, actual])
        XCTAssertEqual(aa.code, 0, aa.stdout)
        let counted = run(["compare", expected, actual, "--include-aa"])
        XCTAssertEqual(counted.code, 1)
        XCTAssertTrue(counted.stdout.hasPrefix("16 of 256 pixels differ (0.062500)"), counted.stdout)
        XCTAssertEqual(run(["compare", expected, actual, "--include-aa", "--allowed", "0.0625"]).code, 0, "16/256 is within 0.0625")
        XCTAssertEqual(run(["compare", expected, actual, "--include-aa", "--allowed", "0.06"]).code, 1)
        // A brighter image everywhere is beyond any threshold below 1.
        let white = try png(Self.solid(16, 16, [255, 255, 255, 255]), "white.png")
        let all = run(["compare", expected, white, "--json"])
        XCTAssertEqual(all.code, 1)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["mismatched"] as? Int, 128)
        XCTAssertEqual(json["pixels"] as? Int, 256)
        XCTAssertEqual(json["difference"] as? Double, 0.5)
        XCTAssertEqual(json["pass"] as? Bool, false)
        XCTAssertEqual(json["threshold"] as? Double, 0.1285)
        XCTAssertEqual(run(["compare", expected, white, "--threshold", "1"]).code, 0, "threshold 1 accepts any colour")
    }

    func testCompareDiffIsPixelmatchsImage() throws {
        let (a, b) = edgePair()
        let expected = try png(a, "expected.png"), actual = try png(b, "actual.png")
        let diffPath = tmp.appendingPathComponent("diff.png").path
        XCTAssertEqual(run(["compare", expected, actual, "--diff", diffPath]).code, 0)
        let diff = try PNGDecoder.decode(contentsOf: diffPath)
        var reference: StraightImage? = StraightImage(width: 16, height: 16)
        _ = try Pixelmatch.compare(b, a, options: Pixelmatch.Options(threshold: 0.1285), diff: &reference)
        XCTAssertEqual(diff, reference, "the diff written is the image pixelmatch(actual, expected) draws")
        let p = diff[8, 3]
        XCTAssertEqual([p.r, p.g, p.b, p.a], [255, 255, 0, 255], "anti-aliased pixels are yellow")
        let q = diff[2, 3]
        XCTAssertEqual(q.r, q.g)
        XCTAssertGreaterThan(q.r, 200, "unchanged pixels are a faint grey copy of the actual image")
        let red = try PNGDecoder.decode(contentsOf: { () -> String in
            let p = tmp.appendingPathComponent("diff2.png").path
            _ = run(["compare", expected, actual, "--include-aa", "--diff", p]); return p }())
        XCTAssertEqual([red[8, 3].r, red[8, 3].g, red[8, 3].b], [255, 0, 0], "counted differences are red")
    }

    func testCompareInputErrorsExit2() throws {
        let small = try png(Self.solid(8, 4, teal), "small.png"), big = try png(Self.solid(16, 12, teal), "big.png")
        let sizes = run(["compare", small, big])
        XCTAssertEqual(sizes.code, 2)
        XCTAssertTrue(sizes.stderr.contains("8×4") && sizes.stderr.contains("16×12"), sizes.stderr)
        let missing = run(["compare", small, tmp.appendingPathComponent("nope.png").path])
        XCTAssertEqual(missing.code, 2)
        XCTAssertTrue(missing.stderr.contains("nope.png"), missing.stderr)
        let text = tmp.appendingPathComponent("text.png").path
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: text))
        let notPNG = run(["compare", text, small])
        XCTAssertEqual(notPNG.code, 2)
        XCTAssertTrue(notPNG.stderr.contains("text.png"), notPNG.stderr)
        XCTAssertEqual(run(["compare", small]).code, 2)
        XCTAssertEqual(run(["compare", small, small, "--threshold", "2"]).code, 2)
        XCTAssertEqual(run(["compare", small, small, "--allowed", "x"]).code, 2)
        // An unwritable diff is an output failure (1), not a verdict.
        XCTAssertEqual(run(["compare", small, small, "--diff", tmp.appendingPathComponent("no/such/dir/d.png").path]).code, 1)
    }

    // MARK: - glmap test

    func testUpdateModeWritesMissingAndRewritesAll() throws {
        let fresh = try makeCase("suite", "bg/fresh", style: Self.backgroundStyle("rgb(200,0,200)"))
        let stale = try makeCase("suite", "bg/stale", style: Self.backgroundStyle("rgb(200,0,200)"), expected: ["expected.png": Self.solid(64, 64, teal)])
        let suite = tmp.appendingPathComponent("suite").path

        let before = run(["test", suite, "--jobs", "1"])
        XCTAssertEqual(before.code, 1)
        XCTAssertTrue(before.stdout.contains("FAIL bg/fresh: no expected*.png"), before.stdout)
        XCTAssertTrue(before.stdout.hasSuffix("0 passed, 2 failed\n"), before.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh + "/expected.png"), "nothing is written without --update")

        // --update writes the missing one only; the stale one still fails.
        let update = run(["test", suite, "--update"])
        XCTAssertEqual(update.code, 1)
        XCTAssertTrue(update.stdout.contains("updated bg/fresh: wrote expected.png"), update.stdout)
        XCTAssertTrue(update.stdout.contains("FAIL bg/stale"), update.stdout)
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: fresh + "/expected.png"), Self.solid(64, 64, magenta))
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: stale + "/expected.png"), Self.solid(64, 64, teal), "--update leaves existing images")

        // --update=all rewrites the stale one; afterwards everything passes without update.
        let all = run(["test", suite, "--update=all"])
        XCTAssertEqual(all.code, 0, all.stdout)
        XCTAssertTrue(all.stdout.contains("updated bg/stale: rewrote expected.png"), all.stdout)
        XCTAssertFalse(all.stdout.contains("updated bg/fresh"), "an identical expected.png is left as is")
        XCTAssertEqual(try PNGDecoder.decode(contentsOf: stale + "/expected.png"), Self.solid(64, 64, magenta))
        let after = run(["test", suite])
        XCTAssertEqual(after.code, 0, after.stdout)
        XCTAssertTrue(after.stdout.hasSuffix("2 passed, 0 failed\n"), after.stdout)
        XCTAssertEqual(run(["test", suite, "--update=some"]).code, 2)
    }

    func testKnownFailuresFile() throws {
        try makeCase("suite", "bg/good", style: Self.backgroundStyle("rgb(200,0,200)"), expected: ["expected.png": Self.solid(64, 64, magenta)])
        try makeCase("suite", "bg/bad", style: Self.backgroundStyle("rgb(200,0,200)"), expected: ["expected.png": Self.solid(64, 64, teal)])
        let suite = tmp.appendingPathComponent("suite").path
        func known(_ text: String) throws -> String {
            let p = tmp.appendingPathComponent("known-\(UUID().uuidString).txt").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: p))
            return p
        }
        let unlisted = run(["test", suite])
        XCTAssertEqual(unlisted.code, 1)
        XCTAssertTrue(unlisted.stdout.contains("FAIL bg/bad: difference 1.00000 (4096 of 4096 pixels) > allowed 0.00025"), unlisted.stdout)

        let listed = run(["test", suite, "--known", try known("# comment\nfloor\t1\nbg/bad\tteal is not magenta\n")])
        XCTAssertEqual(listed.code, 0, listed.stdout)
        XCTAssertTrue(listed.stdout.contains("known failure bg/bad: "), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("(teal is not magenta)"), listed.stdout)
        XCTAssertTrue(listed.stdout.hasSuffix("1 passed, 1 failed (1 known, 0 unexpected)\n"), listed.stdout)

        let floor = run(["test", suite, "--known", try known("floor\t2\nbg/bad\tteal is not magenta\n")])
        XCTAssertEqual(floor.code, 1, "fewer passes than the floor fail the run")
        XCTAssertTrue(floor.stdout.contains("FAIL floor: 1 cases passed, fewer than the floor of 2"), floor.stdout)
        XCTAssertEqual(run(["test", suite, "--filter", "bad", "--known", try known("floor\t2\nbg/bad\tr\n")]).code, 0,
                       "the floor counts the whole suite, so a filtered run does not check it")

        let nowPassing = run(["test", suite, "--known", try known("bg/bad\tr\nbg/good\tonce failed\n")])
        XCTAssertEqual(nowPassing.code, 0)
        XCTAssertTrue(nowPassing.stdout.contains("now passing (remove it from the known-failures list): bg/good"), nowPassing.stdout)

        for bad in ["bg/bad\n", "floor\tmany\n", "bg/bad\ta\nbg/bad\tb\n"] {
            let r = run(["test", suite, "--known", try known(bad)])
            XCTAssertEqual(r.code, 2, "malformed list \(bad.debugDescription)")
            XCTAssertTrue(r.stderr.contains(":1:") || r.stderr.contains(":2:"), "the line is named: \(r.stderr)")
        }
        XCTAssertEqual(run(["test", suite, "--known", tmp.appendingPathComponent("none.txt").path]).code, 2)
        // The conformance suite's own list parses with this reader.
        let list = try KnownFailures(contentsOf: repo.appendingPathComponent("Tests/GLMapTests/RenderConformance-known-failures.txt").path)
        XCTAssertGreaterThan(list.floor, 0)
        XCTAssertFalse(list.reasons.isEmpty)
    }

    func testSmallestDifferenceWinsAndErrorsStayPerCase() throws {
        try makeCase("suite", "multi/alternate", style: Self.backgroundStyle("rgb(200,0,200)"),
                     expected: ["expected.png": Self.solid(64, 64, teal), "expected-linux.png": Self.solid(64, 64, magenta)])
        try makeCase("suite", "multi/size", style: Self.backgroundStyle("rgb(200,0,200)"), expected: ["expected.png": Self.solid(32, 16, magenta)])
        try makeCase("suite", "multi/broken", style: "{\"version\":8,", expected: ["expected.png": Self.solid(64, 64, magenta)])
        try makeCase("suite", "multi/metadata", style: "{\"version\":8,\"metadata\":{\"test\":{\"width\":\"wide\"}},\"sources\":{},\"layers\":[]}")
        let r = run(["test", tmp.appendingPathComponent("suite").path, "--jobs", "2"])
        XCTAssertEqual(r.code, 1)
        XCTAssertFalse(r.stdout.contains("multi/alternate"), "the closer alternate passes: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("FAIL multi/size: ") && r.stdout.contains("64×64") && r.stdout.contains("32×16"), r.stdout)
        XCTAssertTrue(r.stdout.contains("FAIL multi/broken: "), r.stdout)
        XCTAssertTrue(r.stdout.contains("FAIL multi/metadata: ") && r.stdout.contains("metadata.test.width"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("1 passed, 3 failed\n"), r.stdout)
    }

    func testLocalDataResolvesAgainstTheSuiteFolder() throws {
        // The render-tests layout: suite/cases/<case>/style.json, suite/data/<file>.
        let data = tmp.appendingPathComponent("suite/data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data(#"{"type":"Point","coordinates":[0,0]}"#.utf8).write(to: data.appendingPathComponent("point.geojson"))
        let dir = try makeCase("suite/cases", "circle/local", style: """
            {"version":8,"metadata":{"test":{"width":32,"height":32}},"zoom":0,
             "sources":{"p":{"type":"geojson","data":"local://data/point.geojson"}},
             "layers":[{"id":"c","type":"circle","source":"p","paint":{"circle-radius":6,"circle-color":"#00ff00"}}]}
            """)
        let r = run(["test", tmp.appendingPathComponent("suite").path, "--update"])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("updated circle/local"), "named relative to cases/: \(r.stdout)")
        let image = try PNGDecoder.decode(contentsOf: dir + "/expected.png")
        XCTAssertEqual([image[16, 16].r, image[16, 16].g, image[16, 16].b, image[16, 16].a], [0, 255, 0, 255], "the local:// point was drawn")
        XCTAssertEqual(image[2, 2].a, 0)
    }

    func testSelectionAndUsageErrors() throws {
        for i in 0..<6 {
            try makeCase("suite", "group\(i % 2)/case\(i)", style: Self.backgroundStyle("rgb(\(i * 40),0,200)", 16, 16),
                         expected: ["expected.png": Self.solid(16, 16, [UInt8(i * 40), 0, 200, 255])])
        }
        let suite = tmp.appendingPathComponent("suite").path
        let one = run(["test", suite, "--jobs", "1", "--junit", tmp.appendingPathComponent("one.xml").path])
        let three = run(["test", suite, "--jobs", "3", "--junit", tmp.appendingPathComponent("three.xml").path])
        XCTAssertEqual(one.code, 0, one.stdout)
        XCTAssertEqual(three.code, 0, three.stdout)
        XCTAssertTrue(three.stdout.hasSuffix("6 passed, 0 failed\n"))
        func cases(_ f: String) throws -> [String] {
            try String(contentsOf: tmp.appendingPathComponent(f), encoding: .utf8).split(separator: "\n").filter { $0.contains("<testcase") }
                .map { String($0.split(separator: " ").filter { $0.hasPrefix("name=") }.first ?? "") }
        }
        XCTAssertEqual(try cases("one.xml"), try cases("three.xml"), "parallel runs report the same cases in the same order")
        XCTAssertEqual(run(["test", suite, "--filter", "group1/"]).stdout.split(separator: "\n").last, "3 passed, 0 failed")
        XCTAssertEqual(run(["test", suite + "/group0/case2"]).stdout.split(separator: "\n").last, "1 passed, 0 failed", "a case folder is one case")
        XCTAssertEqual(run(["test", suite, "--filter", "nothing-matches"]).code, 2)
        XCTAssertEqual(run(["test", suite, "--filter", "(unclosed"]).code, 2)
        XCTAssertEqual(run(["test", tmp.appendingPathComponent("missing").path]).code, 2)
        XCTAssertEqual(run(["test"]).code, 2)
        XCTAssertEqual(run(["test", suite, "--jobs", "0"]).code, 2)
        XCTAssertEqual(run(["test", suite, "--junit", tmp.appendingPathComponent("no/dir/j.xml").path]).code, 1)
        let notReport = tmp.appendingPathComponent("busy")
        try FileManager.default.createDirectory(at: notReport, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: notReport.appendingPathComponent("keep.txt"))
        XCTAssertEqual(run(["test", suite, "--report", notReport.path]).code, 2, "a non-empty folder that is no report is refused")
        XCTAssertTrue(FileManager.default.fileExists(atPath: notReport.appendingPathComponent("keep.txt").path))
    }

    // MARK: - Outside consumers (OutsideTool: skipped locally when missing, a failure under CI=true)

    func testJUnitIsReadByJunitparser() throws {
        try makeCase("suite", "bg/pass", style: Self.backgroundStyle("rgb(200,0,200)"), expected: ["expected.png": Self.solid(64, 64, magenta)])
        try makeCase("suite", "bg/unexpected", style: Self.backgroundStyle("rgb(200,0,200)"), expected: ["expected.png": Self.solid(64, 64, teal)])
        try makeCase("suite", "bg/known", style: Self.backgroundStyle("rgb(200,0,200)"), expected: ["expected.png": Self.solid(64, 64, teal)])
        try makeCase("suite", "odd/<&\"quoted\">", style: "{", expected: [:])
        let knownFile = tmp.appendingPathComponent("known.txt")
        try Data("bg/known\tteal & magenta <differ>\n".utf8).write(to: knownFile)
        let xml = tmp.appendingPathComponent("report.xml").path
        let r = run(["test", tmp.appendingPathComponent("suite").path, "--known", knownFile.path, "--junit", xml])
        XCTAssertEqual(r.code, 1)
        let python = try OutsideTool.requirePython(["junitparser"])
        let script = """
        import sys
        from junitparser import JUnitXml, Failure, Error, Skipped
        xml = JUnitXml.fromfile(sys.argv[1])
        for suite in xml:
            print("suite", suite.name, suite.tests, suite.failures, suite.errors, suite.skipped)
            for case in suite:
                kinds = ",".join(type(r).__name__ for r in case.result) or "pass"
                msg = case.result[0].message if case.result else ""
                print("case", case.classname, case.name, kinds, msg, sep="\\t")
        """
        let out = try runProcess(python, ["-c", script, xml])
        XCTAssertEqual(out.status, 0, "junitparser could not read the file: \(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "suite glmap render tests 4 1 1 1")
        let cases = lines.dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertEqual(cases.map { $0[1] + "/" + $0[2] + "=" + $0[3] },
                       ["bg/bg/known=Skipped", "bg/bg/pass=pass", "bg/bg/unexpected=Failure", "odd/odd/<&\"quoted\">=Error"])
        XCTAssertEqual(cases[0][4], "known failure: teal & magenta <differ>")
        XCTAssertTrue(cases[2][4].hasPrefix("difference 1.00000"), cases[2][4])
    }

    func testHTMLReportInHeadlessChromium() throws {
        // The failing case sorts last but must be shown first; the passing one is folded away.
        try makeCase("suite", "aa/passing", style: Self.backgroundStyle("rgb(0,0,255)"), expected: ["expected.png": Self.solid(64, 64, [0, 0, 255, 255])])
        try makeCase("suite", "zz/failing", style: Self.backgroundStyle("rgb(200,0,200)"), expected: ["expected.png": Self.solid(64, 64, teal)])
        let report = tmp.appendingPathComponent("report")
        let r = run(["test", tmp.appendingPathComponent("suite").path, "--report", report.path])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stdout.contains("report: \(report.path)/index.html"), r.stdout)
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertFalse(html.contains("http://") || html.contains("https://") || html.contains("<script"), "self-contained, no network, no script")
        XCTAssertLessThan(try XCTUnwrap(html.range(of: "zz/failing")).lowerBound, try XCTUnwrap(html.range(of: "aa/passing")).lowerBound)

        let chromium = try OutsideTool.requireCommand("chromium", package: "chromium")
        let shot = tmp.appendingPathComponent("shot.png")
        let out = try runProcess(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                                            "--user-data-dir=\(tmp.appendingPathComponent("profile").path)",
                                            "--window-size=1100,700", "--screenshot=\(shot.path)",
                                            report.appendingPathComponent("index.html").absoluteString], timeout: 90)
        XCTAssertEqual(out.status, 0, out.stderr)
        if let keep = ProcessInfo.processInfo.environment["GLMAP_KEEP_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: shot.path, toPath: keep)
        }
        let image = try PNGDecoder.decode(contentsOf: shot.path)
        // 64-px images are shown at 4× (256 px): look for the three 256×256 blocks.
        let expected = try XCTUnwrap(Self.box(of: [0, 200, 200], in: image), "the expected image (teal) is not on screen")
        let actual = try XCTUnwrap(Self.box(of: [200, 0, 200], in: image), "the actual image (magenta) is not on screen")
        let diff = try XCTUnwrap(Self.box(of: [255, 0, 0], in: image), "the diff image (red) is not on screen")
        for b in [expected, actual, diff] {
            XCTAssertEqual(b.count, 256 * 256, "a whole 256×256 block: \(b)")
            XCTAssertEqual(b.maxX - b.minX + 1, 256)
            XCTAssertEqual(b.maxY - b.minY + 1, 256)
        }
        XCTAssertLessThan(expected.maxX, actual.minX, "expected, actual, diff side by side")
        XCTAssertLessThan(actual.maxX, diff.minX)
        XCTAssertEqual(expected.minY, actual.minY)
        XCTAssertEqual(actual.minY, diff.minY)
        XCTAssertNil(Self.box(of: [0, 0, 255], in: image), "the passing case is folded, below the failure")
    }

    /// The README's CI jobs parse as YAML (PyYAML), have the shape GitHub Actions and GitLab CI read,
    /// install every system package glmap builds with, and their `glmap test` line runs as written.
    func testReadmeCIJobs() throws {
        let readme = try String(contentsOf: repo.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "\n## Testing your styles in CI\n").dropFirst().first?
            .components(separatedBy: "\n## ").first, "README has a \"Testing your styles in CI\" section")
        let blocks = section.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "\n```").first! }
        XCTAssertEqual(blocks.count, 2, "a GitHub Actions job and a GitLab CI job")
        let python = try OutsideTool.requirePython(["yaml"])
        let script = """
        import sys, json, yaml
        print(json.dumps([yaml.safe_load(open(f)) for f in sys.argv[1:]]))
        """
        var files: [String] = []
        for (i, b) in blocks.enumerated() {
            let f = tmp.appendingPathComponent("job\(i).yml")
            try Data(b.utf8).write(to: f)
            files.append(f.path)
        }
        let out = try runProcess(python, ["-c", script] + files)
        XCTAssertEqual(out.status, 0, "YAML: \(out.stderr)")
        let docs = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
        let gh = try XCTUnwrap((docs[0]["jobs"] as? [String: Any])?["render-tests"] as? [String: Any])
        XCTAssertTrue((gh["container"] as? String ?? "").hasSuffix("-bookworm"), "a Debian image")
        let ghRuns = (gh["steps"] as? [[String: Any]] ?? []).compactMap { $0["run"] as? String }
        let gl = try XCTUnwrap(docs[1]["render-tests"] as? [String: Any])
        XCTAssertTrue((gl["image"] as? String ?? "").hasSuffix("-bookworm"), "a Debian image")
        let glRuns = gl["script"] as? [String] ?? []
        let reports = (gl["artifacts"] as? [String: Any])?["reports"] as? [String: Any]
        XCTAssertEqual(reports?["junit"] as? String, "glmap-junit.xml")

        let deps = try String(contentsOf: repo.appendingPathComponent(".ci/install-deps"), encoding: .utf8)
        let line = try XCTUnwrap(deps.split(separator: "\n").first { $0.hasPrefix("packages=(") })
        let packages: [String] = line.dropFirst("packages=(".count).prefix { $0 != ")" }.split(separator: " ").map(String.init)
            // What building and drawing need: the -dev packages, pkg-config and Mesa's drivers
            // (the rest — chromium, curl, … — only glmap's own tests use).
            .filter { $0.hasSuffix("-dev") || $0 == "pkg-config" || $0.contains("mesa") }
        for (name, runs) in [("GitHub", ghRuns), ("GitLab", glRuns)] {
            let text = runs.joined(separator: "\n")
            for p in packages { XCTAssertTrue(text.contains(" \(p)"), "\(name) job installs \(p)") }
            let testLine = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("glmap test ") }, "\(name) job runs glmap test")
            // Run the job's command on a small suite where its relative paths point.
            let work = tmp.appendingPathComponent(name)
            try makeCase("\(name)/render-tests", "city/overview", style: Self.backgroundStyle("rgb(200,0,200)"),
                         expected: ["expected.png": Self.solid(64, 64, magenta)])
            try makeCase("\(name)/render-tests", "city/old", style: Self.backgroundStyle("rgb(200,0,200)"),
                         expected: ["expected.png": Self.solid(64, 64, teal)])
            try Data("city/old\tcolours changed on purpose\n".utf8).write(to: work.appendingPathComponent("render-tests/known-failures.txt"))
            let args = testLine.split(separator: " ").map(String.init).drop { !$0.hasSuffix("/glmap") }.dropFirst()
                .map { $0.hasPrefix("-") || $0 == "test" ? $0 : work.appendingPathComponent($0).path }
            let r = run(Array(args))
            XCTAssertEqual(r.code, 0, "\(name): \(args): \(r.stdout) \(r.stderr)")
            XCTAssertTrue(r.stdout.hasSuffix("1 passed, 1 failed (1 known, 0 unexpected)\n"), r.stdout)
            XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("glmap-junit.xml").path))
            XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("glmap-report/index.html").path))
        }
    }

    /// Bounding box and count of the pixels of exactly `rgb` (opaque) in `image`.
    static func box(of rgb: [UInt8], in image: StraightImage) -> (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1, count = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                if p.r == rgb[0] && p.g == rgb[1] && p.b == rgb[2] && p.a == 255 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y); count += 1
                }
            }
        }
        return count == 0 ? nil : (minX, minY, maxX, maxY, count)
    }

    /// Runs a program to completion (killed after `timeout` seconds).
    func runProcess(_ path: String, _ args: [String], timeout: Double = 60) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let outFile = tmp.appendingPathComponent("proc-\(UUID().uuidString).out"), errFile = tmp.appendingPathComponent("proc-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: outFile.path, contents: nil)
        FileManager.default.createFile(atPath: errFile.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: outFile)
        p.standardError = try FileHandle(forWritingTo: errFile)
        try p.run()
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(50_000) }
        if p.isRunning { p.terminate(); p.waitUntilExit(); XCTFail("\(path) ran past \(timeout) s") }
        p.waitUntilExit()
        return (p.terminationStatus, try String(contentsOf: outFile, encoding: .utf8), try String(contentsOf: errFile, encoding: .utf8))
    }
}
