import XCTest
import GLMapCore
@testable import GLMapStyle

/// Every paint/layout property of background, fill, line and circle: its default, a valid value
/// that parses and evaluates, and an invalid value rejected with its JSON path.
final class StylePropertyTests: XCTestCase {
    func style(_ type: LayerType, section: String, name: String, value: JSONValue) -> JSONValue {
        var layer = JSONObject([("id", "l"), ("type", .string(type.rawValue))])
        if type != .background { layer["source"] = "s" }
        layer[section] = .object(JSONObject([(name, value)]))
        return .object(JSONObject([
            ("version", 8),
            ("sources", .object(JSONObject([("s", .object(JSONObject([("type", "geojson"), ("data", .object(JSONObject([("type", "FeatureCollection"), ("features", .array([]))])))])))]))),
            ("layers", .array([.object(layer)])),
        ]))
    }

    func evaluate(_ type: LayerType, _ prop: StyleProperty, _ value: JSONValue, zoom: Double = 5,
                  properties: JSONObject = JSONObject()) throws -> Value {
        let doc = try StyleDocument.parse(json: style(type, section: prop.isLayout ? "layout" : "paint", name: prop.name, value: value))
        let f = FeatureContext(id: nil, properties: properties, geometryType: "Point", geometry: nil)
        return StyleEvaluator(zoom: zoom).value(prop, in: doc.layers[0], feature: f)
    }

    /// (property, a valid value, what it evaluates to, an invalid value)
    typealias Row = (StyleProperty, JSONValue, Value, JSONValue)

    var rows: [(LayerType, [Row])] {
        let red = Value.color(Color(r: 1, g: 0, b: 0))
        return [
            (.background, [
                (BackgroundProperties.backgroundColor, "red", red, "not-a-colour"),
                (BackgroundProperties.backgroundOpacity, 0.5, .number(0.5), "half"),
                (BackgroundProperties.backgroundPattern, "stripes", .image("stripes"), ["zoom"]),
            ]),
            (.fill, [
                (FillProperties.fillSortKey, ["get", "rank"], .number(3), "high"),
                (FillProperties.fillAntialias, false, .boolean(false), "no"),
                (FillProperties.fillOpacity, ["interpolate", ["linear"], ["zoom"], 0, 0, 10, 1], .number(0.5), 2),
                (FillProperties.fillColor, ["get", "c"], .color(Color(r: 0, g: 0, b: 1)), 12),
                (FillProperties.fillOutlineColor, "#ff0000", red, true),
                (FillProperties.fillTranslate, [1, 2], .array([.number(1), .number(2)]), [1]),
                (FillProperties.fillTranslateAnchor, "viewport", .string("viewport"), 3),
                (FillProperties.fillPattern, ["get", "c"], .image("blue"), ["zoom"]),
            ]),
            (.line, [
                (LineProperties.lineCap, "round", .string("round"), 1),
                (LineProperties.lineJoin, "bevel", .string("bevel"), false),
                (LineProperties.lineMiterLimit, 3, .number(3), "x"),
                (LineProperties.lineRoundLimit, 1.5, .number(1.5), "x"),
                (LineProperties.lineSortKey, 4, .number(4), "x"),
                (LineProperties.lineOpacity, 0.25, .number(0.25), -1),
                (LineProperties.lineColor, "rgba(255,0,0,1)", red, 1),
                (LineProperties.lineTranslate, [3, -4], .array([.number(3), .number(-4)]), "x"),
                (LineProperties.lineTranslateAnchor, "map", .string("map"), 0),
                (LineProperties.lineWidth, ["*", 2, ["get", "rank"]], .number(6), "wide"),
                (LineProperties.lineGapWidth, 2, .number(2), -2),
                (LineProperties.lineOffset, -3, .number(-3), "x"),
                (LineProperties.lineBlur, 1, .number(1), -1),
                (LineProperties.lineDasharray, [2, 1], .array([.number(2), .number(1)]), "dashed"),
                (LineProperties.linePattern, "dots", .image("dots"), ["zoom"]),
                (LineProperties.lineGradient, ["interpolate", ["linear"], ["line-progress"], 0, "red", 1, "blue"], .null, "red-ish"),
            ]),
            (.circle, [
                (CircleProperties.circleSortKey, 1, .number(1), "x"),
                (CircleProperties.circleRadius, ["step", ["zoom"], 2, 4, 8], .number(8), "big"),
                (CircleProperties.circleColor, "red", red, 7),
                (CircleProperties.circleBlur, 0.5, .number(0.5), "x"),
                (CircleProperties.circleOpacity, 1, .number(1), 1.5),
                (CircleProperties.circleTranslate, [0, 1], .array([.number(0), .number(1)]), [0, 1, 2]),
                (CircleProperties.circleTranslateAnchor, "viewport", .string("viewport"), "screen"),
                (CircleProperties.circlePitchScale, "viewport", .string("viewport"), "x"),
                (CircleProperties.circlePitchAlignment, "map", .string("map"), "x"),
                (CircleProperties.circleStrokeWidth, 2, .number(2), -1),
                (CircleProperties.circleStrokeColor, "red", red, "x"),
                (CircleProperties.circleStrokeOpacity, 0.5, .number(0.5), 2),
            ]),
        ]
    }

    func testEveryPropertyHasARow() {
        for (type, list) in rows {
            let covered = Set(list.map(\.0.name)) .union(["visibility"])
            XCTAssertEqual(covered, Set(type.properties.map(\.name)), "\(type) rows cover its table")
        }
    }

    func testValidValuesParseAndEvaluate() throws {
        let props: JSONObject = JSONObject([("rank", 3), ("c", "blue")])
        for (type, list) in rows {
            for (prop, valid, expected, _) in list {
                let v = try evaluate(type, prop, valid, properties: props)
                if prop == LineProperties.lineGradient {
                    // line-gradient needs line-progress: evaluate it along the line instead.
                    let doc = try StyleDocument.parse(json: style(type, section: "paint", name: prop.name, value: valid))
                    let e = doc.layers[0].values[prop.name]!.expression
                    let mid = try e.evaluate(EvaluationContext(zoom: 5, lineProgress: 0.5)).color!
                    XCTAssertEqual(mid.a, 1, accuracy: 1e-9)
                    XCTAssertEqual(mid.r, 0.5, accuracy: 1e-9)
                    continue
                }
                XCTAssertEqual(v, expected, "\(prop.name) = \(valid.jsonText)")
            }
        }
    }

    func testInvalidValuesAreRejectedWithTheirPath() {
        for (type, list) in rows {
            for (prop, _, _, invalid) in list {
                let section = prop.isLayout ? "layout" : "paint"
                XCTAssertThrowsError(try StyleDocument.parse(json: style(type, section: section, name: prop.name, value: invalid)),
                                     "\(prop.name) = \(invalid.jsonText)") { e in
                    let text = "\(e)"
                    XCTAssertTrue(text.contains("layers[0].\(section).\(prop.name)"), "message names the path: \(text)")
                }
            }
        }
    }

    func testDefaultsFollowTheSpec() {
        let ev = StyleEvaluator(zoom: 0)
        func layer(_ t: LayerType) -> Layer {
            Layer(id: "x", type: t, source: "s", filter: nil, minzoom: 0, maxzoom: 24, isVisible: true, values: [:])
        }
        XCTAssertEqual(ev.value(BackgroundProperties.backgroundColor, in: layer(.background)), .color(.black))
        XCTAssertEqual(ev.value(BackgroundProperties.backgroundOpacity, in: layer(.background)), .number(1))
        XCTAssertEqual(ev.value(FillProperties.fillAntialias, in: layer(.fill)), .boolean(true))
        XCTAssertEqual(ev.value(FillProperties.fillTranslateAnchor, in: layer(.fill)), .string("map"))
        XCTAssertEqual(ev.value(LineProperties.lineWidth, in: layer(.line)), .number(1))
        XCTAssertEqual(ev.value(LineProperties.lineMiterLimit, in: layer(.line)), .number(2))
        XCTAssertEqual(ev.value(LineProperties.lineRoundLimit, in: layer(.line)), .number(1.05))
        XCTAssertEqual(ev.value(LineProperties.lineCap, in: layer(.line)), .string("butt"))
        XCTAssertEqual(ev.value(LineProperties.lineJoin, in: layer(.line)), .string("miter"))
        XCTAssertEqual(ev.value(CircleProperties.circleRadius, in: layer(.circle)), .number(5))
        XCTAssertEqual(ev.value(CircleProperties.circleStrokeWidth, in: layer(.circle)), .number(0))
        XCTAssertEqual(ev.value(CircleProperties.circlePitchAlignment, in: layer(.circle)), .string("viewport"))
        XCTAssertEqual(ev.value(CircleProperties.circlePitchScale, in: layer(.circle)), .string("map"))
    }

    func testDataDrivenOnlyWhereTheSpecAllows() {
        // background-color is data-constant: a feature lookup is rejected.
        XCTAssertThrowsError(try StyleDocument.parse(json: style(.background, section: "paint", name: "background-color", value: ["get", "c"])))
        // line-cap is data-constant as well.
        XCTAssertThrowsError(try StyleDocument.parse(json: style(.line, section: "layout", name: "line-cap", value: ["get", "cap"])))
        // circle-radius is data-driven.
        XCTAssertNoThrow(try StyleDocument.parse(json: style(.circle, section: "paint", name: "circle-radius", value: ["get", "r"])))
    }

    func testLayerZoomRangeAndVisibility() throws {
        var json = style(.fill, section: "layout", name: "visibility", value: "none")
        let doc = try StyleDocument.parse(json: json)
        XCTAssertFalse(doc.layers[0].isDrawn(atZoom: 3))
        json = style(.fill, section: "paint", name: "fill-color", value: "red")
        guard case .object(var root) = json, case .array(var layers)? = root["layers"], case .object(var l) = layers[0] else { return XCTFail() }
        l["minzoom"] = 2; l["maxzoom"] = 5
        layers[0] = .object(l); root["layers"] = .array(layers)
        let ranged = try StyleDocument.parse(json: .object(root))
        XCTAssertFalse(ranged.layers[0].isDrawn(atZoom: 1.9))
        XCTAssertTrue(ranged.layers[0].isDrawn(atZoom: 2))
        XCTAssertTrue(ranged.layers[0].isDrawn(atZoom: 4.99))
        XCTAssertFalse(ranged.layers[0].isDrawn(atZoom: 5))
    }

    func testEveryProblemIsListed() {
        let json = try! JSONParser.parse("""
        {"version": 7, "sources": {"a": {"type": "vectr"}, "b": {"type": "geojson"}},
         "layers": [
           {"id": "x", "type": "symbl", "source": "a"},
           {"id": "y", "type": "line", "source": "missing", "paint": {"line-width": "wide", "line-colour": "red"}},
           {"id": "y", "type": "fill", "source": "b", "layout": {"fill-color": "red"}}
         ]}
        """)
        XCTAssertThrowsError(try StyleDocument.parse(json: json)) { e in
            let issues = (e as! StyleError).issues.map(\.description)
            for needle in ["version: expected 8", "sources.a.type: unknown source type \"vectr\" (the style spec's source types are vector, raster, raster-dem, geojson, video, image) (did you mean \"vector\"?)", "sources.b.data: missing",
                           "layers[0].type: unknown layer type \"symbl\" (the style spec's layer types are fill, line, symbol, circle, heatmap, fill-extrusion, raster, hillshade, color-relief, background) (did you mean \"symbol\"?)", "layers[1].source: source \"missing\" not found",
                           "layers[1].paint.line-width", "layers[1].paint.line-colour: unknown property",
                           "layers[2].layout.fill-color: \"fill-color\" is a paint property", "layers[2].id: duplicate layer id"] {
                XCTAssertTrue(issues.contains { $0.hasPrefix(needle) }, "missing \(needle) in \(issues)")
            }
        }
    }

    /// Validation never traps, whatever JSON value sits in whatever position of a style.
    func testValidationNeverCrashesOnAnyValueInAnyPosition() throws {
        let template = try JSONParser.parse("""
        {"version": 8, "center": [0, 0], "zoom": 1, "bearing": 0, "pitch": 0, "state": {"k": {"default": 1}},
         "sources": {"s": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}, "maxzoom": 10, "lineMetrics": true}},
         "layers": [
           {"id": "b", "type": "background", "paint": {"background-color": "red", "background-opacity": 1}},
           {"id": "f", "type": "fill", "source": "s", "filter": ["==", "$type", "Polygon"], "minzoom": 0, "maxzoom": 24,
            "layout": {"visibility": "visible", "fill-sort-key": 1},
            "paint": {"fill-color": ["get", "c"], "fill-translate": [1, 1], "fill-opacity": ["interpolate", ["linear"], ["zoom"], 0, 0, 1, 1]}},
           {"id": "l", "type": "line", "source": "s", "layout": {"line-cap": "round"}, "paint": {"line-dasharray": [1, 2], "line-width": 2}},
           {"id": "c", "type": "circle", "source": "s", "paint": {"circle-radius": ["case", ["has", "r"], ["get", "r"], 3]}}
         ]}
        """)
        let substitutes: [JSONValue] = [nil, true, false, 0, -1, 1e308, -1e308, 0.5, "", "x", "red", [], [nil], [1, 2, 3],
                                        ["get"], ["literal"], ["zoom"], ["interpolate"], ["==", 1], .object(JSONObject()),
                                        .object(JSONObject([("type", "x")])), .array([.array([.array([.array([])])])])]
        var positions = 0
        func visit(_ v: JSONValue, _ rebuild: (JSONValue) -> JSONValue) {
            positions += 1
            for s in substitutes {
                _ = try? StyleDocument.parse(json: rebuild(s))   // must return or throw, never trap
            }
            switch v {
            case .array(let a):
                for i in a.indices {
                    visit(a[i]) { nv in var c = a; c[i] = nv; return rebuild(.array(c)) }
                }
            case .object(let o):
                for k in o.keys {
                    visit(o[k]!) { nv in var c = o; c[k] = nv; return rebuild(.object(c)) }
                }
            default: break
            }
        }
        visit(template) { $0 }
        XCTAssertGreaterThan(positions, 80)
    }
}
