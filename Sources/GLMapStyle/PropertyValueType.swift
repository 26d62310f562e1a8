import GLMapCore

/// A Swift type a typed property row (`PropertyKey<T>`) reads evaluated values as: numbers as
/// `Double`, colours as `Color`, enums as their generated Swift enum, arrays as arrays, and the
/// spec's compound types as `Formatted`, `ResolvedImage`, `Padding` and
/// `VariableAnchorOffsetCollection`. `Value` itself stands for `*` (any JSON).
public protocol PropertyValueType: Sendable {
    /// The Swift value of an evaluated style value; nil when `v` is not of this type.
    init?(evaluated v: Value)
}

extension Double: PropertyValueType {
    /// A number.
    public init?(evaluated v: Value) { guard case .number(let n) = v else { return nil }; self = n }
}

extension Bool: PropertyValueType {
    /// A boolean.
    public init?(evaluated v: Value) { guard case .boolean(let b) = v else { return nil }; self = b }
}

extension String: PropertyValueType {
    /// A string.
    public init?(evaluated v: Value) { guard case .string(let s) = v else { return nil }; self = s }
}

extension Color: PropertyValueType {
    /// A colour, or a CSS colour string (items of `colorArray` values are not coerced).
    public init?(evaluated v: Value) {
        switch v {
        case .color(let c): self = c
        case .string(let s): guard let c = Color(css: s) else { return nil }; self = c
        default: return nil
        }
    }
}

extension Value: PropertyValueType {
    /// Any value (the spec's `*`).
    public init?(evaluated v: Value) { self = v }
}

extension Array: PropertyValueType where Element: PropertyValueType {
    /// An array of `Element`s; a single `Element` is an array of one (the spec's `numberArray`
    /// and `colorArray` take either form).
    public init?(evaluated v: Value) {
        if case .array(let a) = v {
            var out: [Element] = []
            out.reserveCapacity(a.count)
            for item in a {
                guard let e = Element(evaluated: item) else { return nil }
                out.append(e)
            }
            self = out
        } else if let e = Element(evaluated: v) {
            self = [e]
        } else {
            return nil
        }
    }
}

extension Optional: PropertyValueType where Wrapped: PropertyValueType {
    /// nil for `null` (a property without a default, unset), else the wrapped value.
    public init?(evaluated v: Value) {
        if v == .null { self = .none; return }
        guard let w = Wrapped(evaluated: v) else { return nil }
        self = .some(w)
    }
}

/// A generated style enum (`LineCap`, `TranslateAnchor`, `TextAnchor`, …): the spec's string values.
/// The typed API writes it as itself.
public protocol PropertyEnum: PropertyValueType, StyleEncodable, StyleAPIRepresentable, RawRepresentable, CaseIterable, Hashable
    where RawValue == String, APIValue == Self {}

extension PropertyEnum {
    /// The case whose spec string `v` is.
    public init?(evaluated v: Value) {
        guard case .string(let s) = v else { return nil }
        self.init(rawValue: s)
    }
}
