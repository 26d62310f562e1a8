import Foundation
import XCTest
import GLMap
import GLMapCore
@testable import GLMapServer

/// A request past its timeout is answered 504 and its render really stops (the worker does not
/// finish it, and goes on with the next job on the same renderer); the server listens on IPv6
/// loopback (`--bind ::1`, `[::1]`, `::`), tested with curl over ::1.
final class ServerTimeoutAndIPv6Tests: XCTestCase {
    func testTimedOutRenderIsInterruptedAndTheRendererKeepsServing() throws {
        let clean = try startServer { $0.backend = .gpu; $0.cacheMiB = 0 }
        let expected = try curl("\(clean.base)/styles/dc/11/585/783.png")
        clean.stop()
        XCTAssertEqual(expected.status, 200)

        var c = ServerConfiguration(styles: [try .parse("dc=\(exampleStyle)")])
        c.port = 0; c.jobs = 1; c.backend = .gpu; c.timeout = 0.5; c.cacheMiB = 0
        let s = try TileServer(configuration: c)
        let calls = Locked(0)
        // The first job's worker is held until its request has timed out (the waiter has given
        // up), then renders: the render must stop at its first check instead of finishing.
        s.pool.testHookBeforeRender = { _, job in
            guard calls.withLock({ $0 += 1; return $0 }) == 1 else { return }
            let deadline = Date().addingTimeInterval(20)
            while !job.cancelled && Date() < deadline { usleep(5_000) }
        }
        try s.start(); defer { s.stop() }
        let late = try curl("\(s.base)/styles/dc/11/585/783.png")
        XCTAssertEqual(late.status, 504)
        XCTAssertTrue(String(decoding: late.body, as: UTF8.self).hasPrefix("the image was not ready within 0.5 s"))
        // The interrupted render is counted (wait for the worker to reach its check).
        let until = Date().addingTimeInterval(20)
        while s.metrics.value("renders_interrupted") == 0 && Date() < until { usleep(10_000) }
        XCTAssertEqual(s.metrics.value("renders_interrupted"), 1)
        XCTAssertEqual(s.metrics.value("renders"), 0, "the timed-out render was not finished")
        // The same renderer serves the next request, byte-identical to a clean server's tile.
        let again = try curl("\(s.base)/styles/dc/11/585/783.png")
        XCTAssertEqual(again.status, 200)
        XCTAssertTrue(again.body == expected.body, "the tile after an interrupted render differs")
        XCTAssertEqual(s.metrics.value("renderer_replacements"), 0, "an interruption does not break the renderer")
        let metrics = String(decoding: try curl("\(s.base)/metrics").body, as: UTF8.self)
        XCTAssertTrue(metrics.contains("glmap_renders_interrupted_total 1\n"), metrics)
    }

    func server(bind: String) throws -> TileServer {
        try startServer { $0.bindAddress = bind; $0.cacheMiB = 0 }
    }

    func testIPv6Loopback() throws {
        for bind in ["::1", "[::1]"] {
            let s = try server(bind: bind); defer { s.stop() }
            XCTAssertEqual(s.configuration.urlHost, "[::1]")
            let h = try curl("http://[::1]:\(s.port)/health", ["-g"])
            XCTAssertEqual(h.status, 200, bind)
            XCTAssertEqual(String(decoding: h.body, as: UTF8.self), "ok\n")
            let tile = try curl("http://[::1]:\(s.port)/styles/dc/11/585/783.png", ["-g"])
            XCTAssertEqual(tile.status, 200)
            XCTAssertEqual(Array(tile.body.prefix(8)), [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
            // TileJSON without a Host header the client chose: the URL host is bracketed.
            let tj = try curl("http://[::1]:\(s.port)/styles/dc.json", ["-g", "-H", "Host:"])
            XCTAssertTrue(String(decoding: tj.body, as: UTF8.self).contains("http://[::1]:\(s.port)/styles/dc/"), bind)
            // Bound to ::1 only: IPv4 loopback is refused.
            XCTAssertThrowsError(try curl("http://127.0.0.1:\(s.port)/health"), "\(bind) listens on IPv4 too")
        }
    }

    func testIPv6AnyAcceptsBothFamilies() throws {
        let s = try server(bind: "::"); defer { s.stop() }
        XCTAssertEqual(try curl("http://[::1]:\(s.port)/health", ["-g"]).status, 200)
        XCTAssertEqual(try curl("http://127.0.0.1:\(s.port)/health").status, 200, ":: is dual-stack here")
    }

    func testBadBindAddressIsInvalidInput() throws {
        for bind in ["localhost", "::g", "1.2.3", "[::1", ""] {
            var c = ServerConfiguration(styles: [try .parse("dc=\(exampleStyle)")])
            c.bindAddress = bind
            XCTAssertThrowsError(try c.validate(), bind) { e in
                XCTAssertEqual((e as? GLMapError)?.kind, .invalidInput)
                XCTAssertTrue("\(e)".hasPrefix("--bind expects an IPv4 or IPv6 address"), "\(e)")
            }
        }
    }
}
