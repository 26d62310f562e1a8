import XCTest
import GLMapCore
@testable import GLMapStyle
@testable import GLMapTessellation

/// Buckets: valid indices, one circle instance per position, one outline quad per ring edge.
final class BucketTests: XCTestCase {
    func testCircleInstancePerPositionWithItsAttributes() {
        let a = EvaluatedCircle(centers: [4096, 4096, 2048, 6144, 800, 1600], radius: 6, color: Color(r: 1, g: 0, b: 0),
                                blur: 0.5, opacity: 0.8, strokeWidth: 2, strokeColor: .black, strokeOpacity: 1)
        var b = a
        b.centers = [7000, 7000]
        b.radius = 3
        let layer = EvaluatedCircleLayer(id: "c", translate: (0, 0), translateAnchor: .map, pitchScale: .map,
                                         pitchAlignment: .viewport, features: [a, b])
        let bucket = CircleBucket(layer)
        XCTAssertEqual(bucket.instanceCount, 4, "a MultiPoint of three positions plus one point")
        // Only the radius differs between the features: it is the one instance attribute, the
        // rest of the paint is uniforms.
        XCTAssertEqual(bucket.paint.vertexProperties.map(\.name), ["circle-radius"])
        let stride = bucket.stride
        XCTAssertEqual(stride, VertexLayout.circle + 1)
        XCTAssertEqual(bucket.instances[0], 4096)                    // tile units
        XCTAssertEqual(bucket.instances[stride], 2048)
        XCTAssertEqual(bucket.instances[2], 6)                       // radius
        XCTAssertEqual(bucket.instances[3 * stride + 2], 3)          // the second feature's radius
        let uniforms = Dictionary(uniqueKeysWithValues: bucket.paint.uniforms.map { ($0.binding.uniform, $0.value) })
        XCTAssertEqual(uniforms["u_opacity"]?.first ?? 0, 0.8, accuracy: 1e-6)
        XCTAssertEqual(uniforms["u_stroke_width"], [2])
        XCTAssertEqual(uniforms["u_color"], [1, 0, 0, 1])
        XCTAssertNil(uniforms["u_radius"])
    }

    func testFillTrianglesAndOutlineQuads() {
        // A square with a square hole: 8 vertices, 8 triangles, 8 outline edges.
        let coords: [Double] = [0, 0, 10, 0, 10, 10, 0, 10, 3, 3, 3, 7, 7, 7, 7, 3]
        let poly = FlatPolygon(coords: coords, holeIndices: [4])
        let f = EvaluatedFill(polygons: [poly], color: .black, opacity: 1, outlineColor: .white)
        let layer = EvaluatedFillLayer(id: "f", antialias: true, translate: (0, 0), translateAnchor: .map, features: [f])
        let bucket = FillBucket(layer)
        XCTAssertEqual(bucket.stride, VertexLayout.fill, "one feature: its paint is uniforms only")
        let n = bucket.vertices.count / VertexLayout.fill
        XCTAssertEqual(n, 8)
        XCTAssertEqual(bucket.indices.count, 8 * 3)
        XCTAssertTrue(bucket.indices.allSatisfy { Int($0) < n })
        // Triangle area equals the polygon area (100 - 16).
        var area = 0.0
        for t in stride(from: 0, to: bucket.indices.count, by: 3) {
            func p(_ i: UInt32) -> (Double, Double) { (Double(bucket.vertices[Int(i) * VertexLayout.fill]), Double(bucket.vertices[Int(i) * VertexLayout.fill + 1])) }
            let a = p(bucket.indices[t]), b = p(bucket.indices[t + 1]), c = p(bucket.indices[t + 2])
            area += abs((b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1)) / 2
        }
        XCTAssertEqual(area, 84, accuracy: 1e-9)
        XCTAssertEqual(bucket.outlineVertices.count / bucket.outlineStride, 8 * 4, "four vertices per ring edge")
        XCTAssertEqual(bucket.outlineIndices.count, 8 * 6)
        // Without antialiasing there is no outline.
        let plain = FillBucket(EvaluatedFillLayer(id: "f", antialias: false, translate: (0, 0), translateAnchor: .map, features: [f]))
        XCTAssertTrue(plain.outlineIndices.isEmpty)
    }

    /// A tile layer large enough to be tessellated in runs of features on all cores gives the
    /// same arrays as one run over all its features.
    func testFillBucketBuiltInPartsEqualsOneRun() {
        var features: [EvaluatedFill] = []
        for i in 0..<400 {
            // A 16-gon with a square hole, with its own colour (so the paint is per vertex).
            let cx = (Double(i % 20) / 20 + 0.02) * 8192, cy = (Double(i / 20) / 20 + 0.02) * 8192, r = 0.015 * 8192
            var coords: [Double] = []
            for k in 0..<16 { let a = Double(k) * .pi / 8; coords += [cx + r * cos(a), cy + r * sin(a)] }
            coords += [cx - r / 3, cy - r / 3, cx - r / 3, cy + r / 3, cx + r / 3, cy + r / 3, cx + r / 3, cy - r / 3]
            let poly = FlatPolygon(coords: coords, holeIndices: [16])
            let f = EvaluatedFill(polygons: [poly], color: Color(r: Double(i % 7) / 7, g: 0.5, b: 0), opacity: 1, outlineColor: .white)
            features.append(f)
        }
        // One MultiPolygon of 300 of those polygons, larger than a run.
        var multi = features[1]
        multi.polygons = features[300..<400].flatMap { $0.polygons } + features[1..<201].flatMap { $0.polygons }
        features.insert(multi, at: 150)
        features.insert(EvaluatedFill(polygons: [], color: .black, opacity: 1, outlineColor: .black), at: 10)
        let layer = EvaluatedFillLayer(id: "f", antialias: true, translate: (0, 0), translateAnchor: .map, features: features)
        let parts = FillBucket.parts(features)
        XCTAssertGreaterThan(parts.count, 2, "the layer is built in parts")
        let bucket = FillBucket(layer)
        var one = bucket
        one.vertices = []; one.indices = []; one.outlineVertices = []; one.outlineIndices = []
        one.add(features.indices, next: nil, EarcutTriangulator(flavor: .mapLibre))
        XCTAssertFalse(bucket.indices.isEmpty)
        XCTAssertTrue(bucket.vertices == one.vertices, "vertices differ")   // (no dump of the arrays)
        XCTAssertTrue(bucket.indices == one.indices, "indices differ")   // (no dump of the arrays)
        XCTAssertTrue(bucket.outlineVertices == one.outlineVertices, "outlineVertices differ")   // (no dump of the arrays)
        XCTAssertTrue(bucket.outlineIndices == one.outlineIndices, "outlineIndices differ")   // (no dump of the arrays)
        XCTAssertGreaterThan(bucket.stride, VertexLayout.fill, "the colour is a vertex attribute")
    }

    func testNonFiniteGeometryIsDropped() {
        let poly = FlatPolygon(coords: [0, 0, .nan, 0, 1, 1], holeIndices: [])
        let f = EvaluatedFill(polygons: [poly], color: .black, opacity: 1, outlineColor: .black)
        let bucket = FillBucket(EvaluatedFillLayer(id: "f", antialias: true, translate: (0, 0), translateAnchor: .map, features: [f]))
        XCTAssertTrue(bucket.indices.isEmpty)
        XCTAssertTrue(bucket.vertices.allSatisfy { $0.isFinite })
        let c = EvaluatedCircle(centers: [.infinity, 0, 0.5, 0.5], radius: 1, color: .black, blur: 0, opacity: 1,
                                strokeWidth: 0, strokeColor: .black, strokeOpacity: 1)
        let cb = CircleBucket(EvaluatedCircleLayer(id: "c", translate: (0, 0), translateAnchor: .map, pitchScale: .map, pitchAlignment: .viewport, features: [c]))
        XCTAssertEqual(cb.instanceCount, 1)
    }

    /// Each layer type's paint columns are exactly its GPU-bound properties, so a property bound
    /// in the table cannot miss its value.
    func testPaintColumnsAreTheBoundProperties() {
        XCTAssertEqual(Set(EvaluatedFill.columns.map(\.name)), Set(GPUBinding.properties(of: .fill).map(\.name)))
        XCTAssertEqual(Set(EvaluatedLine.columns.map(\.name)), Set(GPUBinding.properties(of: .line).map(\.name)))
        XCTAssertEqual(Set(EvaluatedHeatmapPoint.columns.map(\.name)), Set(GPUBinding.properties(program: "heatmap").map(\.name)))
        XCTAssertEqual(Set(EvaluatedFillExtrusion.columns.map(\.name)), Set(GPUBinding.properties(program: "fill_extrusion").map(\.name)))
        XCTAssertEqual(Set(EvaluatedCircle.columns.map(\.name)), Set(GPUBinding.properties(of: .circle).map(\.name)))
    }
}
