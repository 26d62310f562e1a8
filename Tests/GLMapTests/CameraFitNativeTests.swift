import Foundation
import XCTest
import GLMapCore
import GLMapTestSupport

/// `Camera.fitting` against MapLibre Native's `cameraForLatLngBounds` (pymgl's `setBounds`, which
/// fits with the map's current bearing and pitch), on boxes with padding, bearing, pitch, other
/// aspect ratios and across the antimeridian. Native is the ground truth: center within 1e-6°,
/// zoom within 1e-6.
final class CameraFitNativeTests: XCTestCase {
    struct Case {
        var name: String
        var bounds: LngLatBounds
        var width = 512.0, height = 256.0, padding = 0.0, bearing = 0.0, pitch = 0.0
        var start = Camera()
    }

    static let cases: [Case] = [
        Case(name: "europe", bounds: LngLatBounds(west: -10, south: 35, east: 30, north: 60)),
        Case(name: "europe-padding", bounds: LngLatBounds(west: -10, south: 35, east: 30, north: 60), padding: 20),
        Case(name: "tall-box-wide-view", bounds: LngLatBounds(west: 5, south: -40, east: 15, north: 40), width: 800, height: 300),
        Case(name: "wide-box-tall-view", bounds: LngLatBounds(west: -120, south: 20, east: -60, north: 30), width: 200, height: 600, padding: 10),
        Case(name: "bearing-30", bounds: LngLatBounds(west: -10, south: 35, east: 30, north: 60), bearing: 30),
        Case(name: "bearing-minus-120", bounds: LngLatBounds(west: 100, south: -10, east: 140, north: 10), width: 300, height: 300, bearing: -120),
        Case(name: "pitch-40-bearing-30", bounds: LngLatBounds(west: -10, south: 35, east: 30, north: 60), bearing: 30, pitch: 40,
             start: Camera(longitude: 10, latitude: 49, zoom: 1.8)),
        Case(name: "pitch-60-from-style-camera", bounds: LngLatBounds(west: 2.2, south: 48.8, east: 2.5, north: 48.9),
             width: 640, height: 480, padding: 30, pitch: 60, start: Camera(longitude: 2.35, latitude: 48.85, zoom: 11)),
        Case(name: "antimeridian", bounds: LngLatBounds(west: 170, south: -20, east: -170, north: 10)),
        Case(name: "antimeridian-fiji-pitch", bounds: LngLatBounds(west: 176, south: -19.5, east: -178, north: -15.5),
             width: 400, height: 400, padding: 16, bearing: 15, pitch: 30, start: Camera(longitude: 179, latitude: -17, zoom: 5)),
    ]

    func testFittedViewsEqualMapLibreNative() throws {
        let python = try OutsideTool.requirePython(["pymgl"])
        // One pymgl process fits every case; it prints "lon lat zoom" a line.
        var script = """
        import json, pymgl
        style = json.dumps({"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#fff"}}]})
        cases = json.loads(input())
        # One map for every case: pymgl cannot create a second EGL display in one process.
        m = pymgl.Map(style, 64, 64, 1)
        for c in cases:
            m.setSize(int(c["w"]), int(c["h"]))
            m.setCenter(c["lon"], c["lat"]); m.setZoom(c["zoom"])
            m.setBearing(c["bearing"] % 360); m.setPitch(c["pitch"])
            m.setBounds(c["west"], c["south"], c["east"], c["north"], int(c["padding"]))
            lon, lat = m.center
            print(repr(lon), repr(lat), repr(m.zoom), flush=True)
        import os; os._exit(0)   # pymgl aborts in its EGL teardown

        """
        let payload = Self.cases.map { c -> [String: Double] in
            // Native takes an antimeridian box as west…east+360 (a hull of the two corners).
            ["w": c.width, "h": c.height, "lon": c.start.longitude, "lat": c.start.latitude, "zoom": c.start.zoom,
             "bearing": c.bearing, "pitch": c.pitch, "padding": c.padding,
             "west": c.bounds.west, "south": c.bounds.south, "east": c.bounds.unwrappedEast, "north": c.bounds.north]
        }
        let input = try JSONSerialization.data(withJSONObject: payload) + Data("\n".utf8)
        let r = OutsideTool.run(python, ["-c", script], stdin: [UInt8](input))
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count, Self.cases.count, r.stderr)
        for (c, line) in zip(Self.cases, lines) {
            let v = line.split(separator: " ").compactMap { Double($0) }
            guard v.count == 3 else { XCTFail("\(c.name): cannot read pymgl's answer \(line)"); continue }
            let ours = try Camera.fitting(c.bounds, width: c.width, height: c.height, padding: EdgeInsets(all: c.padding),
                                          bearing: c.bearing, pitch: c.pitch, from: c.start)
            XCTAssertEqual(ViewTransform.wrap(ours.longitude - v[0]), 0, accuracy: 1e-6, "\(c.name): longitude ours \(ours.longitude), Native \(v[0])")
            XCTAssertEqual(ours.latitude, v[1], accuracy: 1e-6, "\(c.name): latitude ours \(ours.latitude), Native \(v[1])")
            XCTAssertEqual(ours.zoom, v[2], accuracy: 1e-6, "\(c.name): zoom ours \(ours.zoom), Native \(v[2])")
            XCTAssertEqual(ours.bearing, c.bearing)
            XCTAssertEqual(ours.pitch, c.pitch)
        }
    }
}
