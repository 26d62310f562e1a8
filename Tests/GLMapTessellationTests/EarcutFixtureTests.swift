import Foundation
import XCTest
import Testing
import GLMapTestSupport
@testable import GLMapTessellation

/// earcut's own regression suite (../shared/fixtures/earcut, from mapbox/earcut 3.2.2): upstream's
/// inline cases here, and every fixture at rotations 0, 90, 180 and 270 degrees in
/// `EarcutFixtureCases` (one test case per fixture and rotation).
final class EarcutFixtureTests: XCTestCase {
    static var fixturesDirectory: URL { SharedData.earcutFixtures }

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

/// One fixture of earcut's suite at one rotation.
struct EarcutFixtureCase: Sendable, CustomTestStringConvertible {
    let name: String
    let rotation: Int
    var testDescription: String { "\(name) rotated \(rotation)" }
}

/// Every fixture of ../shared/fixtures/earcut at rotations 0, 90, 180 and 270 degrees, each its own
/// test case: the index count is a multiple of 3 and in range, unrotated fixtures give upstream's
/// triangle count, and the deviation stays within upstream's bound for the rotation.
@Suite struct EarcutFixtureCases {
    static var expectedURL: URL { EarcutFixtureTests.fixturesDirectory.appendingPathComponent("expected.json") }

    /// `expected.json`, or nil when the shared data is absent (`fixturesArePresent` skips then).
    static let expected: EarcutFixtureTests.Expected? = try? EarcutFixtureTests.decode(EarcutFixtureTests.Expected.self, from: expectedURL)

    static let cases: [EarcutFixtureCase] = (expected?.triangles.keys.sorted() ?? []).flatMap { name in
        [0, 90, 180, 270].map { EarcutFixtureCase(name: name, rotation: $0) }
    }

    @Test func fixturesArePresent() throws {
        try SharedData.require("earcut fixtures (expected.json)", at: Self.expectedURL)
        let expected = try #require(Self.expected, "\(SharedData.missing("earcut fixtures (expected.json)", at: Self.expectedURL))")
        #expect(!expected.triangles.isEmpty, "expected.json has no triangle counts")
        print("earcut fixtures: \(expected.triangles.count) fixtures x 4 rotations = \(Self.cases.count) cases")
    }

    @Test(arguments: EarcutFixtureCases.cases)
    func fixture(_ c: EarcutFixtureCase) throws {
        let expected = try #require(Self.expected)
        let url = EarcutFixtureTests.fixturesDirectory.appendingPathComponent("fixtures/\(c.name).json")
        let rings = try #require(try? EarcutFixtureTests.decode(EarcutFixtureTests.Rings.self, from: url),
                                 "\(c.name): cannot read \(url.path) as rings of points")
        let expectedCount = expected.triangles[c.name]!
        let data = EarcutFixtureTests.flatten(EarcutFixtureTests.rotate(rings, degrees: c.rotation))
        let indices = Earcut.triangulate(data.coords, holeIndices: data.holes, dimensions: data.dimensions)
        let deviation = Earcut.deviation(data.coords, holeIndices: data.holes,
                                         dimensions: data.dimensions, triangles: indices)
        let bound = (c.rotation != 0 ? expected.errorsWithRotation[c.name] : nil) ?? expected.errors[c.name] ?? 0
        var problems: [String] = []
        if indices.count % 3 != 0 { problems.append("index count \(indices.count) is not a multiple of 3") }
        let vertexCount = data.coords.count / data.dimensions
        if indices.contains(where: { Int($0) >= vertexCount }) { problems.append("index out of range") }
        if c.rotation == 0 && indices.count / 3 != expectedCount {
            problems.append("\(indices.count / 3) triangles, expected \(expectedCount)")
        }
        if expectedCount > 0 && !(deviation <= bound + 1e-14) {
            problems.append("deviation \(deviation) > \(bound)")
        }
        #expect(problems.isEmpty, "\(c.testDescription): \(problems.joined(separator: "; "))")
    }
}
