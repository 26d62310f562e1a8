import XCTest
import Foundation
import GLMapCore
@testable import GLMapGeoJSON
import GLMapTestSupport

/// The real scenes in ../shared/scenes decode with the counts their manifest states.
final class GeoJSONSceneTests: XCTestCase {
    /// ../shared/scenes.
    static let scenes = SharedData.scenes

    /// Counts the manifest lists for a collection.
    struct Counts: Equatable, CustomStringConvertible {
        var features = 0, parts = 0, polygonRings = 0, holes = 0, vertices = 0
        var byType: [String: Int] = [:]
        var description: String {
            "features \(features), by type \(byType.sorted { $0.key < $1.key }), parts \(parts), "
                + "rings \(polygonRings) (holes \(holes)), vertices \(vertices)"
        }

        init() {}

        init(_ fc: FeatureCollection) {
            features = fc.features.count
            vertices = fc.vertexCount
            for f in fc.features {
                guard let g = f.geometry else { continue }
                byType[g.typeName, default: 0] += 1
                add(g)
            }
        }

        mutating func add(_ g: Geometry) {
            switch g {
            case .point, .lineString: parts += 1
            case .multiPoint(let p): parts += p.count
            case .multiLineString(let l): parts += l.count
            case .polygon(let rings): parts += 1; addRings(rings)
            case .multiPolygon(let polygons): parts += polygons.count; polygons.forEach { addRings($0) }
            case .geometryCollection(let members): members.forEach { add($0) }
            }
        }

        mutating func addRings(_ rings: [[Position]]) {
            polygonRings += rings.count
            holes += max(0, rings.count - 1)
        }
    }

    func testScenesMatchManifest() throws {
        let manifestURL = Self.scenes.appendingPathComponent("manifest.json")
        try SharedData.require("the scenes' manifest.json", at: manifestURL)
        guard let manifestData = FileManager.default.contents(atPath: manifestURL.path) else {
            XCTFail("reference data missing: \(manifestURL.path) not found (the tests need ../shared next to the package)")
            return
        }
        guard case .object(let manifest) = try JSONParser.parse(Array(manifestData)) else {
            return XCTFail("manifest.json is not an object")
        }
        XCTAssertGreaterThanOrEqual(manifest.count, 6, "expected the six scenes in the manifest")
        var passed = 0
        for (name, entry) in manifest.pairs {
            guard let dataPath = entry["data"]?.stringValue else { XCTFail("\(name): no 'data' in manifest"); continue }
            let url = Self.scenes.appendingPathComponent(dataPath)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                XCTFail("\(name): \(url.path) is missing")
                continue
            }
            XCTAssertEqual(Double(data.count), entry["bytes"]?.numberValue, "\(name): file size")
            let fc: FeatureCollection
            do {
                fc = try GeoJSONDecoder.decode(Array(data), file: dataPath)
            } catch {
                XCTFail("\(name): \(error)")
                continue
            }
            var expected = Counts()
            expected.features = Int(entry["features"]?.numberValue ?? -1)
            expected.parts = Int(entry["parts"]?.numberValue ?? -1)
            expected.polygonRings = Int(entry["polygon_rings"]?.numberValue ?? -1)
            expected.holes = Int(entry["holes"]?.numberValue ?? -1)
            expected.vertices = Int(entry["vertices"]?.numberValue ?? -1)
            for (type, count) in entry["by_type"]?.objectValue?.pairs ?? [] {
                expected.byType[type] = Int(count.numberValue ?? -1)
            }
            let actual = Counts(fc)
            XCTAssertEqual(actual, expected, "\(name)")

            // Every position lies inside the manifest's bbox (a check on the numbers themselves;
            // the manifest rounds the bbox to 6 decimals, some files keep 7 or 8).
            if let rounded = entry["bbox"]?.arrayValue?.compactMap(\.numberValue), rounded.count == 4 {
                let bbox = [rounded[0] - 1e-6, rounded[1] - 1e-6, rounded[2] + 1e-6, rounded[3] + 1e-6]
                var outside = 0
                for f in fc.features {
                    guard let g = f.geometry else { continue }
                    forEachPosition(g) { p in
                        if p.lon < bbox[0] || p.lon > bbox[2] || p.lat < bbox[1] || p.lat > bbox[3] { outside += 1 }
                    }
                }
                XCTAssertEqual(outside, 0, "\(name): positions outside the manifest bbox")
            }
            // The tree decoder agrees with the byte decoder on real data.
            if data.count < 3_000_000 {
                let tree = try GeoJSONDecoder.decode(try JSONParser.parse(Array(data)), path: name)
                XCTAssertEqual(tree, fc, "\(name): tree and byte decoders disagree")
            }
            if actual == expected { passed += 1 }
        }
        print("GeoJSON scenes: \(passed)/\(manifest.count) match manifest.json")
    }

    func forEachPosition(_ g: Geometry, _ body: (Position) -> Void) {
        switch g {
        case .point(let p): body(p)
        case .multiPoint(let l), .lineString(let l): l.forEach(body)
        case .multiLineString(let r), .polygon(let r): r.forEach { $0.forEach(body) }
        case .multiPolygon(let p): p.forEach { $0.forEach { $0.forEach(body) } }
        case .geometryCollection(let m): m.forEach { forEachPosition($0, body) }
        }
    }
}
