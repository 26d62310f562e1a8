import Foundation
import XCTest
@testable import GLMapCLI
import GLMap
import GLMapTestSupport

/// What the style spec forbids is an error with its JSON path (exit 2); what it allows but glmap
/// does not draw is skipped with one warning (exit 0), and `--strict` makes that exit 2. Exact
/// messages; no output file is left when the render is refused.
final class StyleValidationCLITests: FolderTestCase {
    override var folderPrefix: String { "glmap-style" }

    var out: String { tmp.appendingPathComponent("out.png").path }

    /// Renders `style` (written to style.json) to out.png, 8×8 on the CPU.
    func render(_ style: String, strict: Bool = false) -> (code: Int32, stderr: String, wrote: Bool) {
        let path = tmp.appendingPathComponent("style.json").path
        FileManager.default.createFile(atPath: path, contents: Data(style.utf8))
        try? FileManager.default.removeItem(atPath: out)
        var err = ""
        let io = CommandIO(readStdin: { [] }, writeStdout: { _ in }, writeStderr: { err += $0 })
        let code = GLMapCommand.run(["render", "-s", path, "-o", out, "-w", "8", "-h", "8", "--backend", "cpu"] + (strict ? ["--strict"] : []), io: io)
        // These styles have no center/zoom: the note saying which view was used is not what these tests check.
        return (code, err.replacingOccurrences(of: RenderCommand.defaultViewNote, with: ""), FileManager.default.fileExists(atPath: out))
    }

    var stylePath: String { tmp.appendingPathComponent("style.json").path }

    /// A style with a point source "s" and the given layers (JSON text).
    func style(_ layers: String, sources: String = "") -> String {
        #"{"version": 8, "center": [0, 0], "zoom": 0, "sources": {"s": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}\#(sources)}, "layers": [\#(layers)]}"#
    }

    func assertError(_ style: String, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        let r = render(style)
        XCTAssertEqual(r.code, 2, file: file, line: line)
        XCTAssertEqual(r.stderr, "glmap: \(stylePath): \(message)\n", file: file, line: line)
        XCTAssertFalse(r.wrote, "no output file", file: file, line: line)
    }

    // MARK: invalid filters are errors with their path

    func filterLayer(_ filter: String) -> String { style(#"{"id": "c", "type": "circle", "source": "s", "filter": \#(filter)}"#) }
    let expectedFilter = #"expected a filter (an array such as ["==", "class", "park"] or a boolean expression)"#

    func testFilterNumber() { assertError(filterLayer("0"), "layers[0].filter: \(expectedFilter), found 0") }
    func testFilterString() { assertError(filterLayer(#""x""#), "layers[0].filter: \(expectedFilter), found \"x\"") }
    func testFilterObject() { assertError(filterLayer("{}"), "layers[0].filter: \(expectedFilter), found an object") }
    func testFilterEmptyArray() { assertError(filterLayer("[]"), "layers[0].filter: a filter array needs at least 1 element (an operator), found []") }
    func testFilterAllWithANumber() { assertError(filterLayer(#"["all", 5]"#), "layers[0].filter[1]: \(expectedFilter), found 5") }
    func testFilterAnyWithAString() { assertError(filterLayer(#"["any", "x"]"#), "layers[0].filter[1]: \(expectedFilter), found \"x\"") }
    func testFilterHasWithoutKey() {
        assertError(filterLayer(#"["has"]"#), #"layers[0].filter: the filter operator "has" needs 2 elements ["has", key], found 1"#)
    }
    func testFilterNotHasWithTwoKeys() {
        assertError(filterLayer(#"["!has", "a", "b"]"#), #"layers[0].filter: the filter operator "!has" needs 2 elements ["!has", key], found 3"#)
    }
    func testValidLegacyAndExpressionFiltersStillRender() {
        for f in [#"["==", "$type", "Point"]"#, #"["all", ["has", "a"], true]"#, #"["in", "k", 1, 2]"#, "true", #"["==", ["get", "a"], 1]"#] {
            let r = render(filterLayer(f))
            XCTAssertEqual(r.code, 0, "\(f): \(r.stderr)")
            XCTAssertEqual(r.stderr, "")
        }
    }

    // MARK: unknown keys and properties: errors, with the path and a suggestion

    func testUnknownLayerKeyIsAWarningAsMapLibreIgnoresIt() {
        // maplibre-style-spec's validateLayer accepts any other layer member; glmap names it.
        assertSkipped(style(#"{"id": "c", "type": "circle", "source": "s", "minzom": 3}"#),
                      warning: #"layer 'c': unknown layer property "minzom" (did you mean "minzoom"?); ignored"#,
                      strictIssue: #"layers[0].minzom: layer 'c': unknown layer property "minzom" (did you mean "minzoom"?)"#)
    }

    func testRefLayersTakeTheirParentsMembersAsInGLJS() {
        // GL JS derefs layers before validating: `ref` copies type, source, source-layer, zooms,
        // filter and layout from the layer it names.
        let r = render(style(#"{"id": "a", "type": "circle", "source": "s", "paint": {"circle-color": "red"}}, {"id": "b", "ref": "a", "paint": {"circle-color": "blue"}}"#),
                       strict: true)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertTrue(r.wrote)
    }

    func testUnknownPaintPropertyIsAnError() {
        assertError(style(#"{"id": "c", "type": "circle", "source": "s", "paint": {"circle-colour": "red"}}"#),
                    #"layers[0].paint.circle-colour: unknown property "circle-colour" for a circle layer (did you mean "circle-color"?)"#)
    }

    func testUnknownLayerTypeIsAnErrorNotASkip() {
        assertError(style(#"{"id": "c", "type": "symbl", "source": "s"}"#),
                    #"layers[0].type: unknown layer type "symbl" (the style spec's layer types are fill, line, symbol, circle, heatmap, fill-extrusion, raster, hillshade, color-relief, background) (did you mean "symbol"?)"#)
    }

    func testUnknownSourceTypeIsAnErrorNotASkip() {
        assertError(style(#"{"id": "c", "type": "circle", "source": "s"}"#, sources: #", "t": {"type": "geojsn", "data": {}}"#),
                    #"sources.t.type: unknown source type "geojsn" (the style spec's source types are vector, raster, raster-dem, geojson, video, image) (did you mean "geojson"?)"#)
    }

    // MARK: unusable source data: a warning and an empty source; --strict exits 2

    func testNumericSourceDataIsAWarning() {
        let s = #"{"version": 8, "center": [0, 0], "zoom": 0, "sources": {"x": {"type": "geojson", "data": 42}}, "layers": [{"id": "c", "type": "circle", "source": "x"}]}"#
        let r = render(s)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "glmap: warning: source \"x\": sources.x.data: expected GeoJSON (an object) or a file path (a string), found 42; the source is empty\n")
        XCTAssertTrue(r.wrote)
        let strict = render(s, strict: true)
        XCTAssertEqual(strict.code, 2)
        XCTAssertEqual(strict.stderr, "glmap: source \"x\": sources.x.data: expected GeoJSON (an object) or a file path (a string), found 42; the source is empty\n")
        XCTAssertFalse(strict.wrote)
    }

    // MARK: what glmap does not draw: one warning, exit 0; --strict: exit 2

    func assertSkipped(_ style: String, warning: String, strictIssue: String, file: StaticString = #filePath, line: UInt = #line) {
        let r = render(style)
        XCTAssertEqual(r.code, 0, r.stderr, file: file, line: line)
        XCTAssertEqual(r.stderr, "glmap: warning: \(warning)\n", file: file, line: line)
        XCTAssertTrue(r.wrote, file: file, line: line)
        let s = render(style, strict: true)
        XCTAssertEqual(s.code, 2, file: file, line: line)
        XCTAssertEqual(s.stderr, "glmap: \(stylePath): \(strictIssue) (--strict refuses what glmap would skip)\n", file: file, line: line)
        XCTAssertFalse(s.wrote, file: file, line: line)
    }

    func testRasterLayerOnAGeoJSONSourceDrawsNothingWithoutWarning() {
        // The spec allows it (maplibre-style-spec's validateLayer has no rule); GL JS finds no
        // picture on the tiles and draws nothing.
        let r = render(style(#"{"id": "r", "type": "raster", "source": "s"}"#), strict: true)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertTrue(r.wrote)
    }

    func testLayerAndSourceTypesMustMatchAsTheSpecSays() {
        assertError(style(#"{"id": "h", "type": "hillshade", "source": "s"}"#), #"layers[0].source: layer "h" requires a raster-dem source"#)
        assertError(style(#"{"id": "c", "type": "color-relief", "source": "s"}"#), #"layers[0].source: layer "c" requires a raster-dem source"#)
        let raster = #", "sat": {"type": "raster", "tiles": ["https://example.com/{z}/{x}/{y}.png"]}"#
        assertError(style(#"{"id": "f", "type": "fill", "source": "sat"}"#, sources: raster), #"layers[0].source: layer "f" requires a vector source"#)
        let dem = #", "dem": {"type": "raster-dem", "tiles": ["https://example.com/{z}/{x}/{y}.png"]}"#
        assertError(style(#"{"id": "r", "type": "raster", "source": "dem"}"#, sources: dem),
                    "layers[0].source: raster-dem source can only be used with layer type 'hillshade' or 'color-relief'.")
        let vector = #", "v": {"type": "vector", "tiles": ["https://example.com/{z}/{x}/{y}.pbf"]}"#
        assertError(style(#"{"id": "r", "type": "raster", "source": "v"}"#, sources: vector), #"layers[0].source: layer "r" requires a raster source"#)
    }

    func testHeatmapAndFillExtrusionLayersAreDrawn() {
        for layer in [#"{"id": "heat", "type": "heatmap", "source": "s"}"#,
                      #"{"id": "b", "type": "fill-extrusion", "source": "s", "paint": {"fill-extrusion-height": 10}}"#] {
            for strict in [false, true] {
                let r = render(style(layer), strict: strict)
                XCTAssertEqual(r.code, 0, r.stderr)
                XCTAssertEqual(r.stderr, "", "no warning: the layer is drawn")
                XCTAssertTrue(r.wrote)
            }
        }
    }

    func testUnusedRasterAndImageSourcesAreNeitherLoadedNorWarned() {
        // No layer uses them: nothing is fetched (the URLs would fail), nothing is said.
        let sources = #", "sat": {"type": "raster", "tiles": ["https://example.invalid/{z}/{x}/{y}.png"]}, "img": {"type": "image", "url": "missing.png", "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]}"#
        let r = render(style(#"{"id": "c", "type": "circle", "source": "s"}"#, sources: sources), strict: true)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertTrue(r.wrote)
    }

    func testVideoSourceIsSkippedWithItsLayers() {
        assertSkipped(style(#"{"id": "clip", "type": "raster", "source": "v"}, {"id": "c", "type": "circle", "source": "s"}"#,
                            sources: #", "v": {"type": "video", "urls": ["a.mp4"], "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]}"#),
                      warning: "source 'v': video sources are not drawn by glmap; skipped, with the layer 'clip' that uses it",
                      strictIssue: "sources.v: source 'v': video sources are not drawn by glmap, with the layer 'clip' that uses it")
    }

    func testAPatternNamingAMissingImageIsAWarning() {
        let s = style(#"{"id": "f", "type": "fill", "source": "s", "paint": {"fill-pattern": "stripes", "fill-color": "red"}}"#)
        let r = render(s)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "glmap: warning: image \"stripes\" is not in the style's sprite: patterns naming it are not drawn\n")
        XCTAssertTrue(r.wrote)
        let strict = render(s, strict: true)
        XCTAssertEqual(strict.code, 2)
        XCTAssertTrue(strict.stderr.contains("image \"stripes\" is not in the style's sprite"), strict.stderr)
        XCTAssertFalse(strict.wrote)
    }

    func testUnevaluatedOperatorIsSkipped() {
        assertSkipped(style(#"{"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": ["distance", {"type": "Point", "coordinates": [0, 0]}]}}"#),
                      warning: "layer 'c': circle-radius uses \"distance\", which glmap does not evaluate; the property is skipped (its default is drawn)",
                      strictIssue: "layers[0].paint.circle-radius: layer 'c': circle-radius uses \"distance\", which glmap does not evaluate")
    }

    func testFeatureStateIsEvaluatedWithoutWarning() {
        // `feature-state` reads the state set at run time (none here: the fallback is drawn), with no warning.
        let r = render(style(#"{"id": "c", "type": "circle", "source": "s", "paint": {"circle-color": ["case", ["boolean", ["feature-state", "hover"], false], "red", "blue"]}}"#))
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
    }

    func testFeatureStateInAFilterOrLayoutIsAnError() {
        let filter = render(style(#"{"id": "c", "type": "circle", "source": "s", "filter": ["==", ["feature-state", "hover"], true]}"#))
        XCTAssertEqual(filter.code, 2)
        XCTAssertTrue(filter.stderr.contains("layers[0].filter: \"feature-state\" data expressions are not supported with filters."), filter.stderr)
        let layout = render(style(#"{"id": "c", "type": "circle", "source": "s", "layout": {"circle-sort-key": ["feature-state", "rank"]}}"#))
        XCTAssertEqual(layout.code, 2)
        XCTAssertTrue(layout.stderr.contains("layers[0].layout.circle-sort-key: \"feature-state\" data expressions are not supported with layout properties."), layout.stderr)
    }

    func testManySkippedLayersOfOneKindAreOneWarning() {
        let layers = (1...9).map { #"{"id": "l\#($0)", "type": "raster", "source": "v"}"# }.joined(separator: ", ")
        let r = render(style(layers, sources: #", "v": {"type": "video", "urls": ["a.mp4"], "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]}"#))
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "glmap: warning: source 'v': video sources are not drawn by glmap; skipped, with the 9 layers that use it: 'l1', 'l2', 'l3', 'l4', 'l5', 'l6' and 3 more\n")
    }

    func testSkipWarningAndSpecErrorReadDifferently() {
        // A skipped layer next to a forbidden value: the render is refused with the error alone.
        let r = render(style(#"{"id": "clip", "type": "raster", "source": "v"}, {"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": "big"}}"#,
                             sources: #", "v": {"type": "video", "urls": ["a.mp4"], "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]}"#))
        XCTAssertEqual(r.code, 2)
        XCTAssertFalse(r.stderr.contains("warning"), r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("glmap: \(stylePath): layers[1].paint.circle-radius: "), r.stderr)
        XCTAssertFalse(r.wrote)
    }
}
