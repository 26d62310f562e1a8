import Foundation
import Testing
import GLMapCore
import GLMapPNG
import GLMapTesting
import GLMapTestSupport
@testable import GLMap

/// The GPU path against the CPU reference renderer on the render-suite cases of the fill-extrusion,
/// heatmap and pattern families that need nothing else (manifest families `layer:fill-extrusion`,
/// `layer:fill-extrusion,pattern`, `layer:heatmap`, `pattern`, `operations,pattern`): each case
/// drawn by the harness's rules on both backends, compared as `BackendAgreementTests` compares
/// (pixelmatch mismatch fraction ≤ 0.001 at threshold 0.1285). Known differences are listed with
/// their reason in `BackendAgreement-new-layers-known-differences.txt`, with the agreeing count's
/// floor.
@Suite struct BackendAgreementNewLayersTests {
    static let knownFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("BackendAgreement-new-layers-known-differences.txt")

    static let families: Set<String> = ["layer:fill-extrusion", "layer:fill-extrusion,pattern", "layer:heatmap", "pattern",
                                        "operations,pattern", "layer:fill-extrusion,operations,pattern"]

    static let cases: [RenderTestCase] = {
        let manifest = (try? RenderSuite.manifest(assetRoot: SharedData.renderSuite.path)) ?? [:]
        return SharedData.renderSuiteCases.filter { manifest[$0.name].map { families.contains($0.family) } ?? false }
    }()

    /// Every case drawn by both backends (one renderer each, on one thread), compared once.
    static let outcomes: [String: Result<BackendAgreementTests.Outcome, BackendAgreementTests.RenderFailure>] = {
        let gpu = MapRenderer(backend: .gpu), cpu = MapRenderer(backend: .cpu)
        var out: [String: Result<BackendAgreementTests.Outcome, BackendAgreementTests.RenderFailure>] = [:]
        for c in cases {
            out[c.name] = Result {
                let a = try RenderTestSession.draw(c, renderer: gpu).image
                let b = try RenderTestSession.draw(c, renderer: cpu).image
                return try BackendAgreementTests.compare(c.name, a, b)
            }.mapError { BackendAgreementTests.RenderFailure(message: "\(c.name): \($0)") }
        }
        return out
    }()

    @Test func casesArePresent() throws {
        try SharedData.require("the render suite", at: SharedData.renderSuite.appendingPathComponent("cases"))
        #expect(Self.cases.count >= 80, "fill-extrusion, heatmap and pattern cases of the render suite: \(Self.cases.count)")
    }

    @Test("render-suite case: GPU agrees with the CPU reference", arguments: BackendAgreementNewLayersTests.cases)
    func renderSuiteCase(_ c: RenderTestCase) throws {
        let known = try KnownFailures(contentsOf: Self.knownFile.path)
        let outcome = try #require(Self.outcomes[c.name]).get()
        BackendAgreementTests.judge(outcome, known: known, knownFile: Self.knownFile)
    }

    @Test func holdTheFloor() throws {
        try SharedData.require("the render suite", at: SharedData.renderSuite.appendingPathComponent("cases"))
        let floor = try KnownFailures(contentsOf: Self.knownFile.path).floor
        let agreeing = Self.outcomes.values.compactMap { try? $0.get() }.filter { $0.fraction <= BackendAgreementTests.allowed }.count
        print("backend agreement (fill-extrusion, heatmap, pattern cases): \(agreeing) of \(Self.outcomes.count) agree")
        #expect(agreeing >= floor, "\(agreeing) cases agree, fewer than the floor \(floor) in \(Self.knownFile.lastPathComponent)")
    }
}
