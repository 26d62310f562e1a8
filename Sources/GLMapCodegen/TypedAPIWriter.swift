import GLMapCore

/// Writes `Sources/GLMap/StyleAPI/Generated/`: the typed layer, source and root-object names
/// (`FillLayer` = `TypedLayer<FillProperties>`, `VectorSource` = `TypedSource<VectorSourceProperties>`,
/// `Light` = `TypedRootObject<LightProperties>`) and
/// the re-export of the generated enums. The typed properties themselves are the rows of the
/// property tables (`layer.fillColor` reads `FillProperties.fillColor`), so nothing per property
/// is written here.
struct TypedAPIWriter {
    let spec: SpecModel
    let enums: EnumRegistry

    static let folder = "Sources/GLMap/StyleAPI/Generated"
    /// The root objects with a typed name (their properties take expressions).
    static let rootStructs = ["light": "Light", "sky": "Sky"]

    func files() throws -> [GeneratedFile] {
        [GeneratedFile(path: "\(Self.folder)/TypedLayers.swift", contents: try typesFile()),
         GeneratedFile(path: "\(Self.folder)/StyleEnums+GLMap.swift", contents: enumsFile())]
    }

    func typesFile() throws -> String {
        var s = Codegen.header + "import GLMapStyle\n\n"
        for layer in spec.layers {
            let table = StyleTablesWriter.tableName(layer.type)
            let examples = layer.properties.filter { $0.name != "visibility" }.prefix(2).map { "`layer.\(StyleTablesWriter.memberName($0.name))`" }
            s += "/// A `\(layer.type)` layer (\(SwiftNames.docText(layer.summary.trimmingTrailingPeriod))): its properties are the rows of\n"
            s += "/// `\(table)`, by the same names (\(examples.joined(separator: ", ")), …).\n"
            s += "public typealias \(SwiftNames.upperCamel(layer.type))Layer = TypedLayer<\(table)>\n"
        }
        for (type, _) in spec.sources where type != "geojson" {
            let table = StyleTablesWriter.sourceTableName(type)
            let name = type == "raster-dem" ? "RasterDemSource" : SwiftNames.upperCamel(type) + "Source"
            s += "/// A `\(type)` source: its keys are the rows of `\(table)`, by the same names.\n"
            s += "public typealias \(name) = TypedSource<\(table)>\n"
        }
        for object in spec.roots {
            guard let name = Self.rootStructs[object.key] else { continue }
            for p in object.properties where !p.hasExpression {
                throw CodegenError("v8.json: \(object.key).\(p.name) takes no expressions; \(name) types every property as Value<T>")
            }
            let table = SwiftNames.upperCamel(object.key) + "Properties"
            s += "/// The style's `\(object.key)`: its properties are the rows of `\(table)`, by the same names.\n"
            s += "public typealias \(name) = TypedRootObject<\(table)>\n"
        }
        return s
    }

    func enumsFile() -> String {
        var s = Codegen.header
        s += "// The generated style enums (GLMapStyle), re-exported to `import GLMap` users as typed-API values.\n"
        for e in enums.enums { s += "@_exported import enum GLMapStyle.\(e.name)\n" }
        return s
    }
}
