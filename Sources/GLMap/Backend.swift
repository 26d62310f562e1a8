/// Which renderer draws the frame.
public enum Backend: String, CaseIterable, Sendable {
    /// The GPU through EGL when a display and context can be had, else the CPU (said once on stderr).
    case auto
    /// OpenGL ES 3 through EGL only; failing to get a context is an error.
    case gpu
    /// The CPU reference renderer (no EGL needed).
    case cpu
}
