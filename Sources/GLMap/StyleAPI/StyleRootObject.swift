// StyleRootObject — the typed root objects of a style (`Light`, `Sky`: `TypedRootObject` over
// their generated property tables). Like a layer's, their properties are the table rows, read and
// written by the rows' names (`light.anchor`, `sky.skyColor`) and kept as style JSON.
import GLMapCore
import GLMapStyle

/// A typed root object of a style (`light`, `sky`): every property a `Value<T>?`, bound to its
/// row of the generated property table.
public protocol StyleRootObject: Sendable {
    /// The object with every property unset (the spec defaults).
    init()
    /// The properties that are set, as style JSON by spec name.
    var styleValues: [String: JSONValue] { get set }
    /// Every property of the object (its property table's rows).
    static var propertyTable: [StyleProperty] { get }
}

/// A typed root object over its generated property table `Table`: `light.anchor = .constant(.map)`
/// sets `LightProperties.anchor`; `Light().anchor(.map)` is the builder form.
@dynamicMemberLookup
public struct TypedRootObject<Table: PropertyTable>: StyleRootObject, TypedPropertyRows, Equatable, Codable {
    /// The properties that are set, as style JSON by spec name.
    public var styleValues: [String: JSONValue] = [:]
    /// The object with every property unset (the spec defaults).
    public init() {}
    /// The rows of `Table`.
    public static var propertyTable: [StyleProperty] { Table.all }

    /// Reads the object from a decoder holding its style-JSON object.
    public init(from decoder: any Decoder) throws { self = try Self.decodeObject(from: decoder) }
    /// Writes the object's style-JSON object to an encoder.
    public func encode(to encoder: any Encoder) throws { try JSONValue.object(styleJSONObject).encode(to: encoder) }
}

extension StyleRootObject {
    /// The object as a style JSON object (set properties only, in table order).
    var styleJSONObject: JSONObject {
        var o = JSONObject()
        for row in Self.propertyTable {
            if let v = styleValues[row.name] { o[row.name] = v }
        }
        return o
    }

    /// The object as style JSON text.
    public var styleJSON: String { JSONValue.object(styleJSONObject).jsonText }

    /// Reads the object from its style JSON object; `path` names it in errors.
    static func decode(_ o: JSONObject, path: String) throws -> Self {
        var object = Self()
        try decodeStyleValues(o, table: propertyTable, layout: nil, path: path, into: &object.styleValues)
        return object
    }

    /// Reads the object from a decoder holding its style-JSON object (`Codable`).
    static func decodeObject(from decoder: any Decoder) throws -> Self {
        try decodeStyleObject(from: decoder, kind: "a style root object", decode)
    }
}
