// RenderSuiteSummary — a render-suite run counted per family, and the known-failure reason each
// failing case gets from what it needs.
//
// Inputs:  results (RenderTestResult) and the manifest of each case's suite (RenderSuite.manifest).
// Outputs: passes / cases per family (the manifest's `needs_beyond_current_subset`; "(no
//          manifest)" for cases of a suite without one), one line each, families by size; and
//          `reason(for:entry:)`: the missing features a failing case needs, from its manifest
//          entry ("symbol layers not drawn; vector sources not loaded"), else what glmap reported
//          it cannot do (an operation, a stored feature), else nil (the case needs only what glmap
//          draws: its reason is the real difference, written by a person).
import Foundation

/// Pass counts per family of a render-suite run.
public struct RenderSuiteSummary: Sendable {
    /// One family's count.
    public struct Family: Sendable, Equatable {
        /// The manifest's `needs_beyond_current_subset` ("-": nothing beyond the subset).
        public var name: String
        /// Passing cases.
        public var passed: Int
        /// Cases.
        public var total: Int
    }

    /// Families, largest first (ties by name).
    public var families: [Family]

    /// Counts `results` by the family of each case (`manifests` by asset root, read when absent).
    public init(results: [RenderTestResult], manifests: [String: [String: RenderSuite.ManifestEntry]]) {
        var counts: [String: (Int, Int)] = [:]
        for r in results {
            let family = RenderSuite.family(of: r.testCase, manifest: manifests[r.testCase.assetRoot] ?? [:])
            var c = counts[family] ?? (0, 0)
            c.1 += 1
            if r.isPass { c.0 += 1 }
            counts[family] = c
        }
        families = counts.map { Family(name: $0.key, passed: $0.value.0, total: $0.value.1) }
            .sorted { $0.total != $1.total ? $0.total > $1.total : $0.name < $1.name }
    }

    /// The manifests of the suites `cases` come from, by asset root (a suite without one: empty).
    public static func manifests(for cases: [RenderTestCase]) throws -> [String: [String: RenderSuite.ManifestEntry]] {
        var out: [String: [String: RenderSuite.ManifestEntry]] = [:]
        for root in Set(cases.map(\.assetRoot)) { out[root] = try RenderSuite.manifest(assetRoot: root) }
        return out
    }

    /// `family <name>: <passed>/<total>` lines, and the total.
    public var lines: [String] {
        let passed = families.reduce(0) { $0 + $1.passed }, total = families.reduce(0) { $0 + $1.total }
        return families.map { "family \($0.name): \($0.passed)/\($0.total)" } + ["all families: \(passed)/\(total)"]
    }

    /// What each need of the manifest means glmap lacks; needs glmap meets (feature-state,
    /// operations) have no entry.
    public static let missingFeature: [String: String] = [
        "source:video": "video sources not loaded",
        "source:canvas": "canvas sources not supported",
        "projection-globe": "globe projection not drawn",
        "terrain": "terrain not drawn",
        "sky": "sky not drawn",
        "roll": "camera roll not supported",
        "debug-overlay": "debug overlays not drawn",
        "custom-layer": "custom layers not supported",
        "mlt": "MLT tiles not decoded",
    ]

    /// The reason a failing case fails, from what it needs (see the file's contract); nil when it
    /// needs nothing glmap lacks and reported nothing it cannot do.
    public static func reason(for result: RenderTestResult, entry: RenderSuite.ManifestEntry?) -> String? {
        let missing = (entry?.needs ?? []).compactMap { missingFeature[$0] }
        if !missing.isEmpty { return missing.joined(separator: "; ") }
        let prefix = RenderTestRunner.unsupportedPrefix
        if result.message.hasPrefix(prefix) {
            let rest = result.message.dropFirst(prefix.count)
            let end = rest.range(of: "; difference ")?.lowerBound ?? rest.range(of: "; no expected")?.lowerBound ?? rest.endIndex
            return String(rest[..<end])
        }
        return nil
    }
}
