import GLMapCore
import GLMapStyle

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

extension StyleColor: StyleEncodable {
    /// The value as style JSON.
    public var styleJSON: JSONValue { .string(rawValue) }
    /// The value from style JSON (nil when of another kind).
    public init?(styleJSON: JSONValue) {
        guard case .string(let s) = styleJSON else { return nil }
        self.init(rawValue: s)
    }
}

extension Color: StyleAPIRepresentable {
    /// The typed API writes colours as `StyleColor` (the text given is written back as given).
    public typealias APIValue = StyleColor
}
