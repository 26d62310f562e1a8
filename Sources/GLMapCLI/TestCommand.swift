import Foundation
import GLMap
import GLMapCore
import GLMapTesting
#if canImport(Glibc)
import Glibc
#endif

/// `glmap test`: runs render-test folders (MapLibre's layout) and judges them; the logic lives in
/// GLMapTesting (RenderTestRunner, RenderTestSummary, JUnitReport, HTMLReport).
public enum TestCommand {
    static let options: [CommandLineArguments.Option] = [
        .init("jobs", "j", help: "cases rendered in parallel, one renderer per thread (default: the number of cores)"),
        .init("filter", help: "run only cases whose name matches this regular expression"),
        .init("update", value: false, help: "write expected.png for cases that have none; --update=all rewrites every expected.png"),
        .init("update-all", value: false, help: "same as --update=all"),
        .init("known", help: "known-failures file: case<TAB>reason lines, optional floor<TAB>N"),
        .init("junit", help: "write JUnit XML to this file"),
        .init("report", help: "write an HTML report (index.html and the images) into this folder"),
        .init("backend", help: "auto (default), gpu or cpu"),
        .init("quiet", "q", value: false, help: "no progress bar"),
        .init("help", value: false, help: "show this help"),
    ]

    static let help = """
    usage: glmap test DIR... [--jobs N] [--filter PATTERN] [--update | --update=all] [--known FILE]
                             [--junit FILE] [--report DIR] [--backend auto|gpu|cpu] [--quiet]

    Renders every case below DIR in MapLibre's render-test layout (<case>/style.json with
    metadata.test, one or more expected*.png; a DIR with a cases/ folder is searched from there)
    by GL JS's harness rules: URLs localized onto the asset folders beside cases/ (never the
    network), metadata.test.operations applied through the runtime styling API. It compares each
    with pixelmatch 7.1.0: a case passes when the smallest mismatching fraction over its expected
    images is at most `allowed` and it asks for nothing glmap does not do (an operation it does not
    implement, a feature it does not draw yet). With the suite's manifest.tsv beside cases/, prints
    passes per family. Ends with "N passed, M failed".

    options:
    \(CommandLineArguments.helpLines(options))

    exit codes: 0 no unexpected failure, 1 an unexpected failure (or fewer passes than the known
                file's floor), 2 bad usage, a missing folder, no case found, a bad known-failures file

    """

    /// Runs `glmap test` with `args` (after the subcommand name); returns the exit code.
    public static func run(_ args: [String], io: CommandIO) throws -> Int32 {
        // `--update=all` is the one option with an optional value.
        let mapped = args.map { $0 == "--update=all" ? "--update-all" : $0 }
        if let bad = mapped.first(where: { $0.hasPrefix("--update=") }) {
            throw UsageError("\(bad): --update takes no value other than =all")
        }
        let (dirs, rest) = CommandLineArguments.splitPositionals(mapped, options: options)
        let a = try CommandLineArguments(rest, options: options)
        if a.flag("help") {
            io.writeStdout(Array(help.utf8))
            return 0
        }
        guard !dirs.isEmpty else { throw UsageError("glmap test needs at least one folder of cases; see glmap test --help") }
        let jobs = try a.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        guard jobs >= 1 else { throw UsageError("--jobs expects at least 1, got \(jobs)") }
        let backend = try a.backend()
        let update: RenderTestRunner.UpdateMode = a.flag("update-all") ? .all : (a.flag("update") ? .missing : .none)
        let known = try a.string("known").map { try KnownFailures(contentsOf: $0) } ?? KnownFailures()
        for path in [a.string("junit")].compactMap({ $0 }) { try OutputFolder.requireParent(of: path) }
        let report = try a.string("report").map(prepareReportFolder)

        let filter = a.string("filter")
        let cases = try RenderTestCase.discover(in: dirs, filter: filter)
        guard !cases.isEmpty else {
            throw InputFailure("no render-test case (a folder with style.json) under \(dirs.joined(separator: ", "))"
                               + (filter.map { " matching --filter \"\($0)\"" } ?? ""))
        }
        // Settle the backend once (auto: GPU, else CPU, said once), so every worker draws with the same one.
        let probe = MapRenderer(backend: backend)
        try probe.prepare()
        io.noteCPUFallback(probe.fallbackReason)
        let runner = RenderTestRunner(backend: probe.activeBackend ?? backend, jobs: jobs, update: update, artifactsDirectory: report)
        let showProgress = !a.flag("quiet") && isatty(STDERR_FILENO) != 0
        let columns = terminalColumns()
        let failedSoFar = Locked(0)
        let stderr = StderrSink(io.writeStderr)
        let results = runner.run(cases) { done, total, result in
            guard showProgress else { return }
            if !result.isPass && known.reasons[result.testCase.name] == nil { failedSoFar.withLock { $0 += 1 } }
            let line = ProgressBar.line(done: done, total: total, current: result.testCase.name, failed: failedSoFar.value, columns: columns)
            stderr.write("\r\u{1B}[2K" + line + (done == total ? "\r\u{1B}[2K" : ""))
        }
        let summary = RenderTestSummary(results: results, known: known, checksFloor: filter == nil)

        var out = ""
        for r in summary.unexpected { out += "FAIL \(r.testCase.name): \(r.message)\n" }
        for r in summary.knownFailing { out += "known failure \(r.testCase.name): \(r.message) (\(summary.knownReason(r) ?? ""))\n" }
        for r in summary.nowPassing { out += "now passing (remove it from the known-failures list): \(r.testCase.name)\n" }
        for r in summary.updated { out += "updated \(r.testCase.name): \(r.message)\n" }
        if let problem = summary.floorProblem { out += "FAIL floor: \(problem)\n" }
        // Per family of the suite's manifest (MapLibre's render suite), when the cases have one.
        let manifests = try RenderSuiteSummary.manifests(for: cases)
        if manifests.values.contains(where: { !$0.isEmpty }) {
            for line in RenderSuiteSummary(results: results, manifests: manifests).lines { out += line + "\n" }
        }
        if let junit = a.string("junit") {
            try JUnitReport.write(summary, to: junit)
            out += "junit: \(junit)\n"
        }
        if let report {
            try HTMLReport.write(summary, to: report)
            out += "report: \((report as NSString).appendingPathComponent("index.html"))\n"
        }
        out += summary.closingLine + "\n"
        io.writeStdout(Array(out.utf8))
        return summary.succeeded ? 0 : 1
    }

    /// The terminal's width (80 when it cannot be read).
    static func terminalColumns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Creates the report folder; an earlier report there is replaced, any other non-empty folder refused.
    static func prepareReportFolder(_ path: String) throws -> String {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDir) {
            guard isDir.boolValue else { throw UsageError("--report \(path): exists and is not a folder") }
            let entries = (try? fm.contentsOfDirectory(atPath: path)) ?? []
            if !entries.isEmpty {
                guard entries.contains("index.html") else {
                    throw UsageError("--report \(path): the folder is not empty and holds no earlier report; choose an empty or new folder")
                }
                try? fm.removeItem(atPath: (path as NSString).appendingPathComponent("cases"))
            }
        } else {
            do { try fm.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
                throw IOFailure(path: path, message: "cannot create the report folder: \(error.localizedDescription)")
            }
        }
        return path
    }
}

/// Hands the progress line to the command's stderr from the worker threads (callbacks are serialised).
private final class StderrSink: @unchecked Sendable {
    private let write_: (String) -> Void
    init(_ write: @escaping (String) -> Void) { write_ = write }
    func write(_ s: String) { write_(s) }
}
