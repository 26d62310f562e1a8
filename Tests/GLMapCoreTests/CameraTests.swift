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

    func testConstraintKeepsTheWorldCoveringTheView() {
        // A view inside the world (every tile's) is unchanged, to the bit.
        let inside = Camera(longitude: 12.5, latitude: 41.9, zoom: 5, bearing: 30, pitch: 40)
        XCTAssertEqual(inside.constrained(width: 800, height: 600), inside)
        let tile = Camera(longitude: 0, latitude: 0, zoom: 0)
        XCTAssertEqual(tile.constrained(width: 512, height: 512), tile)
        // Near the pole the centre moves until the view's top edge is the world's (y = h / 2).
        let north = Camera(longitude: -30, latitude: 83, zoom: 1, bearing: 45).constrained(width: 256, height: 256)
        XCTAssertEqual(north.zoom, 1)
        XCTAssertEqual(north.longitude, -30)
        XCTAssertEqual(north.bearing, 45)
        XCTAssertEqual(WebMercator.project(lon: 0, lat: north.latitude).y * 1024, 128, accuracy: 1e-6)
        let south = Camera(latitude: -84, zoom: 2).constrained(width: 300, height: 400)
        XCTAssertEqual(WebMercator.project(lon: 0, lat: south.latitude).y * 2048, 2048 - 200, accuracy: 1e-6)
        // A world shorter than the view: zoomed in until it is as tall, centred on the equator.
        let short = Camera(longitude: 20, latitude: -30, zoom: 0.2).constrained(width: 256, height: 768)
        XCTAssertEqual(short.zoom, log2(768.0 / 512), accuracy: 1e-12)
        XCTAssertEqual(short.latitude, 0, accuracy: 1e-9)
        XCTAssertEqual(short.longitude, 20)
        // The drawn view holds the constrained camera; a fit's measuring view can opt out.
        XCTAssertEqual(ViewTransform(camera: Camera(latitude: -84, zoom: 2), width: 300, height: 400).camera, south)
        XCTAssertEqual(ViewTransform(camera: Camera(latitude: -84, zoom: 2), width: 300, height: 400, constrain: false).camera.latitude, -84)
    }
}
