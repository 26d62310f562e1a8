// Layer — the typed style layers: `TypedLayer<Table>` over a generated property table
// (`FillLayer` = `TypedLayer<FillProperties>`, one name per layer type of the spec, generated into
// Generated/ by glmap-codegen), and the typed root objects (`TypedRootObject`: Light, Sky).
// A typed property is its table row: `layer.fillColor` reads and writes `FillProperties.fillColor`
// through dynamic member lookup, typed `Value<StyleColor>?`; `layer.fillColor(.red)` is the
// builder form. Values are kept as style JSON by spec name, so encoding, decoding (also through
// Codable), paint/layout placement and the names come from the property tables: one declaration
// per property, the table row.
import GLMapCore
import GLMapStyle

/// A typed style layer that a `Snapshotter` can add, update and draw (`FillLayer`, `LineLayer`,
/// `SymbolLayer`, …: each a `TypedLayer` over its layer type's property table).
public protocol Layer: Sendable {
    /// The layer's unique id in the style.
    var id: String { get set }
    /// The layer type (`fill`, `line`, `symbol`, …).
    var type: LayerType { get }
    /// The source id (nil for background layers).
    var source: String? { get set }
    /// The layer of a vector source to draw (`source-layer`; nil for GeoJSON sources and background layers).
    var sourceLayer: String? { get set }
    /// Which features are drawn.
    var filter: Exp? { get set }
    /// The lowest zoom at which the layer is drawn (inclusive).
    var minZoom: Double? { get set }
    /// The zoom from which the layer is no longer drawn (exclusive).
    var maxZoom: Double? { get set }
    /// `visibility` (layout): whether the layer is drawn: `.visible` (default) or `.none`.
    var visibility: Value<Visibility>? { get set }
    /// The layout and paint properties that are set, as style JSON by spec name (`"fill-color"`).
    var styleValues: [String: JSONValue] { get set }
    /// Every layout and paint property of the layer type (its property table's rows).
    static var propertyTable: [StyleProperty] { get }
    /// A layer with only an id (every property unset).
    init(id: String)
}

/// A typed style layer over the generated property table `Table` of its layer type. Each row of the
/// table is a typed property by the row's name: `layer.fillColor = .constant(StyleColor(.red))`
/// sets `FillProperties.fillColor`; `layer.fillColor(.red)` returns a copy with it set (as the
/// Mapbox Maps SDK's style DSL writes it). Unset properties (nil) use the spec default.
@dynamicMemberLookup
public struct TypedLayer<Table: LayerPropertyTable>: Layer, TypedPropertyRows, Equatable, Codable {
    /// The layer's unique id in the style.
    public var id: String
    private var sourceKeys: (source: String?, sourceLayer: String?, filter: Exp?) = (nil, nil, nil)
    /// The id of the source whose features are drawn (always nil for background layers: they have none).
    public var source: String? {
        get { sourceKeys.source }
        set { if Table.layerType != .background { sourceKeys.source = newValue } }
    }
    /// The layer of a vector source to draw (`source-layer`); nil for sources without layers (GeoJSON).
    public var sourceLayer: String? {
        get { sourceKeys.sourceLayer }
        set { if Table.layerType != .background { sourceKeys.sourceLayer = newValue } }
    }
    /// Which features are drawn (an expression or a legacy filter such as `["==", "$type", "Polygon"]`).
    public var filter: Exp? {
        get { sourceKeys.filter }
        set { if Table.layerType != .background { sourceKeys.filter = newValue } }
    }
    /// The lowest zoom at which the layer is drawn (inclusive).
    public var minZoom: Double?
    /// The zoom from which the layer is no longer drawn (exclusive).
    public var maxZoom: Double?
    /// The layout and paint properties that are set, as style JSON by spec name.
    public var styleValues: [String: JSONValue] = [:]

    /// A layer with only an id (set `source` before adding it, except for background layers).
    public init(id: String) { self.id = id }
    /// A layer drawing the features of `source`.
    public init(id: String, source: String) { self.id = id; self.source = source }

    /// Layers are equal when every key and property is.
    public static func == (a: Self, b: Self) -> Bool {
        a.id == b.id && a.sourceKeys == b.sourceKeys && a.minZoom == b.minZoom && a.maxZoom == b.maxZoom && a.styleValues == b.styleValues
    }

    /// The layer type of `Table`.
    public var type: LayerType { Table.layerType }
    /// The rows of `Table`: every layout and paint property of the layer type.
    public static var propertyTable: [StyleProperty] { Table.all }

    /// `visibility` (layout): whether the layer is drawn: `.visible` (default) or `.none`.
    public var visibility: Value<Visibility>? {
        get { styleValues.typed(StyleProperty.visibility) }
        set { styleValues.setTyped(StyleProperty.visibility, newValue) }
    }

    /// Reads the layer from its style-JSON object (as `JSONDecoder` decodes it).
    public init(from decoder: any Decoder) throws { self = try Self.decodeLayer(from: decoder) }
    /// Writes the layer as its style-JSON object (as `JSONEncoder` encodes it).
    public func encode(to encoder: any Encoder) throws { try encodeLayer(to: encoder) }
}

/// A typed style object whose properties are the rows of `Table`, kept as style JSON by spec name
/// (`TypedLayer`, `TypedRootObject`): each row reads and writes by dynamic member, typed
/// (`layer.fillColor`, `light.intensity`) or in builder form (`layer.fillColor(.red)`).
public protocol TypedPropertyRows {
    /// The generated property table whose rows the object has.
    associatedtype Table: PropertyTable
    /// The properties that are set, as style JSON by spec name.
    var styleValues: [String: JSONValue] { get set }
}

extension TypedPropertyRows {
    /// The typed property of the table row `key` (`layer.fillColor` for `FillProperties.fillColor`).
    public subscript<T: StyleAPIRepresentable>(dynamicMember key: KeyPath<Table.Type, PropertyKey<T>>) -> Value<T.APIValue>? {
        get { styleValues.typed(Table.self[keyPath: key]) }
        set { styleValues.setTyped(Table.self[keyPath: key], newValue) }
    }

    /// The builder form of the row `key`: `layer.fillColor(.red)` or `Light().intensity(0.5)` is a
    /// copy with it set.
    @_disfavoredOverload
    public subscript<T: StyleAPIRepresentable>(dynamicMember key: KeyPath<Table.Type, PropertyKey<T>>) -> PropertySetter<Self, T.APIValue> {
        PropertySetter(self, Table.self[keyPath: key]) { $0.styleValues.setTyped($1, $2) }
    }
}

/// A property of a typed layer or root object in builder form: call it with a constant or an
/// expression for a copy of the owner with the property set.
public struct PropertySetter<Owner, T: StyleEncodable> {
    let owner: Owner
    let property: StyleProperty
    let set: (inout Owner, StyleProperty, Value<T>) -> Void

    init(_ owner: Owner, _ property: StyleProperty, set: @escaping (inout Owner, StyleProperty, Value<T>) -> Void) {
        self.owner = owner
        self.property = property
        self.set = set
    }

    /// A copy of the owner with the property set to a constant.
    public func callAsFunction(_ constant: T) -> Owner { var o = owner; set(&o, property, .constant(constant)); return o }
    /// A copy of the owner with the property set to an expression.
    public func callAsFunction(_ expression: Exp) -> Owner { var o = owner; set(&o, property, .expression(expression)); return o }
}

extension [String: JSONValue] {
    /// The value of a row as a typed value (nil when unset or not representable).
    func typed<T: StyleEncodable>(_ property: StyleProperty) -> GLMap.Value<T>? {
        self[property.name].flatMap(GLMap.Value<T>.init(json:))
    }

    /// Sets (or with nil removes) the value of a row.
    mutating func setTyped<T: StyleEncodable>(_ property: StyleProperty, _ value: GLMap.Value<T>?) {
        self[property.name] = value?.json
    }
}

/// A table row that checks style JSON against its typed-API type.
protocol TypedRow {
    /// The JSON to keep for `json` (a single value made an array of one where the spec allows
    /// either form: `padding`, `numberArray`, `colorArray`); nil when it is not a value of the row.
    func accepted(_ json: JSONValue) -> JSONValue?
}

extension PropertyKey: TypedRow where T: StyleAPIRepresentable {
    func accepted(_ json: JSONValue) -> JSONValue? {
        if Value<T.APIValue>(json: json) != nil { return json }
        switch spec.type {
        case .padding, .numberArray, .colorArray:
            switch json {
            case .number, .string:
                let one = JSONValue.array([json])
                return Value<T.APIValue>(json: one) != nil ? one : nil
            default:
                return nil
            }
        default:
            return nil
        }
    }
}

/// Reads the properties of a style-JSON object (`values`) into a typed owner's `styleValues`,
/// checking each against its row of `table`; `path` names them in errors.
/// Keys the table does not list are kept as they are with `otherKeys` (vector and raster sources
/// allow them), else an error.
func decodeStyleValues(_ values: JSONObject, table: [StyleProperty], layout: Bool?, otherKeys: Bool = false, path: String,
                       into out: inout [String: JSONValue]) throws {
    for (name, v) in values.pairs {
        if layout != nil && name.hasSuffix("-transition") { continue }
        guard let row = table.first(where: { $0.name == name && (layout == nil || $0.isLayout == layout) }) else {
            if otherKeys { out[name] = v; continue }
            throw StyleError(file: nil, issues: [StyleIssue(path: "\(path).\(name)", message: "unknown property")])
        }
        guard let json = (row as? any TypedRow)?.accepted(v) else {
            throw StyleError(file: nil, issues: [StyleIssue(path: "\(path).\(name)",
                                                            message: "\(v.shortText) is not representable as a typed value (a legacy function?)")])
        }
        out[name] = json
    }
}

extension Layer {
    /// A copy with `filter` set.
    public func filter(_ filter: Exp) -> Self { var l = self; l.filter = filter; return l }
    /// A copy with `minZoom` set.
    public func minZoom(_ zoom: Double) -> Self { var l = self; l.minZoom = zoom; return l }
    /// A copy with `maxZoom` set.
    public func maxZoom(_ zoom: Double) -> Self { var l = self; l.maxZoom = zoom; return l }
    /// A copy with `visibility` set.
    public func visibility(_ visibility: Visibility) -> Self { var l = self; l.visibility = .constant(visibility); return l }
    /// A copy with `source` set.
    public func source(_ source: String) -> Self { var l = self; l.source = source; return l }
    /// A copy with `sourceLayer` (`source-layer`) set.
    public func sourceLayer(_ sourceLayer: String) -> Self { var l = self; l.sourceLayer = sourceLayer; return l }

    /// The layer as a style JSON object (`id`, `type`, `source`, `filter`, zooms, `layout`, `paint`).
    var styleJSONObject: JSONObject {
        var o = JSONObject()
        o["id"] = .string(id)
        o["type"] = .string(type.rawValue)
        if let source { o["source"] = .string(source) }
        if let sourceLayer { o["source-layer"] = .string(sourceLayer) }
        if let filter { o["filter"] = filter.json }
        if let minZoom { o["minzoom"] = .number(minZoom) }
        if let maxZoom { o["maxzoom"] = .number(maxZoom) }
        var layout = JSONObject(), paint = JSONObject()
        for row in Self.propertyTable {
            guard let v = styleValues[row.name] else { continue }
            if row.isLayout { layout[row.name] = v } else { paint[row.name] = v }
        }
        if !layout.isEmpty { o["layout"] = .object(layout) }
        if !paint.isEmpty { o["paint"] = .object(paint) }
        return o
    }

    /// The layer as style JSON text.
    public var styleJSON: String { JSONValue.object(styleJSONObject).jsonText }

    /// Reads a typed layer from a (validated) style layer object; `path` names it in errors.
    static func decode(_ o: JSONObject, path: String) throws -> Self {
        func fail(_ key: String, _ message: String) -> StyleError {
            StyleError(file: nil, issues: [StyleIssue(path: "\(path).\(key)", message: message)])
        }
        guard case .string(let id)? = o["id"] else { throw fail("id", "expected a string") }
        guard o["type"]?.stringValue == Self(id: id).type.rawValue else {
            throw fail("type", "layer \"\(id)\" is a \(o["type"]?.stringValue ?? "?") layer, not \(Self(id: id).type.rawValue)")
        }
        var layer = Self(id: id)
        if case .string(let s)? = o["source"] { layer.source = s }
        if case .string(let s)? = o["source-layer"] { layer.sourceLayer = s }
        if let f = o["filter"] {
            guard let e = Exp(json: f) else { throw fail("filter", "a filter of \(f.shortText) is not representable as Exp") }
            layer.filter = e
        }
        if case .number(let z)? = o["minzoom"] { layer.minZoom = z }
        if case .number(let z)? = o["maxzoom"] { layer.maxZoom = z }
        for group in ["layout", "paint"] {
            guard case .object(let values)? = o[group] else { continue }
            try decodeStyleValues(values, table: Self.propertyTable, layout: group == "layout", path: "\(path).\(group)", into: &layer.styleValues)
        }
        return layer
    }
}

extension Layer {
    /// Reads the layer from a decoder holding its style-JSON object (`Codable` conformance of the
    /// generated layer types).
    static func decodeLayer(from decoder: any Decoder) throws -> Self {
        try decodeStyleObject(from: decoder, kind: "a style layer", decode)
    }

    /// Writes the layer's style-JSON object to an encoder.
    func encodeLayer(to encoder: any Encoder) throws { try JSONValue.object(styleJSONObject).encode(to: encoder) }
}

extension JSONValue {
    /// A value shortened for messages.
    var shortText: String {
        let t = jsonText
        return t.count > 60 ? String(t.prefix(57)) + "…" : t
    }
}

/// Reads a typed value from a decoder holding its style-JSON object (`kind` names it in the
/// error when the JSON is no object); `decode` reads the object, its errors become `DecodingError`s.
func decodeStyleObject<T>(from decoder: any Decoder, kind: String, _ decode: (JSONObject, String) throws -> T) throws -> T {
    let json = try JSONValue(from: decoder)
    guard case .object(let o) = json else {
        throw DecodingError.typeMismatch(JSONObject.self, .init(codingPath: decoder.codingPath, debugDescription: "\(kind) is a JSON object, found \(json.shortText)"))
    }
    do {
        return try decode(o, decoder.codingPath.map(\.stringValue).joined(separator: "."))
    } catch let e as StyleError {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: e.description, underlyingError: e))
    }
}

/// Where `addLayer` puts a layer in the draw order.
public enum LayerPosition: Equatable, Sendable {
    /// On top of every layer.
    case `default`
    /// Just above the layer with this id.
    case above(String)
    /// Just below the layer with this id.
    case below(String)
    /// At this index in the draw order (0 is drawn first, at the bottom).
    case at(Int)
}
