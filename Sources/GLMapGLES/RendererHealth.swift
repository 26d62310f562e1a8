// Renderer health — contract
// Input: the outcome of each GL entry point of a `GLRenderer` (upload, draw, readback, begin/end
// readback), and once per drawn frame and once per finished readback: glGetError and the context's
// reset status (glGetGraphicsResetStatus, core in GLES 3.2, else GL_KHR/EXT_robustness; a reset is
// reported only by a context created with EGL_LOSE_CONTEXT_ON_RESET — `HeadlessContext.resetNotification`).
// Output: `isUsable` and `unusableReason`. A GL error (GL_CONTEXT_LOST included), a context reset,
// EGL_CONTEXT_LOST or an incomplete framebuffer marks the renderer unusable for good: its GL state
// can no longer be trusted. Invariants: once unusable, every entry point throws a `GLError` saying
// so and naming the first failure — it never draws or reads back again, so garbage never reaches an
// image. Failures that leave GL state intact do not mark it: input errors (an image over the GL
// limit), EGL_BAD_ACCESS (the context is current on another thread) and calls made out of order.
// Limits: no glFinish is added (the checks cost two cheap queries a frame); a reset that happens
// after a frame's last check is seen at the next one. Recovery — a new renderer on a new context —
// is the caller's job (`BatchRenderer` does it).
internal import CEGL
internal import CGLES3
import GLMapCore
import GLMapTessellation

/// Whether a renderer can still be trusted, and the reset-status query it uses (GL thread only).
final class RendererHealth {
    /// The first failure that made the renderer unusable (nil while it is usable).
    var failure: GLError?
    /// A reset status the next frame check reports instead of asking GL (test hook: a real reset
    /// cannot be forced on a software rasteriser, so tests drive the same detection path with it).
    var injectedResetStatus: GLenum?
    private typealias ResetStatusFunction = @convention(c) () -> GLenum
    private var resetStatusFunction: ResetStatusFunction?
    private var resolved = false

    /// GLES 3.2 / KHR_robustness values (not in the GLES 3.0 header glmap builds against).
    static let guiltyContextReset: GLenum = 0x8253
    static let innocentContextReset: GLenum = 0x8254
    static let unknownContextReset: GLenum = 0x8255
    static let contextLost: GLenum = 0x0507

    /// The context's reset status (GL_NO_ERROR when the query is unavailable). Needs the context current.
    func resetStatus() -> GLenum {
        if let injected = injectedResetStatus {
            injectedResetStatus = nil
            return injected
        }
        if !resolved {
            resolved = true
            resetStatusFunction = RendererHealth.resolveResetStatus()
        }
        return resetStatusFunction?() ?? GLenum(GL_NO_ERROR)
    }

    /// Looks up glGetGraphicsResetStatus (GLES ≥ 3.2) or its KHR/EXT robustness variant, if the
    /// current context has one; never assumes the function exists.
    private static func resolveResetStatus() -> ResetStatusFunction? {
        let version = glGetString(GLenum(GL_VERSION)).map { String(cString: $0) } ?? ""
        var name: String?
        // "OpenGL ES 3.2 Mesa …": the third word is major.minor.
        let words = version.split(separator: " ")
        if words.count >= 3 {
            let parts = words[2].split(separator: ".").compactMap { Int($0) }
            if parts.count >= 2, parts[0] > 3 || (parts[0] == 3 && parts[1] >= 2) { name = "glGetGraphicsResetStatus" }
        }
        if name == nil {
            var n: GLint = 0
            glGetIntegerv(GLenum(GL_NUM_EXTENSIONS), &n)
            for i in 0..<max(0, Int(n)) {
                guard let s = glGetStringi(GLenum(GL_EXTENSIONS), GLuint(i)).map({ String(cString: $0) }) else { continue }
                if s == "GL_KHR_robustness" { name = "glGetGraphicsResetStatusKHR"; break }
                if s == "GL_EXT_robustness" { name = "glGetGraphicsResetStatusEXT" }
            }
        }
        guard let name, let p = eglGetProcAddress(name) else { return nil }
        return unsafeBitCast(p, to: ResetStatusFunction.self)
    }

    /// Whether a failure leaves the GL state untrustworthy (see the contract above).
    static func breaksRenderer(_ e: GLError) -> Bool {
        !e.isInputError && !e.code.isEmpty && e.code != "EGL_BAD_ACCESS"
    }

    /// The error for a frame check's findings, or nil when both are clean.
    static func frameFailure(glError: GLenum, resetStatus: GLenum, after call: String) -> GLError? {
        let advice = "its objects are gone; create a new renderer"
        switch resetStatus {
        case GLenum(GL_NO_ERROR): break
        case guiltyContextReset:
            return GLError(call: "glGetGraphicsResetStatus", code: "GL_GUILTY_CONTEXT_RESET",
                           message: "the GPU was reset because of this context's commands (after \(call)); \(advice)")
        case innocentContextReset:
            return GLError(call: "glGetGraphicsResetStatus", code: "GL_INNOCENT_CONTEXT_RESET",
                           message: "the GPU was reset by another program (after \(call)); \(advice)")
        default:
            return GLError(call: "glGetGraphicsResetStatus", code: resetStatus == unknownContextReset ? "GL_UNKNOWN_CONTEXT_RESET" : "0x" + String(resetStatus, radix: 16),
                           message: "the GPU was reset, cause unknown (after \(call)); \(advice)")
        }
        if glError == contextLost {
            return GLError(call: "glGetError", code: "GL_CONTEXT_LOST", message: "the GL context was lost (after \(call)); \(advice)")
        }
        if glError != GLenum(GL_NO_ERROR) {
            return GLError(call: "glGetError", code: GLState.errorName(glError),
                           message: "GL recorded an error during \(call); the frame cannot be trusted")
        }
        return nil
    }
}

extension GLRenderer {
    /// Whether this renderer can still draw: false for good after a GL error or a lost context.
    public var isUsable: Bool { health.failure == nil }

    /// The failure that made this renderer unusable (nil while it is usable).
    public var unusableReason: GLError? { health.failure }

    /// The error every entry point throws once the renderer is unusable.
    static func refusal(_ call: String, _ reason: GLError) -> GLError {
        GLError(call: call, message: "this renderer is unusable since an earlier GL failure (\(reason)); create a new renderer")
    }

    /// Marks the renderer unusable (the first reason is kept).
    func markUnusable(_ reason: GLError) {
        var r = reason
        if r.code == "0x507" { r.code = "GL_CONTEXT_LOST" }
        if health.failure == nil { health.failure = r }
    }

    /// Runs a GL entry point: refuses when unusable; a failure that breaks GL state marks the
    /// renderer unusable; `checkFrame` adds the once-a-frame error and reset-status check.
    func guarded<T>(_ call: String, checkFrame: Bool = false, _ body: () throws -> T) throws -> T {
        if let reason = health.failure { throw GLRenderer.refusal(call, reason) }
        do {
            let result = try body()
            if checkFrame { try self.checkFrame(after: call) }
            return result
        } catch let e as GLError {
            if RendererHealth.breaksRenderer(e) { markUnusable(e) }
            throw e
        }
    }

    /// glGetError and the reset status, once a frame (the context is current: `body` made it so).
    func checkFrame(after call: String) throws {
        let error = glGetError()
        if error != GLenum(GL_NO_ERROR) {
            while glGetError() != GLenum(GL_NO_ERROR) {}
        }
        try noteFrameStatus(glError: error, resetStatus: health.resetStatus(), after: call)
    }

    /// Turns a frame check's findings into the unusable state and its error (the one path real
    /// checks and tests both take).
    func noteFrameStatus(glError: GLenum, resetStatus: GLenum, after call: String) throws {
        if let failure = RendererHealth.frameFailure(glError: glError, resetStatus: resetStatus, after: call) {
            markUnusable(failure)
            throw failure
        }
    }

    /// Uploads a frame plan's tile buckets (reusing the uploads of buckets earlier plans had);
    /// frames of any camera over the same tiles then only set uniforms and draw.
    public func upload(_ plan: FramePlan) throws -> GPUScene {
        let scene = try guarded("GLRenderer.upload") { try uploadPlan(plan) }
        scene.owner = context
        return scene
    }

    /// Draws an uploaded scene into the framebuffer (allocated at the view's device size).
    public func draw(_ scene: GPUScene, view: ViewTransform, ratio: Double) throws {
        if let owner = scene.owner, owner !== context {
            throw GLError(call: "GLRenderer.draw", message: "the scene was uploaded by another renderer (a bug in glmap: upload it to this one)")
        }
        try guarded("GLRenderer.draw", checkFrame: true) { try drawFrame(scene, view: view, ratio: ratio) }
    }

    /// Reads the last drawn frame back (premultiplied RGBA, rows top to bottom).
    public func readback() throws -> PremultipliedImage {
        try guarded("GLRenderer.readback", checkFrame: true) { try readbackFrame() }
    }
}
