import XCTest
import GLMapCore
@testable import GLMapStyle

/// `FillTiler` near the antimeridian: tiles hold what geojson-vt's wrap gives them (a feature
/// where its GeoJSON puts it plus copies moved by one world), not the parts as the projection
/// moved them one by one.
final class FillTilerWrapTests: XCTestCase {
    func x(_ lon: Double) -> Double { lon / 360 + 0.5 }

    /// Differential case s1-00382: a MultiLineString whose first part crosses lon 180 and whose
    /// second lies wholly past it; the projection moved the second part by one world.
    func parts() -> (lines: [[Double]], shifts: [Double]) {
        let p1 = [x(180.4635), 0.6170, x(179.6558), 0.6173, x(178.0602), 0.6160, x(176.6385), 0.6165]
        let p2 = [x(180.7539) - 1, 0.6158, x(181.2516) - 1, 0.6145, x(181.3768) - 1, 0.6143]
        return ([p1, p2], [0, 1])
    }

    func rings(_ t: FillTile) -> Int { t.polygons.reduce(0) { $0 + $1.holeIndices.count + 1 } }

    func testPartsMovedApartShareTheTileAtTheAntimeridian() {
        let tiler = FillTiler(zoom: 6, buffer: 0.25)
        let (lines, shifts) = parts()
        let tiles = tiler.tiles(lines: lines, shifts: shifts)
        XCTAssertFalse(tiles.isEmpty)
        for t in tiles { XCTAssertTrue((0..<64).contains(t.x), "column \(t.x) is outside geojson-vt's grid") }
        let last = tiles.filter { $0.x == 63 }
        XCTAssertEqual(last.map(rings).reduce(0, +), 2, "the tile west of the antimeridian holds both parts' rings")
        XCTAssertEqual(last.count, 1, "both parts of the feature's own copy: one tile, classified together")
        // the parts as the projection left them (no shifts): the second part is a copy of its
        // own there, wholly outside the tile's square, so that tile fills only the first
        let moved = tiler.tiles(lines: lines).filter { $0.x == 63 }
        XCTAssertEqual(moved.map(rings).reduce(0, +), 1)
    }

    func testFeatureAwayFromTheAntimeridianIsCutAsBefore() {
        let tiler = FillTiler(zoom: 3, buffer: 0.25)
        let line = [0.40, 0.40, 0.47, 0.52, 0.55, 0.41, 0.43, 0.45]
        let a = tiler.tiles(lines: [line], shifts: [0]), b = tiler.tiles(lines: [line])
        XCTAssertEqual(a.map { [$0.x, $0.y] }, b.map { [$0.x, $0.y] })
        XCTAssertEqual(a.map { $0.polygons.map(\.coords) }, b.map { $0.polygons.map(\.coords) })
    }
}
