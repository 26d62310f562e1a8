import GLMap
import GLMapCore

/// What a batch did: frames delivered, frames re-rendered after a GL failure, frames that failed.
public struct BatchSummary: Equatable, Sendable {
    /// A frame and the GL failure of one of its attempts.
    public struct FailedFrame: Equatable, Sendable {
        /// The frame's index in the batch (0-based).
        public var index: Int
        /// The GL failure (the unusable renderer's reason).
        public var reason: String
    }

    /// Frames in the batch.
    public var total: Int
    /// Frames handed to the encoder pool (all their pieces are delivered once the pool is drained;
    /// a frame cut into tiles counts once).
    public var completed = 0
    /// Every GL failure, in order: the frame whose draw or readback failed, and why.
    public var glFailures: [FailedFrame] = []
    /// Frames drawn again on a new renderer after a GL failure (the failing frame and those whose
    /// pixels were in flight then), ascending, each once.
    public var retried: [Int] = []
    /// Frames that failed for good (their retry on a new renderer failed too; no output), ascending.
    public var failed: [FailedFrame] = []
    /// New renderers created to replace unusable ones.
    public var recreations = 0

    /// An empty summary for a batch of `total` frames.
    public init(total: Int) { self.total = total }

    /// Lines for stderr (empty when no GL failure happened); `describe` names a frame for a person.
    public func report(noun: String, describe: (Int) -> String) -> [String] {
        var lines: [String] = []
        for f in glFailures.prefix(5) { lines.append("glmap: GL failure at \(describe(f.index)): \(f.reason)") }
        if glFailures.count > 5 { lines.append("glmap: … and \(glFailures.count - 5) more GL failures") }
        if !retried.isEmpty {
            let shown = retried.prefix(20).map { describe($0) }.joined(separator: ", ")
            let more = retried.count > 20 ? " and \(retried.count - 20) more" : ""
            lines.append("glmap: GL failure: renderer recreated \(recreations) time\(recreations == 1 ? "" : "s"); re-rendered \(retried.count) \(noun): \(shown)\(more)")
        }
        for f in failed {
            lines.append("glmap: \(describe(f.index)) failed (no output written): \(f.reason)")
        }
        return lines
    }

    /// Writes the report and throws `BatchFramesFailed` if any frame failed (exit code 1).
    public func finish(noun: String, describe: (Int) -> String, write: (String) -> Void) throws {
        for line in report(noun: noun, describe: describe) { write(line + "\n") }
        if !failed.isEmpty { throw BatchFramesFailed(summary: self, noun: noun) }
    }
}

/// Some frames of a batch failed on the GPU even after a retry on a new renderer (exit code 1;
/// the other frames are written).
public struct BatchFramesFailed: GLMapError {
    /// What the batch did, failed frames included.
    public var summary: BatchSummary
    /// The unit in messages ("frames", "tiles").
    public var noun: String
    /// Always `.renderOrIO` (exit code 1).
    public var kind: FailureKind { .renderOrIO }
    /// How many frames failed, of how many, and that the others are written.
    public var description: String {
        "\(summary.failed.count) of \(summary.total) \(noun) failed on the GPU after a retry on a new renderer; the other \(summary.completed) are written"
    }
}

/// The GPU kept failing: several new renderers in a row failed before finishing a frame, so the
/// batch stopped (exit code 1; frames finished before stay written).
public struct BatchGPUFailure: GLMapError {
    /// Renderers recreated in a row that failed.
    public var attempts: Int
    /// The last GL failure.
    public var reason: String
    /// What the batch did before it stopped.
    public var summary: BatchSummary
    /// The unit in messages ("frames", "tiles").
    public var noun: String
    /// Always `.renderOrIO` (exit code 1).
    public var kind: FailureKind { .renderOrIO }
    /// The attempts, the last failure, what stays written, and what to try (`--backend cpu`).
    public var description: String {
        "the GPU failed again after \(attempts) new renderers in a row (last: \(reason)); stopped after \(summary.completed) of \(summary.total) \(noun), which stay written. Check the GPU driver or use --backend cpu"
    }
}
