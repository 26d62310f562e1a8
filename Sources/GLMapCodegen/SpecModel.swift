import GLMapCore

/// The parts of the style specification (v8.json) the generated code is made from, read once and
/// checked: every type, property type and expression parameter the writers meet must be one they
/// know, so a new spec version that adds one fails the generator instead of generating a guess.
struct SpecModel {
    /// One property (a layer's layout/paint property, or a key of a root object or source).
    struct Property {
        /// The spec name (`line-gap-width`, `tileSize`).
        let name: String
        /// Layout (true) or paint/other (false).
        let isLayout: Bool
        /// The JSON definition as the spec writes it.
        let json: JSONObject

        /// The spec `type` (`number`, `enum`, `array`, `formatted`, `*`, …).
        var type: String { json["type"]?.stringValue ?? "*" }
        /// The spec `property-type`, `constant` for keys without one (root objects, sources).
        var propertyType: String { json["property-type"]?.stringValue ?? "constant" }
        /// The spec `default`, if any.
        var defaultValue: JSONValue? { json["default"] }
        /// `expression.parameters`.
        var parameters: [String] { json["expression"]?["parameters"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        /// `expression.interpolated`.
        var interpolated: Bool { json["expression"]?["interpolated"]?.boolValue ?? false }
        /// Whether the property takes expressions at all.
        var hasExpression: Bool { json["expression"] != nil }
        /// The first sentence of `doc`.
        var summary: String { SwiftNames.firstSentence(json["doc"]?.stringValue ?? "") }
        /// Enum values (`values` as an object or an array), in spec order, with their docs.
        var enumValues: [(value: String, doc: String)] { SpecModel.enumValues(json["values"]) }
        /// For arrays: the item type (`number`, `string`, `enum`, or a nested array definition).
        var arrayValue: JSONValue? { json["value"] }
        /// For arrays: the fixed length, if any.
        var length: Int? { json["length"]?.numberValue.map { Int($0) } }
    }

    /// A layer type with its layout and paint properties (visibility included, spec order).
    struct LayerSpec {
        /// `fill-extrusion`.
        let type: String
        /// The first sentence of the type's doc.
        let summary: String
        /// Layout then paint properties, each in spec order (`visibility` where the spec lists it).
        let properties: [Property]
    }

    /// A root object or source type whose keys get a table (`light`, `source_vector`, …).
    struct ObjectSpec {
        /// The spec's key for it (`light`, `source_raster_dem`).
        let key: String
        /// The keys, in spec order (the `*` wildcard excluded).
        let properties: [Property]
        /// The spec allows keys it does not list (`"*": {"type": "*"}`).
        let allowsOtherKeys: Bool
    }

    /// The layer types, in spec order.
    var layers: [LayerSpec] = []
    /// The source types in spec order (`vector`, `raster`, `raster-dem`, `geojson`, `video`, `image`).
    var sources: [(type: String, object: ObjectSpec)] = []
    /// The root objects with tables.
    var roots: [ObjectSpec] = []
    /// The keys a layer object may have.
    var layerKeys: [String] = []
    /// The expression operators (`expression_name.values`).
    var expressionOperators: [String] = []

    /// The property types the writers know.
    static let knownTypes: Set<String> = [
        "number", "string", "boolean", "color", "enum", "array", "formatted", "resolvedImage", "padding",
        "numberArray", "colorArray", "variableAnchorOffsetCollection", "*", "promoteId", "projectionDefinition",
    ]
    /// The expression parameters the writers know.
    static let knownParameters: Set<String> = ["zoom", "feature", "feature-state", "line-progress", "heatmap-density", "elevation"]
    /// The property types (`property-type`) the writers know.
    static let knownPropertyTypes: Set<String> = ["data-driven", "cross-faded", "cross-faded-data-driven", "color-ramp", "data-constant", "constant"]
    /// The root objects that get tables.
    static let rootObjects = ["light", "sky", "terrain", "projection", "transition"]

    /// Reads and checks v8.json.
    init(json: JSONValue) throws {
        guard let spec = json.objectValue else { throw CodegenError("v8.json: expected an object at the top") }
        guard let layer = spec["layer"]?.objectValue,
              let types = layer["type"]?["values"] else { throw CodegenError("v8.json: no layer.type.values") }
        layerKeys = layer.keys
        expressionOperators = SpecModel.enumValues(spec["expression_name"]?["values"]).map(\.value)
        guard !expressionOperators.isEmpty else { throw CodegenError("v8.json: no expression_name.values") }
        for (type, doc) in SpecModel.enumValues(types) {
            var properties: [Property] = []
            for (section, isLayout) in [("layout", true), ("paint", false)] {
                guard let table = spec["\(section)_\(type)"]?.objectValue else {
                    throw CodegenError("v8.json: layer type \(type) has no \(section)_\(type)")
                }
                for (name, def) in table.pairs {
                    guard let o = def.objectValue else { throw CodegenError("v8.json: \(section)_\(type).\(name) is not an object") }
                    properties.append(Property(name: name, isLayout: isLayout, json: o))
                }
            }
            layers.append(LayerSpec(type: type, summary: SwiftNames.firstSentence(doc), properties: properties))
        }
        guard let sourceKeys = spec["source"]?.arrayValue?.compactMap(\.stringValue) else {
            throw CodegenError("v8.json: no source list")
        }
        for key in sourceKeys {
            let object = try SpecModel.object(spec, key)
            guard let type = object.properties.first(where: { $0.name == "type" })?.enumValues.first?.value else {
                throw CodegenError("v8.json: \(key) has no type value")
            }
            sources.append((type, object))
        }
        roots = try SpecModel.rootObjects.map { try SpecModel.object(spec, $0) }
        for p in layers.flatMap(\.properties) + sources.flatMap(\.object.properties) + roots.flatMap(\.properties) {
            try SpecModel.check(p)
        }
    }

    static func object(_ spec: JSONObject, _ key: String) throws -> ObjectSpec {
        guard let o = spec[key]?.objectValue else { throw CodegenError("v8.json: no \(key)") }
        var properties: [Property] = []
        for (name, def) in o.pairs where name != "*" {
            guard let d = def.objectValue else { throw CodegenError("v8.json: \(key).\(name) is not an object") }
            properties.append(Property(name: name, isLayout: false, json: d))
        }
        return ObjectSpec(key: key, properties: properties, allowsOtherKeys: o["*"] != nil)
    }

    static func check(_ p: Property) throws {
        guard knownTypes.contains(p.type) else { throw CodegenError("v8.json: \(p.name) has type \"\(p.type)\", which glmap-codegen does not know") }
        guard knownPropertyTypes.contains(p.propertyType) else {
            throw CodegenError("v8.json: \(p.name) has property-type \"\(p.propertyType)\", which glmap-codegen does not know")
        }
        for parameter in p.parameters where !knownParameters.contains(parameter) {
            throw CodegenError("v8.json: \(p.name) reads the expression parameter \"\(parameter)\", which glmap-codegen does not know")
        }
    }

    /// `values` written as an object (value → {doc}) or an array of strings.
    static func enumValues(_ v: JSONValue?) -> [(value: String, doc: String)] {
        switch v {
        case .object(let o)?: return o.pairs.map { ($0.key, $0.value["doc"]?.stringValue ?? "") }
        case .array(let a)?: return a.compactMap { $0.stringValue.map { ($0, "") } }
        default: return []
        }
    }
}

/// A v8.json the generator cannot use, or an output it cannot write.
public struct CodegenError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    init(_ message: String) { description = message }
}
