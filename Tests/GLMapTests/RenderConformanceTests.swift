import Foundation
import XCTest
import GLMapCore
import GLMapPNG
@testable import GLMap

/// MapLibre GL JS's own render tests (../shared/render-tests), drawn through the same code path as
/// `glmap render` and compared with a faithful port of pixelmatch 7.1.0, exactly as the suite's
/// README prescribes (YIQ threshold, no anti-aliased pixels counted, minimum over all
/// expected*.png, pass when mismatches / pixels ≤ allowed).
///
/// Known failures are listed with their reasons in `RenderConformance-known-failures.txt`; the test
/// fails when a case outside that list fails, or when the pass count drops below the floor there.
final class RenderConformanceTests: XCTestCase {
    struct Case {
        let name: String
        let dir: URL
        let width: Int, height: Int, ratio: Double
        let allowed: Double, threshold: Double
    }

    static var casesRoot: URL {
        if let env = ProcessInfo.processInfo.environment["GLMAP_RENDER_TESTS"] {
            return URL(fileURLWithPath: env).appendingPathComponent("cases")
        }
        return sharedDir.appendingPathComponent("render-tests/cases")
    }

    static let knownFailuresFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("RenderConformance-known-failures.txt")

    /// Known failures (case → reason) and the pass-count floor.
    static func knownFailures() throws -> (cases: [String: String], floor: Int) {
        let text = try String(contentsOf: knownFailuresFile, encoding: .utf8)
        var cases: [String: String] = [:]
        var floor = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("floor") {
                floor = Int(line.split(separator: "\t").last ?? "") ?? 0
                continue
            }
            let parts = line.split(separator: "\t", maxSplits: 1)
            cases[String(parts[0])] = parts.count > 1 ? String(parts[1]) : "(no reason given)"
        }
        return (cases, floor)
    }

    static func loadCases() throws -> [Case] {
        let root = casesRoot
        guard let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var out: [Case] = []
        for case let url as URL in e where url.lastPathComponent == "style.json" {
            let dir = url.deletingLastPathComponent()
            let name = String(dir.path.dropFirst(root.path.count + 1))
            let json = try JSONParser.parse([UInt8](Data(contentsOf: url)))
            let t = json["metadata"]?["test"]
            out.append(Case(name: name, dir: dir,
                            width: Int(t?["width"]?.numberValue ?? 512), height: Int(t?["height"]?.numberValue ?? 512),
                            ratio: t?["pixelRatio"]?.numberValue ?? 1,
                            allowed: t?["allowed"]?.numberValue ?? 0.00025,
                            threshold: t?["threshold"]?.numberValue ?? 0.1285))
        }
        return out.sorted { $0.name < $1.name }
    }

    /// Renders a case the way `glmap render --style … --width W --height H --ratio R` does.
    static func render(_ c: Case, renderer: MapRenderer) throws -> RGBAImage {
        let scene = try Scene(styleFile: c.dir.appendingPathComponent("style.json").path)
        return try renderer.render(scene, options: RenderOptions(width: c.width, height: c.height, ratio: c.ratio)).unpremultiplied()
    }

    /// Smallest mismatch fraction over the case's expected images, with the diff of the best one.
    static func compare(_ actual: RGBAImage, _ c: Case) throws -> (difference: Double, diff: RGBAImage?) {
        let expectedFiles = try FileManager.default.contentsOfDirectory(atPath: c.dir.path)
            .filter { $0.hasPrefix("expected") && $0.hasSuffix(".png") }.sorted()
        var best = Double.infinity
        var bestDiff: RGBAImage?
        for f in expectedFiles {
            let expected = try PNGDecoder.decode(contentsOf: c.dir.appendingPathComponent(f).path)
            guard expected.width == actual.width, expected.height == actual.height else {
                throw InputFailure("\(c.name): size \(actual.width)x\(actual.height) differs from \(f) \(expected.width)x\(expected.height)")
            }
            var diff: RGBAImage? = RGBAImage(width: actual.width, height: actual.height)
            var options = Pixelmatch.Options()
            options.threshold = c.threshold
            let mismatches = try Pixelmatch.compare(actual, expected, options: options, diff: &diff)
            let d = Double(mismatches) / Double(actual.width * actual.height)
            if d < best { best = d; bestDiff = diff }
        }
        return (best, bestDiff)
    }

    /// Outcome of running every case through one renderer.
    struct Run {
        var passed: [String] = []
        var failed: [(name: String, reason: String)] = []
        var byFamily: [String: (pass: Int, total: Int)] = [:]
        var outDir: URL
    }

    /// Renders and compares every case with `renderer`; failures' actual.png and diff.png go to a
    /// temporary folder named after `label`.
    static func runCases(_ cases: [Case], renderer: MapRenderer, label: String) -> Run {
        let outDir = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-\(label)-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: outDir)
        var run = Run(outDir: outDir)
        for c in cases {
            var reason: String?
            do {
                let actual = try render(c, renderer: renderer)
                let (difference, diff) = try compare(actual, c)
                if difference > c.allowed {
                    reason = String(format: "difference %.5f > allowed %.5f", difference, c.allowed)
                    let dir = outDir.appendingPathComponent(c.name)
                    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                    try PNGEncoder.write(actual, to: dir.appendingPathComponent("actual.png").path)
                    if let diff { try PNGEncoder.write(diff, to: dir.appendingPathComponent("diff.png").path) }
                }
            } catch {
                reason = "error: \(error)"
            }
            let family = Self.family(of: c.name)
            var f = run.byFamily[family] ?? (0, 0)
            f.total += 1
            if let reason { run.failed.append((c.name, reason)) } else { run.passed.append(c.name); f.pass += 1 }
            run.byFamily[family] = f
        }
        return run
    }

    func testRenderConformance() throws {
        guard FileManager.default.fileExists(atPath: Self.casesRoot.path) else {
            return XCTFail("render tests not found at \(Self.casesRoot.path) (set GLMAP_RENDER_TESTS or provide ../shared/render-tests)")
        }
        let cases = try Self.loadCases()
        XCTAssertGreaterThan(cases.count, 0, "no cases under \(Self.casesRoot.path)")
        let known = try Self.knownFailures()
        let run = Self.runCases(cases, renderer: MapRenderer(backend: .gpu), label: "render-conformance")
        for (name, reason) in run.failed {
            let tag = known.cases[name] == nil ? "UNEXPECTED FAILURE" : "known failure"
            print("render conformance: \(tag): \(name): \(reason)")
        }
        for name in run.passed where known.cases[name] != nil {
            print("render conformance: now passing (remove from the known-failures list): \(name)")
        }
        for family in run.byFamily.keys.sorted() {
            let f = run.byFamily[family]!
            print("render conformance: family \(family): \(f.pass)/\(f.total)")
        }
        if !run.failed.isEmpty { print("render conformance: actual.png and diff.png of each failure are in \(run.outDir.path)") }
        let unexpected = run.failed.filter { known.cases[$0.name] == nil }
        XCTAssertTrue(unexpected.isEmpty, "cases failing that are not in the known-failures list: \(unexpected.map(\.name))")
        XCTAssertGreaterThanOrEqual(run.passed.count, known.floor, "pass count fell below the floor in \(Self.knownFailuresFile.lastPathComponent)")
        print("render conformance: \(run.passed.count) passed, \(run.failed.count) failed")
    }

    /// The README's families: background, circle, fill, line, other.
    static func family(of name: String) -> String {
        let group = name.split(separator: "/").first.map(String.init) ?? name
        for f in ["background", "circle", "fill", "line"] where group.hasPrefix(f + "-") { return f }
        return "other"
    }
}
