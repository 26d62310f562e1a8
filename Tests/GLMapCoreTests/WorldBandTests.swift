import XCTest
@testable import GLMapCore

/// `WorldBand`: the part of a view that shows the world (where MapLibre draws the background).
final class WorldBandTests: XCTestCase {
    func testFlatViewIsCoveredEdgeToEdge() {
        let view = ViewTransform(camera: Camera(longitude: 10, latitude: 80, zoom: 1), width: 300, height: 200)
        let band = view.worldBand
        XCTAssertTrue(band.coversView)
        XCTAssertEqual(band.polygon.count, 4)
        XCTAssertTrue(band.contains(x: 150, y: 100))
    }

    func testPitchedTallViewSeesPastBothEdges() {
        var camera = Camera(longitude: -113.9, latitude: -48, zoom: 0.5)
        camera.pitch = 58.3
        let view = ViewTransform(camera: camera, width: 64, height: 512)
        let band = view.worldBand
        XCTAssertFalse(band.coversView)
        XCTAssertFalse(band.contains(x: 32, y: 1), "top row: past the north edge")
        XCTAssertFalse(band.contains(x: 32, y: 511), "bottom row: past the south edge")
        XCTAssertTrue(band.contains(x: 32, y: 256))
        // the north edge is on the row where latitude 85.05° (world y 0) projects
        guard let edge = view.screenPoint(worldX: view.centerX, worldY: 0) else { return XCTFail("north edge behind the camera") }
        XCTAssertTrue(band.contains(x: 32, y: edge.y + 0.5))
        XCTAssertFalse(band.contains(x: 32, y: edge.y - 0.5))
        XCTAssertEqual(band.polygon.count, 4, "a band across the view: four corners")
        for p in band.polygon { XCTAssertTrue(band.contains(x: p.x, y: p.y + (p.y < 256 ? 1e-6 : -1e-6))) }
    }
}
