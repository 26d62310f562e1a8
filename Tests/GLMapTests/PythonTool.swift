import Foundation
import XCTest

/// The Python the tests drive outside tools with (pymgl, Pillow, pmtiles): `$GLMAP_PYTHON` or
/// `<repo>/.venv/bin/python` (made by `bash .ci/install-deps`).
enum PythonTool {
    static var executable: String? {
        if let p = ProcessInfo.processInfo.environment["GLMAP_PYTHON"], !p.isEmpty { return p }
        let venv = packageRoot.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    /// Whether `CI=true`: a missing tool then fails instead of skipping.
    static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The Python, after checking it can import `modules`; skips (or fails in CI) otherwise.
    static func require(_ modules: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let why: String
        if let py = executable {
            let r = run(py, ["-c", modules.map { "import \($0)" }.joined(separator: "; ")])
            if r.status == 0 { return py }
            why = "\(py) cannot import \(modules.joined(separator: ", ")): \(r.stderr.suffix(300))"
        } else {
            why = "no Python with \(modules.joined(separator: ", ")) (set GLMAP_PYTHON or run bash .ci/install-deps)"
        }
        if inCI { XCTFail(why, file: file, line: line); throw XCTSkip(why) }
        throw XCTSkip(why)
    }

    /// Finds a command on PATH; skips (or fails in CI) when it is missing.
    static func requireCommand(_ name: String, package: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        let why = "\(name) is not installed (Debian package \(package); bash .ci/install-deps)"
        if inCI { XCTFail(why, file: file, line: line) }
        throw XCTSkip(why)
    }

    /// Runs a program to completion (bounded by `timeout` seconds) and returns its status and output.
    @discardableResult
    static func run(_ program: String, _ args: [String], stdin: [UInt8] = [], environment: [String: String]? = nil,
                    timeout: TimeInterval = 300) -> (status: Int32, stdout: [UInt8], stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = args
        if let environment { p.environment = environment }
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
