import Foundation
import Testing
import GLMapCore
import GLMapCLI
import GLMapTesting
@testable import GLMap
import GLMapTestSupport

/// MapLibre GL JS's whole render suite (../shared/render-suite, 1,293 cases, or $GLMAP_RENDER_SUITE)
/// as glmap's scoreboard: every case drawn by GL JS's harness rules (URLs localized onto the
/// suite's asset folders, `metadata.test.operations` applied through the Snapshotter's runtime
/// styling API) on the GPU backend (llvmpipe here), judged by the render tests' pixelmatch rule
/// against any of its expected*.png.
///
/// Each case is its own test. A case glmap cannot pass yet is listed with its reason in
/// `RenderSuite-known-failures.txt` (the missing feature the manifest says it needs, or the real
/// difference); any other failing case fails its test, and the pass count must not drop below the
/// floor there. The pass count per family (the manifest's `needs_beyond_current_subset`) is
/// printed. `GLMAP_WRITE_RENDER_SUITE_KNOWN=1` rewrites the list from the run: the floor becomes
/// this run's passes and every failing case gets the reason its needs give (a case that needs
/// nothing glmap lacks keeps the reason a person wrote, or is marked for one to write).
/// `GLMAP_RENDER_SUITE_HELDOUT=<folder>` measures a held-out part (any folder of cases in the
/// same layout) the same way and prints its counts per family.
@Suite struct RenderSuiteTests {
    static var suiteRoot: URL { SharedData.renderSuite }
    static var casesRoot: URL { suiteRoot.appendingPathComponent("cases") }

    static let knownFailuresFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("RenderSuite-known-failures.txt")

    static func knownFailures() throws -> KnownFailures { try KnownFailures(contentsOf: knownFailuresFile.path) }

    static var testCases: [RenderTestCase] { SharedData.renderSuiteCases }

    static let manifest: [String: RenderSuite.ManifestEntry] = (try? RenderSuite.manifest(assetRoot: suiteRoot.path)) ?? [:]

    static func outDir(_ label: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("glmap-\(label)-\(ProcessInfo.processInfo.processIdentifier)")
    }

    /// Runs cases on the GPU backend, one renderer per worker thread.
    static func run(_ cases: [RenderTestCase], label: String) -> [String: RenderTestResult] {
        let dir = outDir(label)
        try? FileManager.default.removeItem(at: dir)
        let jobs = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let runner = RenderTestRunner(backend: .gpu, jobs: jobs, artifactsDirectory: dir.path, keepsPassingImages: false)
        return Dictionary(runner.run(cases).map { ($0.testCase.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The run every test of this suite reads (the first test to need it waits for it).
    static let gpuRun: [String: RenderTestResult] = run(testCases, label: "render-suite")

    static var results: [RenderTestResult] { testCases.compactMap { gpuRun[$0.name] } }

    @Test func suiteIsPresent() throws {
        try SharedData.require("the render suite", at: Self.casesRoot)
        #expect(Self.testCases.count > 0, "no cases under \(Self.casesRoot.path)")
        #expect(!Self.manifest.isEmpty, "no manifest.tsv in \(Self.suiteRoot.path)")
        let unlisted = Self.testCases.filter { Self.manifest[$0.name] == nil }.map(\.name)
        #expect(unlisted.isEmpty, "cases missing from manifest.tsv: \(unlisted.prefix(5))")
    }

    @Test(arguments: RenderSuiteTests.testCases)
    func renderCase(_ c: RenderTestCase) throws {
        let result = try #require(Self.gpuRun[c.name])
        RenderConformanceTests.judge(result, known: try Self.knownFailures(), list: Self.knownFailuresFile, label: "render suite",
                                     images: "expected, actual and diff images in \(Self.outDir("render-suite").path)")
    }

    @Test func passCountHoldsTheFloorAndIsPrintedPerFamily() throws {
        try SharedData.require("the render suite", at: Self.casesRoot)
        let known = try Self.knownFailures()
        let summary = RenderSuiteSummary(results: Self.results, manifests: [Self.testCases.first?.assetRoot ?? "": Self.manifest])
        for line in summary.lines { print("render suite: \(line)") }
        let passed = Self.results.filter(\.isPass).count
        if ProcessInfo.processInfo.environment["GLMAP_WRITE_RENDER_SUITE_KNOWN"] == "1" {
            try Self.writeKnownFailures(previous: known, passed: passed)
        }
        #expect(passed >= known.floor, "pass count \(passed) fell below the floor \(known.floor) in \(Self.knownFailuresFile.lastPathComponent)")
    }

    /// Every listed case exists, and a listed case whose manifest entry names features glmap lacks
    /// carries exactly those as its reason (so the list stays what the cases need, not guesses).
    @Test func knownFailureReasonsFollowTheManifest() throws {
        try SharedData.require("the render suite", at: Self.casesRoot)
        let known = try Self.knownFailures()
        let names = Set(Self.testCases.map(\.name))
        for (name, reason) in known.reasons {
            #expect(names.contains(name), "\(name) is listed in \(Self.knownFailuresFile.lastPathComponent) but is not a case of the suite")
            let missing = (Self.manifest[name]?.needs ?? []).compactMap { RenderSuiteSummary.missingFeature[$0] }
            if !missing.isEmpty {
                #expect(reason == missing.joined(separator: "; "), "\(name): listed as \"\(reason)\", but its needs say \"\(missing.joined(separator: "; "))\"")
            }
        }
    }

    /// The cases whose only need is runtime operations on GeoJSON background/fill/line/circle
    /// styles pass at 90 % or more.
    @Test func operationsFamilyPassesAtNinetyPercent() throws {
        try SharedData.require("the render suite", at: Self.casesRoot)
        let family = Self.results.filter { Self.manifest[$0.testCase.name]?.family == "operations" }
        let passed = family.filter(\.isPass).count
        print("render suite: operations family \(passed)/\(family.count)")
        for r in family where !r.isPass { print("render suite: operations family failure: \(r.testCase.name): \(r.message)") }
        #expect(!family.isEmpty)
        #expect(Double(passed) >= 0.9 * Double(family.count), "operations family: \(passed) of \(family.count) pass")
    }

    /// `glmap test` on the suite's folder reaches the same verdicts for the runtime-styling cases
    /// (a filter keeps the run short), with --known, --junit and --report, and prints the families.
    @Test func glmapTestAgreesOnRuntimeStylingCases() throws {
        try SharedData.require("the render suite", at: Self.casesRoot)
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let filter = "^(runtime-styling|feature-state|remove-feature-state|zoom-visibility|global-state)/"
        let junit = dir.appendingPathComponent("junit.xml"), report = dir.appendingPathComponent("report")
        let run = CommandLineRun(["test", Self.casesRoot.path, "--filter", filter, "--known", Self.knownFailuresFile.path,
                                  "--jobs", "2", "--backend", "gpu", "--junit", junit.path, "--report", report.path])
        let lines = run.stdoutText.split(separator: "\n").map(String.init)
        let regex = try Regex(filter)
        let selected = Self.results.filter { $0.testCase.name.contains(regex) }
        #expect(!selected.isEmpty)
        let failingHere = Set(selected.filter { !$0.isPass }.map(\.testCase.name))
        let failingThere = Set(lines.compactMap { l -> String? in
            for prefix in ["FAIL ", "known failure "] where l.hasPrefix(prefix) {
                return String(l.dropFirst(prefix.count).prefix { $0 != ":" })
            }
            return nil
        })
        #expect(failingHere == failingThere)
        let passed = selected.filter(\.isPass).count
        #expect(lines.last == "\(passed) passed, \(selected.count - passed) failed (\(failingHere.count) known, 0 unexpected)",
                "closing line: \(lines.last ?? "")")
        #expect(lines.contains { $0.hasPrefix("family operations: ") }, "no per-family line in: \(run.stdoutText.suffix(600))")
        #expect(run.code == 0, "glmap test exit code with the known-failures list: \(run.stderr.suffix(2000))")
        #expect(FileManager.default.fileExists(atPath: junit.path))
        #expect(FileManager.default.fileExists(atPath: report.appendingPathComponent("index.html").path))
    }

    /// The held-out part of the suite (not in ../shared), measured the same way when
    /// `GLMAP_RENDER_SUITE_HELDOUT` names its folder (any folder of cases in the suite's layout).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["GLMAP_RENDER_SUITE_HELDOUT"].map { !$0.isEmpty } ?? false,
                   "GLMAP_RENDER_SUITE_HELDOUT names no folder"))
    func heldOutPart() throws {
        let folder = ProcessInfo.processInfo.environment["GLMAP_RENDER_SUITE_HELDOUT"]!
        let cases = try RenderTestCase.discover(in: [folder])
        #expect(!cases.isEmpty, "no case under \(folder)")
        let results = Array(Self.run(cases, label: "render-suite-heldout").values)
        let summary = RenderSuiteSummary(results: results, manifests: try RenderSuiteSummary.manifests(for: cases))
        for line in summary.lines { print("render suite (held out): \(line)") }
    }

    /// Rewrites the known-failures list from this run (see the suite's documentation).
    static func writeKnownFailures(previous: KnownFailures, passed: Int) throws {
        var text = """
        # Render suite (MapLibre GL JS's whole render suite, ../shared/render-suite): known failures,
        # case<TAB>reason. The reason is what the case needs that glmap lacks (from manifest.tsv's
        # needs_beyond_current_subset, RenderSuiteSummary.missingFeature), what glmap reported it
        # cannot do, or, for a case that needs nothing glmap lacks, the real difference. Any other
        # failing case fails RenderSuiteTests; the floor only rises. A reason that starts with
        # "nondeterministic" stays listed while the case passes. Regenerate with
        # GLMAP_WRITE_RENDER_SUITE_KNOWN=1 swift test --filter RenderSuiteTests.

        """
        text += "floor\t\(max(passed, previous.floor))\n"
        for r in results where !r.isPass || (previous.reasons[r.testCase.name]?.hasPrefix("nondeterministic") ?? false) {
            let name = r.testCase.name
            let reason = RenderSuiteSummary.reason(for: r, entry: manifest[name])
                ?? previous.reasons[name]
                ?? "needs a person to write the real difference: \(r.message)"
            text += "\(name)\t\(reason.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " "))\n"
        }
        try text.write(to: knownFailuresFile, atomically: true, encoding: .utf8)
        print("render suite: wrote \(knownFailuresFile.path)")
    }
}
