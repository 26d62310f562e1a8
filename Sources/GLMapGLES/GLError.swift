import GLMapCore

/// A failure of EGL or GL, naming the call, the error code, and what to try.
public struct GLError: GLMapError, Equatable {
    /// The EGL/GL function that failed, e.g. "eglInitialize".
    public var call: String
    /// The error code name, e.g. "EGL_NOT_INITIALIZED" (empty when the call has none).
    public var code: String
    /// What went wrong and what to try.
    public var message: String
    /// Input errors (e.g. an image larger than the GL limit) exit with 2; the rest with 1.
    public var isInputError: Bool

    /// Creates an error for `call` with its error code name (empty: none) and what to try.
    public init(call: String, code: String = "", message: String, isInputError: Bool = false) {
        (self.call, self.code, self.message, self.isInputError) = (call, code, message, isInputError)
    }

    /// `.invalidInput` (exit 2) for input errors, else `.renderOrIO` (exit 1).
    public var kind: FailureKind { isInputError ? .invalidInput : .renderOrIO }
    /// `<call> failed (<code>): <message>`, without the code when there is none.
    public var description: String {
        code.isEmpty ? "\(call) failed: \(message)" : "\(call) failed (\(code)): \(message)"
    }
}
