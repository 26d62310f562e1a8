import Foundation
import GLMapTestSupport
import GLMapTiles
import XCTest

/// The resource loader against files and a local HTTP server (127.0.0.1 only).
final class ResourceLoaderTests: XCTestCase {
    var tmp: URL!

    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-loader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent("style/tiles"), withIntermediateDirectories: true)
        try Data("tile bytes".utf8).write(to: tmp.appendingPathComponent("style/tiles/1.mvt"))
        try Data().write(to: tmp.appendingPathComponent("style/tiles/empty.mvt"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    var styleDir: String { tmp.appendingPathComponent("style").path }

    func testFilesRelativeAbsoluteAndFileURLs() {
        let l = ResourceLoader(options: ResourceLoaderOptions(base: styleDir))
        XCTAssertEqual(l.load("tiles/1.mvt"), .data(Array("tile bytes".utf8)))
        XCTAssertEqual(l.load(styleDir + "/tiles/1.mvt"), .data(Array("tile bytes".utf8)))
        XCTAssertEqual(l.load("file://" + styleDir + "/tiles/1.mvt"), .data(Array("tile bytes".utf8)))
        XCTAssertEqual(l.load("tiles/2.mvt"), .notFound)
        XCTAssertEqual(l.load("tiles/empty.mvt"), .noContent)
        guard case .failed(let m) = l.load("tiles") else { return XCTFail("a folder is not a resource") }
        XCTAssertTrue(m.contains("is a folder"), m)
        guard case .failed(let s) = l.load("ftp://example.com/x.mvt") else { return XCTFail("ftp is refused") }
        XCTAssertTrue(s.contains("ftp://example.com/x.mvt") && s.contains("not supported"), s)
        let small = ResourceLoader(options: ResourceLoaderOptions(base: styleDir, maxBytes: 4))
        guard case .failed(let big) = small.load("tiles/1.mvt") else { return XCTFail("too large") }
        XCTAssertTrue(big.contains("more than 4 bytes"), big)
    }

    func testRewriteRulesAndNoContentMarkerAsTheSuiteHarnessUsesThem() {
        let l = ResourceLoader(options: ResourceLoaderOptions(
            rewrites: [URLRewriteRule(prefix: "http://localhost:2900/", replacement: styleDir + "/")],
            noContentMarkers: ["/sparse204/1-"]))
        XCTAssertEqual(l.target(of: "http://localhost:2900/tiles/1.mvt"), .file(styleDir + "/tiles/1.mvt"))
        XCTAssertEqual(l.load("http://localhost:2900/tiles/1.mvt"), .data(Array("tile bytes".utf8)))
        XCTAssertEqual(l.load("http://localhost:2900/tiles/9.mvt"), .notFound)
        XCTAssertEqual(l.load("http://localhost:2900/tiles/sparse204/1-0-0.mvt"), .noContent)
        XCTAssertEqual(l.load("http://localhost:2900/tiles/sparse204/0-0-0.mvt"), .notFound)
        XCTAssertEqual(l.statistics.network, 0, "nothing went to the network")
    }

    func testHTTPResultsAndMessagesNameTheURL() throws {
        let server = try TestHTTPServer(root: styleDir)
        defer { server.stop() }
        let l = ResourceLoader(options: ResourceLoaderOptions(timeout: 2))
        XCTAssertEqual(l.load(server.base + "/fresh"), .data(Array("fresh body".utf8)))
        XCTAssertEqual(l.load(server.base + "/empty204"), .noContent)
        XCTAssertEqual(l.load(server.base + "/missing"), .notFound)
        XCTAssertEqual(l.load(server.base + "/gone"), .notFound)
        XCTAssertEqual(l.load(server.base + "/encoded"), .data(Array("decoded by curl".utf8)))
        XCTAssertEqual(l.load(server.base + "/redirect"), .data(Array("fresh body".utf8)))
        XCTAssertEqual(l.load(server.base + "/files/tiles/1.mvt"), .data(Array("tile bytes".utf8)))
        guard case .failed(let e500) = l.load(server.base + "/broken") else { return XCTFail("500") }
        XCTAssertEqual(e500, server.base + "/broken: HTTP 500 Internal Server Error")
        let start = Date()
        guard case .failed(let slow) = l.load(server.base + "/slow/5") else { return XCTFail("timeout") }
        XCTAssertLessThan(Date().timeIntervalSince(start), 4.5, "the per-request timeout applies")
        XCTAssertTrue(slow.hasPrefix(server.base + "/slow/5: timed out after 2.0 s"), slow)
        // A port nobody listens on.
        guard case .failed(let refused) = l.load("http://127.0.0.1:9/x.mvt") else { return XCTFail("refused") }
        XCTAssertTrue(refused.hasPrefix("http://127.0.0.1:9/x.mvt: "), refused)
        // Relative references against a style fetched over http.
        let rel = ResourceLoader(options: ResourceLoaderOptions(base: server.base + "/files/style.json"))
        XCTAssertEqual(rel.target(of: "tiles/1.mvt"), .network(server.base + "/files/tiles/1.mvt"))
        XCTAssertEqual(rel.target(of: "../x/./y.png"), .network(server.base + "/x/y.png"))
        XCTAssertEqual(rel.target(of: "/abs.png"), .network(server.base + "/abs.png"))
        XCTAssertEqual(rel.load("tiles/1.mvt"), .data(Array("tile bytes".utf8)))
    }

    func testParallelFetchesOverlap() throws {
        let server = try TestHTTPServer(root: styleDir)
        defer { server.stop() }
        let l = ResourceLoader(options: ResourceLoaderOptions(timeout: 10, maxConcurrentRequests: 8))
        let start = Date()
        let results = l.load((0..<8).map { server.base + "/slow/1?n=\($0)" } + ["tiles/none.mvt"])
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(results.prefix(8).filter { $0 == .data(Array("slow body".utf8)) }.count, 8)
        XCTAssertEqual(results.last, .notFound, "results come back in order, files included")
        XCTAssertLessThan(elapsed, 4, "eight 1-second requests ran concurrently (took \(elapsed) s)")
    }

    func testCacheHonoursMaxAgeNoCacheNoStoreAndRevalidates() throws {
        let server = try TestHTTPServer(root: styleDir)
        defer { server.stop() }
        let cacheDir = tmp.appendingPathComponent("cache").path
        func loader(offline: Bool = false) -> ResourceLoader {
            ResourceLoader(options: ResourceLoaderOptions(cacheDirectory: cacheDir, timeout: 5, offline: offline))
        }
        let paths = ["/fresh", "/aged", "/nocache", "/lastmod", "/nostore"]
        for _ in 0..<3 {
            let l = loader()   // a new loader each round: only the disk remembers
            for p in paths { XCTAssertNotNil(l.load(server.base + p).bytes, p) }
        }
        let counts = try server.counts()
        XCTAssertEqual(counts["/fresh"], 1, "max-age: served from the cache")
        XCTAssertEqual(counts["/aged"], 3, "max-age equal to Age: stale at once, refetched")
        XCTAssertEqual(counts["/nocache"], 3, "no-cache: revalidated every time")
        XCTAssertEqual(counts["/lastmod"], 3, "Last-Modified only: revalidated every time")
        XCTAssertEqual(counts["/nostore"], 3, "no-store: never kept")
        let l = loader()
        XCTAssertEqual(l.load(server.base + "/nocache"), .data(Array("nocache body".utf8)))
        XCTAssertEqual(l.load(server.base + "/lastmod"), .data(Array("lastmod body".utf8)))
        XCTAssertEqual(l.statistics.revalidated, 2, "304s served the kept bytes")
        // Offline: the cache answers, anything else is refused without a request.
        let off = loader(offline: true)
        XCTAssertEqual(off.load(server.base + "/fresh"), .data(Array("fresh body".utf8)))
        XCTAssertEqual(off.load(server.base + "/nocache"), .data(Array("nocache body".utf8)))
        guard case .failed(let m) = off.load(server.base + "/nostore") else { return XCTFail("offline") }
        XCTAssertEqual(m, server.base + "/nostore: offline: not fetched (the network is off and the cache does not hold it)")
        XCTAssertEqual(off.statistics.network, 0)
        XCTAssertEqual(try server.counts()["/nostore"], 3)
    }
}
