import Foundation
import GLMapCore
import XCTest
@testable import GLMapStyle
@testable import GLMapTessellation
import GLMapTiles

/// Fill interiors and plain lines cut near the tile square (FillBucket+Clip, LineBucket+Clip):
/// what is kept covers the square as the whole geometry does, and only what may be cut is cut.
final class TileCutTests: XCTestCase {
    let tile = OverscaledTileID(CanonicalTileID(10, 500, 300))

    func fillLayer(_ polygons: [FlatPolygon], isPolygon: Bool = true, translate: (Double, Double) = (0, 0)) -> EvaluatedFillLayer {
        var f = EvaluatedFill(polygons: polygons, color: .black, opacity: 1, outlineColor: .black)
        f.isPolygon = isPolygon
        var layer = EvaluatedFillLayer(id: "f", antialias: true, translate: translate, translateAnchor: .map, features: [f])
        layer.tile = tile
        return layer
    }

    /// Whether (x, y) is inside one of the bucket's triangles.
    func covered(_ b: FillBucket, _ x: Double, _ y: Double) -> Bool {
        func p(_ i: UInt32) -> (Double, Double) { (Double(b.vertices[Int(i) * b.stride]), Double(b.vertices[Int(i) * b.stride + 1])) }
        for t in stride(from: 0, to: b.indices.count, by: 3) {
            let a = p(b.indices[t]), c = p(b.indices[t + 1]), d = p(b.indices[t + 2])
            let s1 = (c.0 - a.0) * (y - a.1) - (c.1 - a.1) * (x - a.0)
            let s2 = (d.0 - c.0) * (y - c.1) - (d.1 - c.1) * (x - c.0)
            let s3 = (a.0 - d.0) * (y - d.1) - (a.1 - d.1) * (x - d.0)
            if (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0) { return true }
        }
        return false
    }

    func testAPolygonReachingIntoTheBufferIsCutAndCoversTheSquareAsBefore() {
        // A concave outer ring reaching 2,048 units past three sides, a hole straddling the east edge.
        let outer: [Double] = [-2048, -2048, 10240, -2048, 10240, 3000, 5000, 4000, 10240, 6000, 9000, 10240, -2048, 10240, -2048, -2048]
        let hole: [Double] = [7000, 7000, 7000, 8000, 9500, 8000, 9500, 7000, 7000, 7000]
        let poly = FlatPolygon(coords: outer + hole, holeIndices: [outer.count / 2])
        let cut = FillBucket(fillLayer([poly]))
        var whole = fillLayer([poly])
        whole.tile = nil   // not a tile's layer: not cut
        let full = FillBucket(whole)
        let m = FillBucket.clipMargin, e = Double(TileExtent.extent)
        for i in stride(from: 0, to: cut.vertices.count, by: cut.stride) {
            XCTAssertTrue((-m...(e + m)).contains(Double(cut.vertices[i])) && (-m...(e + m)).contains(Double(cut.vertices[i + 1])),
                          "vertex \(cut.vertices[i]), \(cut.vertices[i + 1]) is outside the margin")
        }
        XCTAssertGreaterThan(full.vertices.count, 0)
        XCTAssertLessThan(triangleArea(cut), triangleArea(full), "the buffer's part is gone")
        // Sample the square (and its edges) on an off-grid lattice: the same points are covered.
        var checked = 0
        for i in 0...64 {
            for j in 0...64 {
                let x = Double(i) * 128 + 0.37, y = Double(j) * 128 + 0.61
                guard x <= e, y <= e else { continue }
                XCTAssertEqual(covered(cut, x, y), covered(full, x, y), "at \(x), \(y)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 4000)
        // The outline leaves out the edges lying wholly more than 1,024 units past one side: four
        // of the 7 outer edges and the hole's east edge (x = 9500) of its 4 (the rings' closing
        // copies add no edge).
        XCTAssertEqual(full.outlineIndices.count, 11 * 6)
        XCTAssertEqual(cut.outlineIndices.count, 6 * 6)
    }

    func testWhatIsNotCut() {
        let big = FlatPolygon(coords: [-3000, -3000, 11000, -3000, 11000, 11000, -3000, 11000, -3000, -3000], holeIndices: [])
        // Lines closed into rings (a fill over LineStrings), translated layers and polygons inside the margin.
        for layer in [fillLayer([big], isPolygon: false), fillLayer([big], translate: (4, 0))] {
            let b = FillBucket(layer)
            XCTAssertEqual(b.vertices.count / b.stride, 5, "\(layer.features[0].isPolygon) \(layer.translate)")
        }
        let inside = FlatPolygon(coords: [-200, -200, 8300, -200, 8300, 8300, -200, -200], holeIndices: [])
        XCTAssertNil(FillBucket.clippedToTile(inside))
        // An outer ring wholly outside leaves no interior (its outline edges beyond 1,024 units go too).
        let away = FlatPolygon(coords: [-4000, 100, -3000, 100, -3000, 900, -4000, 100], holeIndices: [])
        let b = FillBucket(fillLayer([away]))
        XCTAssertTrue(b.indices.isEmpty)
        XCTAssertTrue(b.outlineIndices.isEmpty)
    }

    func triangleArea(_ b: FillBucket) -> Double {
        var area = 0.0
        for t in stride(from: 0, to: b.indices.count, by: 3) {
            func p(_ i: UInt32) -> (Double, Double) { (Double(b.vertices[Int(i) * b.stride]), Double(b.vertices[Int(i) * b.stride + 1])) }
            let a = p(b.indices[t]), c = p(b.indices[t + 1]), d = p(b.indices[t + 2])
            area += abs((c.0 - a.0) * (d.1 - a.1) - (d.0 - a.0) * (c.1 - a.1)) / 2
        }
        return area
    }

    func lineLayer(width: Double = 2, dash: [Double]? = nil, translate: (Double, Double) = (0, 0), parts: [[Double]], closed: Bool = false) -> EvaluatedLineLayer {
        let line = EvaluatedLine(parts: parts.map { ($0, closed) }, join: .miter, color: .black, opacity: 1,
                                 width: width, gapWidth: 0, offset: 0, blur: 0, dasharray: dash)
        var l = EvaluatedLineLayer(id: "l", cap: .butt, miterLimit: 2, roundLimit: 1.05, translate: translate,
                                   translateAnchor: .map, gradient: nil, features: [line])
        l.tile = tile
        return l
    }

    func testLinePiecesInsideTheMargin() throws {
        let m = 600.0, e = Double(TileExtent.extent)
        // Across the tile: one piece from the west margin to the east one.
        XCTAssertEqual(LineBucket.pieces([-3000, 4096, 11000, 4096], closed: false, margin: m), [[-m, 4096, e + m, 4096]])
        // In and out twice: two pieces.
        let zigzag: [Double] = [100, 100, 100, -5000, 4000, -5000, 4000, 100, 5000, 100]
        XCTAssertEqual(LineBucket.pieces(zigzag, closed: false, margin: m), [[100, 100, 100, -m], [4000, -m, 4000, 100, 5000, 100]])
        XCTAssertNil(LineBucket.pieces([0, 0, 8192, 8192], closed: false, margin: m))
        // A ring starting inside: the piece through its first point runs across it.
        let ring: [Double] = [4000, 4000, 4000, -5000, 6000, -5000, 6000, 4000]
        XCTAssertEqual(LineBucket.pieces(ring, closed: true, margin: m), [[6000, -m, 6000, 4000, 4000, 4000, 4000, -m]])
    }

    func testWhichLineLayersAreCutAndByHowMuch() throws {
        let across: [[Double]] = [[-3000, 4096, 11000, 4096]]
        let plain = lineLayer(parts: across)
        // 2-px lines: 30 px of sharp-corner offsets at 16 units a pixel outweigh the 4 × (2 × 2 + 2) px reach.
        let margin = try XCTUnwrap(LineBucket.cutMargin(plain, next: nil, pixelsPerUnit: 512.0 / 8192))
        XCTAssertEqual(margin, 30 * 16 + 1, accuracy: 1e-9)
        let wide = try XCTUnwrap(LineBucket.cutMargin(lineLayer(width: 40, parts: across), next: nil, pixelsPerUnit: 512.0 / 8192))
        XCTAssertEqual(wide, (40 * 2 + 2) * 16 * 4, accuracy: 1e-9)
        XCTAssertNil(LineBucket.cutMargin(lineLayer(dash: [2, 1], parts: across), next: nil, pixelsPerUnit: nil), "dashes read the distance")
        XCTAssertNil(LineBucket.cutMargin(lineLayer(translate: (3, 0), parts: across), next: nil, pixelsPerUnit: nil))
        // The bucket extrudes only the kept piece: its vertices stay within the margin.
        let b = LineBucket(plain)
        for i in stride(from: 0, to: b.vertices.count, by: b.stride) {
            XCTAssertTrue((-margin...(8192 + margin)).contains(Double(b.vertices[i])), "\(b.vertices[i])")
        }
        XCTAssertFalse(b.indices.isEmpty)
    }
}
