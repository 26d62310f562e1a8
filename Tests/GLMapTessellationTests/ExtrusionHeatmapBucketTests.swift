import XCTest
import GLMapCore
@testable import GLMapStyle
@testable import GLMapTessellation

/// Fill-extrusion and heatmap buckets: MapLibre's wall and roof layout (one quad per kept ring
/// edge, the roof's earcut triangles, packed normals and edge distances), culling winding,
/// hostile input, instance attributes, and the parallel pattern arrays.
final class ExtrusionHeatmapBucketTests: XCTestCase {
    func layer(_ features: [EvaluatedFillExtrusion], patterned: Bool = false) -> EvaluatedFillExtrusionLayer {
        var l = EvaluatedFillExtrusionLayer(id: "x", opacity: 1, translate: (0, 0), translateAnchor: .map, verticalGradient: true, features: features)
        l.patterned = patterned
        return l
    }

    func square(_ x0: Double, _ y0: Double, _ side: Double) -> FlatPolygon {
        FlatPolygon(coords: [x0, y0, x0 + side, y0, x0 + side, y0 + side, x0, y0 + side, x0, y0], holeIndices: [])
    }

    /// (x, y, packed normal x, y, z, distance) of vertex `i`.
    func vertex(_ b: FillExtrusionBucket, _ i: Int) -> [Float] { Array(b.vertices[(i * b.stride)..<(i * b.stride + 6)]) }

    func testWallsPerEdgeAndTheRoofArea() {
        let f = EvaluatedFillExtrusion(polygons: [square(1000, 1000, 2000)], hasRoof: true, color: .white, height: 30, base: 0, opacity: 1)
        let b = FillExtrusionBucket(layer([f]))
        let n = b.vertices.count / b.stride
        // A closed ring of 5 points: 4 edges × 4 vertices, then the roof's 5 vertices.
        XCTAssertEqual(n, 4 * 4 + 5)
        XCTAssertEqual(b.indices.count, 4 * 6 + 2 * 3, "two triangles per wall, two for the square roof")
        XCTAssertTrue(b.indices.allSatisfy { Int($0) < n })
        // The first wall: p1 = (3000, 1000), p2 = (1000, 1000); perp of p1 − p2 = (0, 1) (south).
        XCTAssertEqual(vertex(b, 0), [3000, 1000, 0, 16384, 0, 0], "bottom of p1: t = 0, distance 0")
        XCTAssertEqual(vertex(b, 1), [3000, 1000, 1, 16384, 0, 0], "top of p1: the top flag in x")
        XCTAssertEqual(vertex(b, 2), [1000, 1000, 0, 16384, 0, 2000], "p2 one edge length along")
        // Roof vertices: normal up, top flag set.
        XCTAssertEqual(vertex(b, 16), [1000, 1000, 1, 0, 16384, 0])
        var area = 0.0
        for t in stride(from: 24, to: b.indices.count, by: 3) {
            func p(_ i: UInt32) -> (Double, Double) { (Double(b.vertices[Int(i) * b.stride]), Double(b.vertices[Int(i) * b.stride + 1])) }
            let a = p(b.indices[t]), c = p(b.indices[t + 1]), d = p(b.indices[t + 2])
            area += ((c.0 - a.0) * (d.1 - a.1) - (d.0 - a.0) * (c.1 - a.1)) / 2
        }
        XCTAssertEqual(abs(area), 2000 * 2000, accuracy: 1e-6)
        // MapLibre winds roofs the reverse of earcut's triangles: negative signed area in tile
        // units (y down), which the view's y flip turns counter-clockwise on screen (front faces).
        XCTAssertLessThan(area, 0)
    }

    func testDiagonalNormalsArePackedAsMapLibrePacksThem() {
        let tri = FlatPolygon(coords: [0, 0, 100, 100, 0, 100, 0, 0], holeIndices: [])
        let f = EvaluatedFillExtrusion(polygons: [tri], hasRoof: false, color: .white, height: 10, base: 0, opacity: 1)
        let b = FillExtrusionBucket(layer([f]))
        // First edge p1 = (100, 100), p2 = (0, 0): perp of (100, 100) normalised = (−0.7071, 0.7071).
        let nx = -1 / 2.0.squareRoot(), ny = 1 / 2.0.squareRoot()
        XCTAssertEqual(vertex(b, 0)[2], Float((nx * 8192).rounded(.down) * 2))
        XCTAssertEqual(vertex(b, 1)[2], Float((nx * 8192).rounded(.down) * 2 + 1))
        XCTAssertEqual(vertex(b, 0)[3], Float((ny * 16384).rounded(.towardZero)))
        XCTAssertEqual(vertex(b, 2)[5], Float((100 * 2.0.squareRoot()).rounded()), "edge distance rounded")
        XCTAssertEqual(b.indices.count, 3 * 6, "a line-like feature without roof: walls only")
    }

    func testBoundaryEdgesAndRingsOutsideTheTileGetNoWalls() {
        // A square straddling the tile's left edge, clipped in the buffer at x = −128: its edge
        // along x = −128 is a tile-boundary edge outside the tile (no wall).
        let clipped = FlatPolygon(coords: [-128, 100, 500, 100, 500, 600, -128, 600, -128, 100], holeIndices: [])
        let outside = square(-900, 100, 300)
        let f = EvaluatedFillExtrusion(polygons: [clipped, outside], hasRoof: true, color: .white, height: 10, base: 0, opacity: 1)
        let b = FillExtrusionBucket(layer([f]))
        let walls = (b.indices.count - 2 * 2 * 3) / 6
        XCTAssertEqual(walls, 3, "4 edges minus the boundary edge; the ring wholly outside has none")
        XCTAssertEqual(b.vertices.count / b.stride, 3 * 4 + 5 + 5, "both roofs are still triangulated")
    }

    func testHostileGeometryAndHeights() {
        let bad = FlatPolygon(coords: [0, 0, .nan, 10, 10, 10, 0, 0], holeIndices: [])
        let degenerate = FlatPolygon(coords: [5, 5, 5, 5, 5, 5, 5, 5], holeIndices: [])
        let f = EvaluatedFillExtrusion(polygons: [bad, degenerate, square(0, 0, 10)], hasRoof: true, color: .white,
                                       height: -50, base: 1e30, opacity: 1)
        let b = FillExtrusionBucket(layer([f]))
        XCTAssertFalse(b.vertices.contains { $0.isNaN }, "non-finite rings are dropped")
        XCTAssertTrue(b.indices.allSatisfy { Int($0) < b.vertices.count / b.stride })
        // The ring with a NaN is dropped; the degenerate ring's three zero-length edges still
        // make walls (zero width: nothing drawn, as MapLibre's), its roof no triangle.
        XCTAssertEqual(b.indices.count, (3 + 4) * 6 + 2 * 3)
    }

    func testPatternArrayParallelsTheVertices() {
        let img = PatternImage(x0: 1, y0: 1, x1: 19, y1: 19, pixelRatio: 2)
        var f = EvaluatedFillExtrusion(polygons: [square(0, 0, 100)], hasRoof: true, color: .white, height: 10, base: 0, opacity: 1)
        f.pattern = EvaluatedPattern(from: img, to: img)
        let missing = EvaluatedFillExtrusion(polygons: [square(200, 200, 100)], hasRoof: true, color: .white, height: 10, base: 0, opacity: 1)
        let b = FillExtrusionBucket(layer([f, missing], patterned: true))
        XCTAssertEqual(b.paint.program, "fill_extrusion_pattern")
        XCTAssertEqual(b.patternVertices.count / VertexLayout.pattern, b.vertices.count / b.stride)
        XCTAssertEqual(Array(b.patternVertices.prefix(10)), [1, 1, 19, 19, 1, 1, 19, 19, 2, 2])
        XCTAssertEqual(b.vertices.count / b.stride, 4 * 4 + 5, "a patterned feature without its images is not drawn")
    }

    func testHeatmapInstancesCarryDataDrivenWeights() {
        let a = EvaluatedHeatmapPoint(centers: [100, 200, 300, 400], weight: 1, radius: 30, intensity: 1)
        var b = a
        b.centers = [.nan, 5, 500, 600]
        b.weight = 3
        let layer = EvaluatedHeatmapLayer(id: "h", intensity: 1, opacity: 1, ramp: ColorRamp(transparentWidth: 256), features: [a, b])
        let bucket = HeatmapBucket(layer)
        XCTAssertEqual(bucket.instanceCount, 3, "non-finite positions are dropped")
        XCTAssertEqual(bucket.paint.vertexProperties.map(\.name), ["heatmap-weight"])
        XCTAssertEqual(Array(bucket.instances[(2 * bucket.stride)..<(3 * bucket.stride)]), [500, 600, 3])
        XCTAssertEqual(bucket.texturePaint.program, "heatmap_texture")
    }

    func testHeatmapKernelExtentIsWhereItFallsToZero() {
        let s = HeatmapKernel.extent(weight: 1, intensity: 1)
        let edge = HeatmapKernel.value(weight: 1, intensity: 1, vx: s, vy: 0)
        XCTAssertEqual(edge, HeatmapKernel.zero, accuracy: 1e-12, "the square's edge is the effective zero")
        XCTAssertFalse(HeatmapKernel.extent(weight: 0, intensity: 1).isFinite, "weight 0: no kernel")
        XCTAssertTrue(HeatmapKernel.extent(weight: -1, intensity: 1).isNaN, "a negative weight has no kernel")
    }
}
