internal import CGLES3

/// An offscreen RGBA8 render target (framebuffer object + renderbuffer) in device pixels, with a
/// depth and stencil renderbuffer (tile clipping masks; extrusions' depth test).
final class Framebuffer {
    let width: Int
    let height: Int
    let fbo: GLuint
    let color: GLuint
    let depthStencil: GLuint

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
        var f: GLuint = 0, c: GLuint = 0, ds: GLuint = 0
        glGenFramebuffers(1, &f)
        glGenRenderbuffers(1, &c)
        glGenRenderbuffers(1, &ds)
        fbo = f
        color = c
        depthStencil = ds
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), c)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        let err = glGetError()
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), ds)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_DEPTH24_STENCIL8), GLsizei(width), GLsizei(height))
        let dsErr = glGetError()
        if err != GLenum(GL_NO_ERROR) || dsErr != GLenum(GL_NO_ERROR) {
            glDeleteRenderbuffers(1, &c)
            glDeleteRenderbuffers(1, &ds)
            glDeleteFramebuffers(1, &f)
            throw GLError(call: "glRenderbufferStorage", code: GLState.errorName(err != GLenum(GL_NO_ERROR) ? err : dsErr),
                          message: "could not allocate a \(width)x\(height) RGBA8 + depth/stencil render target (out of GPU memory?); try a smaller image")
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), f)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), c)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER), ds)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        if status != GLenum(GL_FRAMEBUFFER_COMPLETE) {
            glDeleteRenderbuffers(1, &c)
            glDeleteRenderbuffers(1, &ds)
            glDeleteFramebuffers(1, &f)
            throw GLError(call: "glCheckFramebufferStatus", code: "0x" + String(status, radix: 16),
                          message: "the RGBA8 framebuffer is incomplete on this driver")
        }
    }

    deinit {
        var f = fbo, c = color, ds = depthStencil
        glDeleteFramebuffers(1, &f)
        glDeleteRenderbuffers(1, &c)
        glDeleteRenderbuffers(1, &ds)
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
