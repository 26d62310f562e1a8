import Foundation
import XCTest
@testable import GLMapTessellation

/// `NativeEmulation.earcut22` against the earcut MapLibre Native triangulates fills with:
/// Fixtures/earcut-2.2-native-cases.json holds 301 seeded polygons with holes (valid ones, holes
/// outside their outer ring, holes sharing their leftmost x, small grids with repeated points,
/// rings above 80 vertices, self-intersecting outers) with the triangles of mapbox/earcut.hpp
/// v2.2.4 with its pre-2.2.3 start-node rule (Fixtures/make_earcut22_native_cases.py). The
/// emulation must give them index for index; GL JS's earcut 3.0 (`Flavor.mapLibre`) differs on most.
final class EarcutNative22Tests: XCTestCase {
    struct Case: Decodable { var rings: [[Double]]; var triangles: [UInt32] }
    struct File: Decodable { var source: String; var cases: [Case] }

    static func load() throws -> File {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/earcut-2.2-native-cases.json")
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
    }

    func testSameTrianglesAsNativesEarcut() throws {
        let file = try Self.load()
        XCTAssertEqual(file.cases.count, 301)
        let native = EarcutTriangulator(flavor: .mapLibre, emulation: .earcut22)
        let glJS = EarcutTriangulator(flavor: .mapLibre)
        var differFromGLJS = 0
        for (i, c) in file.cases.enumerated() {
            let (coords, holes) = EarcutMapLibreFlavorTests.flatten(c.rings)
            XCTAssertEqual(native.triangulate(coords, holeIndices: holes), c.triangles,
                           "case \(i) (\(coords.count / 2) vertices, \(holes.count) holes)")
            if glJS.triangulate(coords, holeIndices: holes) != c.triangles { differFromGLJS += 1 }
        }
        // the fixture tells the two apart (otherwise it would not test Native's rules)
        XCTAssertGreaterThan(differFromGLJS, 150)
    }

    /// Differential case s1-00003 reduced (tile units): a hole no bridge reaches. earcut 3.0 drops
    /// it and clips from the outer ring's first node (2-3-0); Native's start node moves on after
    /// the hole, which gives 1-2-3, the triangle in Native's image.
    func testStartNodeMovesOnAfterAHole() {
        let coords: [Double] = [4795, 2600, 3072, 2585, 993, 5448, -2048, 6191, -2048, 5537, -794, 4601, -2048, 3721]
        XCTAssertEqual(EarcutTriangulator(flavor: .mapLibre, emulation: .earcut22).triangulate(coords, holeIndices: [4]), [1, 2, 3])
        XCTAssertEqual(EarcutTriangulator(flavor: .mapLibre).triangulate(coords, holeIndices: [4]), [2, 3, 0])
    }

    /// Without the option the triangulator is the flavour it was asked for.
    func testEmptyEmulationIsTheFlavour() throws {
        let file = try EarcutMapLibreFlavorTests.load()
        let plain = EarcutTriangulator(flavor: .mapLibre, emulation: [])
        for c in file.cases.prefix(60) {
            let (coords, holes) = EarcutMapLibreFlavorTests.flatten(c.rings)
            XCTAssertEqual(plain.triangulate(coords, holeIndices: holes), c.triangles)
        }
    }
}
