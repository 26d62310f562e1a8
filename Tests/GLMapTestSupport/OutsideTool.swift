import Foundation
import XCTest

/// The outside tools tests drive (Python with pymgl, Pillow…; chromium, curl…). The rule for each:
/// a missing tool skips its test with a clear message locally, and fails it when `CI=true` (CI
/// installs everything, so a green CI never hides a skipped suite).
public enum OutsideTool {
    /// Whether `CI=true`: a missing tool then fails instead of skipping.
    public static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// `$GLMAP_PYTHON`, else `<repo>/.venv/bin/python` (made by `bash .ci/install-deps`), when it is executable.
    public static var python: String? {
        if let p = ProcessInfo.processInfo.environment["GLMAP_PYTHON"], !p.isEmpty { return p }
        let venv = SharedData.packageRoot.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    /// The Python, if it can import `modules`; otherwise why not (for suites that decide up front).
    public static func findPython(importing modules: [String]) -> Result<String, ToolMissing> {
        guard let py = python else {
            return .failure(ToolMissing("no Python with \(modules.joined(separator: ", ")) (set GLMAP_PYTHON or run bash .ci/install-deps)"))
        }
        let r = run(py, ["-c", modules.map { "import \($0)" }.joined(separator: "; ")])
        if r.status == 0 { return .success(py) }
        return .failure(ToolMissing("\(py) cannot import \(modules.joined(separator: ", ")): \(r.stderr.suffix(300))"))
    }

    /// A command on PATH, or why not.
    public static func findCommand(_ name: String, package: String) -> Result<String, ToolMissing> {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return .success(p) }
        }
        return .failure(ToolMissing("\(name) is not installed (Debian package \(package); bash .ci/install-deps)"))
    }

    /// The Python, after checking it can import `modules`; skips (or fails in CI) otherwise.
    public static func requirePython(_ modules: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try require(findPython(importing: modules), file: file, line: line)
    }

    /// A command on PATH; skips (or fails in CI) when it is missing.
    public static func requireCommand(_ name: String, package: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try require(findCommand(name, package: package), file: file, line: line)
    }

    /// The found tool, or the skip (a failure too under CI) that says why it is missing.
    public static func require(_ found: Result<String, ToolMissing>, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        switch found {
        case .success(let path): return path
        case .failure(let missing):
            if inCI { XCTFail(missing.reason, file: file, line: line) }
            throw XCTSkip(missing.reason)
        }
    }

    /// Runs a program to completion (bounded by `timeout` seconds) and returns its status and output.
    @discardableResult
    public static func run(_ program: String, _ args: [String], stdin: [UInt8] = [], environment: [String: String]? = nil,
                           in directory: URL? = nil, timeout: TimeInterval = 300) -> (status: Int32, stdout: [UInt8], stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = args
        if let environment { p.environment = environment }
        if let directory { p.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out; p.standardError = err; p.standardInput = inp
        do { try p.run() } catch { return (127, [], "cannot start \(program): \(error)") }
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter(); DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter(); DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        inp.fileHandleForWriting.write(Data(stdin))
        try? inp.fileHandleForWriting.close()
        if group.wait(timeout: .now() + timeout) == .timedOut { p.terminate() }
        p.waitUntilExit()
        group.wait()
        return (p.terminationStatus, [UInt8](outData), String(decoding: errData, as: UTF8.self))
    }
}

/// Why an outside tool cannot be used here.
public struct ToolMissing: Error, CustomStringConvertible {
    /// What is missing and how to install it.
    public let reason: String
    /// Wraps the reason.
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
