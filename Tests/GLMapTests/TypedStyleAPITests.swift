import Foundation
import XCTest
import GLMapCore
import GLMapStyle
@testable import GLMap
@testable import GLMapCLI

/// The typed style API against glmap's property tables: every table row has a typed property named
/// by its lowerCamelCase spec name; every property set through the typed API encodes to the expected
/// style JSON and evaluates (in the renderer's StyleEvaluator) to the value set; invalid values give
/// the messages `glmap render` prints for the same style.
final class TypedStyleAPITests: XCTestCase {
    // MARK: Coverage of the property tables

    /// The typed layer type of a layer type.
    static func layerType(_ type: LayerType) -> any GLMap.Layer.Type {
        switch type {   // no default: a new layer type must get its typed layer here
        case .background: return BackgroundLayer.self
        case .fill: return FillLayer.self
        case .line: return LineLayer.self
        case .circle: return CircleLayer.self
        case .symbol: return SymbolLayer.self
        case .heatmap: return HeatmapLayer.self
        case .fillExtrusion: return FillExtrusionLayer.self
        case .raster: return RasterLayer.self
        case .hillshade: return HillshadeLayer.self
        case .colorRelief: return ColorReliefLayer.self
        }
    }

    static func lowerCamelCase(_ specName: String) -> String {
        let parts = specName.split(separator: "-")
        return String(parts[0]) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A value of the row's type (what decoding into the typed property must accept).
    static func sample(_ type: PropertyType) -> JSONValue {
        switch type {
        case .number: return 1
        case .boolean: return true
        case .string: return "x"
        case .color: return "red"
        case .enum(let values): return .string(values.last!)
        case .array(let item, let length): return .array(Array(repeating: sample(item), count: length ?? 1))
        case .value: return 1
        case .formatted, .resolvedImage: return "x"
        case .padding, .numberArray: return [1, 2]
        case .colorArray: return ["red", "blue"]
        case .variableAnchorOffsetCollection: return ["top", [0, 1]]
        }
    }

    func testEveryTableRowIsATypedPropertyTakingItsSpecType() throws {
        for type in LayerType.allCases {
            let typed = Self.layerType(type)
            XCTAssertEqual(typed.init(id: "x").type, type)
            XCTAssertEqual(typed.propertyTable.map(\.name), type.properties.map(\.name), "\(type): the typed layer's rows are the table's")
            for row in type.properties {
                // The row's value type has a typed-API type, which takes a value of the spec type
                // and writes it back as given.
                let sample = Self.sample(row.spec.type)
                let typedRow = try XCTUnwrap(row as? any TypedRow, "\(row.name): \(Swift.type(of: row)) has no typed-API type")
                XCTAssertEqual(typedRow.accepted(sample), sample, "\(type) \(row.name) must take a \(row.spec.type)")
                XCTAssertNil(typedRow.accepted(["stops": [[0, 1]]]), "\(row.name): a legacy function is not a typed value")
            }
        }
    }

    func testTypedPropertiesAreTheTableRowsByName() {
        var fill = FillLayer(id: "f", source: "s")
        fill.fillColor = .constant(StyleColor(.red))
        fill.fillSortKey = .expression(Exp(.get) { "rank" })
        XCTAssertEqual(fill.styleValues, ["fill-color": "rgba(255, 0, 0, 1)", "fill-sort-key": ["get", "rank"]])
        XCTAssertEqual(fill.fillColor, .constant(StyleColor(.red)))
        XCTAssertNil(fill.fillOpacity)
        fill.fillColor = nil
        XCTAssertEqual(Array(fill.styleValues.keys), ["fill-sort-key"])
        let symbol = SymbolLayer(id: "t").symbolPlacement(.line).textSize(12).iconSize(Exp(.zoom))
        XCTAssertEqual(symbol.symbolPlacement, .constant(.line))
        XCTAssertEqual(symbol.styleJSON, #"{"id":"t","type":"symbol","layout":{"symbol-placement":"line","icon-size":["zoom"],"text-size":12}}"#)
        // A background layer has no source, source layer or filter: they are not written.
        var background = BackgroundLayer(id: "b", source: "s")
        background.filter = Exp(.has) { "x" }
        XCTAssertEqual(background.styleJSON, #"{"id":"b","type":"background"}"#)
    }

    func testOperatorConstantsCoverEveryOperatorGlmapEvaluates() {
        let glmap = StyleExpression.operators.union(StyleExpression.interpolationTypes)
            .union(StyleExpression.legacyFilterOperators)
        XCTAssertEqual(Set(Exp.Operator.allCases.map(\.rawValue)), glmap)
    }

    // MARK: Every property, set through the typed API

    /// Adds `layer` to a snapshotter with a source, then returns its JSON and the parsed layer as
    /// the renderer sees it.
    func roundTrip(_ layer: any GLMap.Layer, lineMetrics: Bool = false) throws -> (json: String, parsed: GLMapStyle.Layer) {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 8, height: 8)))
        var source = GeoJSONSource(id: "s")
        source.data = .empty
        source.lineMetrics = lineMetrics
        try s.addSource(source)
        try s.addLayer(layer)
        let doc = try StyleDocument.parse(Array(s.styleJSON.utf8))
        return (layer.styleJSON, doc.layers[0])
    }

    func evaluate(_ p: StyleProperty, _ layer: GLMapStyle.Layer, zoom: Double = 10) -> GLMapStyle.Value {
        StyleEvaluator(zoom: zoom).value(p, in: layer)
    }

    /// Every row of the table appears in the encoded layer (the test sets every property).
    func assertAllSet(_ json: String, _ type: LayerType, file: StaticString = #filePath, line: UInt = #line) throws {
        let o = try JSONParser.parse(json)
        var names = Set<String>()
        for group in ["layout", "paint"] { for (k, _) in o[group]?.objectValue?.pairs ?? [] { names.insert(k) } }
        XCTAssertEqual(names, Set(type.properties.map(\.name)), "every property of \(type) set", file: file, line: line)
    }

    func color(_ css: String) -> GLMapStyle.Value { .color(CSSColorParser.parse(css)!) }

    func testBackgroundLayerEveryProperty() throws {
        var l = BackgroundLayer(id: "b")
        l.minZoom = 2
        l.maxZoom = 20
        l.visibility = .constant(.none)
        l.backgroundColor = .constant(StyleColor(red: 10, green: 20, blue: 30, alpha: 0.5)!)
        l.backgroundOpacity = .constant(0.25)
        l.backgroundPattern = .constant("stripes")
        let (json, parsed) = try roundTrip(l)
        XCTAssertEqual(json, #"{"id":"b","type":"background","minzoom":2,"maxzoom":20,"layout":{"visibility":"none"},"paint":{"background-color":"rgba(10, 20, 30, 0.5)","background-pattern":"stripes","background-opacity":0.25}}"#)
        try assertAllSet(json, .background)
        XCTAssertFalse(parsed.isVisible)
        XCTAssertEqual(parsed.minzoom, 2)
        XCTAssertEqual(parsed.maxzoom, 20)
        XCTAssertEqual(evaluate(BackgroundProperties.backgroundColor, parsed), .color(Color(r: 10 / 255, g: 20 / 255, b: 30 / 255, a: 0.5)))
        XCTAssertEqual(evaluate(BackgroundProperties.backgroundOpacity, parsed), .number(0.25))
        XCTAssertEqual(evaluate(BackgroundProperties.backgroundPattern, parsed), .image("stripes"))
    }

    func testFillLayerEveryProperty() throws {
        var l = FillLayer(id: "f", source: "s")
        l.filter = Exp(.eq) { "$type"; "Polygon" }
        l.visibility = .constant(.visible)
        l.fillSortKey = .constant(3)
        l.fillAntialias = .constant(false)
        l.fillOpacity = .constant(0.5)
        l.fillColor = .constant(StyleColor(red: 68, green: 105, blue: 247, alpha: 1)!)
        l.fillOutlineColor = .constant(StyleColor("#00ff00")!)
        l.fillTranslate = .constant([1, 2])
        l.fillTranslateAnchor = .constant(.viewport)
        l.fillPattern = .constant("stripes")
        let (json, parsed) = try roundTrip(l)
        XCTAssertEqual(json, ##"{"id":"f","type":"fill","source":"s","filter":["==","$type","Polygon"],"layout":{"visibility":"visible","fill-sort-key":3},"paint":{"fill-antialias":false,"fill-opacity":0.5,"fill-color":"rgba(68, 105, 247, 1)","fill-outline-color":"#00ff00","fill-translate":[1,2],"fill-translate-anchor":"viewport","fill-pattern":"stripes"}}"##)
        try assertAllSet(json, .fill)
        XCTAssertTrue(parsed.isVisible)
        XCTAssertNotNil(parsed.filter)
        XCTAssertEqual(evaluate(FillProperties.fillSortKey, parsed), .number(3))
        XCTAssertEqual(evaluate(FillProperties.fillAntialias, parsed), .boolean(false))
        XCTAssertEqual(evaluate(FillProperties.fillOpacity, parsed), .number(0.5))
        XCTAssertEqual(evaluate(FillProperties.fillColor, parsed), color("rgba(68, 105, 247, 1)"))
        XCTAssertEqual(evaluate(FillProperties.fillOutlineColor, parsed), color("#00ff00"))
        XCTAssertEqual(evaluate(FillProperties.fillTranslate, parsed), .array([.number(1), .number(2)]))
        XCTAssertEqual(evaluate(FillProperties.fillTranslateAnchor, parsed), .string("viewport"))
        XCTAssertEqual(evaluate(FillProperties.fillPattern, parsed), .image("stripes"))
    }

    func testLineLayerEveryProperty() throws {
        var l = LineLayer(id: "l", source: "s")
        l.filter = Exp(.eq) { "$type"; "LineString" }
        l.visibility = .constant(.visible)
        l.lineCap = .constant(.round)
        l.lineJoin = .constant(.bevel)
        l.lineMiterLimit = .constant(3)
        l.lineRoundLimit = .constant(1.5)
        l.lineSortKey = .constant(2)
        l.lineOpacity = .constant(0.8)
        l.lineColor = .constant(StyleColor(.blue))
        l.lineTranslate = .constant([3, 4])
        l.lineTranslateAnchor = .constant(.viewport)
        l.lineWidth = .expression(Exp(.interpolate) { Exp(.linear); Exp(.zoom); [5: 1, 15: 11] })
        l.lineGapWidth = .constant(1)
        l.lineOffset = .constant(-2)
        l.lineBlur = .constant(0.5)
        l.lineDasharray = .constant([2, 1])
        l.linePattern = .constant("dots")
        l.lineGradient = .expression(Exp(.interpolate) { Exp(.linear); Exp(.lineProgress); 0; StyleColor(.red); 1; StyleColor(.blue) })
        let (json, parsed) = try roundTrip(l, lineMetrics: true)
        XCTAssertEqual(json, #"{"id":"l","type":"line","source":"s","filter":["==","$type","LineString"],"layout":{"visibility":"visible","line-cap":"round","line-join":"bevel","line-miter-limit":3,"line-round-limit":1.5,"line-sort-key":2},"paint":{"line-opacity":0.8,"line-color":"rgba(0, 0, 255, 1)","line-translate":[3,4],"line-translate-anchor":"viewport","line-width":["interpolate",["linear"],["zoom"],5,1,15,11],"line-gap-width":1,"line-offset":-2,"line-blur":0.5,"line-dasharray":[2,1],"line-pattern":"dots","line-gradient":["interpolate",["linear"],["line-progress"],0,"rgba(255, 0, 0, 1)",1,"rgba(0, 0, 255, 1)"]}}"#)
        try assertAllSet(json, .line)
        XCTAssertEqual(evaluate(LineProperties.lineCap, parsed), .string("round"))
        XCTAssertEqual(evaluate(LineProperties.lineJoin, parsed), .string("bevel"))
        XCTAssertEqual(evaluate(LineProperties.lineMiterLimit, parsed), .number(3))
        XCTAssertEqual(evaluate(LineProperties.lineRoundLimit, parsed), .number(1.5))
        XCTAssertEqual(evaluate(LineProperties.lineSortKey, parsed), .number(2))
        XCTAssertEqual(evaluate(LineProperties.lineOpacity, parsed), .number(0.8))
        XCTAssertEqual(evaluate(LineProperties.lineColor, parsed), color("blue"))
        XCTAssertEqual(evaluate(LineProperties.lineTranslate, parsed), .array([.number(3), .number(4)]))
        XCTAssertEqual(evaluate(LineProperties.lineTranslateAnchor, parsed), .string("viewport"))
        XCTAssertEqual(evaluate(LineProperties.lineWidth, parsed, zoom: 10), .number(6))
        XCTAssertEqual(evaluate(LineProperties.lineWidth, parsed, zoom: 15), .number(11))
        XCTAssertEqual(evaluate(LineProperties.lineGapWidth, parsed), .number(1))
        XCTAssertEqual(evaluate(LineProperties.lineOffset, parsed), .number(-2))
        XCTAssertEqual(evaluate(LineProperties.lineBlur, parsed), .number(0.5))
        XCTAssertEqual(evaluate(LineProperties.lineDasharray, parsed), .array([.number(2), .number(1)]))
        XCTAssertEqual(evaluate(LineProperties.linePattern, parsed), .image("dots"))
        let gradient = try XCTUnwrap(parsed.values["line-gradient"]).expression
        XCTAssertEqual(try gradient.evaluate(EvaluationContext(zoom: 10, lineProgress: 0)), color("red"))
        XCTAssertEqual(try gradient.evaluate(EvaluationContext(zoom: 10, lineProgress: 1)), color("blue"))
    }

    func testCircleLayerEveryProperty() throws {
        var l = CircleLayer(id: "c", source: "s")
        l.filter = Exp(.eq) { "$type"; "Point" }
        l.minZoom = 1
        l.visibility = .constant(.visible)
        l.circleSortKey = .constant(1)
        l.circleRadius = .expression(Exp(.coalesce) { Exp(.get) { "r" }; 7 })
        l.circleColor = .expression(Exp(.match) { Exp(.get) { "kind" }; ["a", "b"]; StyleColor(.red); StyleColor(.black) })
        l.circleBlur = .constant(0.25)
        l.circleOpacity = .constant(0.75)
        l.circleTranslate = .constant([5, 6])
        l.circleTranslateAnchor = .constant(.viewport)
        l.circlePitchScale = .constant(.viewport)
        l.circlePitchAlignment = .constant(.map)
        l.circleStrokeWidth = .constant(1.5)
        l.circleStrokeColor = .constant(StyleColor("rgba(0, 0, 0, 0.5)")!)
        l.circleStrokeOpacity = .constant(0.5)
        let (json, parsed) = try roundTrip(l)
        XCTAssertEqual(json, #"{"id":"c","type":"circle","source":"s","filter":["==","$type","Point"],"minzoom":1,"layout":{"visibility":"visible","circle-sort-key":1},"paint":{"circle-radius":["coalesce",["get","r"],7],"circle-color":["match",["get","kind"],["a","b"],"rgba(255, 0, 0, 1)","rgba(0, 0, 0, 1)"],"circle-blur":0.25,"circle-opacity":0.75,"circle-translate":[5,6],"circle-translate-anchor":"viewport","circle-pitch-scale":"viewport","circle-pitch-alignment":"map","circle-stroke-width":1.5,"circle-stroke-color":"rgba(0, 0, 0, 0.5)","circle-stroke-opacity":0.5}}"#)
        try assertAllSet(json, .circle)
        let kindB = FeatureContext(properties: JSONObject([("kind", "b"), ("r", 3)]))
        let other = FeatureContext(properties: JSONObject([("kind", "z")]))
        let ev = StyleEvaluator(zoom: 10)
        XCTAssertEqual(evaluate(CircleProperties.circleSortKey, parsed), .number(1))
        XCTAssertEqual(ev.value(CircleProperties.circleRadius, in: parsed, feature: kindB), .number(3))
        XCTAssertEqual(ev.value(CircleProperties.circleRadius, in: parsed, feature: other), .number(7))
        XCTAssertEqual(ev.value(CircleProperties.circleColor, in: parsed, feature: kindB), color("red"))
        XCTAssertEqual(ev.value(CircleProperties.circleColor, in: parsed, feature: other), color("black"))
        XCTAssertEqual(evaluate(CircleProperties.circleBlur, parsed), .number(0.25))
        XCTAssertEqual(evaluate(CircleProperties.circleOpacity, parsed), .number(0.75))
        XCTAssertEqual(evaluate(CircleProperties.circleTranslate, parsed), .array([.number(5), .number(6)]))
        XCTAssertEqual(evaluate(CircleProperties.circleTranslateAnchor, parsed), .string("viewport"))
        XCTAssertEqual(evaluate(CircleProperties.circlePitchScale, parsed), .string("viewport"))
        XCTAssertEqual(evaluate(CircleProperties.circlePitchAlignment, parsed), .string("map"))
        XCTAssertEqual(evaluate(CircleProperties.circleStrokeWidth, parsed), .number(1.5))
        XCTAssertEqual(evaluate(CircleProperties.circleStrokeColor, parsed), color("rgba(0, 0, 0, 0.5)"))
        XCTAssertEqual(evaluate(CircleProperties.circleStrokeOpacity, parsed), .number(0.5))
    }

    func testChainingFormEncodesAsThePropertyForm() {
        var set = FillLayer(id: "f", source: "s")
        set.fillColor = .constant(StyleColor(.red))
        set.fillOpacity = .constant(0.3)
        set.filter = Exp(.eq) { "$type"; "Polygon" }
        let chained = FillLayer(id: "f", source: "s").fillColor(StyleColor(.red)).fillOpacity(0.3)
            .filter(Exp(.eq) { "$type"; "Polygon" })
        XCTAssertEqual(chained.styleJSON, set.styleJSON)
        let line = LineLayer(id: "l", source: "s").lineWidth(Exp(.get) { "w" }).lineCap(.round).visibility(.none)
        XCTAssertEqual(line.styleJSON, #"{"id":"l","type":"line","source":"s","layout":{"visibility":"none","line-cap":"round"},"paint":{"line-width":["get","w"]}}"#)
    }

    func testUpdateLayerReadsBackEveryTypedProperty() throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 8, height: 8)))
        var source = GeoJSONSource(id: "s")
        source.data = .empty
        try s.addSource(source)
        var l = CircleLayer(id: "c", source: "s")
        l.circleRadius = .expression(Exp(.get) { "r" })
        l.circlePitchAlignment = .constant(.map)
        l.circleTranslate = .constant([1, 2])
        try s.addLayer(l)
        XCTAssertEqual(try s.layer(withId: "c", type: CircleLayer.self), l)
        try s.updateLayer(withId: "c", type: CircleLayer.self) { $0.circleOpacity = .constant(0.5) }
        var expected = l
        expected.circleOpacity = .constant(0.5)
        XCTAssertEqual(try s.layer(withId: "c", type: CircleLayer.self), expected)
        XCTAssertThrowsError(try s.layer(withId: "c", type: FillLayer.self))
    }

    // MARK: Invalid values: the CLI's messages

    /// Adds `layer` (over a source "s") and checks that the thrown StyleError's issues are the ones
    /// `glmap render` prints for the same style written to a file.
    func assertSameErrorAsCLI(_ layer: any GLMap.Layer, expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 8, height: 8)))
        var source = GeoJSONSource(id: "s")
        source.data = .empty
        try s.addSource(source)
        let before = s.styleJSON
        var thrown: StyleError?
        do { try s.addLayer(layer) } catch { thrown = error }   // typed: addLayer throws StyleError
        let error = try XCTUnwrap(thrown, "addLayer must throw a StyleError", file: file, line: line)
        XCTAssertEqual(s.styleJSON, before, "a failed addLayer leaves the style as it was", file: file, line: line)
        XCTAssertEqual(error.issues.map(\.description), [expected], file: file, line: line)
        // The same style through the CLI.
        var o = try JSONParser.parse(before).objectValue!
        o["layers"] = .array([.object(layer.styleJSONObject)])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-typed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let style = dir.appendingPathComponent("style.json").path
        FileManager.default.createFile(atPath: style, contents: Data(JSONValue.object(o).jsonText.utf8))
        var err = ""
        let io = CommandIO(readStdin: { [] }, writeStdout: { _ in }, writeStderr: { err += $0 })
        let code = GLMapCommand.run(["render", "-s", style, "-o", dir.appendingPathComponent("out.png").path], io: io)
        XCTAssertEqual(code, 2, file: file, line: line)
        XCTAssertEqual(err, "glmap: \(style): \(expected)\n", file: file, line: line)
    }

    func testOpacityAboveMaximumGivesTheCLIMessage() throws {
        try assertSameErrorAsCLI(FillLayer(id: "f", source: "s").fillOpacity(2),
                                 expected: "layers[0].paint.fill-opacity: 2 is greater than the maximum value 1")
    }

    func testNegativeRadiusGivesTheCLIMessage() throws {
        try assertSameErrorAsCLI(CircleLayer(id: "c", source: "s").circleRadius(-1),
                                 expected: "layers[0].paint.circle-radius: -1 is less than the minimum value 0")
    }

    func testMistypedExpressionGivesTheCLIMessage() throws {
        try assertSameErrorAsCLI(LineLayer(id: "l", source: "s").lineWidth(Exp(.concat) { "a"; "b" }),
                                 expected: "layers[0].paint.line-width: Expected number but found string instead.")
    }

    func testUnknownSourceGivesTheCLIMessage() throws {
        try assertSameErrorAsCLI(LineLayer(id: "l", source: "nowhere"),
                                 expected: "layers[0].source: source \"nowhere\" not found")
    }

    func testDataDrivenValueOnAConstantPropertyGivesTheCLIMessage() throws {
        try assertSameErrorAsCLI(FillLayer(id: "f", source: "s").fillTranslateAnchor(Exp(.get) { "a" }),
                                 expected: "layers[0].paint.fill-translate-anchor: data expressions not supported")
    }
}
