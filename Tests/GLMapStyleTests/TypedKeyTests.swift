import XCTest
import GLMapCore
@testable import GLMapStyle

/// Evaluated values read through the typed rows (`PropertyKey<T>`): the Swift type of each spec
/// type, the spec default when unset or failing, nil for unset optional rows.
final class TypedKeyTests: XCTestCase {
    func layer(_ type: String, layout: JSONValue = [:], paint: JSONValue = [:]) throws -> Layer {
        let json: JSONValue = [
            "version": 8,
            "sources": ["s": ["type": "geojson", "data": ["type": "FeatureCollection", "features": []]],
                        "d": ["type": "raster-dem", "tiles": ["dem/{z}/{x}/{y}.png"]]],
            // hillshade and color-relief layers need a raster-dem source.
            "layers": [.object(JSONObject([("id", "l"), ("type", .string(type)), ("source", type == "hillshade" || type == "color-relief" ? "d" : "s"),
                                           ("layout", layout), ("paint", paint)]))],
        ]
        return try XCTUnwrap(StyleDocument.parse(json: json).allLayers.first)
    }

    func testDrawnLayerValuesReadTyped() throws {
        let ev = StyleEvaluator(zoom: 10)
        let line = try layer("line", layout: ["line-cap": "round", "line-join": ["get", "j"]],
                             paint: ["line-width": ["interpolate", ["linear"], ["zoom"], 0, 1, 20, 21], "line-color": "red",
                                     "line-dasharray": [2, 1], "line-translate-anchor": "viewport"])
        let width: Double = ev.value(LineProperties.lineWidth, line)
        XCTAssertEqual(width, 11)
        XCTAssertEqual(ev.value(LineProperties.lineCap, line), .round)
        XCTAssertEqual(ev.value(LineProperties.lineJoin, line, FeatureContext(properties: JSONObject([("j", "bevel")]))), .bevel)
        XCTAssertEqual(ev.value(LineProperties.lineJoin, line, FeatureContext(properties: JSONObject([("j", "nonsense")]))), .miter,
                       "a value outside the enum falls back to the spec default")
        XCTAssertEqual(ev.value(LineProperties.lineColor, line), Color(r: 1, g: 0, b: 0))
        XCTAssertEqual(ev.value(LineProperties.lineDasharray, line), [2, 1])
        XCTAssertEqual(ev.value(LineProperties.lineTranslateAnchor, line), .viewport)
        XCTAssertEqual(ev.value(LineProperties.lineTranslate, line), [0, 0], "unset: the spec default")
        XCTAssertNil(ev.value(LineProperties.lineSortKey, line), "unset, no default: nil")
        XCTAssertNil(ev.value(LineProperties.lineGradient, line))
        XCTAssertEqual(ev.value(StyleProperty.visibility, line), .visible)
    }

    func testSkippedLayerTypesAreCompiledAndReadTyped() throws {
        let ev = StyleEvaluator(zoom: 5)
        let symbol = try layer("symbol", layout: [
            "text-field": ["get", "name"], "text-font": ["Noto Sans Regular"], "text-size": 14, "text-anchor": "top-left",
            "text-variable-anchor": ["top", "bottom"], "icon-image": "marker", "icon-padding": [1, 2],
            "text-variable-anchor-offset": ["top", [0, 1], "left", [2, 0]], "symbol-placement": "line-center",
            "icon-text-fit": "both", "text-justify": "auto", "symbol-z-order": "viewport-y",
        ], paint: ["text-color": "#00ff00", "text-halo-width": 2])
        XCTAssertEqual(ev.value(SymbolProperties.textField, symbol, FeatureContext(properties: JSONObject([("name", "Oslo")]))).text, "Oslo")
        XCTAssertEqual(ev.value(SymbolProperties.textField, symbol, FeatureContext(properties: JSONObject([("name", 7)]))).text, "7",
                       "formatted coerces numbers to text, as MapLibre does")
        XCTAssertEqual(ev.value(SymbolProperties.textFont, symbol), ["Noto Sans Regular"])
        XCTAssertEqual(ev.value(SymbolProperties.textSize, symbol), 14)
        XCTAssertEqual(ev.value(SymbolProperties.textAnchor, symbol), .topLeft)
        XCTAssertEqual(ev.value(SymbolProperties.textVariableAnchor, symbol), [.top, .bottom])
        XCTAssertEqual(ev.value(SymbolProperties.iconImage, symbol), ResolvedImage(name: "marker"))
        XCTAssertEqual(ev.value(SymbolProperties.iconPadding, symbol), Padding(top: 1, right: 2, bottom: 1, left: 2))
        XCTAssertEqual(ev.value(SymbolProperties.textVariableAnchorOffset, symbol)?.entries,
                       [.init(anchor: .top, offset: [0, 1]), .init(anchor: .left, offset: [2, 0])])
        XCTAssertEqual(ev.value(SymbolProperties.symbolPlacement, symbol), .lineCenter)
        XCTAssertEqual(ev.value(SymbolProperties.iconTextFit, symbol), .both)
        XCTAssertEqual(ev.value(SymbolProperties.textJustify, symbol), .auto)
        XCTAssertEqual(ev.value(SymbolProperties.symbolZOrder, symbol), .viewportY)
        XCTAssertEqual(ev.value(SymbolProperties.textColor, symbol), Color(r: 0, g: 1, b: 0))
        XCTAssertEqual(ev.value(SymbolProperties.textHaloWidth, symbol), 2)
        XCTAssertEqual(ev.value(SymbolProperties.textMaxWidth, symbol), 10, "unset: the spec default")
        XCTAssertEqual(ev.value(SymbolProperties.iconRotationAlignment, symbol), .auto)

        let hill = try layer("hillshade", paint: ["hillshade-illumination-direction": [100, 200], "hillshade-shadow-color": ["red", "blue"],
                                                  "hillshade-method": "igor", "hillshade-highlight-color": "#ffffff"])
        XCTAssertEqual(ev.value(HillshadeProperties.hillshadeIlluminationDirection, hill), [100, 200])
        XCTAssertEqual(ev.value(HillshadeProperties.hillshadeShadowColor, hill), [Color(r: 1, g: 0, b: 0), Color(r: 0, g: 0, b: 1)])
        XCTAssertEqual(ev.value(HillshadeProperties.hillshadeHighlightColor, hill), [.white], "one colour is a colorArray of one")
        XCTAssertEqual(ev.value(HillshadeProperties.hillshadeMethod, hill), .igor)
        XCTAssertEqual(ev.value(HillshadeProperties.hillshadeIlluminationAltitude, hill), [45])
        XCTAssertEqual(ev.value(HillshadeProperties.hillshadeIlluminationAnchor, hill), .viewport)

        let extrusion = try layer("fill-extrusion", paint: ["fill-extrusion-height": ["*", 2, ["get", "h"]], "fill-extrusion-vertical-gradient": false])
        XCTAssertEqual(ev.value(FillExtrusionProperties.fillExtrusionHeight, extrusion, FeatureContext(properties: JSONObject([("h", 21)]))), 42)
        XCTAssertEqual(ev.value(FillExtrusionProperties.fillExtrusionVerticalGradient, extrusion), false)
        XCTAssertEqual(ev.value(FillExtrusionProperties.fillExtrusionBase, extrusion), 0)

        let raster = try layer("raster", paint: ["raster-resampling": "nearest", "raster-opacity": 0.5])
        XCTAssertEqual(ev.value(RasterProperties.rasterResampling, raster), .nearest)
        XCTAssertEqual(ev.value(RasterProperties.rasterOpacity, raster), 0.5)

        let heat = try layer("heatmap", paint: ["heatmap-radius": 12, "heatmap-weight": ["get", "w"]])
        XCTAssertEqual(ev.value(HeatmapProperties.heatmapRadius, heat), 12)
        XCTAssertEqual(ev.value(HeatmapProperties.heatmapWeight, heat, FeatureContext(properties: JSONObject([("w", 3)]))), 3)
        XCTAssertNil(ev.value(HeatmapProperties.heatmapColor, heat))

        let relief = try layer("color-relief", paint: ["color-relief-opacity": 0.25])
        XCTAssertEqual(ev.value(ColorReliefProperties.colorReliefOpacity, relief), 0.25)
    }
}
