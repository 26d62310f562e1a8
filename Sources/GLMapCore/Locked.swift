import Foundation

/// A value shared between threads behind a lock: every read and write goes through `withLock`.
///
/// The one lock box of the package; a class (not a struct) so that closures running on other
/// threads share the same value.
public final class Locked<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()

    /// Wraps `value`.
    public init(_ value: Value) { stored = value }

    /// Runs `body` with the value while holding the lock, and returns what `body` returns.
    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }

    /// A copy of the value, read under the lock.
    public var value: Value { withLock { $0 } }
}
