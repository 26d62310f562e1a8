/// A value handed to concurrent workers that each touch a disjoint part of it (a buffer's base
/// address split into ranges): the caller guarantees the disjointness the compiler cannot see.
public struct UnsafeSendable<Value>: @unchecked Sendable {
    /// The wrapped value.
    public let value: Value
    /// Wraps `value`.
    public init(_ value: Value) { self.value = value }
}
