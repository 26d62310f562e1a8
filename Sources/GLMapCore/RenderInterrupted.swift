/// A render stopped part-way because its caller no longer wants it (a server request past its
/// deadline). Thrown between layers and before the read-back; the renderer stays usable (its GL
/// state is whole: the next frame clears the framebuffer and draws afresh).
public struct RenderInterrupted: GLMapError {
    /// Where the render stopped (e.g. "before layer 3 of 7").
    public var stage: String
    /// A render failure (exit 1), not bad input.
    public var kind: FailureKind { .renderOrIO }
    /// "the render was interrupted STAGE: its result is no longer wanted".
    public var description: String { "the render was interrupted \(stage): its result is no longer wanted" }
    /// An interruption at `stage`.
    public init(stage: String) { self.stage = stage }
}
