import Foundation
import XCTest
import GLMapCLI
import GLMapTestSupport
@testable import GLMapServer
import GLMapCore

/// The example style that ships with the repository (Washington DC).
let exampleStyle = SharedData.exampleStyle

/// The path of an outside tool, or a skip (locally) / failure (CI=true) naming how to install it.
func tool(_ name: String, candidates: [String], install: String) throws -> String {
    let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    return try OutsideTool.require(found.map { .success($0) }
        ?? .failure(ToolMissing("\(name) not found (\(candidates.joined(separator: ", "))); install it with \(install)")))
}

func curlPath() throws -> String { try tool("curl", candidates: ["/usr/bin/curl"], install: "apt-get install curl (bash .ci/install-deps)") }

func pythonPath() throws -> String {
    var c: [String] = []
    if let p = ProcessInfo.processInfo.environment["GLMAP_PYTHON"] { c.append(p) }
    c += [SharedData.packageRoot.appendingPathComponent(".venv/bin/python").path, "/usr/bin/python3"]
    return try tool("python", candidates: c, install: "bash .ci/install-deps")
}

/// Runs a program with a time limit; returns the exit status, stdout and stderr.
@discardableResult
func runTool(_ path: String, _ args: [String], stdin: [UInt8]? = nil, timeout: Double = 60) throws -> (code: Int32, stdout: [UInt8], stderr: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    let out = Pipe(), err = Pipe(), input = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = input
    let outData = Locked(Data()), errData = Locked(Data())
    let group = DispatchGroup()
    for (pipe, box) in [(out, outData), (err, errData)] {
        group.enter()
        DispatchQueue.global().async { let data = pipe.fileHandleForReading.readDataToEndOfFile(); box.withLock { $0 = data }; group.leave() }
    }
    try p.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin)) }
    try? input.fileHandleForWriting.close()
    let deadline = Date().addingTimeInterval(timeout)
    while p.isRunning && Date() < deadline { usleep(10_000) }
    if p.isRunning {
        p.terminate()
        p.waitUntilExit()
        group.wait()
        throw NSError(domain: "timeout", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(path) \(args.prefix(3)) did not finish within \(timeout) s"])
    }
    p.waitUntilExit()
    group.wait()
    return (p.terminationStatus, [UInt8](outData.value), String(decoding: errData.value, as: UTF8.self))
}


/// Runs a Python script (stdlib only) with arguments; fails the test on a non-zero exit.
func runPython(_ script: String, _ args: [String] = [], timeout: Double = 60, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let r = try runTool(try pythonPath(), ["-c", script] + args, timeout: timeout)
    XCTAssertEqual(r.code, 0, "python failed: \(r.stderr)", file: file, line: line)
    return String(decoding: r.stdout, as: UTF8.self)
}

/// One HTTP response as curl reports it.
struct CurlResponse {
    var status: Int
    var headers: [String: String]   // lower-cased names
    var body: [UInt8]
}

/// GETs `url` with curl (extra arguments before the URL).
func curl(_ url: String, _ extra: [String] = []) throws -> CurlResponse {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-curl-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let bodyPath = dir.appendingPathComponent("body").path, headerPath = dir.appendingPathComponent("headers").path
    let r = try runTool(try curlPath(), ["-s", "--max-time", "60", "-o", bodyPath, "-D", headerPath, "-w", "%{http_code}"] + extra + [url])
    guard r.code == 0 else { throw NSError(domain: "curl", code: Int(r.code), userInfo: [NSLocalizedDescriptionKey: "curl \(url) exited \(r.code): \(r.stderr)"]) }
    var headers: [String: String] = [:]
    let text = (try? String(contentsOfFile: headerPath, encoding: .utf8)) ?? ""
    for line in text.split(separator: "\r\n") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let body = FileManager.default.contents(atPath: bodyPath).map { [UInt8]($0) } ?? []
    return CurlResponse(status: Int(String(decoding: r.stdout, as: UTF8.self)) ?? -1, headers: headers, body: body)
}

/// Starts a server on 127.0.0.1 and an ephemeral port; stopped by `stop()` (tests call it in a defer).
func startServer(styles: [String] = ["dc=\(exampleStyle)"], configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TileServer {
    var c = ServerConfiguration(styles: try styles.map(ServerConfiguration.StyleEntry.parse))
    c.port = 0
    c.jobs = 2
    c.drainTimeout = 10
    configure(&c)
    let s = try TileServer(configuration: c)
    try s.start()
    return s
}

extension TileServer {
    var base: String { "http://127.0.0.1:\(port)" }
}

/// A CommandIO that keeps everything (the in-process `glmap tiles`/`glmap render` runs).
func quietIO() -> CommandIO {
    CommandIO(readStdin: { [] }, writeStdout: { _ in }, writeStderr: { _ in })
}

func makeTempDir() -> URL {
    let u = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-serve-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
    return u
}

/// A file an outside package installs, or a skip (locally) / failure (CI=true) naming the package.
func requireFile(_ path: String, install: String) throws {
    guard !FileManager.default.fileExists(atPath: path) else { return }
    _ = try OutsideTool.require(.failure(ToolMissing("\(path) not found; install it with \(install)")))
}
