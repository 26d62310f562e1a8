import XCTest
@testable import GLMapServer

/// The LRU of encoded images stays within its byte bound and evicts the least recently used first.
final class EncodedTileCacheTests: XCTestCase {
    func entry(_ n: Int) -> EncodedTileCache.Entry { .init(png: [UInt8](repeating: 7, count: n), etag: "\"x\"") }

    func testEvictsLeastRecentlyUsedWithinTheBound() {
        let c = EncodedTileCache(capacityBytes: 10_000)
        for i in 0..<5 { c.put("k\(i)", entry(1000)) }      // 5 × (1000 + 2) bytes
        XCTAssertNotNil(c.get("k0"))                          // k0 is now the most recent
        for i in 5..<10 { c.put("k\(i)", entry(1000)) }
        XCTAssertLessThanOrEqual(c.byteCount, 10_000)
        XCTAssertEqual(c.count, 9)
        XCTAssertNotNil(c.get("k0"))
        XCTAssertNil(c.get("k1"))                             // the least recently used went first
        XCTAssertNotNil(c.get("k9"))
    }

    func testLargeEntriesAreNotKept() {
        let c = EncodedTileCache(capacityBytes: 8000)
        c.put("big", entry(1001))
        XCTAssertNil(c.get("big"))
        XCTAssertEqual(c.byteCount, 0)
    }

    func testZeroCapacityKeepsNothing() {
        let c = EncodedTileCache(capacityBytes: 0)
        c.put("a", entry(1))
        XCTAssertNil(c.get("a"))
    }

    func testReplacingAKeyKeepsTheCountRight() {
        let c = EncodedTileCache(capacityBytes: 100_000)
        c.put("a", entry(100)); c.put("a", entry(200))
        XCTAssertEqual(c.count, 1)
        XCTAssertEqual(c.byteCount, 201)
    }
}
