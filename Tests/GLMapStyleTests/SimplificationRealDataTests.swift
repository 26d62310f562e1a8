import Foundation
import XCTest
import GLMapCore
import GLMapGeoJSON
@testable import GLMapStyle
import GLMapTestSupport

/// `Simplification.rank` (the parallel jobs and the pivot loop that skips provably irrelevant
/// divisions) against a plain recursive transcription of geojson-vt's simplify over
/// `sqSegmentDistance`, on every line and ring of the shared scenes' data: the ranks decide which
/// positions survive per zoom, so they must be equal bit for bit.
final class SimplificationRealDataTests: XCTestCase {
    func testWorldRanksEqualTheRecursiveOnes() throws { try compare("world") }
    func testMontrealRanksEqualTheRecursiveOnes() throws { try compare("montreal") }
    func testNYCBoroughsRanksEqualTheRecursiveOnes() throws { try compare("nyc_boroughs") }
    func testUSStatesRanksEqualTheRecursiveOnes() throws { try compare("us_states") }
    func testHelsinkiRanksEqualTheRecursiveOnes() throws { try compare("helsinki") }

    /// geojson-vt's simplify, recursive, over positions first…last of `c` (flat x,y).
    func recursive(_ c: [Double], _ first: Int, _ last: Int, _ sq: Double, _ r: inout [Double]) {
        var maxSqDist = sq
        let mid = first + (last - first) / 2
        var minPosToMid = last - first
        var index = -1
        for i in (first + 1)..<max(first + 1, last) {
            let d = Simplification.sqSegmentDistance(c[2 * i], c[2 * i + 1], c[2 * first], c[2 * first + 1], c[2 * last], c[2 * last + 1])
            if d > maxSqDist {
                index = i
                maxSqDist = d
            } else if d == maxSqDist {
                let posToMid = abs(i - mid)
                if posToMid < minPosToMid { index = i; minPosToMid = posToMid }
            }
        }
        guard maxSqDist > sq, index >= 0 else { return }
        if index - first > 1 { recursive(c, first, index, sq, &r) }
        r[index] = maxSqDist
        if last - index > 1 { recursive(c, index, last, sq, &r) }
    }

    func expected(_ c: [Double], _ range: Range<Int>, _ sq: Double) -> [Double] {
        let part = Array(c[(2 * range.lowerBound)..<(2 * range.upperBound)])
        let n = range.count
        guard n > 0 else { return [] }
        var r = [Double](repeating: 0, count: n)
        r[0] = 1
        if n > 2 { recursive(part, 0, n - 1, sq, &r) }
        r[n - 1] = 1
        return r
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
