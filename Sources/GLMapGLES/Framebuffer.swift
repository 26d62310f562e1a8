internal import CGLES3

/// An offscreen RGBA8 render target (framebuffer object + renderbuffer) in device pixels; its
/// depth and stencil renderbuffer (tile clipping masks, extrusions' depth test) is attached the
/// first time a frame needs one (`attachDepthStencil`): an unrotated frame of fills, lines and
/// circles, clipped by scissor boxes, never does, and the buffer is 4 bytes a pixel.
final class Framebuffer {
    let width: Int
    let height: Int
    let fbo: GLuint
    let color: GLuint
    /// The depth and stencil renderbuffer; 0 until `attachDepthStencil()`.
    private(set) var depthStencil: GLuint = 0

    /// Allocates a `width × height` target after checking GL's size limits.
    init(width: Int, height: Int) throws {
        var maxRB: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_RENDERBUFFER_SIZE), &maxRB)
        var dims: [GLint] = [0, 0]
        glGetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &dims)
        let limitW = Int(min(maxRB, dims[0])), limitH = Int(min(maxRB, dims[1]))
        guard width >= 1, height >= 1 else {
            throw GLError(call: "glRenderbufferStorage", message: "image size \(width)x\(height) must be at least 1x1", isInputError: true)
        }
        guard width <= limitW, height <= limitH else {
            throw GLError(call: "glRenderbufferStorage", code: "GL_MAX_RENDERBUFFER_SIZE",
                          message: "image size \(width)x\(height) device pixels exceeds this GL's limit of \(limitW)x\(limitH); use a smaller --width/--height/--ratio",
                          isInputError: true)
        }
        self.width = width
        self.height = height
        var f: GLuint = 0, c: GLuint = 0
        glGenFramebuffers(1, &f)
        glGenRenderbuffers(1, &c)
        fbo = f
        color = c
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), c)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        let err = glGetError()
        if err != GLenum(GL_NO_ERROR) {
            glDeleteRenderbuffers(1, &c)
            glDeleteFramebuffers(1, &f)
            throw GLError(call: "glRenderbufferStorage", code: GLState.errorName(err),
                          message: "could not allocate a \(width)x\(height) RGBA8 render target (out of GPU memory?); try a smaller image")
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), f)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), c)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        if status != GLenum(GL_FRAMEBUFFER_COMPLETE) {
            glDeleteRenderbuffers(1, &c)
            glDeleteFramebuffers(1, &f)
            throw GLError(call: "glCheckFramebufferStatus", code: "0x" + String(status, radix: 16),
                          message: "the RGBA8 framebuffer is incomplete on this driver")
        }
    }

    deinit {
        var f = fbo, c = color, ds = depthStencil
        glDeleteFramebuffers(1, &f)
        glDeleteRenderbuffers(1, &c)
        if ds != 0 { glDeleteRenderbuffers(1, &ds) }
    }

    /// Attaches a depth and stencil renderbuffer of the target's size unless one is attached
    /// already; the framebuffer bound before is bound again. A failed allocation stays in GL's
    /// error state, which the frame's check (`RendererHealth`) reports as the frame's error.
    func attachDepthStencil() {
        guard depthStencil == 0 else { return }
        var bound: GLint = 0
        glGetIntegerv(GLenum(GL_FRAMEBUFFER_BINDING), &bound)
        var ds: GLuint = 0
        glGenRenderbuffers(1, &ds)
        depthStencil = ds
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), ds)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_DEPTH24_STENCIL8), GLsizei(width), GLsizei(height))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fbo)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), ds)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(bound))
    }

    /// Reads the frame back as premultiplied RGBA8, rows top to bottom.
    func readPixels() throws -> [UInt8] {
        var data = [UInt8](repeating: 0, count: width * height * 4)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fbo)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        data.withUnsafeMutableBytes { p in
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), p.baseAddress)
        }
        try GLState.check("glReadPixels")
        // GL rows are bottom-up; flip in place.
        let row = width * 4
        data.withUnsafeMutableBytes { p in
            var tmp = [UInt8](repeating: 0, count: row)
            for y in 0..<(height / 2) {
                let a = p.baseAddress! + y * row
                let b = p.baseAddress! + (height - 1 - y) * row
                tmp.withUnsafeMutableBytes { t in
                    t.baseAddress!.copyMemory(from: a, byteCount: row)
                    a.copyMemory(from: b, byteCount: row)
                    b.copyMemory(from: t.baseAddress!, byteCount: row)
                }
            }
        }
        return data
    }
}

/// GL error checking.
enum GLState {
    static func errorName(_ e: GLenum) -> String {
        switch Int32(e) {
        case GL_INVALID_ENUM: return "GL_INVALID_ENUM"
        case GL_INVALID_VALUE: return "GL_INVALID_VALUE"
        case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION"
        case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY"
        case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION"
        default: return "0x" + String(e, radix: 16)
        }
    }

    /// Throws if GL recorded an error since the last check.
    static func check(_ call: String) throws {
        let e = glGetError()
        if e != GLenum(GL_NO_ERROR) {
            var more = glGetError()
            while more != GLenum(GL_NO_ERROR) { more = glGetError() }
            throw GLError(call: call, code: errorName(e),
                          message: e == GLenum(GL_OUT_OF_MEMORY) ? "the GPU ran out of memory; render a smaller image or fewer features" : "unexpected GL error (a bug in glmap: please report it with the style)")
        }
    }
}
