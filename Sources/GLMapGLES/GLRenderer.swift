// GLES backend — renderer contract
// Input: buckets (tessellated layers in draw order), a `ViewTransform` in CSS pixels and the pixel
// ratio. Output: the frame as premultiplied RGBA8 (`RGBAImage`, rows top to bottom) of
// (width·ratio) × (height·ratio) device pixels. Cleared to transparent black; every layer blends
// with ONE, ONE_MINUS_SRC_ALPHA (premultiplied); no depth, stencil or MSAA; antialiasing comes
// from the shaders. World copies are drawn side by side where visible. All GL state lives here;
// failures are `GLError`s naming the call. Threading: use from the thread that owns the context.
import CGLES3
import GLMapCore
import GLMapShaders
import GLMapStyle
import GLMapTessellation

/// Draws buckets with OpenGL ES 3 into an offscreen framebuffer and reads the frame back.
public final class GLRenderer {
    public let context: HeadlessContext
    let background: GLProgram
    let fill: GLProgram
    let fillOutline: GLProgram
    let line: GLProgram
    let circle: GLProgram
    var vao: GLuint = 0
    var buffers: [GLuint] = []
    var framebuffer: Framebuffer?
    /// Per-corner vertex buffer for circle instancing.
    var cornerBuffer: GLuint = 0

    /// Compiles the programs on a fresh headless context.
    public init(context: HeadlessContext? = nil) throws {
        let ctx = try context ?? HeadlessContext()
        self.context = ctx
        background = try GLProgram(ShaderSource.background)
        fill = try GLProgram(ShaderSource.fill)
        fillOutline = try GLProgram(ShaderSource.fillOutline)
        line = try GLProgram(ShaderSource.line)
        circle = try GLProgram(ShaderSource.circle)
        glGenVertexArrays(1, &vao)
        glGenBuffers(1, &cornerBuffer)
        let corners: [Float] = [-1, -1, 1, -1, -1, 1, 1, 1]
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), cornerBuffer)
        corners.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        try GLState.check("glBufferData")
    }

    deinit {
        freeBuffers()
        glDeleteBuffers(1, &cornerBuffer)
        glDeleteVertexArrays(1, &vao)
    }

    /// Strings GL reports about itself (vendor, renderer, version) and its size limit.
    public var info: (vendor: String, renderer: String, version: String, maxSize: Int) {
        func s(_ e: Int32) -> String { glGetString(GLenum(e)).map { String(cString: $0) } ?? "unknown" }
        var maxRB: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_RENDERBUFFER_SIZE), &maxRB)
        var dims: [GLint] = [0, 0]
        glGetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &dims)
        return (s(GL_VENDOR), s(GL_RENDERER), s(GL_VERSION), Int(min(maxRB, dims[0], dims[1])))
    }

    func freeBuffers() {
        if !buffers.isEmpty { glDeleteBuffers(GLsizei(buffers.count), buffers) }
        buffers.removeAll()
    }

    func upload(_ data: [Float]) -> GLuint {
        var b: GLuint = 0
        glGenBuffers(1, &b)
        buffers.append(b)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), b)
        data.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        return b
    }

    func uploadIndices(_ data: [UInt32]) -> GLuint {
        var b: GLuint = 0
        glGenBuffers(1, &b)
        buffers.append(b)
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), b)
        data.withUnsafeBytes { glBufferData(GLenum(GL_ELEMENT_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        return b
    }

    /// Binds float attributes laid out as `(name, components)` in order, interleaved.
    func bindAttributes(_ program: GLProgram, _ layout: [(String, Int)], divisor: GLuint = 0) {
        let stride = layout.reduce(0) { $0 + $1.1 } * 4
        var offset = 0
        for (name, n) in layout {
            let loc = program.attribute(name)
            if loc >= 0 {
                glEnableVertexAttribArray(GLuint(loc))
                glVertexAttribPointer(GLuint(loc), GLint(n), GLenum(GL_FLOAT), GLboolean(GL_FALSE), GLsizei(stride),
                                      UnsafeRawPointer(bitPattern: offset))
                glVertexAttribDivisor(GLuint(loc), divisor)
            }
            offset += n * 4
        }
    }

    func resetAttributes() {
        var maxAttribs: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_VERTEX_ATTRIBS), &maxAttribs)
        for i in 0..<GLuint(maxAttribs) {
            glDisableVertexAttribArray(i)
            glVertexAttribDivisor(i, 0)
        }
    }

    /// Renders buckets for a view into a premultiplied RGBA image of size × ratio device pixels.
    public func render(_ buckets: [Bucket], view: ViewTransform, ratio: Double) throws -> RGBAImage {
        let w = Int((view.width * ratio).rounded()), h = Int((view.height * ratio).rounded())
        if framebuffer == nil || framebuffer!.width != w || framebuffer!.height != h {
            framebuffer = nil
            framebuffer = try Framebuffer(width: w, height: h)
        }
        let fb = framebuffer!
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fb.fbo)
        glViewport(0, 0, GLsizei(w), GLsizei(h))
        glDisable(GLenum(GL_DEPTH_TEST))
        glDisable(GLenum(GL_STENCIL_TEST))
        glDisable(GLenum(GL_CULL_FACE))
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glClearColor(0, 0, 0, 0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glBindVertexArray(vao)
        defer { freeBuffers() }

        for bucket in buckets {
            resetAttributes()
            switch bucket {
            case .background(let b): drawBackground(b)
            case .fill(let f): drawFill(f, view: view, ratio: ratio, viewport: (Float(w), Float(h)))
            case .line(let l): drawLine(l, view: view, ratio: ratio)
            case .circle(let c): drawCircle(c, view: view, ratio: ratio)
            }
            try GLState.check("drawing layer")
        }
        let pixels = try fb.readPixels()
        return RGBAImage(width: w, height: h, pixels: pixels)
    }

    func setMatrix(_ program: GLProgram, _ m: Matrix4) {
        let f = m.floats
        glUniformMatrix4fv(program.uniform("u_matrix"), 1, GLboolean(GL_FALSE), f)
    }

    func drawBackground(_ b: EvaluatedBackground) {
        glUseProgram(background.id)
        glUniform4f(background.uniform("u_color"), Float(b.color.r), Float(b.color.g), Float(b.color.b), Float(b.color.a))
        glUniform1f(background.uniform("u_opacity"), Float(b.opacity))
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }

    func drawFill(_ f: FillBucket, view: ViewTransform, ratio: Double, viewport: (Float, Float)) {
        guard !f.indices.isEmpty || !f.outlineIndices.isEmpty else { return }
        let matrices = WorldCopies.matrices(view: view, origin: f.origin, translate: f.layer.translate,
                                            anchor: f.layer.translateAnchor, bounds: f.bounds)
        if !f.indices.isEmpty {
            glUseProgram(fill.id)
            _ = upload(f.vertices)
            bindAttributes(fill, [("a_pos", 2), ("a_color", 4), ("a_opacity", 1)])
            _ = uploadIndices(f.indices)
            for m in matrices {
                setMatrix(fill, m)
                glDrawElements(GLenum(GL_TRIANGLES), GLsizei(f.indices.count), GLenum(GL_UNSIGNED_INT), nil)
            }
        }
        if !f.outlineIndices.isEmpty {
            resetAttributes()
            glUseProgram(fillOutline.id)
            _ = upload(f.outlineVertices)
            bindAttributes(fillOutline, [("a_start", 2), ("a_end", 2), ("a_t", 1), ("a_side", 1), ("a_color", 4), ("a_opacity", 1)])
            _ = uploadIndices(f.outlineIndices)
            glUniform2f(fillOutline.uniform("u_viewport"), viewport.0, viewport.1)
            for m in matrices {
                setMatrix(fillOutline, m)
                glDrawElements(GLenum(GL_TRIANGLES), GLsizei(f.outlineIndices.count), GLenum(GL_UNSIGNED_INT), nil)
            }
        }
    }

    func drawLine(_ l: LineBucket, view: ViewTransform, ratio: Double) {
        guard !l.indices.isEmpty else { return }
        glUseProgram(line.id)
        _ = upload(l.vertices)
        bindAttributes(line, [("a_pos", 2), ("a_extrude", 2), ("a_normal", 2), ("a_distance", 1), ("a_direction", 1),
                              ("a_color", 4), ("a_opacity", 1), ("a_width", 1), ("a_gapwidth", 1), ("a_offset", 1), ("a_blur", 1)])
        _ = uploadIndices(l.indices)
        glUniform1f(line.uniform("u_units_per_pixel"), Float(1 / view.worldSize))
        glUniform1f(line.uniform("u_ratio"), Float(ratio))
        glUniform2f(line.uniform("u_units_to_pixels"), Float(view.width / 2), Float(-view.height / 2))
        for m in WorldCopies.matrices(view: view, origin: l.origin, translate: l.layer.translate,
                                      anchor: l.layer.translateAnchor, bounds: l.bounds) {
            setMatrix(line, m)
            glDrawElements(GLenum(GL_TRIANGLES), GLsizei(l.indices.count), GLenum(GL_UNSIGNED_INT), nil)
        }
    }

    func drawCircle(_ c: CircleBucket, view: ViewTransform, ratio: Double) {
        guard c.instanceCount > 0 else { return }
        glUseProgram(circle.id)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), cornerBuffer)
        bindAttributes(circle, [("a_corner", 2)])
        _ = upload(c.instances)
        bindAttributes(circle, [("a_center", 2), ("a_radius", 1), ("a_color", 4), ("a_opacity", 1), ("a_blur", 1),
                                ("a_stroke_width", 1), ("a_stroke_color", 4), ("a_stroke_opacity", 1)], divisor: 1)
        let pitchWithMap = c.layer.pitchAlignment == .map
        glUniform1i(circle.uniform("u_scale_with_map"), c.layer.pitchScale == .map ? 1 : 0)
        glUniform1i(circle.uniform("u_pitch_with_map"), pitchWithMap ? 1 : 0)
        if pitchWithMap {
            let upp = Float(1 / view.worldSize)
            glUniform2f(circle.uniform("u_extrude_scale"), upp, upp)
        } else {
            glUniform2f(circle.uniform("u_extrude_scale"), Float(2 / view.width), Float(-2 / view.height))
        }
        glUniform1f(circle.uniform("u_camera_to_center_distance"), Float(view.cameraToCenterDistance))
        glUniform1f(circle.uniform("u_ratio"), Float(ratio))
        for m in WorldCopies.matrices(view: view, origin: c.origin, translate: c.layer.translate,
                                      anchor: c.layer.translateAnchor, bounds: c.bounds) {
            setMatrix(circle, m)
            glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(c.instanceCount))
        }
    }
}
