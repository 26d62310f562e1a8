import XCTest
import GLMapCore
import GLMapGeoJSON
@testable import GLMapStyle
import GLMapTestSupport

/// Per-zoom simplification (geojson-vt's scheme) and longitude wrapping of projected features.
final class SimplificationTests: XCTestCase {
    func testEndpointsRankOneAndCollinearPointsRankZero() {
        let line: [Double] = [0, 0, 0.25, 0, 0.5, 0, 1, 0]
        let r = Simplification.ranks(line, positions: 0..<4, isRing: false, sqTolerance: 1e-12)
        XCTAssertEqual(r.ranks, [1, 0, 0, 1])
        XCTAssertEqual(r.size, 1, accuracy: 1e-15)
    }

    func testRankIsTheSquaredDistanceAtWhichThePointSplitsItsSpan() {
        // A peak of height 0.3 over the chord, then a bump of 0.1 over the half-chord after it.
        let line: [Double] = [0, 0, 0.5, 0.3, 0.75, 0.15 + 0.1, 1, 0]
        let r = Simplification.ranks(line, positions: 0..<4, isRing: false, sqTolerance: 1e-12)
        XCTAssertEqual(r.ranks[1], 0.09, accuracy: 1e-12)
        // (0.75, 0.25) against the chord (0.5, 0.3)–(1, 0): distance² of the point to that segment.
        let expected = Simplification.sqSegmentDistance(0.75, 0.25, 0.5, 0.3, 1, 0)
        XCTAssertEqual(r.ranks[2], expected, accuracy: 1e-15)
        XCTAssertGreaterThan(expected, 0)
    }

    func testRingSizeIsItsArea() {
        let ring: [Double] = [0, 0, 0.5, 0, 0.5, 0.25, 0, 0.25, 0, 0]
        let r = Simplification.ranks(ring, positions: 0..<5, isRing: true, sqTolerance: 1e-12)
        XCTAssertEqual(r.size, 0.125, accuracy: 1e-15)
        XCTAssertEqual(r.ranks.first, 1)
        XCTAssertEqual(r.ranks.last, 1)
    }

    /// The ranks equal a plain recursive transcription of geojson-vt's simplify (the oracle), and
    /// filtering by rank keeps at least what a classic Douglas–Peucker pass at that tolerance keeps.
    func testRanksMatchRecursiveDouglasPeuckerAndKeepItsPoints() throws {
        func classic(_ p: [(Double, Double)], _ first: Int, _ last: Int, _ t: Double, _ keep: inout Set<Int>) {
            guard last - first > 1 else { return }
            var best = -1.0, index = -1
            for i in (first + 1)..<last {
                let d = Simplification.sqSegmentDistance(p[i].0, p[i].1, p[first].0, p[first].1, p[last].0, p[last].1)
                if d > best { best = d; index = i }
            }
            guard best > t * t else { return }
            keep.insert(index)
            classic(p, first, index, t, &keep)
            classic(p, index, last, t, &keep)
        }
        var rng = SplitMix64(state: 7)
        for round in 0..<200 {
            let n = 2 + Int(rng.next() % 300)
            var pts: [(Double, Double)] = []
            var x = 0.3, y = 0.4
            for _ in 0..<n {
                // Every tenth line sits on a coarse grid, so equal distances (ties) happen.
                x += round % 10 == 0 ? Double(rng.next() % 3) * 1e-5 : (rng.unit() - 0.3) * 1e-4
                y += round % 10 == 0 ? Double(rng.next() % 3) * 1e-5 - 1e-5 : (rng.unit() - 0.5) * 1e-4
                pts.append((x, y))
            }
            let coords = pts.flatMap { [$0.0, $0.1] }
            let sq = 1e-20
            let got = Simplification.ranks(coords, positions: 0..<n, isRing: false, sqTolerance: sq)
            let want = geojsonVTRanks(pts, sqTolerance: sq)
            XCTAssertEqual(got.ranks, want, "round \(round)")

            let t = 2e-5
            var keep: Set<Int> = [0, n - 1]
            classic(pts, 0, n - 1, t, &keep)
            // (On the grid, equal distances make the two choose different pivots; skip those.)
            for i in keep where round % 10 != 0 { XCTAssertGreaterThan(got.ranks[i], t * t, "round \(round): classic DP keeps \(i)") }
            let f = ProjectedFeature(index: 0, context: FeatureContext(id: nil, properties: JSONObject(), geometryType: "LineString", geometry: nil),
                                     type: .lineString, lines: [coords], lineRanks: [got])
            if let s = f.simplified(tolerance: t) {
                XCTAssertEqual(s.lines[0].count / 2, got.ranks.filter { $0 > t * t }.count)
                XCTAssertEqual(Array(s.lines[0].prefix(2)), Array(coords.prefix(2)))
                XCTAssertEqual(Array(s.lines[0].suffix(2)), Array(coords.suffix(2)))
            } else {
                XCTAssertLessThan(got.size, t)
            }
        }
    }

    func testSmallRingsAndShortLinesAreDroppedAndAPolygonWithoutItsOuterRingGoes() {
        let ctx = FeatureContext(id: nil, properties: JSONObject(), geometryType: "Polygon", geometry: nil)
        let big: [Double] = [0.1, 0.1, 0.2, 0.1, 0.2, 0.2, 0.1, 0.2, 0.1, 0.1]
        let tiny: [Double] = [0.15, 0.15, 0.15 + 1e-7, 0.15, 0.15, 0.15 + 1e-7, 0.15, 0.15]
        var withHole = ProjectedFeature(index: 0, context: ctx, type: .polygon,
                                        polygons: [FlatPolygon(coords: big + tiny, holeIndices: [5])])
        withHole.rankForSimplification(sqTolerance: 1e-30)
        let t = 1e-5   // tiny ring: area 5e-15 < t² = 1e-10; big ring: 0.01
        let s = withHole.simplified(tolerance: t)!
        XCTAssertEqual(s.polygons.count, 1)
        XCTAssertEqual(s.polygons[0].holeIndices, [], "the hole smaller than t² is dropped")
        XCTAssertEqual(s.polygons[0].coords, big)

        var tinyOnly = ProjectedFeature(index: 0, context: ctx, type: .polygon,
                                        polygons: [FlatPolygon(coords: tiny + tiny, holeIndices: [4])])
        tinyOnly.rankForSimplification(sqTolerance: 1e-30)
        XCTAssertNil(tinyOnly.simplified(tolerance: t), "a polygon whose outer ring is too small is dropped whole")

        var short = ProjectedFeature(index: 0, context: ctx, type: .lineString, lines: [[0.5, 0.5, 0.5 + 1e-6, 0.5]])
        short.rankForSimplification(sqTolerance: 1e-30)
        XCTAssertNil(short.simplified(tolerance: t), "a line shorter than t is dropped")
        XCTAssertNotNil(short.simplified(tolerance: 1e-7))
        XCTAssertEqual(short.simplified(tolerance: 0)?.lines, short.lines)
    }

    func testToleranceFollowsTheTileZoomAndVanishesAtMaxzoom() {
        XCTAssertEqual(Simplification.tolerance(pixels: 0.375, zoom: 0, maxzoom: 18), 0.375 / 512)
        XCTAssertEqual(Simplification.tolerance(pixels: 0.375, zoom: 3.9, maxzoom: 18), 0.375 / (512 * 8))
        XCTAssertEqual(Simplification.tolerance(pixels: 0.375, zoom: -1, maxzoom: 18), 0.375 / 512)
        XCTAssertEqual(Simplification.tolerance(pixels: 0.375, zoom: 18, maxzoom: 18), 0)
        XCTAssertEqual(Simplification.tolerance(pixels: 0.375, zoom: 22, maxzoom: 14), 0)
        XCTAssertEqual(Simplification.tolerance(pixels: 0, zoom: 2, maxzoom: 18), 0)
    }

    func testDegenerateRankingInputsTerminate() {
        // Every position the same, and a long zigzag whose splits are maximally unbalanced.
        let same = [Double](repeating: 0.5, count: 20_000)
        XCTAssertEqual(Simplification.ranks(same, positions: 0..<10_000, isRing: true, sqTolerance: 0).ranks.filter { $0 > 0 }.count, 2)
        var spiral: [Double] = []
        for i in 0..<50_000 { spiral += [Double(i) * 1e-6, Double(i * i) * 1e-12] }
        let r = Simplification.ranks(spiral, positions: 0..<50_000, isRing: false, sqTolerance: 0)
        XCTAssertEqual(r.ranks.count, 50_000)
    }

    // MARK: longitude wrapping

    func project(_ geojson: String) throws -> [ProjectedFeature] {
        try ProjectedFeature.project(GeoJSONDecoder.decode(Array(geojson.utf8)))
    }

    func testPointsPastTheAntimeridianWrapIntoThePrimaryWorld() throws {
        let f = try project(#"{"type":"MultiPoint","coordinates":[[190,10],[-190,10],[900,0],[-170,10]]}"#)[0]
        let x = { (lon: Double) in WebMercator.project(lon: lon, lat: 10).x }
        XCTAssertEqual(f.points[0], x(-170), accuracy: 1e-12)
        XCTAssertEqual(f.points[2], x(170), accuracy: 1e-12)
        XCTAssertEqual(f.points[4], x(180) - 1, accuracy: 1e-12)   // 900° = 2.5 turns → −180°
        XCTAssertEqual(f.points[6], x(-170), accuracy: 1e-12)
        for i in stride(from: 0, to: f.points.count, by: 2) { XCTAssert((0..<1).contains(f.points[i])) }
    }

    func testPartsMoveByWholeWorldsAndAnAntimeridianCrossingStaysInOnePiece() throws {
        let fs = try project(#"""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[170,0],[190,0]]}},
          {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[
            [[-200,0],[-190,0],[-190,10],[-200,0]],[[-198,1],[-192,1],[-192,2],[-198,1]]]}},
          {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[370,0],[380,0]]}}]}
        """#)
        let x = { (lon: Double) in (180 + lon) / 360 }
        XCTAssertEqual(fs[0].lines[0][0], x(170), accuracy: 1e-12)
        XCTAssertEqual(fs[0].lines[0][2], x(190), accuracy: 1e-12, "crossing parts stay whole, past x = 1")
        let poly = fs[1].polygons[0].coords
        XCTAssertEqual(poly[0], x(160), accuracy: 1e-12)
        XCTAssertEqual(poly[2], x(170), accuracy: 1e-12)
        XCTAssertEqual(poly[8], x(162), accuracy: 1e-12, "holes move with their polygon")
        XCTAssertEqual(fs[2].lines[0][0], x(10), accuracy: 1e-12)
        XCTAssertEqual(fs[2].lines[0][2], x(20), accuracy: 1e-12)
    }
}
