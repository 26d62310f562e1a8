import Foundation
import XCTest
import GLMapCore
import GLMapTestSupport
@testable import GLMapStyle

/// The generated tables against the style spec itself: a walk over v8.json (read here, not through
/// the generator) finds every layer type, every layout and paint property of each, every key of
/// every source type and root object in glmap's tables, with the spec's type, default, range,
/// units, property type, expression parameters, interpolation, requirements and flags — and
/// nothing the spec does not have.
final class StyleSpecTablesTests: XCTestCase {
    static func spec() throws -> JSONObject {
        let url = SharedData.root.appendingPathComponent("style-spec/v8.json")
        try SharedData.require("the style spec (v8.json)", at: url)
        return try XCTUnwrap(try JSONParser.parse([UInt8](Data(contentsOf: url))).objectValue)
    }

    /// The spec definition's type as a `PropertyType`.
    func propertyType(_ d: JSONObject) -> PropertyType? {
        func enumValues(_ v: JSONValue?) -> [String] {
            v?.objectValue?.keys ?? v?.arrayValue?.compactMap(\.stringValue) ?? []
        }
        func item(_ v: JSONValue?) -> PropertyType? {
            switch v {
            case .string("number")?: return .number
            case .string("string")?: return .string
            case .string("boolean")?: return .boolean
            case .string("color")?: return .color
            case .string("enum")?: return .enum(enumValues(d["values"]))
            case .string("*")?, nil: return .value
            case .object(let o)?: return item(o["value"]).map { .array($0, length: o["length"]?.numberValue.map { Int($0) }) }
            default: return nil
            }
        }
        switch d["type"]?.stringValue {
        case "number": return .number
        case "string": return .string
        case "boolean": return .boolean
        case "color": return .color
        case "enum": return .enum(enumValues(d["values"]))
        case "array": return item(d["value"]).map { .array($0, length: d["length"]?.numberValue.map { Int($0) }) }
        case "formatted": return .formatted
        case "resolvedImage": return .resolvedImage
        case "padding": return .padding
        case "numberArray": return .numberArray
        case "colorArray": return .colorArray
        case "variableAnchorOffsetCollection": return .variableAnchorOffsetCollection
        case "*", "promoteId", "projectionDefinition": return .value
        default: return nil
        }
    }

    /// Every trait of one row against its spec definition.
    func check(_ row: StyleProperty?, _ name: String, _ d: JSONObject, layout: Bool, where place: String,
               file: StaticString = #filePath, line: UInt = #line) {
        guard let row else { return XCTFail("\(place): \(name) has no row", file: file, line: line) }
        let what = "\(place) \(name)"
        let s = row.spec
        XCTAssertEqual(row.isLayout, layout, "\(what): layout", file: file, line: line)
        XCTAssertEqual(s.type, propertyType(d), "\(what): type", file: file, line: line)
        XCTAssertEqual(s.defaultValue, d["default"], "\(what): default", file: file, line: line)
        XCTAssertEqual(s.minimum, d["minimum"]?.numberValue, "\(what): minimum", file: file, line: line)
        XCTAssertEqual(s.maximum, d["maximum"]?.numberValue, "\(what): maximum", file: file, line: line)
        XCTAssertEqual(s.units, d["units"]?.stringValue, "\(what): units", file: file, line: line)
        XCTAssertEqual(s.period, d["period"]?.numberValue, "\(what): period", file: file, line: line)
        XCTAssertEqual(s.kind.rawValue, d["property-type"]?.stringValue ?? "constant", "\(what): property-type", file: file, line: line)
        let names: [String: ExpressionParameters] = ["zoom": .zoom, "feature": .feature, "feature-state": .featureState,
                                                     "line-progress": .lineProgress, "heatmap-density": .heatmapDensity, "elevation": .elevation]
        var parameters: ExpressionParameters = []
        for p in d["expression"]?["parameters"]?.arrayValue ?? [] {
            guard let n = p.stringValue, let bit = names[n] else { XCTFail("\(what): unknown parameter \(p.jsonText)", file: file, line: line); continue }
            parameters.insert(bit)
        }
        XCTAssertEqual(s.parameters, parameters, "\(what): expression parameters", file: file, line: line)
        XCTAssertEqual(s.zoomAllowed, parameters.contains(.zoom), "\(what): zoom", file: file, line: line)
        XCTAssertEqual(s.interpolated, d["expression"]?["interpolated"]?.boolValue ?? false, "\(what): interpolated", file: file, line: line)
        XCTAssertEqual(s.requires.count, d["requires"]?.arrayValue?.count ?? 0, "\(what): requires", file: file, line: line)
        XCTAssertEqual(s.tokens, d["tokens"]?.boolValue ?? false, "\(what): tokens", file: file, line: line)
        XCTAssertEqual(s.overridable, d["overridable"]?.boolValue ?? false, "\(what): overridable", file: file, line: line)
        XCTAssertEqual(s.transition, d["transition"]?.boolValue ?? false, "\(what): transition", file: file, line: line)
        XCTAssertEqual(s.required, d["required"]?.boolValue ?? false, "\(what): required", file: file, line: line)
    }

    func testEveryLayerTypeAndEveryPropertyOfTheSpecHasItsRow() throws {
        let spec = try Self.spec()
        let types = try XCTUnwrap(spec["layer"]?["type"]?["values"]?.objectValue).keys
        XCTAssertEqual(LayerType.allCases.map(\.rawValue), types, "LayerType: the spec's layer types in spec order")
        var count = 0
        for name in types {
            let type = try XCTUnwrap(LayerType(rawValue: name))
            var specNames: Set<String> = []
            for (section, layout) in [("layout", true), ("paint", false)] {
                let table = try XCTUnwrap(spec["\(section)_\(name)"]?.objectValue, "\(section)_\(name)")
                for (p, d) in table.pairs {
                    specNames.insert(p)
                    check(type.properties.first { $0.name == p }, p, try XCTUnwrap(d.objectValue), layout: layout, where: name)
                    count += 1
                }
            }
            XCTAssertEqual(Set(type.properties.map(\.name)), specNames, "\(name): the table has the spec's properties and no others")
            XCTAssertEqual(type.properties.count, specNames.count, "\(name): no row twice")
        }
        XCTAssertGreaterThan(count, 130, "rows checked")
    }

    func testEverySourceKeyAndRootObjectKeyOfTheSpecHasItsRow() throws {
        let spec = try Self.spec()
        let sources = try XCTUnwrap(spec["source"]?.arrayValue).compactMap(\.stringValue)
        XCTAssertEqual(sources.count, SourceType.allCases.count)
        for (key, type) in zip(sources, SourceType.allCases) {
            let o = try XCTUnwrap(spec[key]?.objectValue)
            XCTAssertEqual(o["type"]?["values"]?.objectValue?.keys.first ?? o["type"]?["values"]?.arrayValue?.first?.stringValue, type.rawValue)
            for (k, d) in o.pairs where k != "*" {
                check(type.properties.first { $0.name == k }, k, try XCTUnwrap(d.objectValue), layout: false, where: key)
            }
            XCTAssertEqual(Set(type.properties.map(\.name)), Set(o.keys.filter { $0 != "*" }), "\(key): keys")
            XCTAssertEqual(type.allowsOtherKeys, o["*"] != nil, "\(key): other keys")
        }
        let roots: [(String, [StyleProperty])] = [("light", LightProperties.all), ("sky", SkyProperties.all), ("terrain", TerrainProperties.all),
                                                  ("projection", ProjectionProperties.all), ("transition", TransitionProperties.all)]
        for (key, rows) in roots {
            let o = try XCTUnwrap(spec[key]?.objectValue)
            for (k, d) in o.pairs { check(rows.first { $0.name == k }, k, try XCTUnwrap(d.objectValue), layout: false, where: key) }
            XCTAssertEqual(rows.map(\.name), o.keys, "\(key): keys in spec order")
        }
        XCTAssertEqual(StyleSpecification.layerKeys, try XCTUnwrap(spec["layer"]?.objectValue).keys)
    }

    /// Every enum property's Swift enum lists the spec's values, and every typed key holds its default as its type.
    func testTypedKeysAndEnumsFollowTheSpec() throws {
        for type in LayerType.allCases {
            for row in type.properties {
                if case .enum(let values) = row.spec.type {
                    // The enum behind the typed key reads every value and nothing else.
                    for v in values { XCTAssertNotNil(Self.typed(row, .string(v)), "\(row.name): \(v)") }
                    XCTAssertNil(Self.typed(row, .string("not-a-value")), "\(row.name)")
                }
            }
        }
        XCTAssertEqual(LineCap.allCases.map(\.rawValue), ["butt", "round", "square"])
        XCTAssertEqual(TextAnchor.allCases.count, 9)
        XCTAssertEqual(SymbolZOrder.viewportY.rawValue, "viewport-y")
        XCTAssertEqual(TextRotationAlignment.viewportGlyph.rawValue, "viewport-glyph")
        XCTAssertEqual(LineProperties.lineCap.defaultValue, .butt)
        XCTAssertEqual(LineProperties.lineJoin.defaultValue, .miter)
        XCTAssertEqual(LineProperties.lineWidth.defaultValue, 1)
        XCTAssertEqual(LineProperties.lineRoundLimit.defaultValue, 1.05)
        XCTAssertNil(LineProperties.lineDasharray.defaultValue)
        XCTAssertNil(FillProperties.fillOutlineColor.defaultValue)
        XCTAssertEqual(CircleProperties.circlePitchAlignment.defaultValue, .viewport)
        XCTAssertEqual(FillProperties.fillColor.defaultValue, .black)
        XCTAssertEqual(SymbolProperties.textFont.defaultValue, ["Open Sans Regular", "Arial Unicode MS Regular"])
        XCTAssertEqual(SymbolProperties.iconPadding.defaultValue, Padding(top: 2, right: 2, bottom: 2, left: 2))
        XCTAssertEqual(SymbolProperties.textField.defaultValue.text, "")
        XCTAssertNil(SymbolProperties.textVariableAnchor.defaultValue)
        XCTAssertEqual(HillshadeProperties.hillshadeIlluminationDirection.defaultValue, [335])
        XCTAssertEqual(HillshadeProperties.hillshadeShadowColor.defaultValue, [.black])
        XCTAssertNil(HeatmapProperties.heatmapColor.defaultValue, "a color ramp's default is an expression")
        XCTAssertEqual(RasterDEMSourceProperties.encoding.defaultValue, .mapbox)
        XCTAssertEqual(LightProperties.position.defaultValue, [1.15, 210, 30])
        XCTAssertEqual(VectorSourceProperties.scheme.defaultValue, .xyz)
    }

    /// The generated enum case for `v` through an enum row's typed key (nil: not a value of the
    /// enum, or not an enum row).
    static func typed(_ row: StyleProperty, _ v: Value) -> Any? { (row as? any EnumKey)?.read(v) }
}

/// A typed key read without naming its value type (for the test above).
protocol EnumKey { func read(_ v: Value) -> Any? }
extension PropertyKey: EnumKey {
    /// The key's Swift value for `v`; nil when `v` is not one.
    func read(_ v: Value) -> Any? { T(evaluated: v).map { $0 as Any } }
}
