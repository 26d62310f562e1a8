import XCTest
@testable import GLMapTessellation
@testable import GLMapStyle

/// Per-tile clipping of lines (geojson-vt semantics) used for MapLibre's dash phase.
final class TileLineClipperTests: XCTestCase {
    func testStraightLineAcrossTwoTiles() {
        // Zoom 1: tiles of 0.5; buffer a quarter tile (0.125). Line at y = 0.3 from x 0.1 to 0.9.
        let clipper = TileLineClipper(zoom: 1, buffer: 0.25)
        var pieces: [TileLineClipper.Piece] = []
        XCTAssertTrue(clipper.clip([0.1, 0.3, 0.9, 0.3], closed: false) { pieces.append($0) })
        // Columns −1 and 2 also get a sliver: the ends lie within their buffers.
        XCTAssertEqual(pieces.map(\.x).sorted(), [-1, 0, 1, 2])
        XCTAssertTrue(pieces.allSatisfy { $0.y == 0 })
        let left = pieces.first { $0.x == 0 }!, right = pieces.first { $0.x == 1 }!
        XCTAssertEqual(left.y, 0)
        XCTAssertEqual(left.coords, [0.1, 0.3, 0.625, 0.3])       // ends at the buffered right edge
        XCTAssertEqual(left.start, 0, accuracy: 1e-12)
        XCTAssertEqual(left.end, 0.525, accuracy: 1e-12)
        XCTAssertEqual(right.coords[0], 0.375, accuracy: 1e-12)    // starts at the buffered left edge
        XCTAssertEqual(right.start, 0.275, accuracy: 1e-12)
        XCTAssertEqual(right.end, 0.8, accuracy: 1e-12)
    }

    func testLineLeavingAndReenteringSplits() {
        // A U-shaped line that leaves tile (0, 0)'s buffered square (x > 0.625) and comes back.
        let clipper = TileLineClipper(zoom: 1, buffer: 0.25)
        var inTile00: [[Double]] = []
        clipper.clip([0.2, 0.1, 0.8, 0.1, 0.8, 0.2, 0.2, 0.2], closed: false) { p in
            if p.x == 0 && p.y == 0 { inTile00.append(p.coords) }
        }
        XCTAssertEqual(inTile00.count, 2)
    }

    func testClosedRingStaysClosed() {
        let clipper = TileLineClipper(zoom: 1, buffer: 0.25)
        var rings: [[Double]] = []
        clipper.clip([0.2, 0.2, 0.8, 0.2, 0.8, 0.3, 0.2, 0.3, 0.2, 0.2], closed: true) { p in
            if p.x == 0 && p.y == 0 { rings.append(p.coords) }
        }
        XCTAssertEqual(rings.count, 1)
        let r = rings[0]
        XCTAssertEqual(r[0], r[r.count - 2]); XCTAssertEqual(r[1], r[r.count - 1])
        XCTAssertTrue(stride(from: 0, to: r.count, by: 2).allSatisfy { r[$0] <= 0.625 + 1e-12 })
    }

    func testTooManyTilesIsRefused() {
        let clipper = TileLineClipper(zoom: 30, buffer: 0.25)
        var called = false
        XCTAssertFalse(clipper.clip([0, 0.5, 1, 0.5], closed: false) { _ in called = true })
        XCTAssertFalse(called)
    }

    /// The cap is on tiles of area, not per axis: a ring 1° wide at z18 (~730 × 730 tiles) would
    /// be cut into ~500,000 rings; it is drawn whole instead. Just under the cap it is still cut.
    func testAreaPastTheTileCapIsRefusedAndJustUnderIsClipped() {
        let w = 1.0 / 360
        let ring = [0.5, 0.5, 0.5 + w, 0.5, 0.5 + w, 0.5 + w, 0.5, 0.5 + w, 0.5, 0.5]
        var called = 0
        XCTAssertFalse(TileLineClipper(zoom: 18, buffer: 0.25).clip(ring, closed: true) { _ in called += 1 })
        XCTAssertEqual(called, 0)
        // 2^14 / 360 ≈ 45.5 tiles a side: ~2,300 tiles, under the cap of 65,536.
        XCTAssertTrue(TileLineClipper(zoom: 14, buffer: 0.25).clip(ring, closed: true) { _ in called += 1 })
        XCTAssertGreaterThan(called, 2_000)
    }

    // MARK: pieces (the list the CPU reference draws, one piece per tile)

    func testOpenLineSplitsPerBufferedTile() throws {
        // Zoom 1: tiles of half the world, buffer 0.25 tile = 0.125 unit.
        let s = TileLineClipper(zoom: 1, buffer: 0.25)
        let pieces = try XCTUnwrap(s.pieces([0.2, 0.25, 0.85, 0.25], closed: false))
        XCTAssertEqual(pieces.count, 2)
        let left = try XCTUnwrap(pieces.first { $0.x == 0 }), right = try XCTUnwrap(pieces.first { $0.x == 1 })
        XCTAssertEqual(left.y, 0)
        XCTAssertEqual(left.coords, [0.2, 0.25, 0.625, 0.25])
        XCTAssertEqual(left.start, 0, accuracy: 1e-12)
        XCTAssertEqual(left.end, 0.425, accuracy: 1e-12)
        XCTAssertEqual(right.coords[0], 0.375, accuracy: 1e-12)
        XCTAssertEqual(right.start, 0.175, accuracy: 1e-12)
        XCTAssertEqual(right.end, 0.65, accuracy: 1e-12)
    }

    func testLineLeavingAndReenteringATileMakesTwoPieces() throws {
        let s = TileLineClipper(zoom: 1, buffer: 0)
        // Out of tile (0, 0) to the right and back.
        let pieces = try XCTUnwrap(s.pieces([0.3, 0.1, 0.7, 0.1, 0.7, 0.3, 0.3, 0.3], closed: false))
        XCTAssertEqual(pieces.filter { $0.x == 0 && $0.y == 0 }.count, 2)
        XCTAssertEqual(pieces.filter { $0.x == 1 && $0.y == 0 }.count, 1)
        // A ring stays one ring per tile.
        let rings = try XCTUnwrap(s.pieces([0.3, 0.1, 0.7, 0.1, 0.7, 0.3, 0.3, 0.3, 0.3, 0.1], closed: true))
        let ring = rings.filter { $0.x == 0 && $0.y == 0 }
        XCTAssertEqual(ring.count, 1)
        XCTAssertEqual(Array(ring[0].coords.prefix(2)), Array(ring[0].coords.suffix(2)))
    }

    func testTooWideLinesAreNotSplit() {
        XCTAssertNil(TileLineClipper(zoom: 30, buffer: 0).pieces([0, 0.5, 1, 0.5], closed: false))
    }
}
