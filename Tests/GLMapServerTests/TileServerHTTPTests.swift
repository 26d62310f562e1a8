import Foundation
import XCTest
import GLMap
import GLMapCLI
import GLMapCore
import GLMapPNG
@testable import GLMapServer

/// `glmap serve` through real clients over loopback (curl, Python's http.client and raw sockets):
/// every URL form, tiles byte-identical to `glmap tiles`, caching headers, the limits, and
/// malformed, slow and pipelined requests answered without harm.
final class TileServerHTTPTests: XCTestCase {
    /// `glmap tiles` output for the example (DC) at z10–11 (256 px, @1x and @2x) and z10 (512 px @2x).
    nonisolated(unsafe) static var tilesDir: URL?
    let bbox = "-77.12,38.85,-76.95,39.0"

    func tiles() throws -> URL {
        if let d = TileServerHTTPTests.tilesDir { return d }
        let d = makeTempDir()
        for (sub, args) in [("256", ["--zoom", "10-11"]), ("256x2", ["--zoom", "11", "--ratio", "2"]), ("512x2", ["--zoom", "10", "--tile-size", "512", "--ratio", "2"])] {
            let code = GLMapCommand.run(["tiles", "--style", exampleStyle, "--bbox", bbox, "--output", d.appendingPathComponent(sub).path, "--quiet"] + args, io: quietIO())
            XCTAssertEqual(code, 0, "glmap tiles \(args)")
        }
        TileServerHTTPTests.tilesDir = d
        return d
    }

    /// The tile files under `dir` as (z, x, file name).
    func tileFiles(_ dir: URL) throws -> [(Int, Int, String)] {
        var out: [(Int, Int, String)] = []
        for z in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            for x in try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(z).path) {
                for f in try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("\(z)/\(x)").path) {
                    out.append((Int(z)!, Int(x)!, f))
                }
            }
        }
        return out.sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
    }

    func checkTilesIdentical(_ server: TileServer, dir: URL, prefixes: [String]) throws {
        let files = try tileFiles(dir)
        XCTAssertGreaterThan(files.count, 0)
        for (z, x, f) in files {
            let expected = try [UInt8](Data(contentsOf: dir.appendingPathComponent("\(z)/\(x)/\(f)")))
            for prefix in prefixes {
                let url = "\(server.base)/styles/dc\(prefix)/\(z)/\(x)/\(f)"
                let r = try curl(url)
                XCTAssertEqual(r.status, 200, url)
                XCTAssertEqual(r.headers["content-type"], "image/png", url)
                XCTAssertTrue(r.body == expected, "\(url) differs from glmap tiles' \(z)/\(x)/\(f) (\(r.body.count) vs \(expected.count) bytes)")
            }
        }
    }

    func testTiles256ByteIdenticalToGlmapTiles() throws {
        let d = try tiles()
        let s = try startServer(); defer { s.stop() }
        try checkTilesIdentical(s, dir: d.appendingPathComponent("256"), prefixes: ["", "/256"])
    }

    func testTiles256At2xByteIdenticalToGlmapTiles() throws {
        let d = try tiles()
        let s = try startServer(); defer { s.stop() }
        try checkTilesIdentical(s, dir: d.appendingPathComponent("256x2"), prefixes: [""])
    }

    func testTiles512At2xByteIdenticalToGlmapTiles() throws {
        let d = try tiles()
        let s = try startServer(); defer { s.stop() }
        try checkTilesIdentical(s, dir: d.appendingPathComponent("512x2"), prefixes: ["/512"])
    }

    func testTileAt3xIs768Pixels() throws {
        let s = try startServer(); defer { s.stop() }
        let r = try curl("\(s.base)/styles/dc/11/585/783@3x.png")
        XCTAssertEqual(r.status, 200)
        let img = try PNGDecoder.decode(r.body)
        XCTAssertEqual([img.width, img.height], [768, 768])
        XCTAssertGreaterThan(Set(stride(from: 0, to: img.pixels.count, by: 4 * 97).map { img.pixels[$0] }).count, 1, "a blank tile")
    }

    func testNeighbouringTilesComeFromOneMetatileRender() throws {
        let d = try tiles().appendingPathComponent("256")
        let s = try startServer(); defer { s.stop() }
        // 11/585–586/782–783 all lie in the metatile 11/584-587/780-783: one render, the rest from the cache.
        var bodies: [[UInt8]] = []
        for (x, y) in [(585, 783), (586, 783), (585, 782), (586, 782)] {
            let r = try curl("\(s.base)/styles/dc/11/\(x)/\(y).png")
            XCTAssertEqual(r.status, 200)
            XCTAssertEqual(r.headers["x-cache"], bodies.isEmpty ? "miss" : "hit", "\(x)/\(y)")
            XCTAssertTrue(r.body == (try [UInt8](Data(contentsOf: d.appendingPathComponent("11/\(x)/\(y).png")))), "11/\(x)/\(y) differs from glmap tiles'")
            bodies.append(r.body)
        }
        XCTAssertEqual(s.metrics.value("renders"), 1)
        XCTAssertEqual(Set(bodies).count, 4, "four different tiles")
        XCTAssertGreaterThanOrEqual(s.cache.count, 16, "every tile of the metatile is cached")
    }

    func testConcurrentRequestsForOneMetatileRenderItOnce() throws {
        let d = try tiles().appendingPathComponent("256")
        var c = ServerConfiguration(styles: [try .parse("dc=\(exampleStyle)")])
        c.port = 0; c.jobs = 2; c.drainTimeout = 10
        let s = try TileServer(configuration: c)
        // The first render waits until the second request has joined it (at most 20 s): without
        // coalescing, the second request would start a render of its own on the other worker.
        let metrics = s.metrics
        s.pool.testHookBeforeRender = { _, _ in
            let deadline = Date().addingTimeInterval(20)
            while metrics.value("renders_shared") == 0 && Date() < deadline { usleep(5_000) }
        }
        try s.start(); defer { s.stop() }
        let paths = ["11/585/783", "11/586/782"]
        let responses = Locked<[String: CurlResponse]>([:])
        DispatchQueue.concurrentPerform(iterations: paths.count) { i in
            let r = try? curl("\(s.base)/styles/dc/\(paths[i]).png")
            responses.withLock { $0[paths[i]] = r }
        }
        for p in paths {
            let r = try XCTUnwrap(responses.value[p], p)
            XCTAssertEqual(r.status, 200, p)
            XCTAssertTrue(r.body == (try [UInt8](Data(contentsOf: d.appendingPathComponent("\(p).png")))), "\(p) differs from glmap tiles'")
        }
        XCTAssertEqual(metrics.value("renders"), 1, "the metatile was drawn once")
        XCTAssertEqual(metrics.value("renders_shared"), 1)
    }

    func testStaticCenterFormMatchesGlmapRender() throws {
        let s = try startServer(); defer { s.stop() }
        let d = makeTempDir(); defer { try? FileManager.default.removeItem(at: d) }
        let out = d.appendingPathComponent("r.png").path
        XCTAssertEqual(GLMapCommand.run(["render", "--style", exampleStyle, "--output", out, "--width", "300", "--height", "200", "--ratio", "2",
                                         "--lon", "-77.02", "--lat", "38.91", "--zoom", "11.5", "--bearing", "30", "--pitch", "40"], io: quietIO()), 0)
        let r = try curl("\(s.base)/styles/dc/static/-77.02,38.91,11.5@30,40/300x200@2x.png")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.headers["content-type"], "image/png")
        let served = try PNGDecoder.decode(r.body), rendered = try PNGDecoder.decode(contentsOf: out)
        XCTAssertEqual([served.width, served.height], [600, 400])
        // Same pipeline and camera as `glmap render`: the same pixels.
        XCTAssertTrue(served.pixels == rendered.pixels, "the static image differs from glmap render's")
    }

    func testStaticAreaAndAutoForms() throws {
        let s = try startServer(); defer { s.stop() }
        var images: [[UInt8]] = []
        for (path, w, h) in [("/styles/dc/static/-77.12,38.85,-76.95,39.0/320x240.png", 320, 240),
                             ("/styles/dc/static/auto/200x300@2x.png", 400, 600),
                             ("/styles/dc/static/-77.0362,38.9349,11/256x256.png", 256, 256)] {
            let r = try curl(s.base + path)
            XCTAssertEqual(r.status, 200, path)
            let img = try PNGDecoder.decode(r.body)
            XCTAssertEqual([img.width, img.height], [w, h], path)
            XCTAssertGreaterThan(Set(stride(from: 0, to: img.pixels.count, by: 4 * 101).map { img.pixels[$0] }).count, 2, "\(path) looks blank")
            images.append(img.pixels)
        }
        XCTAssertNotEqual(images[0], images[2])
    }

    func testStaticAutoFitsTheData() {
        // The DC data's box fitted into 400×400 with 10 % padding: centered on the box, zoom so it fills 320 px.
        guard let scene = try? Scene(styleFile: exampleStyle), let b = StaticCamera.dataBounds(scene) else { return XCTFail("no data bounds") }
        let o = StaticCamera.options(.auto, width: 400, height: 400, scale: 1, dataBounds: b)
        let span = max(b.x1 - b.x0, b.y1 - b.y0) * WebMercator.worldSize(zoom: o.zoom!)
        XCTAssertEqual(span, 320, accuracy: 0.01)
        let c = WebMercator.project(lon: o.longitude!, lat: o.latitude!)
        XCTAssertEqual(c.x, (b.x0 + b.x1) / 2, accuracy: 1e-9)
        XCTAssertEqual(c.y, (b.y0 + b.y1) / 2, accuracy: 1e-9)
    }

    func testTileJSONThroughHTTPClient() throws {
        let s = try startServer(); defer { s.stop() }
        let out = try runPython("""
        import http.client, json, sys
        c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=30)
        for path, size in (("/styles/dc.json", 256), ("/styles/dc/512.json", 512)):
            c.request("GET", path)
            r = c.getresponse(); body = r.read()
            assert r.status == 200 and r.getheader("Content-Type") == "application/json", (path, r.status)
            doc = json.loads(body)
            assert doc["tilejson"] == "3.0.0" and doc["scheme"] == "xyz" and doc["tileSize"] == size, doc
            assert len(doc["bounds"]) == 4 and len(doc["center"]) == 3, doc
            url = doc["tiles"][0]
            assert url.startswith("http://127.0.0.1:%s/styles/dc" % sys.argv[1]), url
            tile = url.replace("{z}", "10").replace("{x}", "292").replace("{y}", "391")
            c.request("GET", tile[tile.index("/styles"):])
            t = c.getresponse(); png = t.read()
            assert t.status == 200 and png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", (tile, t.status)
            print(size, "ok")
        """, ["\(s.port)"])
        XCTAssertEqual(out, "256 ok\n512 ok\n")
    }

    func testETagCacheControlAndConditionalRequests() throws {
        let s = try startServer(); defer { s.stop() }
        let url = "\(s.base)/styles/dc/11/585/783.png"
        let first = try curl(url), second = try curl(url)
        XCTAssertEqual(first.headers["x-cache"], "miss")
        XCTAssertEqual(second.headers["x-cache"], "hit")
        XCTAssertEqual(first.body, second.body)
        let etag = try XCTUnwrap(first.headers["etag"])
        XCTAssertTrue(etag.hasPrefix("\"") && etag.hasSuffix("\""), etag)
        XCTAssertEqual(second.headers["etag"], etag)
        XCTAssertEqual(first.headers["cache-control"], "public, max-age=86400")
        let notModified = try curl(url, ["-H", "If-None-Match: \(etag)"])
        XCTAssertEqual(notModified.status, 304)
        XCTAssertEqual(notModified.body.count, 0)
        XCTAssertEqual(notModified.headers["etag"], etag)
        XCTAssertEqual(try curl(url, ["-H", "If-None-Match: \"other\", W/\(etag)"]).status, 304)
        XCTAssertEqual(try curl(url, ["-H", "If-None-Match: \"other\""]).status, 200)
        // A cold server answers If-None-Match after rendering: same tag, 304.
        let cold = try startServer(); defer { cold.stop() }
        XCTAssertEqual(try curl("\(cold.base)/styles/dc/11/585/783.png", ["-H", "If-None-Match: \(etag)"]).status, 304)
        XCTAssertEqual(s.metrics.value("cache_hits"), 4)
    }

    func testCacheStaysWithinItsBound() throws {
        let s = try startServer { $0.cacheMiB = 1 }; defer { s.stop() }
        for i in 0..<12 {   // 12 static images of ~100-250 KB: more than 1 MiB in all
            XCTAssertEqual(try curl("\(s.base)/styles/dc/static/-77.0\(i),38.9,12/500x500.png").status, 200)
        }
        XCTAssertLessThanOrEqual(s.cache.byteCount, 1 << 20)
        XCTAssertGreaterThan(s.cache.count, 0)
    }

    func testHealthAndMetrics() throws {
        let s = try startServer(); defer { s.stop() }
        XCTAssertEqual(try curl("\(s.base)/health").body, Array("ok\n".utf8))
        _ = try curl("\(s.base)/styles/dc/10/292/391.png")
        _ = try curl("\(s.base)/styles/dc/10/292/391.png")
        _ = try curl("\(s.base)/styles/none/10/292/391.png")
        let m = try curl("\(s.base)/metrics")
        XCTAssertEqual(m.status, 200)
        XCTAssertEqual(m.headers["content-type"], "text/plain; version=0.0.4; charset=utf-8")
        let text = String(decoding: m.body, as: UTF8.self)
        for line in ["glmap_http_requests_total{code=\"200\"} 3", "glmap_http_requests_total{code=\"404\"} 1",
                     "glmap_cache_hits_total 1", "glmap_cache_misses_total 1", "glmap_renders_total 1",
                     "glmap_renderer_replacements_total 0", "glmap_queue_depth 0", "glmap_http_request_duration_seconds_count 4",
                     "glmap_http_request_duration_seconds_bucket{le=\"+Inf\"} 4", "# TYPE glmap_http_request_duration_seconds histogram"] {
            XCTAssertTrue(text.contains(line + "\n"), "missing \(line) in:\n\(text)")
        }
        // Every sample line is "name{labels} value" with a number (the exposition format).
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            XCTAssertNotNil(Double(line.split(separator: " ").last ?? ""), String(line))
        }
    }

    /// Malformed URLs through curl: each a 400 or 404 with one line, and the server stays well.
    func testMalformedURLs() throws {
        let s = try startServer(); defer { s.stop() }
        let cases: [(String, Int, [String])] = [
            ("/styles/dc/1/0/x.png", 400, []), ("/styles/dc/1/5/0.png", 404, []), ("/styles/dc/-1/0/0.png", 400, []),
            ("/styles/dc/1/0/0@9x.png", 400, []), ("/styles/dc/1/0/99999999999999999999999.png", 400, []),
            ("/styles/dc/static/0,0,1/100000x100000.png", 400, []), ("/styles/dc/static/0,0,1/2049x1.png", 400, []),
            ("/styles/dc/static/nan,0,1/10x10.png", 400, []), ("/styles/dc/static/0,0,1e308/10x10.png", 400, []),
            ("/styles/../../etc/passwd", 404, ["--path-as-is"]), ("/styles/..%2f..%2fetc%2fpasswd.json", 404, ["--path-as-is"]),
            ("/styles/%2e%2e/1/0/0.png", 404, ["--path-as-is"]), ("/../../etc/passwd", 404, ["--path-as-is"]),
            ("/styles/dc%00/1/0/0.png", 404, []), ("/styles/dc/static/auto/10x10.jpg", 404, []),
            ("/styles/" + String(repeating: "x", count: 3000) + ".json", 400, []), ("/", 404, []),
        ]
        for (path, status, extra) in cases {
            let r = try curl(s.base + path, extra)
            XCTAssertEqual(r.status, status, path)
            let body = String(decoding: r.body, as: UTF8.self)
            XCTAssertTrue(body.hasSuffix("\n") && body.dropLast().split(separator: "\n").count == 1, "\(path): not one line: \(body)")
            XCTAssertFalse(body.contains("root:"), path)
        }
        XCTAssertEqual(try curl(s.base + "/health", ["-X", "POST"]).status, 405)
        let head = try curl(s.base + "/styles/dc/10/292/391.png", ["-I"])
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["content-type"], "image/png")
        // curl -I writes the headers where the body would go: no PNG bytes came, but their length did.
        XCTAssertFalse(head.body.starts(with: [0x89, 0x50, 0x4e, 0x47]))
        XCTAssertEqual(head.headers["content-length"], String(try curl(s.base + "/styles/dc/10/292/391.png").body.count))
        XCTAssertEqual(try curl(s.base + "/health").status, 200)
    }

    /// Raw bytes that are not HTTP, oversized headers, pipelined requests and slow clients.
    func testRawSocketAbuse() throws {
        let s = try startServer { $0.connectionTimeout = 2 }; defer { s.stop() }
        let out = try runPython(#"""
        import socket, sys, time, threading
        port = int(sys.argv[1])
        def exchange(data, wait=5.0):
            c = socket.create_connection(("127.0.0.1", port), timeout=wait)
            c.sendall(data)
            got = b""
            try:
                while True:
                    b = c.recv(65536)
                    if not b: break
                    got += b
            except socket.timeout:
                pass
            c.close()
            return got
        def status(resp):
            return resp.split(b"\r\n", 1)[0].decode("latin-1") if resp else "closed"
        # Not HTTP at all, a binary blob, a huge header, a request line with a NUL byte.
        print("garbage", status(exchange(b"HELLO\r\n\r\n")))
        print("binary", status(exchange(bytes(range(256)) * 4)))
        print("huge-header", status(exchange(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200000 + b"\r\n\r\n")))
        print("nul", status(exchange(b"GET /sty\x00les HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")))
        # Three pipelined requests in one write: three answers, in order.
        resp = exchange(b"GET /styles/dc/10/292/391.png HTTP/1.1\r\nHost: x\r\n\r\n"
                        b"GET /styles/nope/1/0/0.png HTTP/1.1\r\nHost: x\r\n\r\n"
                        b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", wait=30)
        import re
        lines = [m.decode() for m in re.findall(rb"HTTP/1\.1 [0-9]{3} [A-Za-z ]+", resp)]
        print("pipelined", lines, resp.endswith(b"ok\n"))
        # A slow client sending one byte at a time still gets its answer...
        c = socket.create_connection(("127.0.0.1", port), timeout=10)
        for ch in b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n":
            c.send(bytes([ch])); time.sleep(0.01)
        print("trickle", status(c.recv(4096))); c.close()
        # ...a client that stops halfway is dropped after the connection timeout, and nobody waits for it.
        stalled = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(20)]
        for c in stalled: c.send(b"GET /health HTTP/1.1\r\nHo")
        t0 = time.time()
        print("while-stalled", status(exchange(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")), time.time() - t0 < 2)
        t0 = time.time()
        closed = stalled[0].recv(10) == b""
        print("stalled-closed", closed, time.time() - t0 < 8)
        for c in stalled: c.close()
        """#, ["\(s.port)"], timeout: 90)
        let lines = out.split(separator: "\n").map(String.init)
        func line(_ key: String) -> String { lines.first { $0.hasPrefix(key + " ") } ?? "\(key): missing in \(out)" }
        XCTAssertTrue(line("garbage").hasPrefix("garbage HTTP/1.1 4") || line("garbage") == "garbage closed", line("garbage"))
        XCTAssertTrue(line("binary").hasPrefix("binary HTTP/1.1 4") || line("binary") == "binary closed", line("binary"))
        XCTAssertTrue(line("huge-header").hasPrefix("huge-header HTTP/1.1 431") || line("huge-header") == "huge-header closed", line("huge-header"))
        XCTAssertTrue(line("nul").hasPrefix("nul HTTP/1.1 4") || line("nul") == "nul closed", line("nul"))
        XCTAssertEqual(line("pipelined"), "pipelined ['HTTP/1.1 200 OK', 'HTTP/1.1 404 Not Found', 'HTTP/1.1 200 OK'] True")
        XCTAssertEqual(line("trickle"), "trickle HTTP/1.1 200 OK")
        XCTAssertEqual(line("while-stalled"), "while-stalled HTTP/1.1 200 OK True")
        XCTAssertEqual(line("stalled-closed"), "stalled-closed True True")
        XCTAssertEqual(try curl(s.base + "/health").status, 200)
    }

    func testFullQueueAnswers503WithRetryAfter() throws {
        let s = try startServer { $0.jobs = 1; $0.maxQueue = 1; $0.cacheMiB = 0 }; defer { s.stop() }
        let out = try runPython("""
        import http.client, sys, threading
        port = int(sys.argv[1]); results = []; lock = threading.Lock()
        def get(i):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            c.request("GET", "/styles/dc/static/-77.0%d,38.9,12/1024x1024.png" % i)
            r = c.getresponse(); body = r.read()
            with lock: results.append((r.status, r.getheader("Retry-After"), body[:8] == b"\\x89PNG\\r\\n\\x1a\\n"))
        ts = [threading.Thread(target=get, args=(i,)) for i in range(12)]
        [t.start() for t in ts]; [t.join() for t in ts]
        ok = [r for r in results if r[0] == 200]; busy = [r for r in results if r[0] == 503]
        print(len(ok) + len(busy) == 12, all(r[2] for r in ok), len(busy) > 0, all(r[1] == "1" for r in busy))
        """, ["\(s.port)"], timeout: 180)
        XCTAssertEqual(out, "True True True True\n")
        XCTAssertGreaterThan(s.metrics.value("queue_rejections"), 0)
        XCTAssertEqual(try curl(s.base + "/health").status, 200)
    }

    func testSlowRenderAnswers504() throws {
        let s = try startServer { $0.timeout = 0.001; $0.jobs = 1 }; defer { s.stop() }
        let r = try curl("\(s.base)/styles/dc/static/-77.02,38.9,12/2048x2048.png")
        XCTAssertEqual(r.status, 504)
        XCTAssertTrue(String(decoding: r.body, as: UTF8.self).contains("not ready within"))
        XCTAssertEqual(s.metrics.value("timeouts"), 1)
        XCTAssertEqual(try curl(s.base + "/health").status, 200)
    }
}
