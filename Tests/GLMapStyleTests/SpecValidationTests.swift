import XCTest
import GLMapCore
@testable import GLMapStyle

/// Validation against the generated tables: layers of the types glmap does not draw get the same
/// checks as drawn ones, expressions may read only the parameters their property provides, and
/// source keys are checked as MapLibre's validator checks them.
final class SpecValidationTests: XCTestCase {
    let geojson: JSONValue = ["type": "geojson", "data": ["type": "FeatureCollection", "features": []]]
    let dem: JSONValue = ["type": "raster-dem", "tiles": ["dem/{z}/{x}/{y}.png"]]

    func style(layers: [JSONValue], sources: JSONObject? = nil) -> JSONValue {
        .object(JSONObject([("version", 8), ("sources", .object(sources ?? JSONObject([("s", geojson), ("d", dem)]))), ("layers", .array(layers))]))
    }

    func issues(_ json: JSONValue) -> [String] {
        do { _ = try StyleDocument.parse(json: json); return [] } catch let e as StyleError { return e.issues.map(\.description) } catch { return ["\(error)"] }
    }

    func layer(_ type: String, _ section: String, _ name: String, _ value: JSONValue, id: String = "l") -> JSONValue {
        // hillshade and color-relief layers need a raster-dem source (the spec's validateLayer).
        let source: JSONValue = type == "hillshade" || type == "color-relief" ? "d" : "s"
        return .object(JSONObject([("id", .string(id)), ("type", .string(type)), ("source", source), (section, .object(JSONObject([(name, value)])))]))
    }

    func testSkippedLayerTypesAreValidatedLikeDrawnOnes() throws {
        XCTAssertEqual(issues(style(layers: [layer("symbol", "layout", "text-feild", "x")])),
                       [#"layers[0].layout.text-feild: unknown property "text-feild" for a symbol layer (did you mean "text-field"?)"#])
        XCTAssertEqual(issues(style(layers: [layer("fill-extrusion", "paint", "fill-extrusion-height", -1)])),
                       ["layers[0].paint.fill-extrusion-height: -1 is less than the minimum value 0"])
        XCTAssertEqual(issues(style(layers: [layer("raster", "paint", "raster-resampling", "cubic")])),
                       [#"layers[0].paint.raster-resampling: expected one of "linear", "nearest", found "cubic""#])
        XCTAssertEqual(issues(style(layers: [layer("heatmap", "paint", "heatmap-radius", "big")])),
                       ["layers[0].paint.heatmap-radius: Expected number but found string instead."])
        XCTAssertEqual(issues(style(layers: [layer("hillshade", "layout", "hillshade-exaggeration", 0.5)])),
                       [#"layers[0].layout.hillshade-exaggeration: "hillshade-exaggeration" is a paint property, not a layout property"#])
        XCTAssertEqual(issues(style(layers: [layer("symbol", "layout", "text-variable-anchor", ["top", "middle"])])),
                       [#"layers[0].layout.text-variable-anchor[1]: expected one of "center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right", found "middle""#])
        XCTAssertEqual(issues(style(layers: [layer("symbol", "layout", "icon-padding", [1, 2, 3, 4, 5])])),
                       ["layers[0].layout.icon-padding: expected a number or an array of 1 to 4 numbers (CSS order), found an array"])
        XCTAssertEqual(issues(style(layers: [layer("hillshade", "paint", "hillshade-shadow-color", ["literal", ["red", "nope"]])])),
                       ["layers[0].paint.hillshade-shadow-color: expected a color or an array of colors, found an array"])
        XCTAssertEqual(issues(style(layers: [layer("symbol", "layout", "text-variable-anchor-offset", ["top", [0]])])),
                       ["layers[0].layout.text-variable-anchor-offset: expected an array of text anchors, each followed by an [x, y] offset, found an array"])
        XCTAssertEqual(issues(style(layers: [layer("symbol", "layout", "symbol-placement", ["get", "p"])])),
                       ["layers[0].layout.symbol-placement: data expressions not supported"])
        XCTAssertEqual(issues(style(layers: [.object(JSONObject([("id", "x"), ("type", "symbol"), ("source", "nowhere")]))])),
                       [#"layers[0].source: source "nowhere" not found"#])
    }

    func testSkippedLayersKeepTheirCompiledValuesAndOneWarning() throws {
        // Every layer type is drawn; layers over a skipped (video) source are kept, compiled.
        let video: JSONValue = ["type": "video", "urls": ["https://example.com/a.mp4"], "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]]
        let doc = try StyleDocument.parse(json: style(layers: [
            .object(JSONObject([("id", "labels"), ("type", "symbol"), ("source", "v"), ("filter", ["==", ["get", "k"], 1]),
                                ("layout", ["text-field": ["get", "name"], "text-font": ["literal", ["A", "B"]], "icon-image": ["image", "x"]]),
                                ("paint", ["text-color": ["case", ["feature-state", "hover"], "red", "blue"]])])),
            .object(JSONObject([("id", "c"), ("type", "circle"), ("source", "s")])),
        ], sources: JSONObject([("s", geojson), ("v", video)])))
        XCTAssertEqual(doc.layers.map(\.id), ["c"], "drawn layers")
        XCTAssertEqual(doc.allLayers.map(\.id), ["labels", "c"], "every layer, in style order")
        let labels = doc.allLayers[0]
        XCTAssertEqual(labels.type, .symbol)
        XCTAssertNotNil(labels.filter)
        XCTAssertEqual(Set(labels.values.keys), ["text-field", "text-font", "icon-image", "text-color"])
        XCTAssertEqual(doc.skipped.map(\.description), ["source 'v': video sources are not drawn by glmap; skipped, with the layer 'labels' that uses it"])
    }

    func testALayerOverASkippedSourceIsNamedInTheSourcesWarning() throws {
        // Video sources are not drawn (MapLibre Native has none either).
        let video: JSONValue = ["type": "video", "urls": ["https://example.com/a.mp4"], "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]]
        let doc = try StyleDocument.parse(json: style(layers: [
            .object(JSONObject([("id", "roads"), ("type", "line"), ("source", "v"), ("source-layer", "transportation"),
                                ("paint", ["line-width": 2])])),
            .object(JSONObject([("id", "names"), ("type", "symbol"), ("source", "v"), ("source-layer", "place")])),
        ], sources: JSONObject([("v", video)])))
        XCTAssertEqual(doc.layers.count, 0)
        XCTAssertEqual(doc.allLayers.map(\.id), ["roads", "names"])
        XCTAssertEqual(doc.allLayers[0].sourceLayer, "transportation")
        XCTAssertNotNil(doc.allLayers[0].values["line-width"])
        XCTAssertEqual(doc.skipped.map(\.description),
                       ["source 'v': video sources are not drawn by glmap; skipped, with the 2 layers that use it: 'roads' and 'names'"])
    }

    func testExpressionsReadOnlyTheParametersTheirPropertyProvides() {
        XCTAssertEqual(issues(style(layers: [layer("line", "layout", "line-join", ["case", ["feature-state", "x"], "round", "miter"])])),
                       [#"layers[0].layout.line-join: "feature-state" data expressions are not supported with layout properties."#])
        XCTAssertEqual(issues(style(layers: [layer("fill", "paint", "fill-translate", ["case", ["feature-state", "x"], ["literal", [1, 1]], ["literal", [0, 0]]])])),
                       ["layers[0].paint.fill-translate: data expressions not supported"])
        XCTAssertEqual(issues(style(layers: [layer("circle", "paint", "circle-radius", ["*", 10, ["heatmap-density"]])])),
                       [#"layers[0].paint.circle-radius: "heatmap-density" may only be used with the heatmap-color property"#])
        XCTAssertEqual(issues(style(layers: [layer("fill", "paint", "fill-opacity", ["line-progress"])])),
                       [#"layers[0].paint.fill-opacity: "line-progress" may only be used with the line-gradient property"#])
        XCTAssertEqual(issues(style(layers: [layer("hillshade", "paint", "hillshade-exaggeration", ["elevation"])])),
                       [#"layers[0].paint.hillshade-exaggeration: "elevation" may only be used with the color-relief-color property"#])
        // Where the property provides the parameter: no error (heatmap-density is not evaluated yet: a warning).
        XCTAssertEqual(issues(style(layers: [layer("circle", "paint", "circle-color", ["case", ["feature-state", "x"], "red", "blue"])])), [])
        XCTAssertEqual(issues(style(layers: [layer("heatmap", "paint", "heatmap-color", ["interpolate", ["linear"], ["heatmap-density"], 0, "blue", 1, "red"])])), [])
    }

    func testSourceKeysAreCheckedAsMapLibreChecksThem() {
        func source(_ o: JSONValue) -> [String] { issues(style(layers: [], sources: JSONObject([("x", o)]))) }
        XCTAssertEqual(source(["type": "geojson", "data": "a.geojson", "bufer": 64]),
                       [#"sources.x.bufer: unknown property "bufer" for a geojson source (did you mean "buffer"?)"#])
        XCTAssertEqual(source(["type": "geojson", "data": "a.geojson", "cluster": "yes", "clusterRadius": -1]),
                       [#"sources.x.cluster: expected boolean, found "yes""#, "sources.x.clusterRadius: -1 is less than the minimum value 0"])
        XCTAssertEqual(source(["type": "vector", "url": "https://example.com/v.json", "custom-key": 1]), [], "vector sources allow other keys")
        XCTAssertEqual(source(["type": "vector", "tiles": "https://example.com/{z}/{x}/{y}.pbf", "scheme": "zxy", "bounds": [0, 0, 1]]),
                       [#"sources.x.tiles: expected an array, found "https://example.com/{z}/{x}/{y}.pbf""#,
                        #"sources.x.scheme: expected one of "xyz", "tms", found "zxy""#,
                        "sources.x.bounds: expected an array of 4, found 3 items"])
        XCTAssertEqual(source(["type": "raster-dem", "url": "u", "extra": 1]), [#"sources.x.extra: unknown property "extra" for a raster-dem source"#])
        XCTAssertEqual(source(["type": "raster-dem", "url": "u", "redFactor": 2]),
                       [#"sources.x.redFactor: "redFactor" is only valid when "encoding" is "custom" (found the default encoding)"#])
        XCTAssertEqual(source(["type": "raster-dem", "url": "u", "encoding": "custom", "redFactor": 2]), [])
        XCTAssertEqual(source(["type": "image", "url": "a.png"]), ["sources.x.coordinates: missing required property"])
        XCTAssertEqual(source(["type": "image", "url": "a.png", "coordinates": [[0, 1], [1, 1], [1, 0], [0, "a"]]]),
                       [#"sources.x.coordinates[3][1]: expected number, found "a""#])
        XCTAssertEqual(source(["type": "video", "urls": ["a.mp4"], "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]], "loop": true]),
                       [#"sources.x.loop: unknown property "loop" for a video source"#])
        XCTAssertEqual(source(["type": "geojson", "data": "a.geojson", "promoteId": ["layer": 3]]),
                       ["sources.x.promoteId: expected a string or an object of strings (source layer → property), found an object"])
    }

    func testRootObjectsAreCheckedAgainstTheirTables() throws {
        func root(_ key: String, _ v: JSONValue, sources: JSONObject? = nil) -> [String] {
            var o = style(layers: [], sources: sources).objectValue!
            o[key] = v
            return issues(.object(o))
        }
        XCTAssertEqual(root("light", ["anchor": "map", "position": [1.5, 90, 80], "intensity": 0.4, "color-transition": ["duration": 0]]), [])
        XCTAssertEqual(root("light", ["anchr": "map"]), [#"light.anchr: unknown property "anchr" for light (did you mean "anchor"?)"#])
        XCTAssertEqual(root("light", ["intensity": 2, "position": [1, 2]]),
                       ["light.intensity: 2 is greater than the maximum value 1", "light.position: Expected array<number, 3> but found array<number, 2> instead."])
        XCTAssertEqual(root("light", ["anchor": ["get", "a"]]), ["light.anchor: data expressions not supported"])
        XCTAssertEqual(root("sky", ["atmosphere-blend": ["interpolate", ["linear"], ["zoom"], 0, 1, 12, 0], "sky-color": "#199EF3"]), [])
        XCTAssertEqual(root("sky", ["fog-color": "nope"]).count, 1)
        XCTAssertEqual(root("transition", ["duration": 0, "delay": -1]), ["transition.delay: -1 is less than the minimum value 0"])
        XCTAssertEqual(root("projection", ["type": "globe"]), [])
        XCTAssertEqual(root("projection", ["kind": "globe"]), [#"projection.kind: unknown property "kind" for projection"#])
        let dem: JSONValue = ["type": "raster-dem", "tiles": ["t/{z}/{x}/{y}.png"]]
        XCTAssertEqual(root("terrain", ["source": "dem", "exaggeration": 2], sources: JSONObject([("dem", dem)])), [])
        XCTAssertEqual(root("terrain", ["exaggeration": -1], sources: JSONObject([("dem", dem)])),
                       ["terrain.exaggeration: -1 is less than the minimum value 0", "terrain.source: missing required property"])
        XCTAssertEqual(root("terrain", ["source": "x"]), [#"terrain.source: source "x" not found"#])
        var o = style(layers: []).objectValue!
        o["light"] = ["anchor": "map", "intensity": 0.25]
        o["sky"] = ["fog-ground-blend": 0.5]
        let doc = try StyleDocument.parse(json: .object(o))
        XCTAssertEqual(doc.rootObjects["light"]?["intensity"]?.expression.constantValue, .number(0.25))
        XCTAssertEqual(doc.rootObjects["light"]?["anchor"]?.expression.constantValue, .string("map"))
        XCTAssertEqual(doc.rootObjects["sky"]?["fog-ground-blend"]?.expression.constantValue, .number(0.5))
    }
}
