import GLMapCore

/// JSON values (feature properties, ids) read and written with Foundation's JSONDecoder/JSONEncoder.
extension JSONValue: Codable {
    /// Decodes any JSON value (booleans stay booleans, numbers stay numbers).
    public init(from decoder: Decoder) throws {
        if (try? decoder.container(keyedBy: JSONMemberKey.self)) != nil {
            self = .object(try JSONObject(from: decoder))
        } else if var c = try? decoder.unkeyedContainer() {
            var a: [JSONValue] = []
            while !c.isAtEnd { a.append(try c.decode(JSONValue.self)) }
            self = .array(a)
        } else {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let n = try? c.decode(Double.self) { self = .number(n) }
            else { self = .string(try c.decode(String.self)) }
        }
    }

    /// Encodes the JSON value (object members in their order).
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .object(let o): try o.encode(to: encoder)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for v in a { try c.encode(v) }
        case .null: var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b): var c = encoder.singleValueContainer(); try c.encode(b)
        case .number(let n): var c = encoder.singleValueContainer(); try c.encode(n)
        case .string(let s): var c = encoder.singleValueContainer(); try c.encode(s)
        }
    }
}

/// JSON objects (feature properties) read and written with Foundation's JSONDecoder/JSONEncoder.
extension JSONObject: Codable {
    /// Decodes a JSON object.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: JSONMemberKey.self)
        self.init()
        for k in c.allKeys { self[k.stringValue] = try c.decode(JSONValue.self, forKey: k) }
    }

    /// Encodes the members in their order.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: JSONMemberKey.self)
        for (k, v) in pairs { try c.encode(v, forKey: JSONMemberKey(stringValue: k)) }
    }
}

/// An object member's name as a coding key (JSON objects have string keys only).
private struct JSONMemberKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
