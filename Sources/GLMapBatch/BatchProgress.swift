import GLMap
import Foundation

/// Progress of a batch on stderr: a redrawn bar (frames done, rate, ETA) when stderr is a terminal,
/// else one summary line at the end; nothing when quiet.
public final class BatchProgress {
    /// How progress is shown.
    public enum Mode: Sendable { case bar, summary, quiet }

    /// Units in the batch (frames or tiles).
    public let total: Int
    /// How progress is shown.
    public let mode: Mode
    private let write: (String) -> Void
    private let started = Date()
    private var lastDraw = -1.0
    private let noun: String

    /// `noun` names the unit ("frames", "tiles").
    public init(total: Int, mode: Mode, noun: String = "frames", write: @escaping (String) -> Void) {
        (self.total, self.mode, self.noun, self.write) = (total, mode, noun, write)
    }

    /// The mode for a process: a bar when stderr is a terminal, else a summary (quiet wins).
    public static func mode(quiet: Bool) -> Mode {
        quiet ? .quiet : (isatty(STDERR_FILENO) != 0 ? .bar : .summary)
    }

    /// Reports `done` finished units (redraws the bar at most 10 times a second).
    public func update(_ done: Int) {
        guard mode == .bar else { return }
        let t = -started.timeIntervalSinceNow
        guard t - lastDraw >= 0.1 || done == total else { return }
        lastDraw = t
        write("\r" + BatchProgress.bar(done: done, total: total, seconds: t, noun: noun) + "\u{1B}[K")
    }

    /// Ends the display: the final bar line, or the one-line summary.
    public func finish(_ done: Int) {
        let t = -started.timeIntervalSinceNow
        switch mode {
        case .quiet: return
        case .bar:
            write("\r" + BatchProgress.bar(done: done, total: total, seconds: t, noun: noun) + "\u{1B}[K\n")
        case .summary:
            write(BatchProgress.summary(done: done, total: total, seconds: t, noun: noun) + "\n")
        }
    }

    /// "[#####.....]  120/341 frames  45.2/s  ETA 5s"
    static func bar(done: Int, total: Int, seconds: Double, noun: String) -> String {
        let width = 24
        let filled = total == 0 ? width : min(width, done * width / total)
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        return "[\(bar)] \(done)/\(total) \(noun)  " + String(format: "%.1f/s  ETA %@", rate, BatchProgress.duration(eta))
    }

    /// "glmap: 341 tiles in 3.2 s (106.5 tiles/s)"
    static func summary(done: Int, total: Int, seconds: Double, noun: String) -> String {
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let of = done == total ? "" : " of \(total)"
        return "glmap: \(done)\(of) \(noun) in " + String(format: "%.2f s (%.1f %@/s)", seconds, rate, noun)
    }

    static func duration(_ s: Double) -> String {
        let n = Int(s.rounded())
        return n >= 3600 ? "\(n / 3600)h\(n % 3600 / 60)m" : n >= 60 ? "\(n / 60)m\(n % 60)s" : "\(n)s"
    }
}
