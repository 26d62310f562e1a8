import GLMapCore

/// A style property value: a constant or an expression.
public enum Value<T: StyleEncodable>: Equatable, Sendable {
    /// A value that is the same everywhere.
    case constant(T)
    /// A value computed per zoom or feature.
    case expression(Exp)

    var json: JSONValue {
        switch self {
        case .constant(let v): return v.styleJSON
        case .expression(let e): return e.json
        }
    }

    /// Reads a value back from style JSON: an array starting with an operator is an expression,
    /// anything else a constant of `T` (nil when it is neither).
    init?(json: JSONValue) {
        if let c = T(styleJSON: json) {
            self = .constant(c)
        } else if let e = Exp(json: json) {
            self = .expression(e)
        } else {
            return nil
        }
    }
}

/// A Swift type that stands for a style-spec value (number, boolean, string, colour, array, enum).
public protocol StyleEncodable: Equatable, Sendable {
    /// The value as style JSON.
    var styleJSON: JSONValue { get }
    /// The value from style JSON; nil when the JSON is not of this type.
    init?(styleJSON: JSONValue)
}

extension Double: StyleEncodable {
    /// The value as style JSON.
    public var styleJSON: JSONValue { .number(self) }
    /// The value from style JSON (nil when of another kind).
    public init?(styleJSON: JSONValue) {
        guard case .number(let n) = styleJSON else { return nil }
        self = n
    }
}

extension Bool: StyleEncodable {
    /// The value as style JSON.
    public var styleJSON: JSONValue { .bool(self) }
    /// The value from style JSON (nil when of another kind).
    public init?(styleJSON: JSONValue) {
        guard case .bool(let b) = styleJSON else { return nil }
        self = b
    }
}

extension String: StyleEncodable {
    /// The value as style JSON.
    public var styleJSON: JSONValue { .string(self) }
    /// The value from style JSON (nil when of another kind).
    public init?(styleJSON: JSONValue) {
        guard case .string(let s) = styleJSON else { return nil }
        self = s
    }
}

extension StyleColor: StyleEncodable {
    /// The value as style JSON.
    public var styleJSON: JSONValue { .string(rawValue) }
    /// The value from style JSON (nil when of another kind).
    public init?(styleJSON: JSONValue) {
        guard case .string(let s) = styleJSON else { return nil }
        self.init(rawValue: s)
    }
}

extension Array: StyleEncodable where Element: StyleEncodable {
    /// The value as style JSON.
    public var styleJSON: JSONValue { .array(map(\.styleJSON)) }
    /// The value from style JSON (nil when of another kind).
    public init?(styleJSON: JSONValue) {
        // An array whose first element is an operator name is an expression, not a constant.
        guard case .array(let a) = styleJSON else { return nil }
        if case .string(let s)? = a.first, Exp.Operator(rawValue: s) != nil, Element.self != String.self { return nil }
        var out: [Element] = []
        for v in a {
            guard let e = Element(styleJSON: v) else { return nil }
            out.append(e)
        }
        self = out
    }
}

/// A style enum (`line-cap`, `visibility`, anchors…): encodes as its spec string.
public protocol StyleEnum: StyleEncodable, RawRepresentable, CaseIterable where RawValue == String {}

extension StyleEnum {
    /// The value as style JSON.
    public var styleJSON: JSONValue { .string(rawValue) }
    /// The value from style JSON (nil when of another kind).
    public init?(styleJSON: JSONValue) {
        guard case .string(let s) = styleJSON else { return nil }
        self.init(rawValue: s)
    }
}
