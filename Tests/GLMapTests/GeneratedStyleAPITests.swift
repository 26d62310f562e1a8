import Foundation
import XCTest
import GLMapCore
import GLMapStyle
import GLMapTestSupport
@testable import GLMap

/// The generated typed API against the style spec: every layout and paint property of every layer
/// type of v8.json is a typed property of its layer struct; a layer with every property set
/// encodes to style JSON that glmap's parser accepts and compiles, and reads back equal — through
/// `styleJSON` and through `Codable`; the root objects `Light` and `Sky` likewise.
final class GeneratedStyleAPITests: XCTestCase {
    static func spec() throws -> JSONObject {
        let url = SharedData.root.appendingPathComponent("style-spec/v8.json")
        try SharedData.require("the style spec (v8.json)", at: url)
        return try XCTUnwrap(try JSONParser.parse([UInt8](Data(contentsOf: url))).objectValue)
    }

    /// The typed layer type for a spec layer type (no default: a new type must get its struct).
    static func layerType(_ type: LayerType) -> any GLMap.Layer.Type {
        switch type {
        case .fill: return FillLayer.self
        case .line: return LineLayer.self
        case .symbol: return SymbolLayer.self
        case .circle: return CircleLayer.self
        case .heatmap: return HeatmapLayer.self
        case .fillExtrusion: return FillExtrusionLayer.self
        case .raster: return RasterLayer.self
        case .hillshade: return HillshadeLayer.self
        case .colorRelief: return ColorReliefLayer.self
        case .background: return BackgroundLayer.self
        }
    }

    static func names<L: GLMap.Layer>(_ l: L.Type) -> [(name: String, layout: Bool)] {
        L.propertyTable.map { ($0.name, $0.isLayout) }
    }

    func testEveryPropertyOfTheSpecIsATypedProperty() throws {
        let spec = try Self.spec()
        let types = try XCTUnwrap(spec["layer"]?["type"]?["values"]?.objectValue).keys
        var count = 0
        for name in types {
            let type = try XCTUnwrap(LayerType(rawValue: name), "LayerType has no \(name)")
            let typed = Self.names(Self.layerType(type))
            XCTAssertEqual(Self.layerType(type).init(id: "x").type, type)
            for (section, layout) in [("layout", true), ("paint", false)] {
                for p in try XCTUnwrap(spec["\(section)_\(name)"]?.objectValue).keys {
                    XCTAssertTrue(typed.contains { $0.name == p && $0.layout == layout }, "\(name): \(p) (\(section)) has no typed property")
                    count += 1
                }
            }
            XCTAssertEqual(typed.count, Set(typed.map(\.name)).count, "\(name): a property bound twice")
        }
        XCTAssertGreaterThan(count, 130)
        for (object, rows) in [("light", Light.propertyTable.map(\.name)), ("sky", Sky.propertyTable.map(\.name))] {
            XCTAssertEqual(rows, try XCTUnwrap(spec[object]?.objectValue).keys, "\(object): every key typed, in spec order")
        }
    }

    /// A layer of `L` with every property set from a sample value of its type.
    func everyPropertySet<L: GLMap.Layer>(_ l: L.Type) throws -> L {
        var layer = L(id: "all")
        layer.source = "s"
        layer.minZoom = 1
        layer.maxZoom = 20
        for row in L.propertyTable {
            let json = (row as? any TypedRow)?.accepted(TypedStyleAPITests.sample(row.spec.type))
            XCTAssertNotNil(json, "\(L.self).\(row.name) takes a sample value")
            layer.styleValues[row.name] = json
        }
        return layer
    }

    func roundTrip<L: GLMap.Layer & Equatable & Codable>(_ l: L.Type) throws {
        let layer = try everyPropertySet(L.self)
        let object = layer.styleJSONObject
        // Every property of the layer type is in the JSON, in its section.
        var written: [String] = []
        for section in ["layout", "paint"] { written += object[section]?.objectValue?.keys ?? [] }
        XCTAssertEqual(Set(written), Set(layer.type.properties.map(\.name)), "\(L.self): every property written")
        // Style JSON back to the typed layer.
        XCTAssertEqual(try L.decode(object, path: "layers[0]"), layer, "\(L.self): styleJSON round trip")
        // Codable: JSONEncoder writes the style-JSON layer object, JSONDecoder reads it back.
        let data = try JSONEncoder().encode(layer)
        XCTAssertEqual(try JSONParser.parse([UInt8](data)), .object(object), "\(L.self): Codable writes the style JSON")
        XCTAssertEqual(try JSONDecoder().decode(L.self, from: data), layer, "\(L.self): Codable round trip")
        // glmap's parser accepts the JSON and compiles every property.
        var sourceKeys = JSONObject([("type", "geojson"), ("data", ["type": "FeatureCollection", "features": []])])
        if layer.type == .line { sourceKeys["lineMetrics"] = true }
        // Raster layers read raster sources, hillshade and color-relief raster-dem ones.
        if layer.type == .raster { sourceKeys = JSONObject([("type", "raster"), ("tiles", ["t/{z}/{x}/{y}.png"])]) }
        if layer.type == .hillshade || layer.type == .colorRelief { sourceKeys = JSONObject([("type", "raster-dem"), ("tiles", ["t/{z}/{x}/{y}.png"])]) }
        var layerObject = object
        if layer.type == .background { layerObject["source"] = nil }
        let style: JSONValue = .object(JSONObject([("version", 8), ("sources", .object(JSONObject([("s", .object(sourceKeys))]))),
                                                   ("layers", .array([.object(layerObject)]))]))
        let doc = try StyleDocument.parse(json: style)
        let parsed = try XCTUnwrap(doc.allLayers.first)
        XCTAssertEqual(Set(parsed.values.keys).union(["visibility"]), Set(layer.type.properties.map(\.name)), "\(L.self): every property compiled")
        XCTAssertEqual(parsed.minzoom, 1)
        XCTAssertEqual(doc.layers.count, 1, "every layer type is drawn")
    }

    func testEveryLayerTypeRoundTripsThroughStyleJSONAndCodable() throws {
        try roundTrip(FillLayer.self)
        try roundTrip(LineLayer.self)
        try roundTrip(SymbolLayer.self)
        try roundTrip(CircleLayer.self)
        try roundTrip(HeatmapLayer.self)
        try roundTrip(FillExtrusionLayer.self)
        try roundTrip(RasterLayer.self)
        try roundTrip(HillshadeLayer.self)
        try roundTrip(ColorReliefLayer.self)
        try roundTrip(BackgroundLayer.self)
    }

    func testNewLayerTypesWithBuildersAndSourceLayer() throws {
        let symbol = SymbolLayer(id: "labels", source: "v").sourceLayer("place")
            .textField(Exp(.get) { "name" }).textFont(["Noto Sans Regular"]).textSize(14).textAnchor(.topLeft)
            .textVariableAnchor([.top, .bottom]).iconImage("marker").iconPadding([2, 4]).symbolPlacement(.lineCenter)
            .textColor(StyleColor(.red)).iconTextFit(.both)
            .textVariableAnchorOffset(VariableAnchorOffsetCollection(entries: [.init(anchor: .top, offset: [0, 1])]))
        XCTAssertEqual(symbol.styleJSON, #"{"id":"labels","type":"symbol","source":"v","source-layer":"place","layout":{"symbol-placement":"line-center","icon-text-fit":"both","icon-image":"marker","icon-padding":[2,4],"text-field":["get","name"],"text-font":["Noto Sans Regular"],"text-size":14,"text-variable-anchor":["top","bottom"],"text-variable-anchor-offset":["top",[0,1]],"text-anchor":"top-left"},"paint":{"text-color":"rgba(255, 0, 0, 1)"}}"#)
        XCTAssertEqual(try JSONDecoder().decode(SymbolLayer.self, from: Data(symbol.styleJSON.utf8)), symbol)

        let extrusion = FillExtrusionLayer(id: "b", source: "s").fillExtrusionHeight(Exp(.get) { "h" }).fillExtrusionBase(0)
            .fillExtrusionColor(StyleColor("#ccc")!).fillExtrusionVerticalGradient(false)
        XCTAssertEqual(extrusion.styleJSON, ##"{"id":"b","type":"fill-extrusion","source":"s","paint":{"fill-extrusion-color":"#ccc","fill-extrusion-height":["get","h"],"fill-extrusion-base":0,"fill-extrusion-vertical-gradient":false}}"##)

        // The spec's either-form values read a single value as an array of one.
        let hillJSON: JSONValue = ["id": "h", "type": "hillshade", "source": "dem",
                                   "paint": ["hillshade-illumination-direction": 270, "hillshade-shadow-color": "#000",
                                             "hillshade-method": "multidirectional"]]
        let hill = try HillshadeLayer.decode(try XCTUnwrap(hillJSON.objectValue), path: "layers[0]")
        XCTAssertEqual(hill.hillshadeIlluminationDirection, Value<[Double]>.constant([270]))
        XCTAssertEqual(hill.hillshadeShadowColor, Value<[StyleColor]>.constant([StyleColor("#000")!]))
        XCTAssertEqual(hill.hillshadeMethod, Value<HillshadeMethod>.constant(.multidirectional))
        XCTAssertThrowsError(try JSONDecoder().decode(RasterLayer.self, from: Data(#"{"id":"r","type":"hillshade"}"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(RasterLayer.self, from: Data(#"{"id":"r","type":"raster","paint":{"raster-opacty":1}}"#.utf8)))
    }

    func testLightAndSkyRoundTrip() throws {
        let light = Light().anchor(.map).position([1.5, 90, 80]).color(StyleColor(.white)).intensity(Exp(.interpolate) { Exp(.linear); Exp(.zoom); [0: 0.2, 10: 0.8] })
        XCTAssertEqual(light.styleJSON, #"{"anchor":"map","position":[1.5,90,80],"color":"rgba(255, 255, 255, 1)","intensity":["interpolate",["linear"],["zoom"],0,0.2,10,0.8]}"#)
        let data = try JSONEncoder().encode(light)
        XCTAssertEqual(try JSONDecoder().decode(Light.self, from: data), light)
        XCTAssertEqual(Light().styleJSON, "{}")
        XCTAssertThrowsError(try JSONDecoder().decode(Light.self, from: Data(#"{"anchr":"map"}"#.utf8)))

        var sky = Sky()
        sky.skyColor = .constant(StyleColor("#88c6fc")!)
        sky.fogGroundBlend = .constant(0.25)
        XCTAssertEqual(sky.styleJSON, ##"{"sky-color":"#88c6fc","fog-ground-blend":0.25}"##)
        XCTAssertEqual(try JSONDecoder().decode(Sky.self, from: try JSONEncoder().encode(sky)), sky)
    }
}
