import Foundation
import XCTest
@testable import GLMapTessellation

/// `Earcut.Flavor.mapLibre` against earcut 3.0.2 itself: Fixtures/earcut-3.0.2-cases.json holds
/// 240 seeded polygons (random and self-intersecting rings, star shapes with and without holes,
/// rings above 80 vertices that take the z-order path) with the triangles mapbox/earcut.hpp at
/// its 3.0.2-parity commit gives for them (Fixtures/make_earcut302_cases.py). The flavour must
/// give the same triangles index for index; the default flavour (earcut 3.2) differs on most.
final class EarcutMapLibreFlavorTests: XCTestCase {
    struct Case: Decodable { var rings: [[Double]]; var triangles: [UInt32] }
    struct File: Decodable { var source: String; var cases: [Case] }

    static func load() throws -> File {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/earcut-3.0.2-cases.json")
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
    }

    static func flatten(_ rings: [[Double]]) -> (coords: [Double], holes: [Int]) {
        var coords: [Double] = [], holes: [Int] = []
        for (k, r) in rings.enumerated() {
            if k > 0 { holes.append(coords.count / 2) }
            coords.append(contentsOf: r)
        }
        return (coords, holes)
    }

    func testSameTrianglesAsEarcut302() throws {
        let file = try Self.load()
        XCTAssertEqual(file.cases.count, 240)
        let mapLibre = EarcutTriangulator(flavor: .mapLibre), current = EarcutTriangulator()
        var differFromCurrent = 0
        for (i, c) in file.cases.enumerated() {
            let (coords, holes) = Self.flatten(c.rings)
            let got = mapLibre.triangulate(coords, holeIndices: holes)
            XCTAssertEqual(got, c.triangles, "case \(i) (\(coords.count / 2) vertices, \(holes.count) holes)")
            if current.triangulate(coords, holeIndices: holes) != c.triangles { differFromCurrent += 1 }
        }
        // the fixture distinguishes the flavours (otherwise it would not test the 3.0 order)
        XCTAssertGreaterThan(differFromCurrent, 100)
    }

    /// The fill over a LineString of differential case s1-00365 (one tile's piece, tile units):
    /// the closing chord crosses the ring, and earcut 3.0 (MapLibre) covers up to edge 0-4
    /// where earcut 3.2 covers up to the chord 0-5 (MapLibre Native draws the former).
    func testSelfIntersectingLineRingCoversWhatMapLibreCovers() {
        let ring: [Double] = [4729, 4193, 4334, 6073, 5241, 7160, 5147, 8089, 6653, 9408, 6806, 10202]
        XCTAssertEqual(EarcutTriangulator(flavor: .mapLibre).triangulate(ring), [4, 3, 2, 2, 1, 0, 4, 2, 0])
        XCTAssertEqual(EarcutTriangulator().triangulate(ring), [4, 3, 2, 2, 1, 0, 2, 0, 5])
    }
}
