import GLMapCore

/// A Swift type that stands for a style-spec value as a style is written (number, boolean,
/// string, colour, array, enum): the values of the typed Swift API (`Value<T>` in GLMap).
public protocol StyleEncodable: Equatable, Sendable {
    /// The value as style JSON.
    var styleJSON: JSONValue { get }
    /// The value from style JSON; nil when the JSON is not of this type.
    init?(styleJSON: JSONValue)
}

/// A property table's value type (`PropertyKey<T>`'s `T`) with the type the typed API writes it
/// as: `Color` is written as a `StyleColor` (the text the user gave), `Formatted` and
/// `ResolvedImage` as strings, `Padding` as numbers; most types as themselves.
public protocol StyleAPIRepresentable {
    /// The typed API's type for values of this property type.
    associatedtype APIValue: StyleEncodable
}

extension Double: StyleEncodable, StyleAPIRepresentable {
    /// The typed API writes numbers as `Double`.
    public typealias APIValue = Double
    /// The value as style JSON.
    public var styleJSON: JSONValue { .number(self) }
    /// The value from style JSON (nil when of another kind).
    public init?(styleJSON: JSONValue) {
        guard case .number(let n) = styleJSON else { return nil }
        self = n
    }
}

extension Bool: StyleEncodable, StyleAPIRepresentable {
    /// The typed API writes booleans as `Bool`.
    public typealias APIValue = Bool
    /// The value as style JSON.
    public var styleJSON: JSONValue { .bool(self) }
    /// The value from style JSON (nil when of another kind).
    public init?(styleJSON: JSONValue) {
        guard case .bool(let b) = styleJSON else { return nil }
        self = b
    }
}

extension String: StyleEncodable, StyleAPIRepresentable {
    /// The typed API writes strings as `String`.
    public typealias APIValue = String
    /// The value as style JSON.
    public var styleJSON: JSONValue { .string(self) }
    /// The value from style JSON (nil when of another kind).
    public init?(styleJSON: JSONValue) {
        guard case .string(let s) = styleJSON else { return nil }
        self = s
    }
}

extension Array: StyleEncodable where Element: StyleEncodable {
    /// The value as style JSON.
    public var styleJSON: JSONValue { .array(map(\.styleJSON)) }
    /// The value from style JSON (nil when of another kind).
    public init?(styleJSON: JSONValue) {
        // An array whose first element is an operator name is an expression, not a constant.
        guard case .array(let a) = styleJSON else { return nil }
        if case .string(let s)? = a.first, StyleSpecification.isExpressionOperator(s), Element.self != String.self { return nil }
        var out: [Element] = []
        for v in a {
            guard let e = Element(styleJSON: v) else { return nil }
            out.append(e)
        }
        self = out
    }
}

extension Array: StyleAPIRepresentable where Element: StyleAPIRepresentable {
    /// An array of the element's typed-API type.
    public typealias APIValue = [Element.APIValue]
}

extension Optional: StyleAPIRepresentable where Wrapped: StyleAPIRepresentable {
    /// A property without a default is typed as its wrapped type (unset is the typed API's nil).
    public typealias APIValue = Wrapped.APIValue
}

extension PropertyEnum {
    /// The value as style JSON: its spec string.
    public var styleJSON: JSONValue { .string(rawValue) }
    /// The case whose spec string the JSON is (nil when of another kind).
    public init?(styleJSON: JSONValue) {
        guard case .string(let s) = styleJSON else { return nil }
        self.init(rawValue: s)
    }
}

extension VariableAnchorOffsetCollection: StyleEncodable, StyleAPIRepresentable {
    /// The typed API writes the collection as itself.
    public typealias APIValue = VariableAnchorOffsetCollection
    /// The value as style JSON: anchor names alternating with [x, y] offsets.
    public var styleJSON: JSONValue {
        .array(entries.flatMap { [.string($0.anchor.rawValue), .array($0.offset.map(JSONValue.number))] })
    }
    /// The value from style JSON (`["top", [0, 1], "left", [1, 0]]`); nil when of another form.
    public init?(styleJSON: JSONValue) { self.init(evaluated: Value(json: styleJSON)) }
}

extension JSONValue: StyleEncodable {
    /// The value as style JSON: itself.
    public var styleJSON: JSONValue { self }
    /// Any style JSON.
    public init?(styleJSON: JSONValue) { self = styleJSON }
}

extension Value: StyleAPIRepresentable {
    /// The typed API writes a value of any type (`*`, `promoteId`) as style JSON.
    public typealias APIValue = JSONValue
}

extension Formatted: StyleAPIRepresentable {
    /// The typed API writes a formatted value as a string (or a `format` expression).
    public typealias APIValue = String
}

extension ResolvedImage: StyleAPIRepresentable {
    /// The typed API writes an image name as a string (or an `image` expression).
    public typealias APIValue = String
}

extension Padding: StyleAPIRepresentable {
    /// The typed API writes padding as 1 to 4 numbers.
    public typealias APIValue = [Double]
}

/// A property table generated from the style spec (`FillProperties`, `LightProperties`, …).
public protocol PropertyTable {
    /// Every row of the table, in spec order.
    static var all: [StyleProperty] { get }
}

/// The key table of a source type (`VectorSourceProperties`, …).
public protocol SourcePropertyTable: PropertyTable {
    /// The source type whose keys the table lists.
    static var sourceType: SourceType { get }
    /// Whether the spec allows keys it does not list (`"*"`: vector and raster sources).
    static var allowsOtherKeys: Bool { get }
}

/// The property table of a layer type (`FillProperties`, `SymbolProperties`, …).
public protocol LayerPropertyTable: PropertyTable {
    /// The layer type whose properties the table lists.
    static var layerType: LayerType { get }
}

extension StyleSpecification {
    private static let operatorNames = Set(expressionOperators)
    /// Whether `name` is an expression operator of the spec (an array starting with it is an expression).
    public static func isExpressionOperator(_ name: String) -> Bool { operatorNames.contains(name) }
}
