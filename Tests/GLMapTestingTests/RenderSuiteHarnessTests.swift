import Foundation
import XCTest
import GLMap
import GLMapCore
import GLMapPNG
@testable import GLMapTesting
import GLMapTestSupport

/// GL JS's render-suite harness rules as GLMapTesting applies them: `metadata.test` read whole,
/// URLs localized as test/integration/lib/localize-urls.ts localizes them, the loader's rules,
/// the manifest and its families, and operations applied through the runtime styling API (drawn
/// with the CPU reference renderer, so no GL is needed).
final class RenderSuiteHarnessTests: FolderTestCase {
    override var folderPrefix: String { "glmap-suite-harness" }

    func write(_ rel: String, _ text: String) throws {
        let url = tmp.appendingPathComponent(rel)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    var root: String { RenderSuite.absolute(tmp.appendingPathComponent("suite").path) }

    // MARK: metadata.test

    func testEveryMetadataFieldIsRead() throws {
        try write("suite/cases/g/all/style.json", #"""
        {"version": 8, "metadata": {"test": {"width": 64, "height": 32, "pixelRatio": 2, "allowed": 0.01, "threshold": 0.2,
          "operations": [["wait"], ["setZoom", 3]], "collisionDebug": true, "debug": true, "showOverdrawInspector": true,
          "showPadding": true, "fadeDuration": 100, "localIdeographFontFamily": "sans-serif", "crossSourceCollisions": false,
          "maxCanvasSize": [100, 100], "maxPitch": 85, "description": "all of it", "reportWidth": 10, "reportHeight": 5,
          "timeout": 5000}}, "sources": {}, "layers": []}
        """#)
        try write("suite/cases/g/none/style.json", #"{"version": 8, "sources": {}, "layers": []}"#)
        try write("suite/cases/g/bad/style.json", #"{"version": 8, "metadata": {"test": {"operations": [3]}}, "sources": {}, "layers": []}"#)
        try write("suite/glyphs/readme.txt", "")
        let cases = try RenderTestCase.discover(in: [tmp.appendingPathComponent("suite").path])
        let all = try XCTUnwrap(cases.first { $0.name == "g/all" })
        XCTAssertNil(all.setupError)
        XCTAssertEqual(all.operations.count, 2)
        XCTAssertTrue(all.collisionDebug && all.debug && all.showOverdrawInspector && all.showPadding)
        XCTAssertEqual(all.fadeDuration, 100)
        XCTAssertEqual(all.localIdeographFontFamily, "sans-serif")
        XCTAssertFalse(all.crossSourceCollisions)
        XCTAssertEqual(all.maxCanvasSize, [100, 100])
        XCTAssertEqual(all.maxPitch, 85)
        XCTAssertEqual(all.testDescription, "all of it")
        XCTAssertEqual(all.reportSize?.width, 10)
        XCTAssertEqual(all.reportSize?.height, 5)
        XCTAssertEqual(all.metadataTest["timeout"], 5000, "fields without a member are kept")
        XCTAssertEqual(all.assetRoot, root, "the folder that holds cases/")
        // 64 × 2 = 128 > 100: the ratio drops to fit, as GL JS's maxCanvasSize does.
        XCTAssertEqual(all.effectivePixelRatio, 2 * 100 / 128, accuracy: 1e-12)
        XCTAssertEqual(all.undrawnHarnessFeatures.count, 4, "collision boxes are drawn: \(all.undrawnHarnessFeatures)")
        XCTAssertFalse(all.undrawnHarnessFeatures.contains { $0.contains("collisionDebug") })

        let none = try XCTUnwrap(cases.first { $0.name == "g/none" })
        XCTAssertTrue(none.operations.isEmpty && !none.collisionDebug && none.crossSourceCollisions)
        XCTAssertEqual(none.maxPitch, 60, "GL JS's map default")
        XCTAssertEqual(none.effectivePixelRatio, 1)
        XCTAssertTrue(none.undrawnHarnessFeatures.isEmpty)
        XCTAssertEqual(RenderTestCase(name: "x", directory: tmp.appendingPathComponent("suite/cases/g/none").path).effectivePixelRatio, 1)

        let bad = try XCTUnwrap(cases.first { $0.name == "g/bad" })
        XCTAssertEqual(bad.setupError?.contains("metadata.test.operations"), true, bad.setupError ?? "")
    }

    func testAssetRootWithoutACasesFolder() throws {
        try write("loose/sprites/s.json", "{}")
        try write("loose/group/one/style.json", #"{"version": 8, "sources": {}, "layers": []}"#)
        let c = RenderTestCase(name: "one", directory: tmp.appendingPathComponent("loose/group/one").path)
        XCTAssertEqual(c.assetRoot, RenderSuite.absolute(tmp.appendingPathComponent("loose").path), "the nearest folder with an asset folder")
    }

    // MARK: localization

    func testStyleURLsAreLocalizedAsTheHarnessDoes() throws {
        let style: JSONValue = [
            "version": 8,
            "sprite": "mapbox://sprites/mapbox/bright",
            "glyphs": "mapbox://fonts/mapbox/{fontstack}/{range}.pbf",
            "sources": [
                "v": ["type": "vector", "url": "mapbox://mapbox.mapbox-streets-v7"],
                "t": ["type": "vector", "tiles": ["mapbox://tiles/a/{z}-{x}-{y}.mvt", "local://tiles/{z}-{x}-{y}.mvt", "http://example.com/x"]],
                "u": ["type": "raster", "urls": ["local://tilesets/raster.json"]],
                "g": ["type": "geojson", "data": "local://geojson/point.json"],
                "i": ["type": "geojson", "data": ["type": "Point", "coordinates": [0, 0]]],
            ],
            "layers": [["id": "x", "type": "background", "metadata": "local://not-a-url-member"]],
        ]
        let out = RenderSuite.localizeStyle(style, assetRoot: root)
        let r = "file://" + root + "/"
        XCTAssertEqual(out["sprite"], .string(r + "sprites/mapbox/bright"))
        XCTAssertEqual(out["glyphs"], .string(r + "glyphs/mapbox/{fontstack}/{range}.pbf"))
        XCTAssertEqual(out["sources"]?["v"]?["url"], .string(r + "tilesets/mapbox.mapbox-streets-v7"))
        XCTAssertEqual(out["sources"]?["t"]?["tiles"], .array([.string(r + "tiles/tiles/a/{z}-{x}-{y}.mvt"), .string(r + "tiles/{z}-{x}-{y}.mvt"), "http://example.com/x"]))
        XCTAssertEqual(out["sources"]?["u"]?["urls"], .array([.string(r + "tilesets/raster.json")]))
        XCTAssertEqual(out["sources"]?["g"]?["data"], .string(r + "geojson/point.json"))
        XCTAssertEqual(out["sources"]?["i"], style["sources"]?["i"], "inline data untouched")
        XCTAssertEqual(out["layers"], style["layers"], "only the harness's members are rewritten")

        let sprites: JSONValue = ["version": 8, "sprite": [["id": "a", "url": "local://sprites/sprite"]], "sources": [:], "layers": []]
        XCTAssertEqual(RenderSuite.localizeStyle(sprites, assetRoot: root)["sprite"], .array([["id": "a", "url": .string(r + "sprites/sprite")]]))
    }

    func testResourceRules() {
        let rules = RenderSuite.resourceRules(assetRoot: root)
        let r = "file://" + root + "/"
        XCTAssertEqual(rules.rewrite("http://localhost:2900/tiles/1-0-0.mvt"), r + "tiles/1-0-0.mvt")
        XCTAssertEqual(rules.rewrite("local://glyphs/a/0-255.pbf"), r + "glyphs/a/0-255.pbf")
        XCTAssertEqual(rules.rewrite("http://localhost:2901/norway/1-0-0.mvt"), r + "mvt-fixtures/real-world/norway/1-0-0.mvt")
        XCTAssertEqual(rules.rewrite("https://example.com/x"), "https://example.com/x")
        XCTAssertTrue(rules.isNoContent(rules.rewrite("http://localhost:2900/tiles/sparse204/1-0-0.png")))
        XCTAssertFalse(rules.isNoContent(rules.rewrite("http://localhost:2900/tiles/sparse204/0-0-0.png")))
    }

    func testSetStyleReadsLocalStyles() throws {
        try write("suite/styles/x.json", #"{"version": 8, "sources": {"s": {"type": "geojson", "data": "local://data/d.json"}}, "layers": []}"#)
        let style = try RenderSuite.styleForSetStyle("local://styles/x.json", assetRoot: root)
        XCTAssertEqual(style["sources"]?["s"]?["data"], .string("file://" + root + "/data/d.json"))
        XCTAssertThrowsError(try RenderSuite.styleForSetStyle("https://example.com/style.json", assetRoot: root))
        XCTAssertThrowsError(try RenderSuite.styleForSetStyle("local://styles/missing.json", assetRoot: root))
    }

    // MARK: manifest and families

    func testManifestFamiliesAndReasons() throws {
        try write("suite/manifest.tsv", "case\tlayer_types\tsource_types\toperations\tneeds_beyond_current_subset\tflags\n"
                  + "g/a\tsymbol\tvideo\t-\tterrain,source:video\tglyphs\ng/b\tcircle\tgeojson\tsetZoom\toperations\t-\ng/c\tfill\tgeojson\t-\t-\t-\n")
        let manifest = try RenderSuite.manifest(assetRoot: root)
        XCTAssertEqual(manifest["g/a"]?.needs, ["terrain", "source:video"])
        XCTAssertEqual(manifest["g/b"]?.operations, ["setZoom"])
        XCTAssertEqual(manifest["g/c"]?.needs, [])
        XCTAssertEqual(try RenderSuite.manifest(assetRoot: tmp.path), [:], "no manifest: none")
        try write("bad/manifest.tsv", "g/a\tonly two\n")
        XCTAssertThrowsError(try RenderSuite.manifest(assetRoot: tmp.appendingPathComponent("bad").path))

        func result(_ name: String, pass: Bool, message: String = "difference 0.5") -> RenderTestResult {
            var c = RenderTestCase(name: name, directory: tmp.appendingPathComponent("suite/cases/\(name)").path)
            c.assetRoot = root
            return RenderTestResult(testCase: c, status: pass ? .passed : .failed, message: message, seconds: 0)
        }
        let results = [result("g/a", pass: false), result("g/b", pass: true), result("g/c", pass: false), result("g/d", pass: true)]
        let summary = RenderSuiteSummary(results: results, manifests: [root: manifest])
        XCTAssertEqual(summary.lines, ["family (no manifest): 1/1", "family -: 0/1", "family operations: 1/1",
                                       "family terrain,source:video: 0/1", "all families: 2/4"])
        XCTAssertEqual(RenderSuiteSummary.reason(for: results[0], entry: manifest["g/a"]), "terrain not drawn; video sources not loaded")
        XCTAssertNil(RenderSuiteSummary.reason(for: results[2], entry: manifest["g/c"]), "needs nothing glmap lacks: a person writes it")
        let unsupported = result("g/b", pass: false, message: RenderTestRunner.unsupportedPrefix + "operation setRoll not supported; difference 0.1")
        XCTAssertEqual(RenderSuiteSummary.reason(for: unsupported, entry: manifest["g/b"]), "operation setRoll not supported")
    }

    func testCollisionDebugAloneNoLongerNeedsTheDebugOverlay() throws {
        try write("suite/manifest.tsv", "case\tlayer_types\tsource_types\toperations\tneeds_beyond_current_subset\tflags\n"
                  + "d/boxes\tsymbol\tgeojson\t-\tdebug-overlay,layer:symbol\ttext,pitch=60,collisionDebug\n"
                  + "d/both\tsymbol\tvector\t-\tdebug-overlay,source:vector\tcollisionDebug,debug\n"
                  + "d/tile\traster\traster\t-\tdebug-overlay\tdebug\n")
        let manifest = try RenderSuite.manifest(assetRoot: root)
        XCTAssertEqual(manifest["d/boxes"]?.needs, ["layer:symbol"], "collision boxes and circles are drawn")
        XCTAssertEqual(manifest["d/both"]?.needs, ["debug-overlay", "source:vector"], "tile boundaries are not")
        XCTAssertEqual(manifest["d/tile"]?.needs, ["debug-overlay"])
        XCTAssertEqual(manifest["d/boxes"]?.family, "debug-overlay,layer:symbol", "the family stays the manifest's")
    }

    // MARK: operations

    func drawCase(_ name: String, _ style: String, width: Int = 16, height: Int = 16) throws -> RenderTestDrawing {
        try write("suite/cases/\(name)/style.json", style)
        let c = RenderTestCase(name: name, directory: tmp.appendingPathComponent("suite/cases/\(name)").path)
        return try RenderTestSession.draw(c, renderer: MapRenderer(backend: .cpu))
    }

    func center(_ d: RenderTestDrawing) -> [UInt8] {
        let i = ((d.image.height / 2) * d.image.width + d.image.width / 2) * 4
        return Array(d.image.pixels[i..<(i + 4)])
    }

    let geojson = #""s": {"type": "geojson", "data": {"type": "Feature", "id": 1, "properties": {"r": 20}, "geometry": {"type": "Point", "coordinates": [0, 0]}}}"#

    func testOperationsChangeTheStyle() throws {
        let d = try drawCase("ops/paint", #"""
        {"version": 8, "metadata": {"test": {"width": 16, "height": 16, "operations": [
          ["setPaintProperty", "bg", "background-color", "blue"], ["wait"],
          ["addLayer", {"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": 4, "circle-color": "red"}}],
          ["setLayoutProperty", "c", "visibility", "none"], ["setLayoutProperty", "c", "visibility", null], ["wait"]]}},
         "sources": {\#(geojson)}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}}]}
        """#)
        XCTAssertTrue(d.unsupported.isEmpty && d.notes.isEmpty, "\(d.unsupported) \(d.notes)")
        XCTAssertEqual(center(d), [255, 0, 0, 255], "the added circle over the blue background")
        XCTAssertEqual(Array(d.image.pixels[0..<4]), [0, 0, 255, 255], "the corner shows the new background colour")

        let moved = try drawCase("ops/move", #"""
        {"version": 8, "metadata": {"test": {"width": 16, "height": 16, "operations": [["moveLayer", "c", "bg"], ["wait"]]}},
         "sources": {\#(geojson)}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                                           {"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": 20, "circle-color": "red"}}]}
        """#)
        XCTAssertEqual(center(moved), [255, 255, 255, 255], "the circle moved below the opaque background")
    }

    func testFeatureStateAndGlobalState() throws {
        let d = try drawCase("ops/state", #"""
        {"version": 8, "metadata": {"test": {"width": 16, "height": 16, "operations": [
          ["setFeatureState", {"source": "s", "id": "1"}, {"color": "red"}], ["wait"]]}},
         "sources": {\#(geojson)},
         "layers": [{"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": 20, "circle-color": ["coalesce", ["feature-state", "color"], "black"]}}]}
        """#)
        XCTAssertEqual(center(d), [255, 0, 0, 255])
        let removed = try drawCase("ops/state-removed", #"""
        {"version": 8, "metadata": {"test": {"width": 16, "height": 16, "operations": [
          ["setFeatureState", {"source": "s", "id": 1}, {"color": "red"}], ["removeFeatureState", {"source": "s", "id": 1}, "color"],
          ["setGlobalStateProperty", "fallback", "lime"], ["wait"]]}},
         "state": {"fallback": {"default": "black"}}, "sources": {\#(geojson)},
         "layers": [{"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": 20, "circle-color": ["coalesce", ["feature-state", "color"], ["global-state", "fallback"]]}}]}
        """#)
        XCTAssertEqual(center(removed), [0, 255, 0, 255])
    }

    func testSetStyleMovesOnlyAnUnmovedCamera() throws {
        // The second style's camera centres a red circle at 90°E; GL JS jumps there only while the
        // camera was never changed (the first style at the defaults leaves it unmodified).
        let second = #"{"version": 8, "center": [90, 0], "zoom": 2, "sources": {"s": {"type": "geojson", "data": {"type": "Point", "coordinates": [90, 0]}}}, "layers": [{"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": 6, "circle-color": "red"}}]}"#
        let unmoved = try drawCase("ops/set-style", #"{"version": 8, "metadata": {"test": {"width": 16, "height": 16, "operations": [["setStyle", \#(second)], ["wait"]]}}, "sources": {}, "layers": []}"#)
        XCTAssertEqual(center(unmoved), [255, 0, 0, 255])
        let moved = try drawCase("ops/set-style-moved", #"{"version": 8, "zoom": 1, "metadata": {"test": {"width": 16, "height": 16, "operations": [["setStyle", \#(second)], ["wait"]]}}, "sources": {}, "layers": []}"#)
        XCTAssertEqual(center(moved), [0, 0, 0, 0], "the camera stays at 0, 0 (zoom 1): the circle is off screen")
    }

    func testWhatGlmapCannotDoFailsTheCaseWithAReason() throws {
        let d = try drawCase("ops/unsupported", #"""
        {"version": 8, "metadata": {"test": {"width": 16, "height": 16, "debug": true, "operations": [
          ["setRoll", 10], ["setTerrain", {"source": "dem"}], ["setPaintProperty", "missing", "circle-color", "red"], ["wait"]]}},
         "sources": {"dem": {"type": "raster-dem", "tiles": ["local://tiles/{z}-{x}-{y}.terrain.png"]}}, "layers": []}
        """#)
        XCTAssertTrue(d.unsupported.contains("operation setRoll not supported"), "\(d.unsupported)")
        XCTAssertTrue(d.unsupported.contains { $0.contains("terrain") }, "\(d.unsupported)")
        XCTAssertTrue(d.unsupported.contains { $0.contains("metadata.test.debug") }, "\(d.unsupported)")
        XCTAssertEqual(d.notes.count, 1, "an operation GL JS would also refuse is noted, not fatal: \(d.notes)")
        XCTAssertTrue(d.notes[0].contains("operation 3 (setPaintProperty)"), d.notes[0])
    }

    func testReportSizeKeepsTheBottomLeftCorner() {
        var image = StraightImage(width: 4, height: 3)
        for y in 0..<3 { for x in 0..<4 { image.pixels[(y * 4 + x) * 4] = UInt8(10 * y + x) } }
        let corner = RenderTestSession.bottomLeft(of: image, width: 2, height: 2)
        XCTAssertEqual([corner.pixels[0], corner.pixels[4], corner.pixels[8], corner.pixels[12]], [10, 11, 20, 21])
        let larger = RenderTestSession.bottomLeft(of: image, width: 5, height: 4)
        XCTAssertEqual(larger.pixels[(1 * 5 + 0) * 4], 0, "row 1 of 4 is the image's top row")
        XCTAssertEqual(larger.pixels[(0 * 5 + 0) * 4 + 3], 0, "outside the image: transparent")
    }
}
