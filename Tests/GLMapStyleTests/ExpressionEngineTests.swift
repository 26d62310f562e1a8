import XCTest
import GLMapCore
import GLMapGeoJSON
@testable import GLMapStyle

/// Unit checks beyond the upstream fixtures: operators glmap adds (`within`, `global-state`, `error`),
/// colour rules, legacy function details, the public API surface.
final class ExpressionEngineTests: XCTestCase {
    func compile(_ text: String, _ spec: PropertySpec? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> StyleExpression {
        switch StyleExpression.compile(try JSONParser.parse(text), spec: spec) {
        case .success(let e): return e
        case .failure(let e):
            XCTFail("\(text): \(e)", file: file, line: line)
            throw e
        }
    }

    func compileError(_ text: String, _ spec: PropertySpec? = nil) throws -> ExpressionErrors? {
        if case .failure(let e) = StyleExpression.compile(try JSONParser.parse(text), spec: spec) { return e }
        return nil
    }

    func testShortCircuitWithError() throws {
        // `all`/`any` stop at the first decisive argument, so `error` is never reached.
        let all = try compile(#"["all", ["get", "x"], ["error", "boom"]]"#)
        XCTAssertEqual(try all.evaluate(EvaluationContext(feature: FeatureContext(properties: JSONObject([("x", false)])))), .boolean(false))
        XCTAssertThrowsError(try all.evaluate(EvaluationContext(feature: FeatureContext(properties: JSONObject([("x", true)])))))
        let any = try compile(#"["any", ["get", "x"], ["error", "boom"]]"#)
        XCTAssertEqual(try any.evaluate(EvaluationContext(feature: FeatureContext(properties: JSONObject([("x", true)])))), .boolean(true))
        // `error` is never folded, so a constant use only fails when evaluated.
        let e = try compile(#"["case", ["has", "x"], 1, ["error", "missing x"]]"#)
        XCTAssertThrowsError(try e.evaluate(EvaluationContext(feature: FeatureContext()))) { error in
            XCTAssertEqual((error as? ExpressionEvaluationError)?.message, "missing x")
        }
    }

    func testGlobalState() throws {
        let e = try compile(#"["coalesce", ["global-state", "mode"], "day"]"#)
        XCTAssertFalse(e.isFeatureConstant == false)
        XCTAssertNil(e.constantValue, "global-state must not fold")
        XCTAssertEqual(try e.evaluate(EvaluationContext()), .string("day"))
        XCTAssertEqual(try e.evaluate(EvaluationContext(globalState: JSONObject([("mode", "night")]))), .string("night"))
        XCTAssertNotNil(try compileError(#"["global-state", 1]"#))
    }

    func testWithin() throws {
        let square = #"{"type": "Polygon", "coordinates": [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]]}"#
        let e = try compile(#"["within", "# + square + "]")
        XCTAssertFalse(e.isFeatureConstant)
        func eval(_ g: Geometry) throws -> Value { try e.evaluate(EvaluationContext(feature: FeatureContext(geometry: g))) }
        XCTAssertEqual(try eval(.point(Position(5, 5))), .boolean(true))
        XCTAssertEqual(try eval(.point(Position(15, 5))), .boolean(false))
        XCTAssertEqual(try eval(.point(Position(0, 5))), .boolean(false), "on the boundary is outside")
        XCTAssertEqual(try eval(.multiPoint([Position(1, 1), Position(9, 9)])), .boolean(true))
        XCTAssertEqual(try eval(.multiPoint([Position(1, 1), Position(11, 9)])), .boolean(false))
        XCTAssertEqual(try eval(.lineString([Position(1, 1), Position(9, 9)])), .boolean(true))
        XCTAssertEqual(try eval(.lineString([Position(1, 1), Position(12, 9)])), .boolean(false))
        XCTAssertEqual(try eval(.polygon([[Position(1, 1), Position(2, 1), Position(2, 2), Position(1, 1)]])), .boolean(false),
                       "polygons are never within")
        // A line whose ends are inside a concave region but which crosses out of it.
        let u = #"{"type": "Polygon", "coordinates": [[[0, 0], [10, 0], [10, 10], [6, 10], [6, 2], [4, 2], [4, 10], [0, 10], [0, 0]]]}"#
        let e2 = try compile(#"["within", "# + u + "]")
        XCTAssertEqual(try e2.evaluate(EvaluationContext(feature: FeatureContext(geometry: .lineString([Position(2, 8), Position(8, 8)])))),
                       .boolean(false))
        XCTAssertNotNil(try compileError(#"["within", {"type": "Point", "coordinates": [0, 0]}]"#))
        let filter = try FeatureFilter.compile(JSONParser.parse(#"["within", "# + square + "]")).get()
        XCTAssertTrue(filter.needsGeometry)
    }

    func testColourRules() throws {
        // Interpolation keeps the hue of a fully transparent stop.
        let e = try compile(##"["interpolate", ["linear"], ["get", "t"], 0, "#0000ff00", 1, "red"]"##, PropertySpec(type: .color))
        guard case .color(let c) = try e.evaluate(EvaluationContext(feature: FeatureContext(properties: JSONObject([("t", 0.5)])))) else {
            return XCTFail("not a colour")
        }
        XCTAssertEqual(c.a, 0.5, accuracy: 1e-12)
        XCTAssertEqual(c.r, 0.25, accuracy: 1e-12)  // premultiplied 0.5 × 0.5
        XCTAssertEqual(c.b, 0.25, accuracy: 1e-12)
        let rgba = try compile(##"["to-rgba", "#0000ff00"]"##)
        XCTAssertEqual(rgba.constantValue, .array([.number(0), .number(0), .number(255), .number(0)]))
        let s = try compile(#"["to-string", ["rgba", 10, 20, 30, 0.25]]"#)
        XCTAssertEqual(s.constantValue, .string("rgba(10,20,30,0.25)"))
        // A bad constant colour is a compile error, a bad data colour an evaluation error.
        XCTAssertNotNil(try compileError(#""notacolor""#, PropertySpec(type: .color)))
        let dataColour = try compile(#"["get", "c"]"#, PropertySpec(type: .color))
        XCTAssertThrowsError(try dataColour.evaluate(EvaluationContext(feature: FeatureContext(properties: JSONObject([("c", "nope")])))))
    }

    func testPropertyPermissions() throws {
        let constantOnly = PropertySpec(type: .number, kind: .dataConstant, zoomAllowed: false, interpolated: true)
        XCTAssertNotNil(try compileError(#"["get", "x"]"#, constantOnly))
        XCTAssertNotNil(try compileError(#"["interpolate", ["linear"], ["zoom"], 0, 1, 10, 2]"#, constantOnly))
        let stepOnly = PropertySpec(type: .number, kind: .dataConstant, interpolated: false)
        XCTAssertNotNil(try compileError(#"["interpolate", ["linear"], ["zoom"], 0, 1, 10, 2]"#, stepOnly))
        let step = try compile(#"["step", ["zoom"], 1, 10, 2]"#, stepOnly)
        XCTAssertEqual(step.zoomStops, [-.infinity, 10])
        XCTAssertFalse(step.zoomCurveInterpolates)
        XCTAssertEqual(try step.evaluate(EvaluationContext(zoom: 12)), .number(2))
        XCTAssertThrowsError(try step.evaluate(EvaluationContext()), "zoom-dependent without a zoom")
        XCTAssertNotNil(try compileError(#"["line-progress"]"#, PropertySpec(type: .number)))
        let gradient = try compile(#"["interpolate", ["linear"], ["line-progress"], 0, "red", 1, "blue"]"#,
                                   PropertySpec(type: .color, kind: .colorRamp, zoomAllowed: false, lineProgressAllowed: true))
        XCTAssertFalse(gradient.isLineProgressConstant)
        guard case .color(let mid) = try gradient.evaluate(EvaluationContext(lineProgress: 0.5)) else { return XCTFail() }
        XCTAssertEqual(mid.r, 0.5, accuracy: 1e-12)
    }

    func testLegacyFunctions() throws {
        let tokens = PropertySpec(type: .string, kind: .dataDriven, interpolated: false, tokens: true)
        let zoomTokens = try compile(#"{"stops": [[0, "{name} road"], [10, "{ref}"]]}"#, tokens)
        let feature = FeatureContext(properties: JSONObject([("name", "Main"), ("ref", 7)]))
        XCTAssertEqual(try zoomTokens.evaluate(EvaluationContext(zoom: 5, feature: feature)), .string("Main road"))
        XCTAssertEqual(try zoomTokens.evaluate(EvaluationContext(zoom: 11, feature: feature)), .string("7"))
        XCTAssertEqual(LegacyFunction.tokenString("a {b} {c}d"), ["concat", "a ", ["get", "b"], " ", ["get", "c"], "d"])
        XCTAssertEqual(LegacyFunction.tokenString("{x}"), ["to-string", ["get", "x"]])
        XCTAssertEqual(LegacyFunction.tokenString("{}{"), "{}{")

        let width = PropertySpec(type: .number)
        let exp = try compile(#"{"base": 2, "stops": [[10, 1], [12, 9]]}"#, width)
        XCTAssertEqual(try exp.evaluate(EvaluationContext(zoom: 11)).number!, 1 + 8 * (2.0 - 1) / (4 - 1), accuracy: 1e-12)
        XCTAssertTrue(exp.zoomCurveInterpolates)
        let categorical = try compile(#"{"type": "categorical", "property": "k", "stops": [[true, 1], [false, 2]], "default": 3}"#, width)
        XCTAssertEqual(try categorical.evaluate(EvaluationContext(feature: FeatureContext(properties: JSONObject([("k", false)])))), .number(2))
        XCTAssertEqual(try categorical.evaluate(EvaluationContext(feature: FeatureContext())), .number(3))
    }

    func testStringConversions() throws {
        XCTAssertEqual(try compile(#"["to-string", 1e21]"#).constantValue, .string("1e+21"))
        XCTAssertEqual(try compile(#"["to-string", 123456789012345680000]"#).constantValue, .string("123456789012345680000"))
        XCTAssertEqual(try compile(#"["to-string", 0.1]"#).constantValue, .string("0.1"))
        XCTAssertEqual(try compile(#"["to-number", " 0x1A "]"#).constantValue, .number(26))
        XCTAssertEqual(try compile(#"["to-number", ""]"#).constantValue, .number(0))
        XCTAssertNotNil(try compileError(#"["to-number", "1e"]"#))
        XCTAssertEqual(try compile(#"["length", "a😀b"]"#).constantValue, .number(3))
        XCTAssertEqual(try compile(#"["slice", "a😀bc", 1, -1]"#).constantValue, .string("😀b"))
        XCTAssertEqual(try compile(#"["index-of", "b", "a😀b"]"#).constantValue, .number(2))
        XCTAssertEqual(try compile(#"["round", -2.5]"#).constantValue, .number(-3))
        XCTAssertEqual(try compile(#"["round", 2.5]"#).constantValue, .number(3))
    }
}
