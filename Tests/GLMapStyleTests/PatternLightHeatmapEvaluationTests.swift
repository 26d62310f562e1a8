import Foundation
import Testing
import GLMapCore
import GLMapTiles
@testable import GLMapStyle

/// What the evaluator hands the renderers for the new layer types and properties, against GL JS's
/// rules written out by hand: `*-pattern` cross-fading (from/to per value kind, whole zooms for
/// `background-pattern`, the composite binder's swap, missing images), `heatmap-density` and the
/// heatmap ramp, the light's position in the shader's frame, and hostile paint values.
@Suite struct PatternLightHeatmapEvaluationTests {
    static let a = PatternImage(x0: 1, y0: 1, x1: 11, y1: 11, pixelRatio: 1)
    static let b = PatternImage(x0: 13, y0: 1, x1: 33, y1: 21, pixelRatio: 2)
    static let c = PatternImage(x0: 35, y0: 1, x1: 45, y1: 11, pixelRatio: 1)
    static let atlas = PatternAtlas(image: PremultipliedImage(width: 46, height: 22), images: ["a": a, "b": b, "c": c], key: 1)

    func document(_ layers: String, light: String = "") throws -> StyleDocument {
        let style = #"{"version": 8, \#(light) "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [\#(layers)]}"#
        return try StyleDocument.parse(Array(style.utf8))
    }

    func evaluator(zoom: Double) -> StyleEvaluator {
        var e = StyleEvaluator(zoom: zoom)
        e.patternAtlas = Self.atlas
        return e
    }

    func pattern(_ value: String, type: String = "fill", zoom: Double, feature: FeatureContext = FeatureContext(),
                 tileZoom: Double? = nil) throws -> EvaluatedPattern?? {
        let source = type == "background" ? "" : #""source": "s","#
        let doc = try document(#"{"id": "l", "type": "\#(type)", \#(source) "paint": {"\#(type)-pattern": \#(value)}}"#)
        var e = evaluator(zoom: zoom)
        e.tileZoomOverride = tileZoom
        let property = doc.layers[0].type.properties.first { $0.name == "\(type)-pattern" }!
        return e.patternGetter(property, doc.layers[0], wholeZooms: type == "background").map { $0(feature) }
    }

    @Test func aConstantPatternFadesFromAndToItself() throws {
        #expect(try pattern(#""a""#, zoom: 3.5) == .some(EvaluatedPattern(from: Self.a, to: Self.a)))
        #expect(try pattern(#""zzz""#, zoom: 3.5) == .some(nil), "a missing image: nothing to draw")
        #expect(try pattern(#""""#, zoom: 3.5) == .some(nil), "an empty name is missing too")
        let doc = try document(#"{"id": "l", "type": "fill", "source": "s"}"#)
        #expect(evaluator(zoom: 3).patternGetter(FillProperties.fillPattern, doc.layers[0]) == nil, "no pattern set: not patterned")
    }

    @Test func aZoomPatternFadesFromTheZoomBelowWhileZoomingInAndAboveOnAWholeZoom() throws {
        let step = #"["step", ["zoom"], "a", 3, "b", 4, "c"]"#
        // Between whole zooms MapLibre is "zooming in": from = the value one zoom below.
        #expect(try pattern(step, zoom: 3.5) == .some(EvaluatedPattern(from: Self.a, to: Self.b)))
        // On a whole zoom it is "zooming out": from = the value one zoom above.
        #expect(try pattern(step, zoom: 3) == .some(EvaluatedPattern(from: Self.c, to: Self.b)))
        // background-pattern (CrossFadedProperty) reads whole zooms: floor(z − 1), floor(z).
        #expect(try pattern(step, type: "background", zoom: 3.9) == .some(EvaluatedPattern(from: Self.a, to: Self.b)))
        // One image missing: the other stands for it (updatePatternPositionsInProgram).
        #expect(try pattern(#"["step", ["zoom"], "zzz", 3, "b"]"#, zoom: 3.5) == .some(EvaluatedPattern(from: Self.b, to: Self.b)))
    }

    @Test func dataDrivenPatternsPerFeatureAndTheCompositeBindersOrder() throws {
        let f = FeatureContext(properties: JSONObject([("p", "a")]))
        #expect(try pattern(#"["get", "p"]"#, zoom: 3.5, feature: f) == .some(EvaluatedPattern(from: Self.a, to: Self.a)))
        #expect(try pattern(#"["get", "p"]"#, zoom: 3.5) == .some(nil), "no property: no image")
        // Feature and zoom: images at the tile zoom z (mid) and z ∓ 1; GL JS's composite binder
        // gives the shader mid as `from` and z − 1's image (zooming in) as `to`.
        let composite = #"["step", ["zoom"], ["get", "p"], 4, "c"]"#
        #expect(try pattern(composite, zoom: 3.5, feature: f, tileZoom: 3) == .some(EvaluatedPattern(from: Self.a, to: Self.a)))
        #expect(try pattern(composite, zoom: 4, feature: f, tileZoom: 4) == .some(EvaluatedPattern(from: Self.c, to: Self.c)))
        #expect(try pattern(composite, zoom: 3, feature: f, tileZoom: 3) == .some(EvaluatedPattern(from: Self.a, to: Self.c)),
                "on a whole zoom the other image is z + 1's")
        #expect(try pattern(#"["step", ["zoom"], ["get", "p"], 4, "zzz"]"#, zoom: 3, feature: f, tileZoom: 3) == .some(nil),
                "any of the three missing: nothing")
    }

    @Test func crossFadeParametersOfAStillFrame() {
        #expect(CrossFade(zoom: 3.5) == CrossFade(zoom: 3.01))
        #expect(CrossFade(zoom: 3.5).fromScale == 2 && CrossFade(zoom: 3).fromScale == 0.5)
        #expect(CrossFade(zoom: 7.2).t == 1 && CrossFade(zoom: 7.2).toScale == 1, "a still frame shows the image faded to")
    }

    @Test func heatmapDensityIsAParameterNotAConstant() throws {
        let spec = HeatmapProperties.heatmapColor.spec
        let e = try StyleExpression.compile(.array([.string("interpolate"), .array([.string("linear")]), .array([.string("heatmap-density")]),
                                                    .number(0), .string("blue"), .number(1), .string("red")]), spec: spec).get()
        #expect(e.constantValue == nil)
        var ctx = EvaluationContext()
        ctx.heatmapDensity = 0.25
        let c = try #require(try e.evaluate(ctx).color)
        #expect(abs(c.r - 0.25) < 1e-9 && abs(c.b - 0.75) < 1e-9)
        let ramp = ColorRamp(heatmapColor: e)
        #expect(Array(ramp.pixels[0..<4]) == [0, 0, 255, 255] && Array(ramp.pixels[1020..<1024]) == [255, 0, 0, 255])
        #expect(abs(ramp.sample(0.5).x - ramp.sample(0.5).z) < 0.01, "halfway: as much red as blue")
        // The spec default ramp starts transparent and ends red.
        let d = StyleEvaluator.defaultHeatmapRamp
        #expect(Array(d.pixels[0..<4]) == [0, 0, 0, 0] && Array(d.pixels[1020..<1024]) == [255, 0, 0, 255])
    }

    @Test func heatmapPointsDropNonPositiveWeightsAndANaNWeightIsTheDefault() throws {
        let doc = try document(#"{"id": "h", "type": "heatmap", "source": "s", "paint": {"heatmap-weight": ["/", ["get", "w"], ["get", "d"]]}}"#)
        let features = [(1.0, 1.0), (0, 0), (-1, 1), (2, 1)].enumerated().map { i, wd in
            TileFeature(type: .point, geometry: [[TilePoint(Int16(100 * i + 50), 50)]],
                        properties: JSONObject([("w", .number(wd.0)), ("d", .number(wd.1))]), index: i)
        }
        let tile = OverscaledTileID(CanonicalTileID(0, 0, 0))
        guard case .heatmap(let h) = StyleEvaluator(zoom: 1).evaluate(doc.layers[0], tile: tile, features: features) else {
            Issue.record("a heatmap layer"); return
        }
        #expect(h.features.map(\.weight) == [1, 1, 2], "0/0 = NaN is the default weight 1 (GL JS evaluates NaN to the default); −1 has no kernel")
    }

    @Test func theLightInTheShadersFrame() throws {
        let doc = try document(#"{"id": "x", "type": "fill-extrusion", "source": "s"}"#,
                               light: #""light": {"anchor": "viewport", "position": [2, 0, 90], "intensity": 0.8, "color": "red"},"#)
        let light = StyleEvaluator(zoom: 5).evaluateLight(doc.rootObjects["light"])
        #expect(light.intensity == 0.8 && light.color == Color(r: 1, g: 0, b: 0))
        // GL JS's sphericalToCartesian: azimuth + 90°, so azimuth 0 points along +y.
        let p = light.cartesian
        #expect(abs(p.x) < 1e-12 && abs(p.y - 2) < 1e-12 && abs(p.z) < 1e-12)
        // A viewport light turns with the bearing (mat3.fromRotation(−transform.angle)).
        let d = light.direction(bearing: 90)
        #expect(abs(d.x + 2) < 1e-12 && abs(d.y) < 1e-12)
        var map = light
        map.anchor = .map
        #expect(map.direction(bearing: 90).y == p.y, "a map light does not turn")
        #expect(StyleEvaluator(zoom: 5).evaluateLight(nil) == .default)
    }
}
