import XCTest
import GLMapCore
import GLMapGeoJSON
@testable import GLMapStyle

/// Table-driven checks of legacy filters (MapLibre semantics: strict comparisons, missing property
/// matches nothing, `$type` folds Multi* types) and of the legacy/expression detection rule.
final class LegacyFilterTests: XCTestCase {
    /// Features the tables refer to by name.
    static let features: [String: FeatureContext] = [
        "a1": FeatureContext(id: 1, properties: JSONObject([("a", 1), ("s", "x"), ("b", true), ("n", nil)]), geometryType: "Point"),
        "a2": FeatureContext(id: "two", properties: JSONObject([("a", 2), ("s", "y"), ("b", false)]), geometryType: "MultiPolygon"),
        "aStr": FeatureContext(properties: JSONObject([("a", "1")]), geometryType: "LineString"),
        "empty": FeatureContext(properties: JSONObject(), geometryType: "Polygon"),
    ]

    /// (filter JSON, feature name, expected result)
    static let table: [(String, String, Bool)] = [
        // ==, != on properties: strict types, missing property never equal
        (#"["==", "a", 1]"#, "a1", true),
        (#"["==", "a", 1]"#, "a2", false),
        (#"["==", "a", 1]"#, "aStr", false),
        (#"["==", "a", "1"]"#, "aStr", true),
        (#"["==", "a", 1]"#, "empty", false),
        (#"["!=", "a", 1]"#, "empty", true),
        (#"["!=", "a", 1]"#, "a2", true),
        (#"["!=", "a", 1]"#, "a1", false),
        (#"["==", "n", null]"#, "a1", true),
        (#"["==", "n", null]"#, "empty", false),
        (#"["!=", "n", null]"#, "empty", true),
        (#"["==", "b", true]"#, "a1", true),
        (#"["==", "b", true]"#, "a2", false),
        // ordering: same JS type required
        (#"["<", "a", 2]"#, "a1", true),
        (#"["<", "a", 2]"#, "a2", false),
        (#"["<=", "a", 2]"#, "a2", true),
        (#"[">", "a", 1]"#, "a2", true),
        (#"[">=", "a", 1]"#, "a1", true),
        (#"["<", "a", 2]"#, "aStr", false),
        (#"["<", "a", "2"]"#, "aStr", true),
        (#"["<", "s", "y"]"#, "a1", true),
        (#"[">", "s", "x"]"#, "a2", true),
        (#"["<", "a", 5]"#, "empty", false),
        (#"[">=", "a", 5]"#, "empty", false),
        (#"["<", "b", true]"#, "a2", true),
        // $type (Multi* folds) and $id
        (#"["==", "$type", "Point"]"#, "a1", true),
        (#"["==", "$type", "Polygon"]"#, "a2", true),
        (#"["!=", "$type", "Polygon"]"#, "a2", false),
        (#"["==", "$type", "LineString"]"#, "aStr", true),
        (#"["==", "$id", 1]"#, "a1", true),
        (#"["==", "$id", "two"]"#, "a2", true),
        (#"["==", "$id", 1]"#, "a2", false),
        (#"["==", "$id", null]"#, "empty", true),
        (#"[">", "$id", 0]"#, "a1", true),
        (#"[">", "$id", 0]"#, "a2", false),
        // in / !in
        (#"["in", "a", 1, 2, 3]"#, "a1", true),
        (#"["in", "a", 2, 3]"#, "a1", false),
        (#"["in", "a", "1", 2]"#, "a1", false),
        (#"["in", "a", "1", 2]"#, "aStr", true),
        (#"["in", "a", 1]"#, "empty", false),
        (#"["in", "a"]"#, "a1", false),
        (#"["!in", "a", 1, 2]"#, "a1", false),
        (#"["!in", "a", 1, 2]"#, "empty", true),
        (#"["!in", "a"]"#, "a1", true),
        (#"["in", "$type", "Point", "LineString"]"#, "a1", true),
        (#"["in", "$type", "Point", "LineString"]"#, "a2", false),
        (#"["in", "$type", "Polygon"]"#, "a2", true),
        (#"["!in", "$type", "Polygon"]"#, "empty", false),
        (#"["in", "$id", 1, "two"]"#, "a2", true),
        (#"["in", "$id", 1, "two"]"#, "empty", false),
        // has / !has
        (#"["!has", "a"]"#, "empty", true),
        (#"["!has", "a"]"#, "a1", false),
        (#"["!has", "n"]"#, "a1", false),
        (#"["has", "$id"]"#, "a1", true),
        (#"["has", "$id"]"#, "empty", false),
        (#"["!has", "$id"]"#, "empty", true),
        (#"["has", "$type"]"#, "empty", true),
        (#"["!has", "$type"]"#, "a1", false),
        // combinators
        (#"["none"]"#, "a1", true),
        (#"["all", ["==", "a", 1], ["==", "s", "x"]]"#, "a1", true),
        (#"["all", ["==", "a", 1], ["==", "s", "y"]]"#, "a1", false),
        (#"["any", ["==", "a", 5], ["==", "s", "x"]]"#, "a1", true),
        (#"["any", ["==", "a", 5], ["==", "s", "z"]]"#, "a1", false),
        (#"["none", ["==", "a", 5], ["==", "s", "z"]]"#, "a1", true),
        (#"["none", ["==", "a", 1], ["==", "s", "z"]]"#, "a1", false),
        (#"["any", [">", "a", 5], ["!has", "a"]]"#, "empty", true),
        (#"["all", ["==", "$type", "Polygon"], ["!in", "a", 1]]"#, "a2", true),
        (#"["all", ["==", "a", 1], true]"#, "a1", true),
    ]

    func testLegacyFilterTable() throws {
        XCTAssertGreaterThan(Self.table.count, 60)
        for (filterText, featureName, expected) in Self.table {
            let json = try JSONParser.parse(filterText)
            XCTAssertFalse(FeatureFilter.isExpressionFilter(json), "\(filterText) should be a legacy filter")
            let filter: FeatureFilter
            switch FeatureFilter.compile(json) {
            case .success(let f): filter = f
            case .failure(let e): XCTFail("\(filterText): \(e)"); continue
            }
            let context = EvaluationContext(zoom: 10, feature: Self.features[featureName]!)
            XCTAssertEqual(filter.evaluate(context), expected, "\(filterText) on \(featureName)")
        }
    }

    func testDetectionRule() throws {
        let expressions = [
            #"["==", ["get", "a"], 1]"#, #"["has", "a"]"#, #"["in", ["get", "a"], ["literal", [1]]]"#,
            #"["in", "a", ["literal", ["a"]]]"#, #"["all", ["==", ["get", "a"], 1]]"#, "true", #"["all"]"#,
            #"["!", ["has", "a"]]"#, #"["==", "a"]"#, #"["any", true, false]"#,
        ]
        let legacy = [
            #"["==", "a", 1]"#, #"["has", "$id"]"#, #"["!has", "a"]"#, #"["in", "a", 1]"#, #"["!in", "a", 1]"#,
            #"["all", ["==", "a", 1]]"#, #"["any", ["==", "a", 1], true]"#, #"["none", ["==", "a", 1]]"#,
        ]
        for text in expressions {
            XCTAssertTrue(FeatureFilter.isExpressionFilter(try JSONParser.parse(text)), text)
        }
        for text in legacy {
            XCTAssertFalse(FeatureFilter.isExpressionFilter(try JSONParser.parse(text)), text)
        }
    }

    func testExpressionFilters() throws {
        let a1 = EvaluationContext(zoom: 10, feature: Self.features["a1"]!)
        let empty = EvaluationContext(zoom: 10, feature: Self.features["empty"]!)
        func check(_ text: String, _ ctx: EvaluationContext, _ expected: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
            switch FeatureFilter.compile(try JSONParser.parse(text)) {
            case .success(let f): XCTAssertEqual(f.evaluate(ctx), expected, text, file: file, line: line)
            case .failure(let e): XCTFail("\(text): \(e)", file: file, line: line)
            }
        }
        try check(#"["==", ["get", "a"], 1]"#, a1, true)
        try check(#"[">", ["get", "a"], 0]"#, a1, true)
        // An evaluation error (ordering null against a number) makes the filter false.
        try check(#"[">", ["get", "a"], 0]"#, empty, false)
        try check(#"["!", [">", ["get", "a"], 0]]"#, empty, false)
        try check(#"["==", ["geometry-type"], "Point"]"#, a1, true)
        try check(#"["<", ["zoom"], 11]"#, a1, true)
        try check(#"["<", ["zoom"], 9]"#, a1, false)
        try check("false", a1, false)
        try check(#"["all"]"#, a1, true)
        try check(#"["any"]"#, a1, false)
        try check(#"["none", ["==", ["get", "a"], 1]]"#, a1, false)
        try check(#"["none", ["==", ["get", "a"], 2]]"#, a1, true)
        // A non-boolean result is an error for a filter (compile time: the type must be boolean).
        if case .success = FeatureFilter.compile(try JSONParser.parse(#"["+", 1, 2]"#)) { XCTFail("number filter compiled") }
        // ["has", key] reads the same in both syntaxes: beside legacy siblings the filter is legacy
        // (MapLibre: any/all is an expression only when every child is one).
        try check(#"["any", ["has", "a"], ["==", "b", "z"]]"#, a1, true)
        try check(#"["all", ["has", "a"], ["!=", "b", "z"]]"#, a1, true)
        try check(#"["all", ["has", "a"], ["==", "b", "z"]]"#, a1, false)
        try check(#"["none", ["has", "a"]]"#, a1, false)
        XCTAssertFalse(FeatureFilter.isExpressionFilter(try JSONParser.parse(#"["any", ["has", "a"], ["!=", "b", "z"]]"#)))
        XCTAssertTrue(FeatureFilter.isExpressionFilter(try JSONParser.parse(#"["any", ["has", "a"], ["==", ["get", "b"], 1]]"#)))
        // Mixing legacy syntax inside an expression is rejected.
        if case .success = FeatureFilter.compile(try JSONParser.parse(#"["all", ["==", ["get", "a"], 1], ["==", "a", 1]]"#)) {
            XCTFail("mixed filter compiled")
        }
        // $type with an ordering operator is invalid.
        if case .success = FeatureFilter.compile(try JSONParser.parse(#"["<", "$type", "Point"]"#)) { XCTFail("$type < compiled") }
        XCTAssertTrue(FeatureFilter.passAll.evaluate(empty))
    }
}
