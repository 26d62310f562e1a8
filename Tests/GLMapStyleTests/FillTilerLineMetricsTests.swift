import XCTest
import GLMapCore
@testable import GLMapStyle

/// `FillTiler.separateLines` (a source with `lineMetrics`): geojson-vt makes every clipped piece
/// of a LineString, and every line of a MultiLineString, a feature of its own, so the fill
/// bucket classifies each piece's ring alone.
final class FillTilerLineMetricsTests: XCTestCase {
    /// A line that leaves tile (1, 1) of the zoom-2 grid through its buffered west border and
    /// comes back: that tile holds two 2-point pieces.
    let line = [0.36, 0.30, 0.15, 0.32, 0.40, 0.36]

    func pieces(_ separate: Bool) -> [FlatPolygon] {
        var tiler = FillTiler(zoom: 2, buffer: 0.25)
        tiler.separateLines = separate
        return tiler.tiles(lines: [line]).filter { $0.x == 1 && $0.y == 1 }.flatMap(\.polygons)
    }

    func testEachPieceIsItsOwnPolygonWithLineMetrics() {
        let polys = pieces(true)
        XCTAssertEqual(polys.count, 2, "one polygon per piece")
        XCTAssertTrue(polys.allSatisfy { $0.coords.count == 4 && $0.holeIndices.isEmpty })
    }

    func testPiecesOfOneFeatureAreClassifiedTogetherWithout() {
        // classifyRings drops zero-area rings when a feature has more than one
        XCTAssertTrue(pieces(false).isEmpty)
    }

    func testLinesOfAMultiLineStringAreNotHolesOfEachOther() {
        let outer = [0.10, 0.10, 0.20, 0.10, 0.20, 0.20, 0.10, 0.20]
        let reversed = [0.12, 0.12, 0.12, 0.18, 0.18, 0.18, 0.18, 0.12]
        var tiler = FillTiler(zoom: 0, buffer: 0.25)
        XCTAssertEqual(tiler.classify([outer, reversed]).map(\.holeIndices.count), [1])
        tiler.separateLines = true
        XCTAssertEqual(tiler.classify([outer, reversed]).map(\.holeIndices.count), [0, 0])
    }
}
