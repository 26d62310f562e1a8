import Foundation
import Testing
import GLMapCore
@testable import GLMapStyle

/// `feature-state`: maplibre-style-spec's three fixtures for the operator (test/integration/expression/
/// tests/feature-state/{basic,expression-arg,literal-arg}, their inputs and expected outputs as
/// upstream wrote them, run through the conformance harness), the spec's rule that filters and
/// layout properties may not use it, and MapLibre's feature-id matching (`FeatureStates`).
@Suite struct FeatureStateTests {
    /// A JSON object written as a literal.
    func o(_ v: JSONValue) -> JSONObject { v.objectValue ?? JSONObject() }

    static let upstreamFixtures: [String: String] = [
        "basic": #"""
        {"expression": ["number", ["feature-state", "x"]],
         "inputs": [[{}, {}], [{}, {"featureState": {}}], [{}, {"featureState": {"x": 1}}]],
         "expected": {"compiled": {"result": "success", "isFeatureConstant": false, "isZoomConstant": true, "type": "number"},
                      "outputs": [{"error": "expression: Expected value to be of type number, but found null instead."},
                                  {"error": "expression: Expected value to be of type number, but found null instead."}, 1]}}
        """#,
        "expression-arg": #"""
        {"expression": ["number", ["feature-state", ["at", 1, ["literal", ["e", "x", "e"]]]]],
         "inputs": [[{}, {"featureState": {"x": 1}}]],
         "expected": {"compiled": {"result": "success", "isFeatureConstant": false, "isZoomConstant": true, "type": "number"},
                      "outputs": [1]}}
        """#,
        "literal-arg": #"""
        {"expression": ["feature-state", "x"],
         "inputs": [[{}, {"featureState": {"x": 1}}]],
         "expected": {"compiled": {"result": "success", "isFeatureConstant": false, "isZoomConstant": true, "type": "value"},
                      "outputs": [1]}}
        """#,
    ]

    @Test(arguments: ["basic", "expression-arg", "literal-arg"])
    func upstreamFixture(_ name: String) throws {
        let fixture = try JSONParser.parse(Array(Self.upstreamFixtures[name]!.utf8))
        if case .fail(let reason) = ConformanceCase.run(fixture) { Issue.record("feature-state/\(name): \(reason)") }
    }

    @Test func stateConstancyIsTracked() throws {
        let reads = try StyleExpression.compile(["coalesce", ["feature-state", "color"], "black"], spec: nil).get()
        #expect(!reads.isStateConstant && !reads.isFeatureConstant)
        let plain = try StyleExpression.compile(["get", "color"], spec: nil).get()
        #expect(plain.isStateConstant && !plain.isFeatureConstant)
        let bound = try StyleExpression.compile(["let", "s", ["feature-state", "x"], ["var", "s"]], spec: nil).get()
        #expect(!bound.isStateConstant)
    }

    @Test func filtersMayNotReadState() {
        guard case .failure(let e) = FeatureFilter.compile(["==", ["feature-state", "hover"], true]) else {
            Issue.record("a filter reading feature-state compiled")
            return
        }
        #expect(e.description == "\"feature-state\" data expressions are not supported with filters.")
    }

    @Test func paintReadsStateAndLayoutMayNot() throws {
        let style: JSONValue = ["version": 8, "sources": ["s": ["type": "geojson", "data": ["type": "FeatureCollection", "features": []]]],
                                "layers": [["id": "c", "type": "circle", "source": "s",
                                            "paint": ["circle-color": ["coalesce", ["feature-state", "color"], "black"]]]]]
        let doc = try StyleDocument.parse(json: style)
        #expect(doc.skipped.isEmpty, "feature-state is evaluated, not skipped: \(doc.skipped)")
        let layer = try #require(doc.layers.first)
        var feature = FeatureContext(id: 1)
        let evaluator = StyleEvaluator(zoom: 0)
        #expect(evaluator.color(CircleProperties.circleColor, layer, feature) == Color(css: "black"))
        feature.state = o(["color": "red"])
        #expect(evaluator.color(CircleProperties.circleColor, layer, feature) == Color(css: "red"))

        var layoutStyle = style
        if case .object(var root) = layoutStyle {
            root["layers"] = [["id": "c", "type": "circle", "source": "s", "layout": ["circle-sort-key": ["feature-state", "rank"]]]]
            layoutStyle = .object(root)
        }
        #expect(throws: StyleError.self) { try StyleDocument.parse(json: layoutStyle) }
    }

    @Test func idsMatchAsMapLibreMatchesThem() {
        var states = FeatureStates()
        states.set(source: "s", featureID: "1", state: o(["a": 1]))
        // "1", 1 and 1.0 are one id (numbers up to 2^53 - 1 match by value).
        #expect(states.state(source: "s", featureID: .number(1)) == o(["a": 1]))
        states.set(source: "s", featureID: .number(1), state: o(["b": 2]))
        #expect(states.state(source: "s", featureID: "1") == o(["a": 1, "b": 2]))
        // Past 2^53 - 1 ids match by their exact text.
        states.set(source: "s", featureID: "9007199254740992", state: o(["big": true]))
        #expect(states.state(source: "s", featureID: "9007199254740992") == o(["big": true]))
        #expect(states.state(source: "s", featureID: "9007199254740993").isEmpty)
        // Source layers are separate; other sources see nothing.
        states.set(source: "v", sourceLayer: "poi", featureID: 7, state: o(["c": 3]))
        #expect(states.state(source: "v", sourceLayer: "poi", featureID: 7) == o(["c": 3]))
        #expect(states.state(source: "v", featureID: 7).isEmpty)
        #expect(states.state(source: "t", featureID: 1).isEmpty)
        // Removing one key, one feature, a whole source.
        states.remove(source: "s", featureID: "1", stateKey: "a")
        #expect(states.state(source: "s", featureID: 1) == o(["b": 2]))
        states.remove(source: "s", featureID: 1)
        #expect(states.state(source: "s", featureID: 1).isEmpty)
        #expect(states.hasState(source: "s"))
        states.remove(source: "s")
        #expect(!states.hasState(source: "s"))
    }

    @Test func geoJSONFeatureIDs() {
        // GL JS keeps a GeoJSON id only when it reads as a number, cut to its integer part.
        #expect(FeatureStates.geoJSONFeatureID(FeatureContext(id: "1"), promoteId: nil) == .number(1))
        #expect(FeatureStates.geoJSONFeatureID(FeatureContext(id: 2.7), promoteId: nil) == .number(2))
        #expect(FeatureStates.geoJSONFeatureID(FeatureContext(id: "abc"), promoteId: nil) == nil)
        #expect(FeatureStates.geoJSONFeatureID(FeatureContext(), promoteId: nil) == nil)
        // promoteId takes the property as it is (booleans as 0/1).
        let f = FeatureContext(id: 5, properties: o(["foo": "1.2", "flag": true]))
        #expect(FeatureStates.geoJSONFeatureID(f, promoteId: "foo") == "1.2")
        #expect(FeatureStates.geoJSONFeatureID(f, promoteId: "flag") == .number(1))
        #expect(FeatureStates.geoJSONFeatureID(f, promoteId: "missing") == nil)

        var states = FeatureStates()
        states.set(source: "s", featureID: "1.2", state: o(["color": "blue"]))
        var source = Source(id: "s", data: .inline(.null))
        source.promoteId = "foo"
        #expect(states.state(of: f, in: source) == o(["color": "blue"]))
        source.promoteId = nil
        #expect(states.state(of: f, in: source).isEmpty)   // id 5 has no state
    }

    @Test func promoteIdIsParsed() throws {
        func source(_ promoteId: JSONValue) throws -> Source? {
            let style: JSONValue = ["version": 8, "sources": ["s": ["type": "geojson", "data": ["type": "FeatureCollection", "features": []],
                                                                    "promoteId": promoteId]], "layers": []]
            return try StyleDocument.parse(json: style).sources["s"]
        }
        #expect(try source("foo")?.promoteId == "foo")
        #expect(try source(["_geojsonTileLayer": "bar"])?.promoteId == "bar")
        #expect(throws: StyleError.self) { try source(3) }
    }
}
