import GLMapCore

/// The static type of an expression, as the style specification's type checker sees it.
public indirect enum ExpressionType: Equatable, Sendable, CustomStringConvertible {
    /// The type of `null`.
    case null
    /// A number (Double).
    case number
    /// A string.
    case string
    /// `true` or `false`.
    case boolean
    /// A colour (`Color`, premultiplied).
    case color
    /// A JSON object.
    case object
    /// Any value; checked at run time.
    case value
    /// The type of an expression that always fails (`error`); a subtype of everything.
    case error
    /// `array<item, length?>`.
    case array(ExpressionType, length: Int?)
    /// A `formatted` text (`format`).
    case formatted
    /// An image name (`image`).
    case resolvedImage

    /// `array` of values with no length.
    public static let anyArray = ExpressionType.array(.value, length: nil)

    /// The spelling used in messages and in the conformance fixtures: `array<number, 2>`, `array`, …
    public var description: String {
        switch self {
        case .null: return "null"
        case .number: return "number"
        case .string: return "string"
        case .boolean: return "boolean"
        case .color: return "color"
        case .object: return "object"
        case .value: return "value"
        case .error: return "error"
        case .formatted: return "formatted"
        case .resolvedImage: return "resolvedImage"
        case .array(let item, let n):
            if let n { return "array<\(item), \(n)>" }
            if case .value = item { return "array" }
            return "array<\(item)>"
        }
    }

    /// The kind name alone (`array` for every array type).
    var kindName: String {
        if case .array = self { return "array" }
        return description
    }

    /// Whether two types have the same kind (ignoring array item types and lengths).
    func sameKind(_ other: ExpressionType) -> Bool {
        switch (self, other) {
        case (.array, .array): return true
        default: return self == other
        }
    }

    /// Returns nil when `t` is a subtype of `self`, otherwise the mismatch message.
    func subtypeError(_ t: ExpressionType) -> String? {
        isSupertype(of: t) ? nil : "Expected \(self) but found \(t) instead."
    }

    /// The style specification's subtyping rule (`checkSubtype`).
    func isSupertype(of t: ExpressionType) -> Bool {
        if case .error = t { return true }
        switch self {
        case .array(let item, let n):
            guard case .array(let titem, let tn) = t else { return false }
            let itemOK = (tn == 0 && titem == .value) || item.isSupertype(of: titem)
            return itemOK && (n == nil || n == tn)
        case .value:
            switch t {
            case .null, .number, .string, .boolean, .color, .object, .value, .formatted, .resolvedImage: return true
            case .array(let item, _): return ExpressionType.value.isSupertype(of: item)
            case .error: return true
            }
        default:
            return sameKind(t)
        }
    }

    /// The expected type of an expression compiled for a property of this type (strings and values
    /// are coerced to `formatted` and `resolvedImage`, as in MapLibre); `padding`, `numberArray`, `colorArray` and
    /// `variableAnchorOffsetCollection` (a value or an array) expect any value, their constants
    /// checked by the parser.
    init(_ propertyType: PropertyType) {
        switch propertyType {
        case .number: self = .number
        case .string, .enum: self = .string
        case .formatted: self = .formatted
        case .resolvedImage: self = .resolvedImage
        case .padding, .numberArray, .colorArray, .variableAnchorOffsetCollection: self = .value
        case .boolean: self = .boolean
        case .color: self = .color
        case .array(let item, let n):
            let itemType: ExpressionType
            switch item {
            case .number: itemType = .number
            case .string, .enum: itemType = .string
            case .boolean: itemType = .boolean
            default: itemType = .value
            }
            self = .array(itemType, length: n)
        case .value: self = .value
        }
    }
}

extension Value {
    /// The run-time type of a value (`typeOf` in the specification).
    public var expressionType: ExpressionType {
        switch self {
        case .null: return .null
        case .boolean: return .boolean
        case .number: return .number
        case .string: return .string
        case .color: return .color
        case .object: return .object
        case .formatted: return .formatted
        case .image: return .resolvedImage
        case .array(let items):
            var itemType: ExpressionType?
            for item in items {
                let t = item.expressionType
                guard let current = itemType else { itemType = t; continue }
                // Item types are compared by identity upstream: two array item types never match.
                if case .array = t { itemType = .value; break }
                if current == t { continue }
                itemType = .value
                break
            }
            return .array(itemType ?? .value, length: items.count)
        }
    }
}
