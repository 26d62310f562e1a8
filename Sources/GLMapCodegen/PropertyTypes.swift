import GLMapCore

/// The Swift enums made from the spec's enum properties, and which property uses which.
///
/// Naming: an enum is named after its property in UpperCamelCase (`line-cap` → `LineCap`,
/// `hillshade-illumination-anchor` → `HillshadeIlluminationAnchor`), except
/// - every `*-translate-anchor` shares `TranslateAnchor` (the same two values in every layer type);
/// - `visibility` is `Visibility`;
/// - `text-variable-anchor` (an array of anchors) reuses `TextAnchor`;
/// - keys of sources share one enum per key when every source type lists the same values
///   (`scheme` → `SourceScheme`), else get the source type's name (`RasterDEMSourceEncoding`);
///   keys of other root objects are prefixed with the object (`light.anchor` → `LightAnchor`);
/// - a source's `type` key (one value) gets no enum.
/// Two properties sharing a name must list the same values in the same order, or generation fails.
struct EnumRegistry {
    /// One generated enum.
    struct Enum {
        let name: String
        /// Values in spec order, with their docs (of the first property using the enum).
        let values: [(value: String, doc: String)]
        /// The properties using it (`fill-translate-anchor`, …), in the order met.
        var properties: [String]
        /// The first property's summary.
        var summary: String
        /// Made from an array property (`text-variable-anchor`): a scalar property using the same
        /// enum later gives it its docs.
        var fromArray: Bool
    }

    private(set) var enums: [Enum] = []
    /// Enum name by property identity (`line|line-cap`, `source|scheme`, `light|anchor`).
    private var byProperty: [String: String] = [:]

    init(_ spec: SpecModel) throws {
        for layer in spec.layers {
            for p in layer.properties where !p.enumValues.isEmpty {
                try add(p, key: "\(layer.type)|\(p.name)", name: EnumRegistry.layerEnumName(p.name))
            }
        }
        for (type, object) in spec.sources {
            for p in object.properties where !p.enumValues.isEmpty && p.name != "type" {
                let shared = spec.sources.allSatisfy { other in
                    other.object.properties.first { $0.name == p.name }.map { $0.enumValues.map(\.value) == p.enumValues.map(\.value) } ?? true
                }
                let name = shared ? "Source" + SwiftNames.upperCamel(p.name)
                    : SwiftNames.upperCamel(type) + "Source" + SwiftNames.upperCamel(p.name)
                try add(p, key: "source_\(type)|\(p.name)", name: name)
            }
        }
        for object in spec.roots {
            for p in object.properties where !p.enumValues.isEmpty {
                try add(p, key: "\(object.key)|\(p.name)", name: SwiftNames.upperCamel(object.key) + SwiftNames.upperCamel(p.name))
            }
        }
    }

    static func layerEnumName(_ property: String) -> String {
        if property == "visibility" { return "Visibility" }
        if property.hasSuffix("-translate-anchor") { return "TranslateAnchor" }
        if property == "text-variable-anchor" { return "TextAnchor" }
        return SwiftNames.upperCamel(property)
    }

    mutating func add(_ p: SpecModel.Property, key: String, name: String) throws {
        byProperty[key] = name
        if let i = enums.firstIndex(where: { $0.name == name }) {
            guard enums[i].values.map(\.value) == p.enumValues.map(\.value) else {
                throw CodegenError("v8.json: \(p.name) would share the enum \(name) with \(enums[i].properties.joined(separator: ", ")) but lists other values")
            }
            if !enums[i].properties.contains(p.name) { enums[i].properties.append(p.name) }
            if enums[i].fromArray && p.type != "array" {
                enums[i] = Enum(name: name, values: p.enumValues, properties: [p.name] + enums[i].properties.filter { $0 != p.name },
                                summary: p.summary, fromArray: false)
            }
            return
        }
        enums.append(Enum(name: name, values: p.enumValues, properties: [p.name], summary: p.summary, fromArray: p.type == "array"))
    }

    /// The enum of a property (`owner` is the layer type, `source_<type>` or the root object key).
    func name(owner: String, _ p: SpecModel.Property) -> String? { byProperty["\(owner)|\(p.name)"] }
}

/// The Swift spellings of one property's type: the style stage's `PropertyType`, the typed key's
/// value type, and the typed API's value type.
struct PropertyTypes {
    /// `PropertyType` literal (`.array(.number, length: 2)`).
    let styleType: String
    /// `PropertyKey<…>`'s type argument (`Double`, `[TextAnchor]?`); optional when the spec has no default.
    let keyType: String
    /// `Value<…>`'s type argument in the typed API (`Double`, `StyleColor`, `[Double]`).
    let apiType: String
    /// The typed API accepts a single value where an array is written (`padding`, `numberArray`, `colorArray`).
    let scalarAsArray: Bool

    init(_ p: SpecModel.Property, enumName: String?) throws {
        func item(_ v: JSONValue?) throws -> (style: String, key: String, api: String) {
            switch v {
            case .string("number")?: return (".number", "Double", "Double")
            case .string("string")?: return (".string", "String", "String")
            case .string("boolean")?: return (".boolean", "Bool", "Bool")
            case .string("color")?: return (".color", "Color", "StyleColor")
            case .string("enum")?:
                let values = p.enumValues.map { SwiftNames.stringLiteral($0.value) }.joined(separator: ", ")
                guard let enumName else { throw CodegenError("v8.json: \(p.name): an array of enum values without an enum") }
                return (".enum([\(values)])", enumName, enumName)
            case .string("*")?, nil: return (".value", "Value", "JSONValue")
            case .object(let o)?:
                guard o["type"]?.stringValue == "array" else { throw CodegenError("v8.json: \(p.name): unknown array item \(o["type"]?.jsonText ?? "?")") }
                let inner = try item(o["value"])
                let length = o["length"]?.numberValue.map { String(Int($0)) } ?? "nil"
                return (".array(\(inner.style), length: \(length))", "[\(inner.key)]", "[\(inner.api)]")
            case let other?:
                throw CodegenError("v8.json: \(p.name): unknown array item type \(other.jsonText)")
            }
        }
        var scalar = false
        let style: String, key: String, api: String
        switch p.type {
        case "number": (style, key, api) = (".number", "Double", "Double")
        case "string": (style, key, api) = (".string", "String", "String")
        case "boolean": (style, key, api) = (".boolean", "Bool", "Bool")
        case "color": (style, key, api) = (".color", "Color", "StyleColor")
        case "enum":
            let values = p.enumValues.map { SwiftNames.stringLiteral($0.value) }.joined(separator: ", ")
            style = ".enum([\(values)])"
            key = enumName ?? "String"
            api = enumName ?? "String"
        case "array":
            let i = try item(p.arrayValue)
            let length = p.length.map(String.init) ?? "nil"
            (style, key, api) = (".array(\(i.style), length: \(length))", "[\(i.key)]", "[\(i.api)]")
        case "formatted": (style, key, api) = (".formatted", "Formatted", "String")
        case "resolvedImage": (style, key, api) = (".resolvedImage", "ResolvedImage", "String")
        case "padding": (style, key, api) = (".padding", "Padding", "[Double]"); scalar = true
        case "numberArray": (style, key, api) = (".numberArray", "[Double]", "[Double]"); scalar = true
        case "colorArray": (style, key, api) = (".colorArray", "[Color]", "[StyleColor]"); scalar = true
        case "variableAnchorOffsetCollection":
            (style, key, api) = (".variableAnchorOffsetCollection", "VariableAnchorOffsetCollection", "VariableAnchorOffsetCollection")
        default: (style, key, api) = (".value", "Value", "JSONValue")   // `*`, promoteId, projectionDefinition
        }
        styleType = style
        // Optional when there is no default to fall back on: none in the spec, or one that is an
        // expression over a parameter (a color ramp's default reads heatmap-density, elevation).
        let noDefault = p.defaultValue == nil || p.propertyType == "color-ramp"
        keyType = noDefault && key != "Value" ? key + "?" : key
        apiType = api
        scalarAsArray = scalar
    }
}
