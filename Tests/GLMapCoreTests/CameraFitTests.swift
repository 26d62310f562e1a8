import XCTest
@testable import GLMapCore

/// `Camera.fitting`'s geometry: the box fills the padded viewport along its tighter axis and stays
/// inside it, whatever the bearing; antimeridian boxes; errors.
final class CameraFitTests: XCTestCase {
    func screenBox(_ b: LngLatBounds, _ view: ViewTransform) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let e = b.unwrappedEast
        let pts = [(b.west, b.north), (b.west, b.south), (e, b.south), (e, b.north)].map { view.screenPoint(lon: $0.0, lat: $0.1)! }
        return (pts.map(\.x).min()!, pts.map(\.y).min()!, pts.map(\.x).max()!, pts.map(\.y).max()!)
    }

    func testBoxFillsPaddedViewport() throws {
        for bearing in [0.0, 30, -75, 180] {
            let b = LngLatBounds(west: -10, south: 35, east: 30, north: 60)
            let cam = try Camera.fitting(b, width: 500, height: 300, padding: EdgeInsets(all: 25), bearing: bearing)
            let box = screenBox(b, ViewTransform(camera: cam, width: 500, height: 300))
            XCTAssertGreaterThanOrEqual(box.minX, 25 - 1e-6, "bearing \(bearing)")
            XCTAssertLessThanOrEqual(box.maxX, 475 + 1e-6, "bearing \(bearing)")
            XCTAssertGreaterThanOrEqual(box.minY, 25 - 1e-6, "bearing \(bearing)")
            XCTAssertLessThanOrEqual(box.maxY, 275 + 1e-6, "bearing \(bearing)")
            let touchesX = abs(box.minX - 25) < 1e-6 && abs(box.maxX - 475) < 1e-6
            let touchesY = abs(box.minY - 25) < 1e-6 && abs(box.maxY - 275) < 1e-6
            XCTAssertTrue(touchesX || touchesY, "bearing \(bearing): box \(box) fills neither axis")
        }
    }

    func testAsymmetricPaddingCentersBoxInPaddedArea() throws {
        let b = LngLatBounds(west: 0, south: 0, east: 10, north: 10)
        let pad = EdgeInsets(top: 10, left: 100, bottom: 30, right: 20)
        let cam = try Camera.fitting(b, width: 400, height: 400, padding: pad)
        let box = screenBox(b, ViewTransform(camera: cam, width: 400, height: 400))
        XCTAssertEqual((box.minX + box.maxX) / 2, (100 + 380) / 2, accuracy: 1e-6)
        XCTAssertEqual((box.minY + box.maxY) / 2, (10 + 370) / 2, accuracy: 1e-6)
    }

    func testAntimeridianBoxIsNarrow() throws {
        let across = try Camera.fitting(LngLatBounds(west: 170, south: -10, east: -170, north: 10), width: 512, height: 512)
        XCTAssertEqual(abs(across.longitude), 180, accuracy: 1e-9)
        let same = try Camera.fitting(LngLatBounds(west: -10, south: -10, east: 10, north: 10), width: 512, height: 512)
        XCTAssertEqual(across.zoom, same.zoom, accuracy: 1e-9, "a 20° box is a 20° box on either side of the antimeridian")
    }

    func testGroundPointInvertsScreenPoint() {
        let v = ViewTransform(camera: Camera(longitude: 5, latitude: 45, zoom: 6, bearing: 20, pitch: 55), width: 640, height: 480)
        let s = v.screenPoint(lon: 5.4, lat: 45.3)!
        let g = v.groundPoint(screenX: s.x, screenY: s.y)!
        XCTAssertEqual(g.lon, 5.4, accuracy: 1e-9)
        XCTAssertEqual(g.lat, 45.3, accuracy: 1e-9)
        XCTAssertNil(v.groundPoint(screenX: 320, screenY: -2000), "far above the horizon")
    }

    func testParseAndErrors() throws {
        XCTAssertEqual(try LngLatBounds.parse("170,-20,-170,10", flag: "--bounds").crossesAntimeridian, true)
        XCTAssertThrowsError(try LngLatBounds.parse("1,2,3", flag: "--bounds")) { XCTAssertTrue("\($0)".contains("--bounds expects W,S,E,N")) }
        XCTAssertThrowsError(try LngLatBounds.parse("0,10,5,5", flag: "--bounds")) { XCTAssertTrue("\($0)".contains("south < north")) }
        XCTAssertThrowsError(try Camera.fitting(LngLatBounds(west: 0, south: 0, east: 1, north: 1), width: 100, height: 100,
                                                padding: EdgeInsets(all: 50))) { XCTAssertTrue("\($0)".contains("leaves no room"), "\($0)") }
    }
}
