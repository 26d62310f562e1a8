import Foundation
import Testing
import GLMapCore
import GLMapTesting
import GLMapTestSupport
@testable import GLMap

/// MapLibre's render tests drawn by the CPU reference renderer (`MapRenderer(backend: .cpu)`),
/// with the same cases and comparison as `RenderConformanceTests` (GLMapTesting's runner). The
/// reference is an oracle for the GPU path rather than a MapLibre port; the cases it fails are
/// listed with their reasons in `ReferenceConformance-known-failures.txt`, with the pass floor.
/// Each case is its own test case: a listed case that fails is a known issue, any other failing
/// case fails its test, and the pass count must not drop below the floor.
@Suite struct ReferenceConformanceTests {
    static let knownFailuresFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("ReferenceConformance-known-failures.txt")

    /// Every case drawn by the CPU reference once, on worker threads with one renderer each.
    static let cpuRun: [String: RenderTestResult] = {
        let dir = RenderConformanceTests.outDir("reference-conformance")
        try? FileManager.default.removeItem(at: dir)
        let jobs = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let runner = RenderTestRunner(backend: .cpu, jobs: jobs, artifactsDirectory: dir.path, keepsPassingImages: false)
        return Dictionary(uniqueKeysWithValues: runner.run(SharedData.renderCases).map { ($0.testCase.name, $0) })
    }()

    @Test func suiteIsPresent() throws {
        try SharedData.require("render tests", at: SharedData.renderTests.appendingPathComponent("cases"))
        #expect(!SharedData.renderCases.isEmpty, "\(SharedData.missing("render tests", at: SharedData.renderTests))")
    }

    @Test("render case on the CPU reference renderer", arguments: SharedData.renderCases)
    func renderCase(_ c: RenderTestCase) throws {
        let result = try #require(Self.cpuRun[c.name])
        RenderConformanceTests.judge(result, known: try KnownFailures(contentsOf: Self.knownFailuresFile.path), list: Self.knownFailuresFile,
                                     label: "reference render conformance",
                                     images: "actual and diff images in \(RenderConformanceTests.outDir("reference-conformance").path)")
    }

    @Test func passCountHoldsTheFloor() throws {
        try SharedData.require("render tests", at: SharedData.renderTests.appendingPathComponent("cases"))
        let known = try KnownFailures(contentsOf: Self.knownFailuresFile.path)
        let passed = RenderConformanceTests.printCounts(SharedData.renderCases.compactMap { Self.cpuRun[$0.name] },
                                                        label: "reference render conformance")
        #expect(passed >= known.floor, "CPU reference pass count \(passed) fell below the floor \(known.floor) in \(Self.knownFailuresFile.lastPathComponent)")
    }
}
