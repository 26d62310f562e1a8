import Foundation
import Testing
import GLMapCore
import GLMapCLI
import GLMapTesting
@testable import GLMap
import GLMapTestSupport

/// MapLibre GL JS's own render tests (../shared/render-tests), drawn through the same code path as
/// `glmap render` and judged by GLMapTesting's RenderTestRunner — the runner behind `glmap test` —
/// with the pixelmatch 7.1.0 port, exactly as the suite's README prescribes (YIQ threshold, no
/// anti-aliased pixels counted, minimum over all expected*.png, pass when mismatches / pixels ≤
/// allowed).
///
/// Each case is its own test (`renderCase` with one argument per case), so one failing case hides
/// no other. Known failures are listed with their reasons in `RenderConformance-known-failures.txt`:
/// a listed case that fails is a known issue, any other failing case fails its test, and the pass
/// count must not drop below the floor there. `glmapTestGivesTheSameCount` checks that
/// `glmap test ../shared/render-tests` reaches the same verdicts.
@Suite struct RenderConformanceTests {
    /// ../shared/render-tests (or $GLMAP_RENDER_TESTS).
    static var suiteRoot: URL { SharedData.renderTests }

    static var casesRoot: URL { suiteRoot.appendingPathComponent("cases") }

    static let knownFailuresFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("RenderConformance-known-failures.txt")

    /// Known failures (case → reason) and the pass-count floor.
    static func knownFailures() throws -> KnownFailures {
        try KnownFailures(contentsOf: knownFailuresFile.path)
    }

    /// The suite's cases, found as `glmap test` finds them.
    static var testCases: [RenderTestCase] { SharedData.renderCases }

    static func outDir(_ label: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("glmap-\(label)-\(ProcessInfo.processInfo.processIdentifier)")
    }

    /// The GPU run every test of this suite reads: rendered once, on worker threads with one
    /// renderer each (the first test to need it waits for it).
    static let gpuRun: [String: RenderTestResult] = {
        let dir = outDir("render-conformance")
        try? FileManager.default.removeItem(at: dir)
        let jobs = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let runner = RenderTestRunner(backend: .gpu, jobs: jobs, artifactsDirectory: dir.path, keepsPassingImages: false)
        let results = runner.run(testCases)
        return Dictionary(uniqueKeysWithValues: results.map { ($0.testCase.name, $0) })
    }()

    @Test func suiteIsPresent() throws {
        try SharedData.require("render tests", at: Self.casesRoot)
        #expect(FileManager.default.fileExists(atPath: Self.casesRoot.path),
                "render tests not found at \(Self.casesRoot.path) (set GLMAP_RENDER_TESTS or provide ../shared/render-tests)")
        #expect(Self.testCases.count > 0, "no cases under \(Self.casesRoot.path)")
    }

    @Test(arguments: RenderConformanceTests.testCases)
    func renderCase(_ c: RenderTestCase) throws {
        let result = try #require(Self.gpuRun[c.name])
        Self.judge(result, known: try Self.knownFailures(), list: Self.knownFailuresFile, label: "render conformance",
                   images: "expected, actual and diff images in \(Self.outDir("render-conformance").path)")
    }

    @Test func passCountHoldsTheFloor() throws {
        try SharedData.require("render tests", at: Self.casesRoot)
        let known = try Self.knownFailures()
        let passed = Self.printCounts(Self.testCases.compactMap { Self.gpuRun[$0.name] }, label: "render conformance")
        #expect(passed >= known.floor, "pass count \(passed) fell below the floor \(known.floor) in \(Self.knownFailuresFile.lastPathComponent)")
    }

    /// One case's verdict against a known-failures list (this suite's, or the CPU reference's): a
    /// listed case that fails is a known issue, any other failing case fails its test.
    static func judge(_ result: RenderTestResult, known: KnownFailures, list: URL, label: String, images: String) {
        let name = result.testCase.name
        if let reason = known.reasons[name] {
            if result.isPass {
                print("\(label): now passing (remove it from \(list.lastPathComponent)): \(name)")
            } else {
                print("\(label): known failure: \(name): \(result.message)")
                withKnownIssue("\(reason)") { Issue.record("\(name): \(result.message)") }
            }
        } else {
            if !result.isPass { print("\(label): UNEXPECTED FAILURE: \(name): \(result.message); \(images)") }
            #expect(result.isPass, "\(name): \(result.message); \(images)")
        }
    }

    /// Prints the pass count per family and in all; returns the number of passes.
    static func printCounts(_ results: [RenderTestResult], label: String) -> Int {
        var byFamily: [String: (pass: Int, total: Int)] = [:]
        for r in results {
            var f = byFamily[family(of: r.testCase.name)] ?? (0, 0)
            f.total += 1
            if r.isPass { f.pass += 1 }
            byFamily[family(of: r.testCase.name)] = f
        }
        for family in byFamily.keys.sorted() { print("\(label): family \(family): \(byFamily[family]!.pass)/\(byFamily[family]!.total)") }
        let passed = results.filter(\.isPass).count
        print("\(label): \(passed) passed, \(results.count - passed) failed")
        return passed
    }

    /// `glmap test ../shared/render-tests --known <this suite's list>` reports exactly this suite's
    /// count: the same cases, the same passes, the same failures, and exit 0 (no unexpected failure).
    @Test func glmapTestGivesTheSameCount() throws {
        try SharedData.require("render tests", at: Self.casesRoot)
        let junit = makeTempDir().appendingPathComponent("junit.xml")
        defer { try? FileManager.default.removeItem(at: junit.deletingLastPathComponent()) }
        let run = CommandLineRun(["test", Self.suiteRoot.path, "--known", Self.knownFailuresFile.path, "--jobs", "2",
                                  "--backend", "gpu", "--junit", junit.path])
        let code = run.code
        let lines = run.stdoutText.split(separator: "\n").map(String.init)
        let closing = try #require(lines.last)
        let numbers = closing.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        try #require(numbers.count >= 2, "closing line \"\(closing)\"")
        let suite = Self.testCases.compactMap { Self.gpuRun[$0.name] }
        let passed = suite.filter(\.isPass).count
        print("render conformance: glmap test says \"\(closing)\"; this suite: \(passed) passed, \(suite.count - passed) failed of \(Self.testCases.count) cases")
        #expect(numbers[0] == passed, "glmap test passed count vs RenderConformance")
        #expect(numbers[1] == suite.count - passed, "glmap test failed count vs RenderConformance")
        #expect(numbers[0] + numbers[1] == Self.testCases.count)
        let failingHere = Set(suite.filter { !$0.isPass }.map(\.testCase.name))
        let failingThere = Set(lines.compactMap { l -> String? in
            for prefix in ["FAIL ", "known failure "] where l.hasPrefix(prefix) {
                return String(l.dropFirst(prefix.count).prefix { $0 != ":" })
            }
            return nil
        })
        #expect(failingHere == failingThere)
        #expect(code == 0, "glmap test exit code with the known-failures list")
    }

    /// The README's families: background, circle, fill, line, other.
    static func family(of name: String) -> String {
        let group = name.split(separator: "/").first.map(String.init) ?? name
        for f in ["background", "circle", "fill", "line"] where group.hasPrefix(f + "-") { return f }
        return "other"
    }
}
