import XCTest
@testable import GLMapServer

/// URL parsing: every form, and each malformed case answered 400/404 before any work.
final class ServerRouteTests: XCTestCase {
    let router = ServerRouter(maxStaticSize: 2048)

    func route(_ p: String) throws -> ServerRoute { try router.route(p) }

    func refused(_ p: String, _ status: Int, _ fragment: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try router.route(p), p, file: file, line: line) { e in
            guard let e = e as? RouteError else { return XCTFail("\(e)", file: file, line: line) }
            XCTAssertEqual(e.status, status, "\(p): \(e.reason)", file: file, line: line)
            XCTAssertTrue(e.reason.contains(fragment), "\(p): \(e.reason)", file: file, line: line)
            XCTAssertFalse(e.reason.contains("\n"), file: file, line: line)
        }
    }

    func testTileForms() throws {
        XCTAssertEqual(try route("/styles/a/3/2/1.png"), .tile(style: "a", tileSize: 256, z: 3, x: 2, y: 1, scale: 1))
        XCTAssertEqual(try route("/styles/a/512/3/2/1.png"), .tile(style: "a", tileSize: 512, z: 3, x: 2, y: 1, scale: 1))
        XCTAssertEqual(try route("/styles/a/256/0/0/0@2x.png"), .tile(style: "a", tileSize: 256, z: 0, x: 0, y: 0, scale: 2))
        XCTAssertEqual(try route("/styles/a/1/1/1@3x.png"), .tile(style: "a", tileSize: 256, z: 1, x: 1, y: 1, scale: 3))
    }

    func testSameTileSameCacheKey() throws {
        XCTAssertEqual(try route("/styles/a/1/0/0.png").cacheKey, try route("/styles/a/256/1/0/0@1x.png").cacheKey)
        XCTAssertNotEqual(try route("/styles/a/1/0/0.png").cacheKey, try route("/styles/a/512/1/0/0.png").cacheKey)
    }

    func testStaticForms() throws {
        XCTAssertEqual(try route("/styles/a/static/-77.03,38.9,11/300x200.png"),
                       .staticImage(style: "a", view: .center(lon: -77.03, lat: 38.9, zoom: 11, bearing: 0, pitch: 0), width: 300, height: 200, scale: 1))
        XCTAssertEqual(try route("/styles/a/static/1,2,3@45/10x20@2x.png"),
                       .staticImage(style: "a", view: .center(lon: 1, lat: 2, zoom: 3, bearing: 45, pitch: 0), width: 10, height: 20, scale: 2))
        XCTAssertEqual(try route("/styles/a/static/1,2,3@45,60/10x20.png"),
                       .staticImage(style: "a", view: .center(lon: 1, lat: 2, zoom: 3, bearing: 45, pitch: 60), width: 10, height: 20, scale: 1))
        XCTAssertEqual(try route("/styles/a/static/-10,35,30,60/64x64.png"),
                       .staticImage(style: "a", view: .area(minLon: -10, minLat: 35, maxLon: 30, maxLat: 60), width: 64, height: 64, scale: 1))
        XCTAssertEqual(try route("/styles/a/static/auto/64x32@3x.png"), .staticImage(style: "a", view: .auto, width: 64, height: 32, scale: 3))
    }

    func testTileJSONAndServiceForms() throws {
        XCTAssertEqual(try route("/styles/a.json"), .tileJSON(style: "a", tileSize: 256))
        XCTAssertEqual(try route("/styles/a/512.json"), .tileJSON(style: "a", tileSize: 512))
        XCTAssertEqual(try route("/health"), .health)
        XCTAssertEqual(try route("/metrics"), .metrics)
    }

    func testTileOutOfRange() { refused("/styles/a/2/4/0.png", 404, "does not exist") }
    func testTileZoomTooDeep() { refused("/styles/a/23/0/0.png", 400, "between 0 and 22") }
    func testNegativeNumber() { refused("/styles/a/1/-1/0.png", 400, "whole number") }
    func testHugeNumber() { refused("/styles/a/1/99999999999999999999/0.png", 400, "whole number") }
    func testNotANumber() { refused("/styles/a/1/x/0.png", 400, "whole number") }
    func testPlusSign() { refused("/styles/a/1/+1/0.png", 400, "whole number") }
    func testBadTileSize() { refused("/styles/a/300/1/0/0.png", 400, "256 or 512") }
    func testBadScale() { refused("/styles/a/1/0/0@4x.png", 400, "@1x…@3x") }
    func testMalformedScale() { refused("/styles/a/1/0/0@2.png", 400, "@{n}x") }
    func testNotPNG() { refused("/styles/a/1/0/0.jpg", 404, ".png") }
    func testStaticTooLarge() { refused("/styles/a/static/0,0,1/4096x10.png", 400, "outside 1…2048") }
    func testStaticZeroSize() { refused("/styles/a/static/0,0,1/0x10.png", 400, "outside 1…2048") }
    func testStaticTooManyDevicePixels() {
        let r = ServerRouter(maxStaticSize: 16384)
        XCTAssertThrowsError(try r.route("/styles/a/static/0,0,1/8000x10@3x.png")) { XCTAssertEqual(($0 as? RouteError)?.status, 400) }
    }
    func testStaticNaN() { refused("/styles/a/static/nan,0,1/10x10.png", 400, "finite decimal") }
    func testStaticInfinity() { refused("/styles/a/static/0,1e999,1/10x10.png", 400, "finite decimal") }
    func testStaticLatitudeOutOfRange() { refused("/styles/a/static/0,89,1/10x10.png", 400, "latitude") }
    func testStaticZoomOutOfRange() { refused("/styles/a/static/0,0,30/10x10.png", 400, "zoom") }
    func testStaticPitchOutOfRange() { refused("/styles/a/static/0,0,1@0,90/10x10.png", 400, "pitch") }
    func testStaticEmptyArea() { refused("/styles/a/static/10,0,10,5/10x10.png", 400, "minx < maxx") }
    func testStaticWrongArity() { refused("/styles/a/static/1,2/10x10.png", 400, "position") }
    func testStaticBadSize() { refused("/styles/a/static/0,0,1/10by10.png", 400, "{width}x{height}") }
    func testUnknownTopLevel() { refused("/etc/passwd", 404, "URL forms") }
    func testTraversalInId() throws {
        // ".." is just an id no style has (the server answers 404); it never names a file.
        XCTAssertEqual(try route("/styles/../1/0/0.png").style, "..")
    }
    func testLongPath() { refused("/styles/" + String(repeating: "a", count: 2000) + ".json", 400, "longer than 1024") }
}
