import XCTest
@testable import GLMapStyle

/// The signed-distance dash atlas (MapLibre's LineAtlas semantics).
final class LineAtlasTests: XCTestCase {
    func row(_ atlas: LineAtlas, _ y: Int) -> [UInt8] { Array(atlas.pixels[(y * 256)..<((y + 1) * 256)]) }

    func testEntriesAndRows() {
        var atlas = LineAtlas()
        let butt = atlas.dash([1, 1], round: false)
        XCTAssertEqual(butt, DashEntry(y: 0, height: 0, width: 2))
        let round = atlas.dash([1, 2, 1], round: true)
        XCTAssertEqual(round, DashEntry(y: 1 + 7, height: 14, width: 4))
        XCTAssertEqual(atlas.height, 1 + 15)
        XCTAssertEqual(atlas.pixels.count, 256 * 16)
        // Deduplicated by (pattern, round).
        XCTAssertEqual(atlas.dash([1, 1], round: false), butt)
        XCTAssertEqual(atlas.height, 16)
        XCTAssertNotEqual(atlas.dash([1, 1], round: true).y, butt.y)
    }

    func testButtPatternSignedDistances() {
        var atlas = LineAtlas()
        let e = atlas.dash([1, 1], round: false)
        let r = row(atlas, e.y)
        // Dash over texels 0..<128 (joined with the wrap-around gap), gap over 128..<256.
        XCTAssertEqual(r[64], 128 + 64)     // centre of the dash: 64 texels from either edge
        XCTAssertEqual(r[128], 128)         // the edge
        XCTAssertEqual(r[192], 128 - 64)    // centre of the gap
        XCTAssertEqual(r[0], 128)           // the start is an edge too
        for x in 1..<128 { XCTAssertGreaterThan(r[x], 128, "x = \(x) should be inside the dash") }
        for x in 129..<256 { XCTAssertLessThan(r[x], 128, "x = \(x) should be inside the gap") }
    }

    func testOddPatternJoinsFirstAndLastDash() {
        var atlas = LineAtlas()
        // [1, 2, 1]: the last dash runs into the first, one dash of 2 around texel 0/256.
        let e = atlas.dash([1, 2, 1], round: false)
        let r = row(atlas, e.y)
        XCTAssertEqual(r[0], 128 + 64)
        XCTAssertEqual(r[128], 128 - 64)
        XCTAssertEqual(r[64], 128)
    }

    func testZeroLengthPartsCollapse() {
        var atlas = LineAtlas()
        // [1, 0, 1, 1] draws as [2, 1]: the zero gap disappears and the dashes merge.
        let ea = atlas.dash([1, 0, 1, 1], round: false)
        let a = row(atlas, ea.y)
        var reference = LineAtlas()
        let eb = reference.dash([2, 1], round: false)
        let b = row(reference, eb.y)
        XCTAssertEqual(a, b)
        // [0, 1]: no dash at all; [1, 0]: a solid line.
        let en = atlas.dash([0, 1], round: false)
        let none = row(atlas, en.y)
        XCTAssertTrue(none.allSatisfy { $0 < 128 })
        let es = atlas.dash([1, 0], round: false)
        let solid = row(atlas, es.y)
        XCTAssertTrue(solid.allSatisfy { $0 > 128 })
        // Total length 0: an empty row, width 0.
        let zero = atlas.dash([0, 0], round: false)
        XCTAssertEqual(zero.width, 0)
        XCTAssertTrue(row(atlas, zero.y).allSatisfy { $0 == 0 })
    }

    func testRoundPatternHasCapsIntoTheGap() {
        var atlas = LineAtlas()
        let e = atlas.dash([1, 2], round: true)  // stretch 256/3 texels per line width
        let centre = row(atlas, e.y), edge = row(atlas, e.y - 7)
        let dashEnd = 256.0 / 3
        // On the centre row the cap reaches half a width (≈ 42.7 texels) into the gap.
        XCTAssertGreaterThan(centre[Int(dashEnd + 40)], 128)
        XCTAssertLessThan(centre[Int(dashEnd + 46)], 128)
        // At the edge of the line the cap has shrunk to nothing: the gap starts at the dash end.
        XCTAssertLessThan(edge[Int(dashEnd + 4)], 128)
        // Inside the dash every row is inside.
        for y in (e.y - 7)...(e.y + 7) { XCTAssertGreaterThanOrEqual(row(atlas, y)[40], 128) }
    }
}
