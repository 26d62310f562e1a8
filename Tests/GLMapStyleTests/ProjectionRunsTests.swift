import XCTest
import GLMapCore
import GLMapGeoJSON
@testable import GLMapStyle

/// A large source is projected in runs of features on all cores: the features come out in order,
/// each as projecting it alone gives it, and an invalid position is reported for the first
/// feature that has one, as a single pass in order finds it.
final class ProjectionRunsTests: XCTestCase {
    static func collection(invalidAt: [Int] = []) -> FeatureCollection {
        var features: [Feature] = []
        for i in 0..<300 {
            // 150-position lines and 151-position rings alternate: 45,000 positions, three runs.
            let ps = (0..<150).map { k in Position(Double(i % 60) * 3 - 90 + Double(k) / 100, Double(i / 60) * 10 - 30 + Double(k % 7) / 10) }
            let g: Geometry = i % 2 == 0 ? .lineString(ps) : .polygon([ps + [ps[0]]])
            features.append(Feature(id: .number(Double(i)), properties: JSONObject([("n", .number(Double(i)))]), geometry: g))
        }
        for i in invalidAt { features[i].geometry = .point(Position(.nan, 0)) }
        return FeatureCollection(features: features)
    }

    func testRunsGiveTheFeaturesInOrderAsOneByOne() throws {
        let c = Self.collection()
        XCTAssertGreaterThan(ProjectedFeature.runs(c.features).count, 2, "the collection is projected in runs")
        let projected = try ProjectedFeature.project(c)
        var one: [ProjectedFeature] = []
        for (i, f) in c.features.enumerated() { ProjectedFeature.append(f.geometry!, feature: f, index: i, into: &one) }
        XCTAssertEqual(projected.count, one.count)
        XCTAssertEqual(projected.map(\.index), Array(0..<300))
        for (a, b) in zip(projected, one) {
            XCTAssertEqual(a.lines, b.lines)
            XCTAssertEqual(a.polygons.map(\.coords), b.polygons.map(\.coords))
            XCTAssertEqual(a.context.properties, b.context.properties)
        }
    }

    func testTheFirstInvalidFeatureIsReported() {
        // Two invalid features in the second run (134..<268) and one in the third.
        XCTAssertThrowsError(try ProjectedFeature.project(Self.collection(invalidAt: [280, 170, 150]))) { e in
            XCTAssertEqual((e as? InvalidGeometryError)?.featureIndex, 150)
            XCTAssertTrue("\(e)".hasPrefix("feature 150 (id 150): position [nan, 0.0]"), "\(e)")
        }
    }
}
