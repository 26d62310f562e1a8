// RenderTestSummary — the run's verdict once the known-failures list is applied.
//
// A failing or erroring case is a known failure when the list names it, else an unexpected failure;
// a listed case that passes is reported as "now passing" (remove it from the list). The run fails
// (exit 1) on any unexpected failure, or when fewer cases pass than the list's floor (the floor is
// checked only when every case ran, i.e. without a filter).
import Foundation

/// Results of a run judged against a known-failures list.
public struct RenderTestSummary: Sendable {
    /// Every result, in case order.
    public var results: [RenderTestResult]
    /// The list applied.
    public var known: KnownFailures
    /// Whether the floor applies (false when a filter selected a subset).
    public var checksFloor: Bool

    /// Judges `results` against `known`.
    public init(results: [RenderTestResult], known: KnownFailures = KnownFailures(), checksFloor: Bool = true) {
        self.results = results
        self.known = known
        self.checksFloor = checksFloor
    }

    /// Passing cases (including those update mode wrote).
    public var passed: [RenderTestResult] { results.filter(\.isPass) }
    /// Failing or erroring cases.
    public var failed: [RenderTestResult] { results.filter { !$0.isPass } }
    /// Failing cases the list does not name.
    public var unexpected: [RenderTestResult] { failed.filter { known.reasons[$0.testCase.name] == nil } }
    /// Failing cases the list names.
    public var knownFailing: [RenderTestResult] { failed.filter { known.reasons[$0.testCase.name] != nil } }
    /// Listed cases that pass now.
    public var nowPassing: [RenderTestResult] { passed.filter { known.reasons[$0.testCase.name] != nil } }
    /// Cases written by update mode.
    public var updated: [RenderTestResult] { results.filter { $0.status == .updated } }

    /// The known-failure reason of a case, if listed.
    public func knownReason(_ r: RenderTestResult) -> String? { known.reasons[r.testCase.name] }

    /// Why the floor fails, or nil when it holds or does not apply.
    public var floorProblem: String? {
        guard checksFloor, passed.count < known.floor else { return nil }
        return "\(passed.count) cases passed, fewer than the floor of \(known.floor) in the known-failures list"
    }

    /// Whether the run is a success (no unexpected failure, floor held).
    public var succeeded: Bool { unexpected.isEmpty && floorProblem == nil }

    /// The closing line: `N passed, M failed`, with the known/unexpected split when a list is used.
    public var closingLine: String {
        var line = "\(passed.count) passed, \(failed.count) failed"
        if !known.reasons.isEmpty || known.floor > 0 {
            line += " (\(knownFailing.count) known, \(unexpected.count) unexpected)"
        }
        return line
    }

    /// Results ordered for a person: unexpected failures, then known failures, then the rest, each
    /// group in case order.
    public var failuresFirst: [RenderTestResult] { unexpected + knownFailing + passed }
}
