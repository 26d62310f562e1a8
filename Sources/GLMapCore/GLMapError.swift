/// How a failure maps to the CLI's exit code (1 render/IO failure, 2 invalid input or usage).
public enum FailureKind: Sendable {
    case invalidInput
    case renderOrIO

    public var exitCode: Int32 { self == .invalidInput ? 2 : 1 }
}

/// An error a person can act on: where (file, JSON path, line:column, the EGL/GL call) and what.
public protocol GLMapError: Error, CustomStringConvertible {
    var kind: FailureKind { get }
}

/// An input/output failure (reading a file, writing the PNG).
public struct IOFailure: GLMapError {
    public var path: String
    public var message: String
    public var kind: FailureKind { .renderOrIO }
    public var description: String { "\(path): \(message)" }
    public init(path: String, message: String) { self.path = path; self.message = message }
}

/// Invalid input that is not tied to a JSON path (e.g. a bad command-line value).
public struct InputFailure: GLMapError {
    public var message: String
    public var kind: FailureKind { .invalidInput }
    public var description: String { message }
    public init(_ message: String) { self.message = message }
}
