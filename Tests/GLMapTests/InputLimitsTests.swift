import Foundation
import XCTest
@testable import GLMap
import GLMapCore
import GLMapGeoJSON
import GLMapStyle
import GLMapReference

/// Every input limit (`InputLimits`) and the MapLibre-compatible handling of odd but valid
/// geometry, each with its exact message.
final class InputLimitsTests: XCTestCase {
    var tmp: URL!

    override func setUp() { tmp = makeTempDir() }
    override func tearDown() { try? FileManager.default.removeItem(at: tmp) }

    func write(_ name: String, _ text: String) -> String {
        let p = tmp.appendingPathComponent(name).path
        FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }

    /// The description of the error `body` throws (nil when it throws none).
    func message(_ body: () throws -> Any) -> String? {
        do { _ = try body(); return nil } catch { return "\(error)" }
    }

    func styleError(_ text: String, _ limits: InputLimits = .default) -> String? {
        message { try Scene.parseStyle(Array(text.utf8), file: "s.json", limits: limits) }
    }

    func geoJSONError(_ text: String, _ limits: InputLimits = .default) -> String? {
        message { try GeoJSONDecoder.decode(Array(text.utf8), file: "x.geojson", limits: limits) }
    }

    func treeError(_ text: String, _ limits: InputLimits = .default) -> String? {
        message { try GeoJSONDecoder.decode(try JSONParser.parse(text), path: "sources.s.data", limits: limits) }
    }

    /// A style with one GeoJSON source `s` (inline `data` JSON text, or a file path) and the given layers.
    func style(data: String, layers: String) -> String {
        #"{"version":8,"sources":{"s":{"type":"geojson","data":"# + data + #"}},"layers":["# + layers + "]}"
    }

    // MARK: Defaults

    func testDefaults() {
        let d = InputLimits.default
        XCTAssertEqual(d.maxStyleFileBytes, 64 << 20)
        XCTAssertEqual(d.maxGeoJSONFileBytes, 512 << 20)
        XCTAssertEqual(d.maxStringBytes, 8 << 20)
        XCTAssertEqual(d.maxFeaturesPerSource, 2_000_000)
        XCTAssertEqual(d.maxPositionsPerSource, 20_000_000)
        XCTAssertEqual(d.maxNestingDepth, 512)
        XCTAssertEqual(JSONParser.defaultMaxDepth, 512)
    }

    // MARK: Nesting depth

    func testNestingDepthInStyle() {
        let limits = InputLimits(maxNestingDepth: 3)
        XCTAssertEqual(styleError(#"{"version":8,"sources":{},"layers":[[[1]]]}"#, limits),
                       "s.json: invalid JSON at 1:38: nesting deeper than 3 levels (limit InputLimits.maxNestingDepth)")
        XCTAssertNil(styleError(#"{"version":8,"sources":{},"layers":[]}"#, limits))
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        XCTAssertEqual(styleError(#"{"version":8,"sources":{},"layers":[],"x":"# + deep + "}"),
                       "s.json: invalid JSON at 1:554: nesting deeper than 512 levels (limit InputLimits.maxNestingDepth)")
    }

    func testNestingDepthInGeoJSON() {
        let limits = InputLimits(maxNestingDepth: 4)
        let text = #"{"type":"GeometryCollection","geometries":[{"type":"MultiPoint","coordinates":[[1,2]]}]}"#
        XCTAssertEqual(geoJSONError(text, limits),
                       "x.geojson:1:80: geometries[0].coordinates[0]: nesting deeper than 4 levels (limit InputLimits.maxNestingDepth)")
        XCTAssertNil(geoJSONError(text, InputLimits(maxNestingDepth: 5)))
        // Inline data was parsed with the same limit; the tree decoder checks its own object depth.
        XCTAssertEqual(treeError(#"{"type":"GeometryCollection","geometries":[{"type":"GeometryCollection","geometries":[]}]}"#,
                                 InputLimits(maxNestingDepth: 1)),
                       "sources.s.data.geometries[0]: nesting deeper than 1 levels (limit InputLimits.maxNestingDepth)")
    }

    // MARK: String length

    func testStringLengthInStyle() {
        let limits = InputLimits(maxStringBytes: 7)
        XCTAssertEqual(styleError(#"{"version":8,"sources":{},"layers":[],"name":"abcdefgh"}"#, limits),
                       "s.json: invalid JSON at 1:46: string longer than 7 bytes (limit InputLimits.maxStringBytes)")
        // Escapes count as written; exactly at the limit is fine.
        XCTAssertEqual(styleError(#"{"version":8,"sources":{},"layers":[],"name":"ab\ncdef"}"#, limits),
                       "s.json: invalid JSON at 1:46: string longer than 7 bytes (limit InputLimits.maxStringBytes)")
        XCTAssertNil(styleError(#"{"version":8,"sources":{},"layers":[],"name":"abcdefg"}"#, limits))
    }

    func testStringLengthInGeoJSON() {
        let limits = InputLimits(maxStringBytes: 12)  // "coordinates" has 11
        // A property value, a key, a skipped foreign member and `type` itself.
        XCTAssertEqual(geoJSONError(#"{"type":"Feature","geometry":null,"properties":{"a":"0123456789ABC"}}"#, limits),
                       "x.geojson:1:53: properties: string longer than 12 bytes (limit InputLimits.maxStringBytes)")
        XCTAssertEqual(geoJSONError(#"{"type":"Point","coordinates":[1,2],"0123456789ABC":1}"#, limits),
                       "x.geojson:1:37: string longer than 12 bytes (limit InputLimits.maxStringBytes)")
        XCTAssertEqual(geoJSONError(#"{"type":"Point","coordinates":[1,2],"bbox":"0123456789ABC"}"#, limits),
                       "x.geojson:1:44: bbox: string longer than 12 bytes (limit InputLimits.maxStringBytes)")
        XCTAssertEqual(geoJSONError(#"{"type":"FeatureCollection","features":[]}"#, limits),
                       "x.geojson:1:9: type: string longer than 12 bytes (limit InputLimits.maxStringBytes)")
        XCTAssertNil(geoJSONError(#"{"type":"Feature","geometry":null,"properties":{"a":"0123456789AB"}}"#, limits))
    }

    // MARK: File sizes

    func testStyleFileSize() {
        let text = #"{"version":8,"sources":{},"layers":[]}"#
        let path = write("style.json", text)
        XCTAssertEqual(message { try Scene(styleFile: path, limits: InputLimits(maxStyleFileBytes: 20)) },
                       "\(path): file is 38 bytes, more than 20 bytes (limit InputLimits.maxStyleFileBytes)")
        XCTAssertNil(message { try Scene(styleFile: path, limits: InputLimits(maxStyleFileBytes: 38)) })
        // Bytes that did not come from a file (standard input) are checked by count.
        XCTAssertEqual(message { try Scene.parseStyle(Array(text.utf8), file: nil, limits: InputLimits(maxStyleFileBytes: 20)) },
                       "style: file is 38 bytes, more than 20 bytes (limit InputLimits.maxStyleFileBytes)")
    }

    func testGeoJSONFileSizeIsASourceWarningOrStrictError() throws {
        let data = write("points.geojson", #"{"type":"Point","coordinates":[1,2]}"#)  // 36 bytes
        let stylePath = write("style.json", style(data: #""points.geojson""#,
                                                  layers: #"{"id":"c","type":"circle","source":"s"}"#))
        let limits = InputLimits(maxGeoJSONFileBytes: 35)
        let expected = "source \"s\": \(data): file is 36 bytes, more than 35 bytes (limit InputLimits.maxGeoJSONFileBytes)"
        let scene = try Scene(styleFile: stylePath, limits: limits)
        XCTAssertEqual(scene.warnings.map(\.description), [expected])
        XCTAssertEqual(scene.sourceBounds["s"]?.isEmpty, true, "the source is empty")
        XCTAssertEqual(message { try Scene(styleFile: stylePath, strict: true, limits: limits) }, expected)
        XCTAssertEqual(try Scene(styleFile: stylePath, limits: InputLimits(maxGeoJSONFileBytes: 36)).sourceBounds["s"]?.isEmpty, false)
    }

    // MARK: Feature and position counts

    func testFeatureCount() throws {
        let limits = InputLimits(maxFeaturesPerSource: 2)
        let f = #"{"type":"Feature","geometry":null,"properties":{}}"#
        let three = #"{"type":"FeatureCollection","features":["# + [f, f, f].joined(separator: ",") + "]}"
        XCTAssertEqual(geoJSONError(three, limits),
                       "x.geojson:1:143: features[2]: more than 2 features in one source (limit InputLimits.maxFeaturesPerSource)")
        XCTAssertEqual(treeError(three, limits),
                       "sources.s.data.features[2]: more than 2 features in one source (limit InputLimits.maxFeaturesPerSource)")
        // `features` before `type` is decoded speculatively; the limit is still reported once `type` is known.
        let typeLast = #"{"features":["# + [f, f, f].joined(separator: ",") + #"],"type":"FeatureCollection"}"#
        XCTAssertEqual(geoJSONError(typeLast, limits),
                       "x.geojson:1:116: features[2]: more than 2 features in one source (limit InputLimits.maxFeaturesPerSource)")
        let two = #"{"type":"FeatureCollection","features":["# + [f, f].joined(separator: ",") + "]}"
        XCTAssertEqual(try GeoJSONDecoder.decode(Array(two.utf8), limits: limits).features.count, 2)
        XCTAssertEqual(try GeoJSONDecoder.decode(JSONParser.parse(two), path: "", limits: limits).features.count, 2)
    }

    func testPositionCount() throws {
        let limits = InputLimits(maxPositionsPerSource: 5)
        let polygon = #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]],[[0.2,0.2],[0.3,0.2],[0.2,0.3],[0.2,0.2]]]}"#
        XCTAssertEqual(geoJSONError(polygon, limits),
                       "x.geojson:1:71: coordinates[1][1]: more than 5 positions in one source (limit InputLimits.maxPositionsPerSource)")
        XCTAssertEqual(treeError(polygon, limits),
                       "sources.s.data.coordinates[1][1]: more than 5 positions in one source (limit InputLimits.maxPositionsPerSource)")
        // Counted across features, Points included.
        let points = #"{"type":"FeatureCollection","features":["#
            + (0..<6).map { #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#($0),0]},"properties":null}"# }
                .joined(separator: ",") + "]}"
        XCTAssertEqual(geoJSONError(points, limits),
                       "x.geojson:1:525: features[5].geometry.coordinates: more than 5 positions in one source (limit InputLimits.maxPositionsPerSource)")
        XCTAssertEqual(treeError(points, limits),
                       "sources.s.data.features[5].geometry.coordinates: more than 5 positions in one source (limit InputLimits.maxPositionsPerSource)")
        // Long runs (the fast path) stop exactly at the limit.
        let line = { (n: Int) in #"{"type":"LineString","coordinates":["# + (0..<n).map { "[\($0).5,1.25]" }.joined(separator: ",") + "]}" }
        let big = InputLimits(maxPositionsPerSource: 3000)
        XCTAssertEqual(try GeoJSONDecoder.decode(Array(line(3000).utf8), limits: big).vertexCount, 3000)
        XCTAssertEqual(geoJSONError(line(3001), big),
                       "x.geojson:1:40927: coordinates[3000]: more than 3000 positions in one source (limit InputLimits.maxPositionsPerSource)")
        // Coordinates read before `type` with the wrong guess, and foreign members read before
        // `type`, are not counted twice or at all.
        let typeLast = #"{"coordinates":[[0,0],[1,0],[1,1]],"geometries":[{"type":"Point","coordinates":[5,5]}],"type":"MultiPoint"}"#
        XCTAssertEqual(try GeoJSONDecoder.decode(Array(typeLast.utf8), limits: InputLimits(maxPositionsPerSource: 3)).vertexCount, 3)
        let twice = #"{"type":"LineString","coordinates":[[0,0],[1,0],[1,1]],"coordinates":[[0,0],[1,0],[1,1]]}"#
        XCTAssertEqual(try GeoJSONDecoder.decode(Array(twice.utf8), limits: InputLimits(maxPositionsPerSource: 3)).vertexCount, 3)
    }

    func testCountLimitsAreSourceWarnings() throws {
        let data = #"{"type":"MultiPoint","coordinates":[[0,0],[1,1],[2,2]]}"#
        let text = style(data: data, layers: #"{"id":"c","type":"circle","source":"s"}"#)
        let path = write("style.json", text)
        let limits = InputLimits(maxPositionsPerSource: 2)
        let expected = "source \"s\": invalid GeoJSON: sources.s.data.coordinates[2]: more than 2 positions in one source (limit InputLimits.maxPositionsPerSource)"
        XCTAssertEqual(try Scene(styleFile: path, limits: limits).warnings.map(\.description), [expected])
        XCTAssertEqual(message { try Scene(styleFile: path, strict: true, limits: limits) }, expected)
    }

    // MARK: NaN, Infinity and numbers that overflow

    func testNonFiniteTokensInGeoJSON() {
        XCTAssertEqual(geoJSONError(#"{"type":"Point","coordinates":[NaN,1]}"#),
                       "x.geojson:1:32: coordinates[0]: expected a number, found 'N'")
        XCTAssertEqual(geoJSONError(#"{"type":"Point","coordinates":[1,Infinity]}"#),
                       "x.geojson:1:34: coordinates[1]: expected a number, found 'I'")
        XCTAssertEqual(geoJSONError(#"{"type":"Point","coordinates":[-Infinity,1]}"#),
                       "x.geojson:1:33: coordinates[0]: expected a digit in number, found 'I'")
        XCTAssertEqual(geoJSONError(#"{"type":"Point","coordinates":[1e999,1]}"#),
                       "x.geojson:1:32: coordinates[0]: number 1e999 is out of range (it overflows a double to infinity)")
        XCTAssertEqual(geoJSONError(#"{"type":"Feature","geometry":null,"properties":{"a":-1e400}}"#),
                       "x.geojson:1:53: properties: number -1e400 is out of range (it overflows a double to infinity)")
    }

    func testNonFiniteTokensInStyle() {
        XCTAssertEqual(styleError(#"{"version":8,"zoom":NaN,"sources":{},"layers":[]}"#),
                       "s.json: invalid JSON at 1:21: expected a JSON value, found 'N'")
        XCTAssertEqual(styleError(#"{"version":8,"zoom":Infinity,"sources":{},"layers":[]}"#),
                       "s.json: invalid JSON at 1:21: expected a JSON value, found 'I'")
        XCTAssertEqual(styleError(#"{"version":8,"zoom":-Infinity,"sources":{},"layers":[]}"#),
                       "s.json: invalid JSON at 1:22: expected a digit in number, found 'I'")
        XCTAssertEqual(styleError(#"{"version":8,"zoom":1e999,"sources":{},"layers":[]}"#),
                       "s.json: invalid JSON at 1:21: number 1e999 is out of range (it overflows a double to infinity)")
    }

    // MARK: Geometry MapLibre accepts and draws (or skips) without an error

    /// Renders `layers` over source `s` with `data` on the CPU (64 × 64, zoom 5 at 0,0).
    func render(data: String, layers: String) throws -> (scene: Scene, image: PremultipliedImage) {
        let scene = try Scene(style: Scene.parseStyle(Array(style(data: data, layers: layers).utf8), file: nil), strict: true)
        let image = try MapRenderer(backend: .cpu).render(scene, options: RenderOptions(width: 64, height: 64, longitude: 0, latitude: 0, zoom: 5))
        return (scene, image)
    }

    /// How many pixels have any coverage.
    func coveredPixels(_ image: PremultipliedImage) -> Int {
        stride(from: 3, to: image.pixels.count, by: 4).filter { image.pixels[$0] != 0 }.count
    }

    let fillLayer = ##"{"id":"f","type":"fill","source":"s","paint":{"fill-color":"#f00","fill-antialias":false}}"##
    let lineLayer = #"{"id":"l","type":"line","source":"s","paint":{"line-width":2}}"#
    let circleLayer = #"{"id":"c","type":"circle","source":"s","paint":{"circle-radius":2}}"#

    func testEmptyCollectionsDrawNothing() throws {
        for data in [#"{"type":"FeatureCollection","features":[]}"#,
                     #"{"type":"GeometryCollection","geometries":[]}"#,
                     #"{"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[]},"properties":{}}"#,
                     #"{"type":"Polygon","coordinates":[]}"#, #"{"type":"MultiPolygon","coordinates":[]}"#,
                     #"{"type":"LineString","coordinates":[]}"#, #"{"type":"MultiPoint","coordinates":[]}"#] {
            let r = try render(data: data, layers: [fillLayer, lineLayer, circleLayer].joined(separator: ","))
            XCTAssertEqual(r.scene.warnings.count, 0, data)
            XCTAssertEqual(coveredPixels(r.image), 0, data)
        }
    }

    func testUnclosedRingFillsLikeTheClosedRing() throws {
        // RFC 7946 requires closed rings; MapLibre (earcut, geojson-vt) fills an unclosed one as if closed.
        let unclosed = #"{"type":"Polygon","coordinates":[[[-0.1,-0.1],[0.1,-0.1],[0.1,0.1],[-0.1,0.1]]]}"#
        let closed = #"{"type":"Polygon","coordinates":[[[-0.1,-0.1],[0.1,-0.1],[0.1,0.1],[-0.1,0.1],[-0.1,-0.1]]]}"#
        XCTAssertEqual(try GeoJSONDecoder.decode(Array(unclosed.utf8)).vertexCount, 4, "kept as given")
        let a = try render(data: unclosed, layers: fillLayer).image, b = try render(data: closed, layers: fillLayer).image
        XCTAssertGreaterThan(coveredPixels(a), 50)
        XCTAssertLessThan(coveredPixels(a), 200)
        XCTAssertEqual(a.pixels, b.pixels)
    }

    func testRingsWithFewerThanFourPositionsFillNothing() throws {
        // Accepted (no error, as in MapLibre), but a ring without area is not filled.
        for ring in ["[[-0.1,-0.1],[0.1,0.1],[-0.1,-0.1]]", "[[-0.1,-0.1],[0.1,0.1]]", "[[-0.1,-0.1]]", "[]"] {
            let data = #"{"type":"Polygon","coordinates":["# + ring + "]}"
            let r = try render(data: data, layers: fillLayer)
            XCTAssertEqual(r.scene.warnings.count, 0, ring)
            XCTAssertEqual(coveredPixels(r.image), 0, ring)
        }
        // Three distinct positions without the closing repeat: earcut fills the triangle, as MapLibre does.
        let open = try render(data: #"{"type":"Polygon","coordinates":[[[-0.1,-0.1],[0.1,-0.1],[0.1,0.1]]]}"#, layers: fillLayer)
        let closed = try render(data: #"{"type":"Polygon","coordinates":[[[-0.1,-0.1],[0.1,-0.1],[0.1,0.1],[-0.1,-0.1]]]}"#, layers: fillLayer)
        XCTAssertGreaterThan(coveredPixels(open.image), 20)
        XCTAssertEqual(open.image.pixels, closed.image.pixels)
    }

    func testWrongGeometryForALayerType() throws {
        let point = #"{"type":"Point","coordinates":[0,0]}"#
        let polygon = #"{"type":"Polygon","coordinates":[[[-0.1,-0.1],[0.1,-0.1],[0.1,0.1],[-0.1,0.1],[-0.1,-0.1]]]}"#
        // Points under fill and line layers are ignored (MapLibre: no area / fewer than 2 vertices).
        XCTAssertEqual(coveredPixels(try render(data: point, layers: fillLayer).image), 0)
        XCTAssertEqual(coveredPixels(try render(data: point, layers: lineLayer).image), 0)
        // A circle layer draws one circle per polygon vertex (the closing repeat included, as in MapLibre).
        let view = ViewTransform(camera: Camera(longitude: 0, latitude: 0, zoom: 5), width: 64, height: 64)
        let scene = try render(data: polygon, layers: circleLayer).scene
        guard case .tiled(let circleTiles)? = scene.referenceFrame(view: view).first else { return XCTFail("no circle layer") }
        let centres = circleTiles.reduce(0) { n, t in
            guard case .circle(let c) = t else { return n }
            return n + c.features.reduce(0) { $0 + $1.centers.count / 2 }
        }
        XCTAssertEqual(centres, 5, "each vertex drawn by the one tile that holds it")
        // A line layer strokes the polygon's rings as closed lines.
        guard case .tiled(let lineTiles)? = try render(data: polygon, layers: lineLayer).scene.referenceFrame(view: view).first,
              case .line(let lines)? = lineTiles.first else {
            return XCTFail("no line layer")
        }
        XCTAssertEqual(lines.features.first?.parts.map(\.closed), [true])
        XCTAssertGreaterThan(coveredPixels(try render(data: polygon, layers: lineLayer).image), 50)
    }
}
