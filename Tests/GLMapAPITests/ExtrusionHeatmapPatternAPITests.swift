import Foundation
import XCTest
import GLMap   // the only glmap import: what a library user writes

/// Fill-extrusion, heatmap and pattern layers built with the typed API, the light set through it,
/// and images added at run time, as a library user reaches them: each one's pixels checked
/// against the same style written as JSON, or against what the layer must look like.
final class ExtrusionHeatmapPatternAPITests: XCTestCase {
    func pixel(_ s: Snapshot, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * s.width + x) * 4
        return Array(s.pixels[i..<(i + 4)])
    }

    /// A snapshotter over a square building 40 m high, pitched.
    func building(light: Light? = nil) throws -> Snapshotter {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 96, height: 96)))
        var source = GeoJSONSource(id: "b")
        let ring = [(-0.0002, -0.0002), (0.0002, -0.0002), (0.0002, 0.0002), (-0.0002, 0.0002), (-0.0002, -0.0002)]
            .map { CLLocationCoordinate2D(latitude: $0.1, longitude: $0.0) }
        source.data = .geometry(.polygon(Polygon([ring])))
        try s.addSource(source)
        try s.addLayer(FillExtrusionLayer(id: "x", source: "b").fillExtrusionHeight(40).fillExtrusionColor(StyleColor(.white)))
        if let light { try s.setLight(light) }
        s.setCamera(to: CameraOptions(center: CLLocationCoordinate2D(latitude: 0, longitude: 0), zoom: 17, bearing: 30, pitch: 50))
        return s
    }

    func testLightThroughTheTypedAPIShadesExtrusionsAsTheStyleJSONDoes() throws {
        let plain = try building().snapshot()
        let red = Light().color(StyleColor(.red)).intensity(1).anchor(.map)
        let lit = try building(light: red)
        XCTAssertEqual(lit.light, red, "the typed light reads back")
        let shaded = try lit.snapshot()
        XCTAssertNotEqual(shaded.pixels, plain.pixels, "the light changes the extrusion's shading")
        // A white building under a red light: green and blue sit at MapLibre's floor of
        // 0.3 × (1 − light) everywhere, red follows the faces' lighting (the roof faces it).
        var reds: [UInt8] = []
        for y in 0..<96 { for x in 0..<96 {
            let p = pixel(shaded, x, y)
            guard p[3] == 255 else { continue }
            XCTAssertEqual(p[1], p[2], "(\(x), \(y)): \(p)")
            XCTAssertTrue((76...77).contains(p[1]), "(\(x), \(y)): \(p)")
            reds.append(p[0])
        } }
        XCTAssertGreaterThan(reds.count, 500, "the building is drawn")
        XCTAssertGreaterThanOrEqual(reds.max() ?? 0, 250, "the roof faces the light")
        // The same light written as style JSON draws the same pixels.
        let json = try building()
        var root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.styleJSON.utf8)) as? [String: Any])
        root["light"] = ["color": "red", "intensity": 1, "anchor": "map"]
        try json.setStyleJSON(String(decoding: try JSONSerialization.data(withJSONObject: root), as: UTF8.self))
        json.setCamera(to: lit.cameraState)
        XCTAssertEqual(try json.snapshot().pixels, shaded.pixels)
        try lit.setLight(nil)
        XCTAssertNil(lit.light)
        XCTAssertEqual(try lit.snapshot().pixels, plain.pixels, "removing the light restores the default")
    }

    func testHeatmapLayerDrawsTheRampAroundAPoint() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 64, height: 64)))
        var source = GeoJSONSource(id: "p")
        source.data = .geometry(.point(Point(CLLocationCoordinate2D(latitude: 0, longitude: 0))))
        try s.addSource(source)
        try s.addLayer(HeatmapLayer(id: "h", source: "p").heatmapRadius(20).heatmapIntensity(3))
        s.setCamera(to: CameraOptions(center: CLLocationCoordinate2D(latitude: 0, longitude: 0), zoom: 2))
        let snap = try s.snapshot()
        let centre = pixel(snap, 32, 32), corner = pixel(snap, 1, 1)
        XCTAssertEqual(corner, [0, 0, 0, 0], "no density far from the point")
        XCTAssertGreaterThan(centre[3], 200, "dense at the point: \(centre)")
        XCTAssertGreaterThan(Int(centre[0]), Int(centre[2]), "the default ramp is red where it is densest: \(centre)")
    }

    func testAnImageAddedAtRunTimeFillsAPattern() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 32, height: 32)))
        // 2 × 2: red, green / blue, white.
        let image = StraightImage(width: 2, height: 2, pixels: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255])
        try s.addImage(StyleImage(image: image), id: "checker")
        var source = GeoJSONSource(id: "f")
        let ring = [(-60.0, -60.0), (60, -60), (60, 60), (-60, 60), (-60, -60)].map { CLLocationCoordinate2D(latitude: $0.1, longitude: $0.0) }
        source.data = .geometry(.polygon(Polygon([ring])))
        try s.addSource(source)
        try s.addLayer(FillLayer(id: "f", source: "f").fillPattern("checker").fillAntialias(false))
        s.setCamera(to: CameraOptions(center: CLLocationCoordinate2D(latitude: 0, longitude: 0), zoom: 0))
        let snap = try s.snapshot()
        var colours = Set<[UInt8]>()
        for y in 4..<28 { for x in 4..<28 { colours.insert(pixel(snap, x, y)) } }
        for c: [UInt8] in [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]] {
            XCTAssertTrue(colours.contains(c), "the pattern's \(c) is drawn: \(colours.count) colours")
        }
        XCTAssertTrue(snap.warnings.isEmpty, "\(snap.warnings)")
    }

    func testAPatternNamingAMissingImageDrawsNothingAndWarns() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 16, height: 16)))
        var source = GeoJSONSource(id: "f")
        let ring = [(-60.0, -60.0), (60, -60), (60, 60), (-60, 60), (-60, -60)].map { CLLocationCoordinate2D(latitude: $0.1, longitude: $0.0) }
        source.data = .geometry(.polygon(Polygon([ring])))
        try s.addSource(source)
        try s.addLayer(FillLayer(id: "f", source: "f").fillPattern("nowhere").fillColor(StyleColor(.red)))
        let snap = try s.snapshot()
        XCTAssertTrue(snap.pixels.allSatisfy { $0 == 0 }, "MapLibre draws nothing for a missing pattern image")
        XCTAssertTrue(snap.warnings.contains { $0.contains("nowhere") }, "\(snap.warnings)")
    }
}
