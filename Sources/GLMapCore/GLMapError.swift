/// How a failure maps to the CLI's exit code (1 render/IO failure, 2 invalid input or usage).
public enum FailureKind: Sendable {
    /// Bad input or usage: exit code 2.
    case invalidInput
    /// A render or input/output failure: exit code 1.
    case renderOrIO

    /// The CLI's exit code for this kind: 2 for invalid input, 1 otherwise.
    public var exitCode: Int32 { self == .invalidInput ? 2 : 1 }
}

/// An error a person can act on: where (file, JSON path, line:column, the EGL/GL call) and what.
public protocol GLMapError: Error, CustomStringConvertible {
    /// Whether the failure is bad input (exit 2) or a render/IO failure (exit 1).
    var kind: FailureKind { get }
}

/// An input/output failure (reading a file, writing the PNG).
public struct IOFailure: GLMapError {
    /// The file that could not be read or written.
    public var path: String
    /// What failed, usually with the system's reason (`strerror`).
    public var message: String
    /// Always `.renderOrIO` (exit code 1).
    public var kind: FailureKind { .renderOrIO }
    /// `path: message`.
    public var description: String { "\(path): \(message)" }
    /// A failure of the file at `path`.
    public init(path: String, message: String) { self.path = path; self.message = message }
}

/// Invalid input that is not tied to a JSON path (e.g. a bad command-line value).
public struct InputFailure: GLMapError {
    /// What is wrong and what was expected.
    public var message: String
    /// Always `.invalidInput` (exit code 2).
    public var kind: FailureKind { .invalidInput }
    /// The message.
    public var description: String { message }
    /// An input failure with this message.
    public init(_ message: String) { self.message = message }
}
