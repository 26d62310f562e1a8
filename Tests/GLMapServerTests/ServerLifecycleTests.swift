import Foundation
import XCTest
import GLMap
import GLMapPNG
@testable import GLMapGLES
@testable import GLMap
@testable import GLMapBatch
@testable import GLMapServer
import GLMapCore

/// A renderer hitting a GL failure is replaced; SIGTERM lets the requests in flight finish.
final class ServerLifecycleTests: XCTestCase {
    func testGLFailureReplacesTheRendererAndTheTileIsStillRight() throws {
        let clean = try startServer { $0.backend = .gpu }; defer { clean.stop() }
        let expected = try curl("\(clean.base)/styles/dc/11/585/783.png")
        XCTAssertEqual(expected.status, 200)

        var c = ServerConfiguration(styles: [try .parse("dc=\(exampleStyle)")])
        c.port = 0; c.jobs = 1; c.backend = .gpu
        let s = try TileServer(configuration: c)
        let injected = Locked(false)   // only the first render gets the GL error
        // A real GL error on the worker's own context, before its first frame is drawn.
        s.pool.testHookBeforeRender = { renderer, _ in if injected.withLock({ done in defer { done = true }; return !done }) { renderer.gl?.inject(.invalidEnum) } }
        try s.start(); defer { s.stop() }
        let r = try curl("\(s.base)/styles/dc/11/585/783.png")
        XCTAssertEqual(r.status, 200)
        XCTAssertTrue(r.body == expected.body, "the tile drawn on the new renderer differs")
        XCTAssertEqual(s.metrics.value("renderer_replacements"), 1)
        XCTAssertTrue(String(decoding: try curl("\(s.base)/metrics").body, as: UTF8.self).contains("glmap_renderer_replacements_total 1\n"))
        // The new renderer keeps serving.
        XCTAssertEqual(try curl("\(s.base)/styles/dc/10/292/391.png").status, 200)
    }

    func testSIGTERMDrainsRequestsInFlightAndExits0() throws {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("glmap")
        guard FileManager.default.isExecutableFile(atPath: exe.path) else {
            return XCTFail("glmap executable not found next to the test bundle at \(exe.path); build it with swift build")
        }
        _ = try curlPath()
        let p = Process()
        p.executableURL = exe
        p.arguments = ["serve", "--style", "dc=\(exampleStyle)", "--port", "0", "--jobs", "1"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        // "glmap: serving dc on http://127.0.0.1:PORT (1 workers)"
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("workers)") && Date() < deadline {
            let d = err.fileHandleForReading.availableData
            if d.isEmpty { break }
            text += String(decoding: d, as: UTF8.self)
        }
        guard let r = text.range(of: "http://127.0.0.1:"), let port = Int(text[r.upperBound...].prefix { $0.isNumber }) else {
            return XCTFail("no port in: \(text)")
        }
        // A slow request (a 4096² static image), SIGTERM while it renders.
        let result = Locked<CurlResponse?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let response = try? curl("http://127.0.0.1:\(port)/styles/dc/static/-77.02,38.9,12/2048x2048@2x.png")
            result.withLock { $0 = response }
            done.signal()
        }.start()
        // SIGTERM once the request is in flight (/metrics counts itself too, so 2 in flight).
        let inFlightDeadline = Date().addingTimeInterval(30)
        while Date() < inFlightDeadline {
            let m = String(decoding: (try? curl("http://127.0.0.1:\(port)/metrics"))?.body ?? [], as: UTF8.self)
            if let line = m.split(separator: "\n").first(where: { $0.hasPrefix("glmap_http_requests_in_flight ") }),
               let n = Int(line.split(separator: " ").last ?? ""), n >= 2 { break }
            usleep(20_000)
        }
        kill(p.processIdentifier, SIGTERM)
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        let response = try XCTUnwrap(result.value)
        XCTAssertEqual(response.status, 200, "the request in flight was not finished")
        let img = try PNGDecoder.decode(response.body)
        XCTAssertEqual([img.width, img.height], [4096, 4096])
        let exitDeadline = Date().addingTimeInterval(30)
        while p.isRunning && Date() < exitDeadline { usleep(20_000) }
        XCTAssertFalse(p.isRunning)
        XCTAssertEqual(p.terminationStatus, 0)
        let rest = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(rest.contains("stopped (signal 15)"), rest)
        // Nothing listens any more.
        XCTAssertThrowsError(try curl("http://127.0.0.1:\(port)/health"))
    }

}
