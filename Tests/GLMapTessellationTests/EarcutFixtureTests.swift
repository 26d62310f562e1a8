import Foundation
import XCTest
@testable import GLMapTessellation

/// earcut's own regression suite (../shared/fixtures/earcut, from mapbox/earcut 3.2.2): every
/// fixture at rotations 0, 90, 180 and 270 degrees, plus upstream's inline cases.
final class EarcutFixtureTests: XCTestCase {
    static var fixturesDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("../shared/fixtures/earcut").standardized
    }

    /// A polygon as rings of [x, y] points.
    typealias Rings = [[[Double]]]

    /// Flattens rings the way upstream's `flatten` does.
    static func flatten(_ rings: Rings) -> (coords: [Double], holes: [Int], dimensions: Int) {
        let dimensions = rings.first?.first?.count ?? 2
        var coords: [Double] = []
        var holes: [Int] = []
        var vertexCount = 0
        for (r, ring) in rings.enumerated() {
            if r > 0 { holes.append(vertexCount) }
            for point in ring { coords.append(contentsOf: point.prefix(dimensions)) }
            vertexCount += ring.count
        }
        return (coords, holes, dimensions)
    }

    /// Rotates about the origin with sine and cosine rounded to -1, 0 or 1 (exact coordinates).
    static func rotate(_ rings: Rings, degrees: Int) -> Rings {
        if degrees == 0 { return rings }
        let theta = Double(degrees) * Double.pi / 180
        let xx = cos(theta).rounded(), xy = (-sin(theta)).rounded()
        let yx = sin(theta).rounded(), yy = cos(theta).rounded()
        return rings.map { ring in
            ring.map { p in
                var q = p
                q[0] = xx * p[0] + xy * p[1]
                q[1] = yx * p[0] + yy * p[1]
                return q
            }
        }
    }

    /// `expected.json`: counts and deviation bounds keyed by fixture name.
    struct Expected: Decodable {
        var triangles: [String: Int]
        var errors: [String: Double]
        var errorsWithRotation: [String: Double]

        enum CodingKeys: String, CodingKey {
            case triangles, errors
            case errorsWithRotation = "errors-with-rotation"
        }
    }

    /// Decodes JSON with JSONDecoder, which parses numbers exactly (JSONSerialization on Linux
    /// can be off by an ulp, which changes results on near-collinear fixtures such as issue142).
    static func decode<T: Decodable>(_ type: T.Type, from url: URL) throws -> T {
        try JSONDecoder().decode(type, from: Data(contentsOf: url))
    }

    func testAllFixturesAtFourRotations() throws {
        let dir = Self.fixturesDirectory
        let expectedURL = dir.appendingPathComponent("expected.json")
        guard FileManager.default.fileExists(atPath: expectedURL.path) else {
            let message = "earcut fixtures missing: \(expectedURL.path) not found " +
                "(the shared reference data must sit at ../shared next to the repository)"
            print(message)
            XCTFail(message)
            return
        }
        let expected = try Self.decode(Expected.self, from: expectedURL)
        let triangles = expected.triangles
        let errors = expected.errors
        let rotatedErrors = expected.errorsWithRotation
        XCTAssertFalse(triangles.isEmpty, "expected.json has no triangle counts")

        var passed = 0, failed = 0
        for name in triangles.keys.sorted() {
            let url = dir.appendingPathComponent("fixtures/\(name).json")
            guard let rings = try? Self.decode(Rings.self, from: url) else {
                XCTFail("\(name): cannot read \(url.path) as rings of points")
                failed += 4
                continue
            }
            let expectedCount = triangles[name]!
            for rotation in [0, 90, 180, 270] {
                let data = Self.flatten(Self.rotate(rings, degrees: rotation))
                let indices = Earcut.triangulate(data.coords, holeIndices: data.holes, dimensions: data.dimensions)
                let deviation = Earcut.deviation(data.coords, holeIndices: data.holes,
                                                 dimensions: data.dimensions, triangles: indices)
                let bound = (rotation != 0 ? rotatedErrors[name] : nil) ?? errors[name] ?? 0
                var problems: [String] = []
                if indices.count % 3 != 0 { problems.append("index count \(indices.count) is not a multiple of 3") }
                let vertexCount = data.coords.count / data.dimensions
                if indices.contains(where: { Int($0) >= vertexCount }) { problems.append("index out of range") }
                if rotation == 0 && indices.count / 3 != expectedCount {
                    problems.append("\(indices.count / 3) triangles, expected \(expectedCount)")
                }
                if expectedCount > 0 && !(deviation <= bound + 1e-14) {
                    problems.append("deviation \(deviation) > \(bound)")
                }
                if problems.isEmpty {
                    passed += 1
                } else {
                    failed += 1
                    XCTFail("\(name) rotated \(rotation): " + problems.joined(separator: "; "))
                }
            }
        }
        print("earcut fixtures: \(passed) passed, \(failed) failed (\(triangles.count) fixtures x 4 rotations)")
        XCTAssertEqual(failed, 0)
        XCTAssertEqual(passed, triangles.count * 4)
    }

    // MARK: upstream's inline cases

    func testQuad() {
        let coords: [Double] = [10, 0, 0, 50, 60, 60, 70, 10]
        let indices = Earcut.triangulate(coords)
        XCTAssertEqual(indices, [1, 0, 3, 1, 3, 2])
        XCTAssertEqual(Earcut.deviation(coords, holeIndices: [], dimensions: 2, triangles: indices), 0)
    }

    func testQuadWithThreeDimensions() {
        let coords: [Double] = [10, 0, 0, 0, 50, 0, 60, 60, 0, 70, 10, 0]
        let indices = Earcut.triangulate(coords, holeIndices: [], dimensions: 3)
        XCTAssertEqual(indices, [1, 0, 3, 1, 3, 2])
        XCTAssertEqual(Earcut.deviation(coords, holeIndices: [], dimensions: 3, triangles: indices), 0)
    }

    func testEmpty() {
        XCTAssertEqual(Earcut.triangulate([]), [])
    }

    func testInfiniteLoopTerminates() {
        let coords: [Double] = [1, 2, 2, 2, 1, 2, 1, 1, 1, 2, 4, 1, 5, 1, 3, 2, 4, 2, 4, 1]
        let indices = Earcut.triangulate(coords, holeIndices: [5])
        XCTAssertEqual(indices.count % 3, 0)
        XCTAssertTrue(indices.allSatisfy { $0 < 10 })
    }

    /// A hole must not be dropped when filtering heals collinear runs across block boundaries.
    func testBlockIndexCollinear() {
        let size = 30.0
        var outer: [[Double]] = []
        for x in stride(from: 0.0, through: size, by: 1) { outer.append([x, 0]) }
        for y in stride(from: 1.0, through: size, by: 1) { outer.append([size, y]) }
        for x in stride(from: size - 1, through: 0, by: -1) { outer.append([x, size]) }
        for y in stride(from: size - 1, through: 1, by: -1) { outer.append([0, y]) }
        func rect(_ x0: Double, _ y0: Double, _ w: Double, _ h: Double) -> [[Double]] {
            [[x0, y0], [x0, y0 + h], [x0 + w, y0 + h], [x0 + w, y0]]
        }
        let rings = [outer, rect(5, 5, 2, 4), rect(2, 23, 1, 1)]
        for rotation in [0, 90, 180, 270] {
            let data = Self.flatten(Self.rotate(rings, degrees: rotation))
            let indices = Earcut.triangulate(data.coords, holeIndices: data.holes)
            let deviation = Earcut.deviation(data.coords, holeIndices: data.holes, dimensions: 2, triangles: indices)
            XCTAssertLessThan(deviation, 1e-9, "rotation \(rotation): deviation \(deviation) (hole dropped?)")
        }
    }

    /// The reusable triangulator gives the same result as the static API, and offsets indices.
    func testReusableTriangulatorMatchesStaticAPI() {
        let triangulator = EarcutTriangulator()
        let square: [Double] = [0, 0, 10, 0, 10, 10, 0, 10, 2, 2, 2, 4, 4, 4, 4, 2]
        let quad: [Double] = [10, 0, 0, 50, 60, 60, 70, 10]
        for _ in 0..<3 {
            XCTAssertEqual(triangulator.triangulate(square, holeIndices: [4]), Earcut.triangulate(square, holeIndices: [4]))
            XCTAssertEqual(triangulator.triangulate(quad), [1, 0, 3, 1, 3, 2])
        }
        var output: [UInt32] = [7]
        let count = quad.withUnsafeBufferPointer {
            triangulator.triangulate($0, holeIndices: [], dimensions: 2, appendingTo: &output, indexOffset: 100)
        }
        XCTAssertEqual(count, 2)
        XCTAssertEqual(output, [7, 101, 100, 103, 101, 103, 102])
    }
}
