import Foundation
import XCTest
import GLMap   // the only glmap import: what a library user writes

/// The Snapshotter's runtime styling API by style JSON (Mapbox Maps SDK names): every change is
/// validated with the whole style and a refused one leaves the style as it was; feature state
/// and global state reach the `feature-state` and `global-state` expressions; what glmap stores
/// but does not draw is listed. Drawn on the CPU reference renderer (no GL needed).
final class RuntimeStylingTests: XCTestCase {
    func snapshotter() throws -> Snapshotter {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 16, height: 16)), backend: .cpu)
        try s.setStyleJSON(#"""
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "Feature", "id": 7, "properties": {"kind": "a"},
                                                                     "geometry": {"type": "Point", "coordinates": [0, 0]}}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": 4}}]}
        """#)
        return s
    }

    func center(_ s: Snapshotter) throws -> [UInt8] {
        let snap = try s.snapshot()
        let i = ((snap.height / 2) * snap.width + snap.width / 2) * 4
        return Array(snap.pixels[i..<(i + 4)])
    }

    func obj(_ v: JSONValue) -> JSONObject { v.objectValue ?? JSONObject() }

    func testLayerPropertiesByName() throws {
        let s = try snapshotter()
        XCTAssertEqual(try center(s), [0, 0, 0, 255], "the default circle colour")
        try s.setLayerProperty(for: "c", property: "circle-color", value: "red")   // paint, by the circle table
        XCTAssertEqual(try center(s), [255, 0, 0, 255])
        try s.setLayerProperty(for: "c", property: "visibility", value: "none")    // layout
        XCTAssertEqual(try s.layerProperties(for: "c")["layout"]?["visibility"], "none")
        XCTAssertEqual(try center(s), [255, 255, 255, 255])
        try s.setLayerProperty(for: "c", property: "visibility", value: .null)      // back to the default
        XCTAssertEqual(try center(s), [255, 0, 0, 255])
        try s.setLayerProperty(for: "c", property: "filter", value: ["==", ["get", "kind"], "b"])
        XCTAssertEqual(try center(s), [255, 255, 255, 255], "filtered out")
        try s.setLayerProperties(for: "c", properties: obj(["filter": nil, "circle-color": "blue"]))
        XCTAssertEqual(try center(s), [0, 0, 255, 255])

        // Refused changes name the problem and leave the style as it was.
        XCTAssertThrowsError(try s.setLayerProperty(for: "c", property: "circle-radius", value: "big"))
        XCTAssertThrowsError(try s.setLayerProperty(for: "c", property: "circle-size", value: 3)) { e in
            XCTAssertTrue("\(e)".contains("unknown property \"circle-size\""), "\(e)")
        }
        XCTAssertThrowsError(try s.setLayerProperty(for: "nope", property: "circle-color", value: "red"))
        XCTAssertEqual(try center(s), [0, 0, 255, 255])

        try s.setLayerZoomRange(for: "c", minZoom: 2, maxZoom: nil)
        XCTAssertEqual(try center(s), [255, 255, 255, 255], "zoom 0 is below the layer's minzoom")
    }

    func testAddMoveAndRemoveLayersAndSources() throws {
        let s = try snapshotter()
        try s.addSource(withId: "t", properties: obj(["type": "geojson", "data": ["type": "Point", "coordinates": [0, 0]]]))
        try s.addLayer(with: obj(["id": "top", "type": "circle", "source": "t", "paint": ["circle-radius": 2, "circle-color": "lime"]]),
                       layerPosition: .below("c"))
        XCTAssertEqual(s.allLayerIdentifiers, ["bg", "top", "c"])
        XCTAssertEqual(try center(s), [0, 0, 0, 255], "drawn under the black circle")
        try s.moveLayer(withId: "top", to: .default)
        XCTAssertEqual(s.allLayerIdentifiers, ["bg", "c", "top"])
        XCTAssertEqual(try center(s), [0, 255, 0, 255])
        try s.moveLayer(withId: "top", to: .at(0))
        XCTAssertEqual(s.allLayerIdentifiers, ["top", "bg", "c"])
        XCTAssertThrowsError(try s.moveLayer(withId: "top", to: .above("nope")))
        XCTAssertThrowsError(try s.addLayer(with: obj(["id": "c", "type": "circle", "source": "s"])), "a taken id")
        XCTAssertThrowsError(try s.addSource(withId: "t", properties: obj(["type": "geojson", "data": ["type": "FeatureCollection", "features": []]])))
        XCTAssertThrowsError(try s.removeSource(withId: "t"), "a layer still uses it")
        try s.removeLayer(withId: "top")
        try s.removeSource(withId: "t")
        XCTAssertEqual(s.allSourceIdentifiers, ["s"])

        try s.updateGeoJSONSource(withId: "s", geoJSON: ["type": "Point", "coordinates": [90, 0]])
        XCTAssertEqual(try s.sourceProperties(for: "s")["data"]?["coordinates"], [90, 0])
        XCTAssertEqual(try center(s), [255, 255, 255, 255], "the point moved away")
        try s.setSourceProperty(for: "s", property: "data", value: ["type": "Point", "coordinates": [0, 0]])
        XCTAssertEqual(try center(s), [0, 0, 0, 255])
    }

    func testFeatureStateAndGlobalState() throws {
        let s = try snapshotter()
        try s.setLayerProperty(for: "c", property: "circle-color",
                               value: ["coalesce", ["feature-state", "color"], ["global-state", "fallback"], "black"])
        XCTAssertEqual(try center(s), [0, 0, 0, 255])
        s.setGlobalStateProperty("fallback", value: "blue")
        XCTAssertEqual(s.globalState["fallback"], "blue")
        XCTAssertEqual(try center(s), [0, 0, 255, 255])
        try s.setFeatureState(sourceId: "s", featureId: "7", state: obj(["color": "red", "other": 1]))
        XCTAssertEqual(s.featureState(sourceId: "s", featureId: "7"), obj(["color": "red", "other": 1]))
        XCTAssertEqual(try center(s), [255, 0, 0, 255])
        try s.removeFeatureState(sourceId: "s", featureId: "7", stateKey: "color")
        XCTAssertEqual(s.featureState(sourceId: "s", featureId: "7"), obj(["other": 1]))
        XCTAssertEqual(try center(s), [0, 0, 255, 255])
        s.setGlobalStateProperty("fallback", value: nil)
        XCTAssertEqual(try center(s), [0, 0, 0, 255])

        XCTAssertThrowsError(try s.setFeatureState(sourceId: "nope", featureId: "1", state: obj(["a": 1])))
        XCTAssertThrowsError(try s.removeFeatureState(sourceId: "s", stateKey: "color"), "a key needs a feature id")
        try s.addSource(withId: "v", properties: obj(["type": "vector", "tiles": ["file:///nowhere/{z}/{x}/{y}.mvt"]]))
        XCTAssertThrowsError(try s.setFeatureState(sourceId: "v", featureId: "1", state: obj(["a": 1]))) { e in
            XCTAssertTrue("\(e)".contains("sourceLayer"), "\(e)")
        }
        try s.setFeatureState(sourceId: "v", sourceLayerId: "poi", featureId: "1", state: obj(["a": 1]))
        XCTAssertEqual(s.featureState(sourceId: "v", sourceLayerId: "poi", featureId: "1"), obj(["a": 1]))
    }

    func testStoredButNotDrawnIsListed() throws {
        let s = try snapshotter()
        XCTAssertEqual(s.undrawnStyleFeatures, [])
        try s.setProjection(properties: obj(["type": "mercator"]))
        XCTAssertEqual(s.undrawnStyleFeatures, [], "Mercator is what glmap draws")
        try s.addSource(withId: "dem", properties: obj(["type": "raster-dem", "tiles": ["file:///nowhere/{z}/{x}/{y}.png"]]))
        try s.setTerrain(properties: obj(["source": "dem", "exaggeration": 1]))
        try s.setSky(properties: obj(["sky-color": "blue"]))
        try s.setLight(properties: obj(["intensity": 0.5]))
        try s.setProjection(properties: obj(["type": "globe"]))
        XCTAssertEqual(s.undrawnStyleFeatures.count, 3, "terrain, sky, globe (the light is drawn): \(s.undrawnStyleFeatures)")
        XCTAssertFalse(s.undrawnStyleFeatures.contains { $0.contains("light") }, "the light shades fill-extrusion layers")
        XCTAssertTrue(s.styleJSON.contains(#""terrain""#), "stored in the style")
        try s.setTerrain(properties: nil)
        XCTAssertEqual(s.undrawnStyleFeatures.count, 2)

        let pixel = StraightImage(width: 2, height: 2, pixels: Array(repeating: 255, count: 16))
        try s.addImage(StyleImage(image: pixel, pixelRatio: 2), id: "dot")
        XCTAssertTrue(s.imageExists(withId: "dot"))
        XCTAssertThrowsError(try s.addImage(StyleImage(image: pixel), id: "dot"))
        XCTAssertThrowsError(try s.updateImage(withId: "dot", image: StraightImage(width: 3, height: 2)), "a different size")
        try s.updateImage(withId: "dot", image: StraightImage(width: 2, height: 2))
        XCTAssertFalse(s.undrawnStyleFeatures.contains { $0.contains("dot") }, "run-time images are drawn (patterns)")
        try s.removeImage(withId: "dot")
        XCTAssertFalse(s.imageExists(withId: "dot"))
        XCTAssertThrowsError(try s.removeImage(withId: "dot"))
    }
}
