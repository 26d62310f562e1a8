// StyleRootObject — the typed root objects of a style (Light, Sky; generated into Generated/):
// their properties, like a layer's, go to and from style JSON through their property-table rows.
import GLMapCore
import GLMapStyle

/// A typed root object of a style (`light`, `sky`): every property a `Value<T>?`, bound to its
/// row of the generated property table.
public protocol StyleRootObject: Sendable {
    /// The object with every property unset (the spec defaults).
    init()
    /// Each typed property with the property-table row it stands for.
    static var properties: [LayerPropertyBinding<Self>] { get }
}

extension StyleRootObject {
    /// The object as a style JSON object (set properties only).
    var styleJSONObject: JSONObject {
        var o = JSONObject()
        for binding in Self.properties {
            if let v = binding.encode(self) { o[binding.property.name] = v }
        }
        return o
    }

    /// The object as style JSON text.
    public var styleJSON: String { JSONValue.object(styleJSONObject).jsonText }

    /// Reads the object from its style JSON object; `path` names it in errors.
    static func decode(_ o: JSONObject, path: String) throws -> Self {
        var object = Self()
        for (name, v) in o.pairs {
            guard let b = Self.properties.first(where: { $0.property.name == name }) else {
                throw StyleError(file: nil, issues: [StyleIssue(path: "\(path).\(name)", message: "unknown property")])
            }
            guard b.decode(&object, v) else {
                throw StyleError(file: nil, issues: [StyleIssue(path: "\(path).\(name)", message: "\(v.shortText) is not representable as a typed value (a legacy function?)")])
            }
        }
        return object
    }

    /// Reads the object from a decoder holding its style-JSON object (`Codable`).
    static func decodeObject(from decoder: any Decoder) throws -> Self {
        let json = try JSONValue(from: decoder)
        guard case .object(let o) = json else {
            throw DecodingError.typeMismatch(JSONObject.self, .init(codingPath: decoder.codingPath, debugDescription: "expected a JSON object, found \(json.shortText)"))
        }
        do {
            return try decode(o, path: decoder.codingPath.map(\.stringValue).joined(separator: "."))
        } catch let e as StyleError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: e.description, underlyingError: e))
        }
    }

    /// Writes the object's style JSON to an encoder.
    func encodeObject(to encoder: any Encoder) throws { try JSONValue.object(styleJSONObject).encode(to: encoder) }
}
