import XCTest
@testable import GLMapCore

final class CameraTests: XCTestCase {
    func testWebMercatorUnits() {
        XCTAssertEqual(WebMercator.worldSize(zoom: 0), 512)
        XCTAssertEqual(WebMercator.worldSize(zoom: 3), 4096)
        let origin = WebMercator.project(lon: 0, lat: 0)
        XCTAssertEqual(origin.x, 0.5, accuracy: 1e-15)
        XCTAssertEqual(origin.y, 0.5, accuracy: 1e-15)
        let nw = WebMercator.project(lon: -180, lat: 90)   // clamped to 85.0511°
        XCTAssertEqual(nw.x, 0, accuracy: 1e-15)
        XCTAssertEqual(nw.y, 0, accuracy: 1e-9)
        let back = WebMercator.unproject(x: WebMercator.project(lon: -77.0362, lat: 38.9349).x,
                                         y: WebMercator.project(lon: -77.0362, lat: 38.9349).y)
        XCTAssertEqual(back.lon, -77.0362, accuracy: 1e-9)
        XCTAssertEqual(back.lat, 38.9349, accuracy: 1e-9)
    }

    func testCenterIsViewportCenterAndZoomScales() {
        let view = ViewTransform(camera: Camera(longitude: 10, latitude: 20, zoom: 4), width: 300, height: 200)
        let c = view.screenPoint(lon: 10, lat: 20)!
        XCTAssertEqual(c.x, 150, accuracy: 1e-9)
        XCTAssertEqual(c.y, 100, accuracy: 1e-9)
        // One degree of longitude is worldSize/360 CSS pixels to the right.
        let e = view.screenPoint(lon: 11, lat: 20)!
        XCTAssertEqual(e.x - c.x, 512 * 16 / 360, accuracy: 1e-6)
        XCTAssertEqual(e.y, c.y, accuracy: 1e-9)
        // North is up.
        XCTAssertLessThan(view.screenPoint(lon: 10, lat: 21)!.y, c.y)
    }

    func testBearingRotatesClockwise() {
        // Bearing 90: the map is rotated so east points down... MapLibre: bearing is the compass
        // direction that is "up"; with bearing 90, east is up.
        let view = ViewTransform(camera: Camera(longitude: 0, latitude: 0, zoom: 2, bearing: 90), width: 200, height: 200)
        let east = view.screenPoint(lon: 10, lat: 0)!
        XCTAssertEqual(east.x, 100, accuracy: 1e-6)
        XCTAssertLessThan(east.y, 100)
    }

    func testPitchKeepsCenterAndShrinksTheDistance() {
        let flat = ViewTransform(camera: Camera(zoom: 3), width: 512, height: 512)
        let tilted = ViewTransform(camera: Camera(zoom: 3, pitch: 60), width: 512, height: 512)
        let c = tilted.screenPoint(lon: 0, lat: 0)!
        XCTAssertEqual(c.x, 256, accuracy: 1e-6)
        XCTAssertEqual(c.y, 256, accuracy: 1e-6)
        // A point north of the center is foreshortened (appears closer to the center) when pitched.
        let nFlat = flat.screenPoint(lon: 0, lat: 5)!, nTilt = tilted.screenPoint(lon: 0, lat: 5)!
        XCTAssertLessThan(256 - nTilt.y, 256 - nFlat.y)
        XCTAssertEqual(ViewTransform.fieldOfView, 0.6435011087932844)
    }
}
