internal import CGLES3

/// A real GL failure a test causes on a renderer's own context, to exercise the health checks and
/// recovery (internal: reached by tests through `@testable import`).
enum GLFault {
    /// Deletes the renderer's framebuffer object behind its back: the next draw binds a dead name.
    case deleteFramebuffer
    /// Calls glEnable with a capability that does not exist: GL records GL_INVALID_ENUM.
    case invalidEnum
    /// Makes the next frame check see GL_GUILTY_CONTEXT_RESET. A reset cannot be forced on a
    /// software rasteriser, so this drives the same detection code with the value a reset reports.
    case contextReset
}

extension GLRenderer {
    /// Causes `fault` on this renderer's context now (see `GLFault`).
    func inject(_ fault: GLFault) {
        try? context.makeCurrent()
        switch fault {
        case .deleteFramebuffer:
            if var fbo = framebuffer?.fbo { glDeleteFramebuffers(1, &fbo) }
        case .invalidEnum:
            glEnable(0x7FFF)
        case .contextReset:
            health.injectedResetStatus = RendererHealth.guiltyContextReset
        }
    }
}
