import GLMapCore

/// Writes `Sources/GLMap/StyleAPI/Generated/`: one typed layer struct per layer type (Mapbox Maps
/// SDK names: `fillColor`, `textField`, `fillExtrusionHeight`), the root objects `Light` and `Sky`,
/// and the re-export of the generated enums.
struct TypedAPIWriter {
    let spec: SpecModel
    let enums: EnumRegistry

    static let folder = "Sources/GLMap/StyleAPI/Generated"
    /// The root objects with a typed struct (their properties take expressions).
    static let rootStructs = ["light": "Light", "sky": "Sky"]

    func files() throws -> [GeneratedFile] {
        var out: [GeneratedFile] = []
        for layer in spec.layers {
            let name = SwiftNames.upperCamel(layer.type) + "Layer"
            out.append(GeneratedFile(path: "\(Self.folder)/\(name).swift", contents: try layerFile(layer, name: name)))
        }
        for object in spec.roots {
            guard let name = Self.rootStructs[object.key] else { continue }
            out.append(GeneratedFile(path: "\(Self.folder)/\(name).swift", contents: try rootFile(object, name: name)))
        }
        out.append(GeneratedFile(path: "\(Self.folder)/StyleEnums+GLMap.swift", contents: enumsFile()))
        return out
    }

    struct Member {
        let property: SpecModel.Property
        let swiftName: String
        let types: PropertyTypes
    }

    func members(_ properties: [SpecModel.Property], owner: String, camel: (String) -> String) throws -> [Member] {
        var out: [Member] = []
        for p in properties {
            let m = Member(property: p, swiftName: camel(p.name), types: try PropertyTypes(p, enumName: enums.name(owner: owner, p)))
            guard !out.contains(where: { $0.swiftName == m.swiftName }) else { throw CodegenError("v8.json: \(p.name): typed name \(m.swiftName) twice") }
            out.append(m)
        }
        return out
    }

    /// "`line-width` (paint): The width of the line. Default `1`; minimum 0; pixels."
    func doc(_ m: Member) -> String {
        let p = m.property
        var s = "`\(p.name)` (\(p.isLayout ? "layout" : "paint")): \(p.summary)"
        var facts: [String] = []
        if let d = p.defaultValue { facts.append("Default `\(d.jsonText)`") }
        if let v = p.json["minimum"]?.numberValue { facts.append("minimum \(JSONValue.formatNumber(v))") }
        if let v = p.json["maximum"]?.numberValue { facts.append("maximum \(JSONValue.formatNumber(v))") }
        if let u = p.json["units"]?.stringValue { facts.append(u) }
        if !facts.isEmpty { s += " " + facts.joined(separator: "; ") + "." }
        return SwiftNames.docText(s)
    }

    func layerFile(_ layer: SpecModel.LayerSpec, name: String) throws -> String {
        let table = StyleTablesWriter.tableName(layer.type)
        let caseName = SwiftNames.member(SwiftNames.lowerCamel(layer.type))
        let background = layer.type == "background"
        let props = try members(layer.properties.filter { $0.name != "visibility" }, owner: layer.type, camel: SwiftNames.lowerCamel)
        var s = Codegen.header + "import GLMapCore\nimport GLMapStyle\n\n"
        s += "/// A `\(layer.type)` layer (\(SwiftNames.docText(layer.summary.trimmingTrailingPeriod))) with every property of the style spec, typed\n"
        s += "/// (spec names in lowerCamelCase, as the Mapbox Maps SDK names them). Unset properties (nil) use\n"
        s += "/// the spec default. Each property is bound to its row of `\(table)`.\n"
        s += "public struct \(name): Layer, Equatable {\n"
        s += "    /// The layer's unique id in the style.\n    public var id: String\n"
        s += "    /// The layer type: always `.\(caseName)`.\n    public var type: LayerType { .\(caseName) }\n"
        if background {
            s += "    /// Background layers have no source.\n    public var source: String? { get { nil } set {} }\n"
            s += "    /// Background layers have no source layer.\n    public var sourceLayer: String? { get { nil } set {} }\n"
            s += "    /// Background layers have no filter.\n    public var filter: Exp? { get { nil } set {} }\n"
        } else {
            s += "    /// The id of the source whose features are drawn.\n    public var source: String?\n"
            s += "    /// The layer of a vector source to draw (`source-layer`); nil for sources without layers (GeoJSON).\n"
            s += "    public var sourceLayer: String?\n"
            s += "    /// Which features are drawn (an expression or a legacy filter such as `[\"==\", \"$type\", \"Polygon\"]`).\n"
            s += "    public var filter: Exp?\n"
        }
        s += "    /// The lowest zoom at which the layer is drawn (inclusive).\n    public var minZoom: Double?\n"
        s += "    /// The zoom from which the layer is no longer drawn (exclusive).\n    public var maxZoom: Double?\n"
        s += "    /// `visibility` (layout): whether the layer is drawn: `.visible` (default) or `.none`.\n"
        s += "    public var visibility: Value<Visibility>?\n"
        for m in props {
            s += "    /// \(doc(m))\n"
            s += "    public var \(SwiftNames.member(m.swiftName)): Value<\(m.types.apiType)>?\n"
        }
        s += "\n"
        if background {
            s += "    /// A background layer.\n    public init(id: String) { self.id = id }\n"
        } else {
            s += "    /// A \(layer.type) layer drawing the features of `source`.\n"
            s += "    public init(id: String, source: String) { self.id = id; self.source = source }\n"
            s += "    /// A \(layer.type) layer without a source yet (set `source` before adding it).\n"
            s += "    public init(id: String) { self.id = id }\n"
        }
        s += "\n    /// Each typed property with the row of `\(table)` it stands for.\n"
        s += "    public static var properties: [LayerPropertyBinding<\(name)>] {\n        [\n"
        s += "            .init(\\.visibility, StyleProperty.visibility),\n"
        for m in props {
            let row = "\(table).\(SwiftNames.member(StyleTablesWriter.memberName(m.property.name, layerType: layer.type)))"
            s += "            .init(\\.\(m.swiftName), \(row)\(m.types.scalarAsArray ? ", scalarAsArray: true" : "")),\n"
        }
        s += "        ]\n    }\n}\n\n"
        s += codable(name, kind: "layer", decode: "decodeLayer", encode: "encodeLayer")
        s += builders(name, props)
        return s
    }

    func codable(_ name: String, kind: String, decode: String, encode: String) -> String {
        var s = "extension \(name): Codable {\n"
        s += "    /// Reads the \(kind) from its style-JSON object (as `JSONDecoder` decodes it).\n"
        s += "    public init(from decoder: any Decoder) throws { self = try Self.\(decode)(from: decoder) }\n"
        s += "    /// Writes the \(kind) as its style-JSON object (as `JSONEncoder` encodes it).\n"
        s += "    public func encode(to encoder: any Encoder) throws { try \(encode)(to: encoder) }\n"
        s += "}\n\n"
        return s
    }

    func builders(_ name: String, _ props: [Member]) -> String {
        var s = "extension \(name) {\n"
        for m in props {
            let n = m.swiftName, p = m.property.name
            s += "    /// A copy with `\(p)` set to a constant.\n"
            s += "    public func \(n)(_ constant: \(m.types.apiType)) -> Self { var l = self; l.\(SwiftNames.member(n)) = .constant(constant); return l }\n"
            s += "    /// A copy with `\(p)` set to an expression.\n"
            s += "    public func \(n)(_ expression: Exp) -> Self { var l = self; l.\(SwiftNames.member(n)) = .expression(expression); return l }\n"
        }
        s += "}\n"
        return s
    }

    func rootFile(_ object: SpecModel.ObjectSpec, name: String) throws -> String {
        let table = SwiftNames.upperCamel(object.key) + "Properties"
        let props = try members(object.properties, owner: object.key, camel: SwiftNames.lowerCamel)
        for m in props where !m.property.hasExpression {
            throw CodegenError("v8.json: \(object.key).\(m.property.name) takes no expressions; \(name) types every property as Value<T>")
        }
        var s = Codegen.header + "import GLMapCore\nimport GLMapStyle\n\n"
        s += "/// The style's `\(object.key)` (root object) with every property of the style spec, typed. Unset\n"
        s += "/// properties (nil) use the spec default. Each property is bound to its row of `\(table)`.\n"
        s += "public struct \(name): StyleRootObject, Equatable {\n"
        for m in props {
            let d = "`\(m.property.name)`: \(m.property.summary)" + (m.property.defaultValue.map { " Default `\($0.jsonText)`." } ?? "")
            s += "    /// \(SwiftNames.docText(d))\n"
            s += "    public var \(SwiftNames.member(m.swiftName)): Value<\(m.types.apiType)>?\n"
        }
        s += "\n    /// A `\(object.key)` with every property unset (the spec defaults).\n    public init() {}\n"
        s += "\n    /// Each typed property with the row of `\(table)` it stands for.\n"
        s += "    public static var properties: [LayerPropertyBinding<\(name)>] {\n        [\n"
        for m in props {
            s += "            .init(\\.\(m.swiftName), \(table).\(SwiftNames.member(SwiftNames.lowerCamel(m.property.name)))\(m.types.scalarAsArray ? ", scalarAsArray: true" : "")),\n"
        }
        s += "        ]\n    }\n}\n\n"
        s += codable(name, kind: "`\(object.key)`", decode: "decodeObject", encode: "encodeObject")
        s += builders(name, props)
        return s
    }

    func enumsFile() -> String {
        var s = Codegen.header
        s += "// The generated style enums (GLMapStyle), re-exported to `import GLMap` users and usable as\n"
        s += "// typed-API values.\n"
        for e in enums.enums { s += "@_exported import enum GLMapStyle.\(e.name)\n" }
        s += "\nimport GLMapStyle\n\n"
        for e in enums.enums { s += "extension \(e.name): StyleEnum {}\n" }
        return s
    }
}
