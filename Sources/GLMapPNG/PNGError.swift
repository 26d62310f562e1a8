import GLMapCore

/// A PNG encode, decode, read or write failure, naming the file (when there is one) and libpng's message.
public struct PNGError: GLMapError {
    /// What was being done when the failure happened.
    public enum Operation: String, Sendable {
        /// Encoding pixels to PNG bytes, decoding PNG bytes, reading a file, writing a file.
        case encode, decode, read, write
    }

    /// The step that failed.
    public var operation: Operation
    /// The file involved; `nil` for in-memory encoding/decoding.
    public var path: String?
    /// What went wrong (libpng's message or the system error), in words a person can act on.
    public var message: String

    /// Creates an error for `operation` on `path` (nil for in-memory data).
    public init(_ operation: Operation, path: String?, message: String) {
        self.operation = operation
        self.path = path
        self.message = message
    }

    /// `.invalidInput` for data that is not a decodable PNG; `.renderOrIO` for reading, writing
    /// and encoding failures.
    public var kind: FailureKind { operation == .decode ? .invalidInput : .renderOrIO }

    /// `path: cannot write PNG: message` (the step in words; no path for in-memory data).
    public var description: String {
        let what: String
        switch operation {
        case .encode: what = "cannot encode PNG"
        case .decode: what = "not a decodable PNG"
        case .read: what = "cannot read PNG"
        case .write: what = "cannot write PNG"
        }
        if let path { return "\(path): \(what): \(message)" }
        return "\(what): \(message)"
    }
}
