import GLMapCore

/// Writes `Sources/GLMapStyle/Generated/`: the layer types, one property table per layer type,
/// the tables of sources and root objects, and the enums.
struct StyleTablesWriter {
    let spec: SpecModel
    let enums: EnumRegistry

    static let folder = "Sources/GLMapStyle/Generated"

    func files() throws -> [GeneratedFile] {
        var out: [GeneratedFile] = []
        out.append(GeneratedFile(path: "\(Self.folder)/LayerType.swift", contents: try layerTypeFile()))
        out.append(GeneratedFile(path: "\(Self.folder)/StyleProperty+Visibility.swift", contents: try visibilityFile()))
        for layer in spec.layers {
            let name = Self.tableName(layer.type)
            out.append(GeneratedFile(path: "\(Self.folder)/\(name).swift", contents: try layerTable(layer)))
        }
        out.append(GeneratedFile(path: "\(Self.folder)/SourceType.swift", contents: try sourceTypeFile()))
        // A key that an earlier source type defines the same way (`url`, `tiles`, `bounds`…) is
        // declared once, in the first table, and referenced by the others.
        var firstTable: [String: String] = [:]
        for (type, object) in spec.sources {
            let name = Self.sourceTableName(type)
            var shared: [String: String] = [:]
            for p in object.properties {
                let signature = "\(p.name)|\(JSONValue.object(p.json).jsonText)|\(enums.name(owner: "source_\(type)", p) ?? "")"
                if let table = firstTable[signature] { shared[p.name] = table } else { firstTable[signature] = name }
            }
            out.append(GeneratedFile(path: "\(Self.folder)/\(name).swift",
                                     contents: try objectTable(object, name: name, owner: "source_\(type)",
                                                               title: "The keys of `\(type)` sources", sourceType: type, shared: shared)))
        }
        for object in spec.roots {
            let name = SwiftNames.upperCamel(object.key) + "Properties"
            out.append(GeneratedFile(path: "\(Self.folder)/\(name).swift",
                                     contents: try objectTable(object, name: name, owner: object.key,
                                                               title: "The keys of the style's root `\(object.key)` object")))
        }
        out.append(GeneratedFile(path: "\(Self.folder)/StyleEnums.swift", contents: enumsFile()))
        out.append(GeneratedFile(path: "\(Self.folder)/StyleSpecification.swift", contents: specificationFile()))
        return out
    }

    static func tableName(_ layerType: String) -> String { SwiftNames.upperCamel(layerType) + "Properties" }
    static func sourceTableName(_ sourceType: String) -> String { SwiftNames.upperCamel(sourceType) + "SourceProperties" }

    /// The table member of a property: its spec name in lowerCamelCase (`line-gap-width` →
    /// `lineGapWidth`), which is also its name in the typed API (`layer.lineGapWidth`), as the
    /// Mapbox Maps SDK names it.
    static func memberName(_ property: String) -> String { SwiftNames.lowerCamel(property) }

    // MARK: Files

    func layerTypeFile() throws -> String {
        var s = Codegen.header + "\n"
        s += """
        /// The style spec's layer types, in spec order. A layer type touches a known list of places
        /// (DESIGN.md rule 1): switches over `LayerType` have no `default:`, so the compiler lists them.
        /// Its properties are generated (`properties`); glmap draws every layer type.
        public enum LayerType: String, CaseIterable, Sendable {

        """
        for layer in spec.layers {
            s += "    /// \(SwiftNames.docText(layer.summary))\n"
            s += "    case \(caseDeclaration(layer.type))\n"
        }
        s += "\n    /// The property tables of the layer types.\n"
        s += "    static let tables: [any LayerPropertyTable.Type] = [\n" + wrapped(spec.layers.map { Self.tableName($0.type) + ".self" }) + "    ]\n"
        s += "\n    /// The property table of this layer type: every layout and paint property of the spec.\n"
        s += "    public var properties: [StyleProperty] { Self.tables.first { $0.layerType == self }?.all ?? [] }\n}\n"
        return s
    }

    func caseDeclaration(_ value: String) -> String {
        let name = SwiftNames.member(SwiftNames.lowerCamel(value))
        return name == value ? name : "\(name) = \(SwiftNames.stringLiteral(value))"
    }

    func visibilityFile() throws -> String {
        let rows = spec.layers.compactMap { $0.properties.first { $0.name == "visibility" } }
        guard rows.count == spec.layers.count, let first = rows.first else {
            throw CodegenError("v8.json: not every layer type has a visibility property")
        }
        func essence(_ p: SpecModel.Property) -> [String] {
            [p.type, p.propertyType, p.defaultValue?.jsonText ?? "", p.enumValues.map(\.value).joined(separator: ",")]
        }
        for r in rows where essence(r) != essence(first) { throw CodegenError("v8.json: layer types define visibility differently") }
        var s = Codegen.header + "import GLMapCore\n\n"
        s += "extension StyleProperty {\n"
        s += try row(first, member: "visibility", owner: spec.layers[0].type, indent: "    ")
        s += "}\n"
        return s
    }

    func layerTable(_ layer: SpecModel.LayerSpec) throws -> String {
        let name = Self.tableName(layer.type)
        var s = Codegen.header + "import GLMapCore\n\n"
        s += "/// The property table of `\(layer.type)` layers (\(SwiftNames.docText(layer.summary.trimmingTrailingPeriod))): every layout and\n"
        s += "/// paint property the style spec defines for them, as typed keys (`PropertyKey<T>`).\n"
        s += "public enum \(name): LayerPropertyTable {\n"
        s += "    /// The layer type of the table.\n"
        s += "    public static let layerType = LayerType.\(SwiftNames.member(SwiftNames.lowerCamel(layer.type)))\n"
        var members: [String] = []
        for p in layer.properties where p.name != "visibility" {
            let member = Self.memberName(p.name)
            guard !members.contains(member), member != "all" else {
                throw CodegenError("v8.json: \(p.name) gives \(name).\(member) twice")
            }
            members.append(member)
            s += try row(p, member: member, owner: layer.type, indent: "    ")
        }
        s += "\n    /// Every row of the table: `visibility` first, then the layout and the paint properties in spec order.\n"
        s += "    public static let all: [StyleProperty] = [\n" + wrapped(["StyleProperty.visibility"] + members.map(SwiftNames.member)) + "    ]\n}\n"
        return s
    }

    func sourceTypeFile() throws -> String {
        var s = Codegen.header + "\n"
        s += "/// The style spec's source types, in spec order, with the tables of their keys.\n"
        s += "public enum SourceType: String, CaseIterable, Sendable {\n"
        for (type, object) in spec.sources {
            s += "    /// A `\(type)` source (`\(object.key)` in the spec).\n"
            s += "    case \(caseDeclaration(type))\n"
        }
        s += "\n    /// The key tables of the source types.\n"
        s += "    static let tables: [any SourcePropertyTable.Type] = [\n" + wrapped(spec.sources.map { Self.sourceTableName($0.0) + ".self" }) + "    ]\n"
        s += "\n    /// The keys a source of this type may have (`type` first).\n"
        s += "    public var properties: [StyleProperty] { Self.tables.first { $0.sourceType == self }?.all ?? [] }\n"
        s += "    /// Whether the spec allows keys it does not list (`\"*\"`: vector and raster sources).\n"
        s += "    public var allowsOtherKeys: Bool { Self.tables.first { $0.sourceType == self }?.allowsOtherKeys ?? false }\n}\n"
        return s
    }

    /// A source or root object's table; `shared` names, per key, the table that declares it already.
    func objectTable(_ object: SpecModel.ObjectSpec, name: String, owner: String, title: String, sourceType: String? = nil,
                     shared: [String: String] = [:]) throws -> String {
        var s = Codegen.header + "import GLMapCore\n\n"
        s += "/// \(title): every key the style spec defines, as typed keys (`PropertyKey<T>`).\n"
        s += "public enum \(name): \(sourceType == nil ? "PropertyTable" : "SourcePropertyTable") {\n"
        var members: [String] = []
        for p in object.properties {
            let member = Self.memberName(p.name)
            guard !members.contains(member), member != "all" else { throw CodegenError("v8.json: \(p.name) gives \(name).\(member) twice") }
            members.append(member)
            if let table = shared[p.name] {
                s += "    /// \(SwiftNames.docText(p.summary.isEmpty ? "`\(p.name)`." : p.summary)) (The same key as `\(table)`'s.)\n"
                s += "    public static let \(SwiftNames.member(member)) = \(table).\(SwiftNames.member(member))\n"
            } else {
                s += try row(p, member: member, owner: owner, indent: "    ")
            }
        }
        s += "\n    /// Every key, in spec order.\n"
        s += "    public static let all: [StyleProperty] = [\n" + wrapped(members.map(SwiftNames.member)) + "    ]\n"
        s += "\n    /// Whether the spec allows keys it does not list (`\"*\"`).\n"
        s += "    public static let allowsOtherKeys = \(object.allowsOtherKeys)\n"
        if let sourceType {
            s += "    /// The source type of the table.\n"
            s += "    public static let sourceType = SourceType.\(SwiftNames.member(SwiftNames.lowerCamel(sourceType)))\n"
        }
        s += "}\n"
        return s
    }

    func enumsFile() -> String {
        var s = Codegen.header
        s += "// The style spec's enum values as Swift enums, shared by the style stage (typed keys) and the\n"
        s += "// typed Swift API. Naming rules: see EnumRegistry in Sources/GLMapCodegen.\n\n"
        for e in enums.enums {
            let used = e.properties.map { "`\($0)`" }.joined(separator: ", ")
            if e.properties.count == 1 {
                s += "/// \(SwiftNames.docText(e.summary.trimmingTrailingPeriod)) (\(used)).\n"
            } else {
                s += "/// The values of \(used).\n"
            }
            // The values with their docs as a list; the cases on one line (the enum reads as the
            // spec's list of values).
            s += "///\n"
            for v in e.values {
                var doc = v.doc.isEmpty ? "" : ": " + SwiftNames.firstSentence(v.doc)
                if e.properties.count > 1 && !v.doc.isEmpty { doc = " (`\(e.properties[0])`\(doc))" }
                s += "/// - `\(v.value)`\(SwiftNames.docText(doc))\n"
            }
            s += "public enum \(e.name): String, PropertyEnum { case \(e.values.map { caseDeclaration($0.value) }.joined(separator: ", ")) }\n\n"
        }
        s.removeLast()
        return s
    }

    func specificationFile() -> String {
        var s = Codegen.header + "\n"
        s += "/// Facts of the style specification the parser checks against, besides the property tables.\n"
        s += "public enum StyleSpecification {\n"
        s += "    /// The keys a layer object may have, in spec order.\n"
        s += "    public static let layerKeys: [String] = [" + spec.layerKeys.map(SwiftNames.stringLiteral).joined(separator: ", ") + "]\n"
        s += "    /// The expression operators of the spec, in spec order.\n"
        s += "    public static let expressionOperators: [String] = [\n" + wrapped(spec.expressionOperators.map(SwiftNames.stringLiteral)) + "    ]\n"
        s += "}\n"
        return s
    }

    /// Array elements, comma-separated, on lines of at most 110 characters indented by 8.
    func wrapped(_ items: [String]) -> String {
        var s = "", line = "       "
        for item in items {
            if line.count + item.count + 2 > 110 { s += line + "\n"; line = "       " }
            line += " \(item),"
        }
        return s + line + "\n"
    }

    // MARK: Rows

    /// One `public static let member = PropertyKey<T>(…)` line with its documentation.
    func row(_ p: SpecModel.Property, member: String, owner: String, indent: String) throws -> String {
        let types = try PropertyTypes(p, enumName: enums.name(owner: owner, p))
        var s = "\(indent)/// \(SwiftNames.docText(p.summary.isEmpty ? "`\(p.name)`." : p.summary))\n"
        s += "\(indent)///\n\(indent)/// \(facts(p))\n"
        // One line a row: the table reads as data, one property a line.
        s += "\(indent)public static let \(SwiftNames.member(member)) = PropertyKey<\(types.keyType)>("
        s += "\(SwiftNames.stringLiteral(p.name))\(p.isLayout ? ", layout: true" : ""), "
        s += "PropertySpec(" + (try specArguments(p, types)).joined(separator: ", ") + "))\n"
        return s
    }

    /// "`line-width`: paint, data-driven (zoom, feature, feature-state), interpolated, transition; default 1; minimum 0; pixels."
    func facts(_ p: SpecModel.Property) -> String {
        var parts: [String] = []
        var head = "`\(p.name)`: \(p.isLayout ? "layout" : (p.hasExpression ? "paint" : "key")), \(p.propertyType)"
        if !p.parameters.isEmpty { head += " (\(p.parameters.joined(separator: ", ")))" }
        if p.interpolated { head += ", interpolated" }
        if p.json["transition"]?.boolValue == true { head += ", transition" }
        parts.append(head)
        if let d = p.defaultValue { parts.append("default `\(d.jsonText)`") } else { parts.append("no default") }
        if p.json["required"]?.boolValue == true { parts.append("required") }
        if let m = p.json["minimum"]?.numberValue { parts.append("minimum \(JSONValue.formatNumber(m))") }
        if let m = p.json["maximum"]?.numberValue { parts.append("maximum \(JSONValue.formatNumber(m))") }
        if let u = p.json["units"]?.stringValue { parts.append(u) }
        return parts.joined(separator: "; ") + "."
    }

    func specArguments(_ p: SpecModel.Property, _ types: PropertyTypes) throws -> [String] {
        var args = ["type: \(types.styleType)", "kind: .\(SwiftNames.lowerCamel(p.propertyType))",
                    "parameters: [" + p.parameters.map { "." + SwiftNames.lowerCamel($0) }.joined(separator: ", ") + "]"]
        if p.interpolated { args.append("interpolated: true") }
        if let d = p.defaultValue { args.append("defaultValue: \(SwiftNames.jsonLiteral(d))") }
        if let m = p.json["minimum"]?.numberValue { args.append("minimum: \(JSONValue.formatNumber(m))") }
        if let m = p.json["maximum"]?.numberValue { args.append("maximum: \(JSONValue.formatNumber(m))") }
        if let u = p.json["units"]?.stringValue { args.append("units: \(SwiftNames.stringLiteral(u))") }
        if let period = p.json["period"]?.numberValue { args.append("period: \(JSONValue.formatNumber(period))") }
        if let r = p.json["requires"]?.arrayValue, !r.isEmpty {
            args.append("requires: [" + (try r.map { try requirement($0, p) }).joined(separator: ", ") + "]")
        }
        if p.json["tokens"]?.boolValue == true { args.append("tokens: true") }
        if p.json["overridable"]?.boolValue == true { args.append("overridable: true") }
        if p.json["transition"]?.boolValue == true { args.append("transition: true") }
        if p.json["required"]?.boolValue == true { args.append("required: true") }
        return args
    }

    /// A `requires` entry as a `PropertyRequirement` literal.
    func requirement(_ r: JSONValue, _ p: SpecModel.Property) throws -> String {
        switch r {
        case .string(let name): return ".present(\(SwiftNames.stringLiteral(name)))"
        case .object(let o):
            if o.count == 1, let absent = o["!"]?.stringValue { return ".absent(\(SwiftNames.stringLiteral(absent)))" }
            if let source = o["source"]?.stringValue {
                let has = o["has"]?.objectValue ?? JSONObject()
                return ".source(\(SwiftNames.stringLiteral(source)), has: \(SwiftNames.jsonLiteral(.object(has))))"
            }
            if o.count == 1, let (name, value) = o.pairs.first {
                let values: [JSONValue] = value.arrayValue ?? [value]
                return ".oneOf(\(SwiftNames.stringLiteral(name)), \(SwiftNames.jsonLiteral(.array(values))))"
            }
            throw CodegenError("v8.json: \(p.name): unknown requires entry \(r.jsonText)")
        default:
            throw CodegenError("v8.json: \(p.name): unknown requires entry \(r.jsonText)")
        }
    }
}

extension String {
    /// The text without one trailing period.
    var trimmingTrailingPeriod: String { hasSuffix(".") ? String(dropLast()) : self }
}
