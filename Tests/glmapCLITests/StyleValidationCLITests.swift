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

    func testUnknownLayerKeyIsAnError() {
        assertError(style(#"{"id": "c", "type": "circle", "source": "s", "minzom": 3}"#),
                    #"layers[0].minzom: unknown layer property "minzom" (did you mean "minzoom"?)"#)
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

    func testSymbolLayerIsSkipped() {
        assertSkipped(style(#"{"id": "labels", "type": "symbol", "source": "s", "layout": {"text-field": "x"}}"#),
                      warning: "layer 'labels': symbol layers are not drawn by glmap; skipped",
                      strictIssue: "layers[0]: layer 'labels': symbol layers are not drawn by glmap")
    }

    func testRasterLayerIsSkipped() {
        assertSkipped(style(#"{"id": "r", "type": "raster", "source": "s"}"#),
                      warning: "layer 'r': raster layers are not drawn by glmap; skipped",
                      strictIssue: "layers[0]: layer 'r': raster layers are not drawn by glmap")
    }

    func testHillshadeLayerIsSkipped() {
        assertSkipped(style(#"{"id": "h", "type": "hillshade", "source": "s"}"#),
                      warning: "layer 'h': hillshade layers are not drawn by glmap; skipped",
                      strictIssue: "layers[0]: layer 'h': hillshade layers are not drawn by glmap")
    }

    func testHeatmapLayerIsSkipped() {
        assertSkipped(style(#"{"id": "heat", "type": "heatmap", "source": "s"}"#),
                      warning: "layer 'heat': heatmap layers are not drawn by glmap; skipped",
                      strictIssue: "layers[0]: layer 'heat': heatmap layers are not drawn by glmap")
    }

    func testFillExtrusionLayerIsSkipped() {
        assertSkipped(style(#"{"id": "b", "type": "fill-extrusion", "source": "s", "paint": {"fill-extrusion-height": 10}}"#),
                      warning: "layer 'b': fill-extrusion layers are not drawn by glmap; skipped",
                      strictIssue: "layers[0]: layer 'b': fill-extrusion layers are not drawn by glmap")
    }

    func testVideoSourceIsSkippedWithItsLayers() {
        assertSkipped(style(#"{"id": "clip", "type": "raster", "source": "v"}, {"id": "c", "type": "circle", "source": "s"}"#,
                            sources: #", "v": {"type": "video", "urls": ["a.mp4"], "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]}"#),
                      warning: "source 'v': video sources are not drawn by glmap; skipped, with the layer 'clip' that uses it",
                      strictIssue: "sources.v: source 'v': video sources are not drawn by glmap, with the layer 'clip' that uses it")
    }

    func testPatternPropertyIsSkipped() {
        assertSkipped(style(#"{"id": "f", "type": "fill", "source": "s", "paint": {"fill-pattern": "stripes", "fill-color": "red"}}"#),
                      warning: "layer 'f': fill-pattern (image patterns) is not drawn by glmap; the property is skipped",
                      strictIssue: "layers[0].paint.fill-pattern: layer 'f': fill-pattern (image patterns) is not drawn by glmap")
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
        let layers = (1...9).map { #"{"id": "l\#($0)", "type": "symbol", "source": "s"}"# }.joined(separator: ", ")
        let r = render(style(layers))
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "glmap: warning: layers 'l1', 'l2', 'l3', 'l4', 'l5', 'l6' and 3 more: symbol layers are not drawn by glmap; skipped\n")
    }

    func testSkipWarningAndSpecErrorReadDifferently() {
        // A skipped layer next to a forbidden value: the render is refused with the error alone.
        let r = render(style(#"{"id": "labels", "type": "symbol", "source": "s"}, {"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": "big"}}"#))
        XCTAssertEqual(r.code, 2)
        XCTAssertFalse(r.stderr.contains("warning"), r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("glmap: \(stylePath): layers[1].paint.circle-radius: "), r.stderr)
        XCTAssertFalse(r.wrote)
    }
}
