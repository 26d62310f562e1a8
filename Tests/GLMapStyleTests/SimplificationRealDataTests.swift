import Foundation
import XCTest
import GLMapCore
import GLMapGeoJSON
@testable import GLMapStyle
import GLMapTestSupport

/// `Simplification.rank` (one job per line or ring on all cores, results put back in order)
/// against the recursive transcription of geojson-vt's simplify (`geojsonVTRanks`), on every line
/// and ring of the shared scenes' data: the ranks decide which positions survive per zoom, so
/// they must be equal bit for bit.
final class SimplificationRealDataTests: XCTestCase {
    func testWorldRanksEqualTheRecursiveOnes() throws { try compare("world") }
    func testMontrealRanksEqualTheRecursiveOnes() throws { try compare("montreal") }
    func testNYCBoroughsRanksEqualTheRecursiveOnes() throws { try compare("nyc_boroughs") }
    func testUSStatesRanksEqualTheRecursiveOnes() throws { try compare("us_states") }
    func testHelsinkiRanksEqualTheRecursiveOnes() throws { try compare("helsinki") }

    /// The oracle's ranks of positions `range` of the flat x,y `c`.
    func expected(_ c: [Double], _ range: Range<Int>, _ sq: Double) -> [Double] {
        geojsonVTRanks(range.map { (c[2 * $0], c[2 * $0 + 1]) }, sqTolerance: sq)
    }

    func compare(_ scene: String) throws {
        let file = SharedData.scenes.appendingPathComponent("data/\(scene).geojson")
        try SharedData.require("the \(scene) scene's data", at: file)
        var features = try ProjectedFeature.project(GeoJSONDecoder.decode(Array(Data(contentsOf: file))))
        // MapLibre's defaults (tolerance 0.375 px, maxzoom 18), as the scenes' sources use them.
        let t = 0.375 / (WebMercator.tileSize * exp2(18))
        Simplification.rank(&features, tolerance: 0.375, maxzoom: 18)
        var positions = 0, kept = 0
        for (k, f) in features.enumerated() {
            XCTAssertEqual(f.lineRanks.count, f.lines.count, "\(scene) feature \(k)")
            for (line, got) in zip(f.lines, f.lineRanks) {
                let want = expected(line, 0..<(line.count / 2), t * t)
                XCTAssertEqual(got.ranks, want, "\(scene) feature \(k): line ranks")
                positions += want.count
                kept += want.filter { $0 > 0 }.count
            }
            for (p, poly) in f.polygons.enumerated() {
                XCTAssertEqual(poly.ringRanks.count, poly.ringRanges.count, "\(scene) feature \(k) polygon \(p)")
                for (range, got) in zip(poly.ringRanges, poly.ringRanks) {
                    let want = expected(poly.coords, range, t * t)
                    XCTAssertEqual(got.ranks, want, "\(scene) feature \(k) polygon \(p): ring ranks")
                    positions += want.count
                    kept += want.filter { $0 > 0 }.count
                }
            }
        }
        XCTAssertGreaterThan(positions, 1000, "\(scene): lines and rings to compare")
        XCTAssertLessThan(kept, positions, "\(scene): some positions rank 0 (the comparison covers dropped ones)")
    }
}
