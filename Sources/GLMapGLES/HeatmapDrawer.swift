internal import CGLES3
import GLMapCore
import GLMapShaders
import GLMapStyle
import GLMapTessellation
import GLMapTiles

/// Draws `heatmap` layers as MapLibre's `drawHeatmap` does on a flat map: first every point's
/// kernel (program `heatmap`, one square each: `PointQuads`) added (blend ONE, ONE) into a density
/// texture a quarter of the frame's device size (truncated, at least 1 × 1) — half-float RGBA16F
/// where this GL can render to it (MapLibre's choice when the context offers HALF_FLOAT), else
/// RGBA8 — then one quad over the frame (program `heatmap_texture`) that reads the density
/// (LINEAR) and colours it from the layer's `heatmap-color` ramp (LINEAR, clamped), times the
/// opacity, blended over the frame. Not clipped to tiles: kernels cross tile edges. In tiled
/// frames the density is drawn for the whole frame (no fold) and the quad is folded.
final class HeatmapDrawer {
    /// Per point: its position in tile units (then the paint block), after the corner.
    static let pointLayout = [("a_center", 2)]

    let programs = ProgramCache()
    let quads = PointQuads()
    /// The density targets of the frame's heatmap layers (one per layer, in draw order; kept for
    /// the colour pass a later opaque layer repeats): texture, framebuffer, size, half floats.
    private var densities: [(texture: GLuint, fbo: GLuint, width: Int, height: Int, halfFloat: Bool)] = []
    /// The next heatmap layer's target in this frame.
    private var nextDensity = 0
    /// The colour passes of this frame's heatmap layers drawn below its first 3D layer: MapLibre
    /// draws them with the depth test off after its opaque pass, so they show over the opaque
    /// layers above them (GLRenderer+Heatmap.swift repeats them there).
    var pending: [Composite] = []
    /// Whether the frame has drawn its first 3D layer (no opaque pass above it).
    var past3D = false

    /// What a heatmap layer's colour pass reads, kept to draw the pass again.
    struct Composite {
        let density: GLuint
        let ramp: GLuint
        let paint: PaintLayout
    }
    /// Whether RGBA16F could not be rendered to on this GL (then RGBA8 is used).
    private var halfFloatUnavailable = false

    /// A heatmap bucket's vertex buffer (four vertices per point) and colour ramp texture.
    struct Uploaded {
        let bucket: HeatmapBucket
        let vertices: GLuint
        let ramp: GLuint
    }

    /// Deletes the quads' index buffer and the density target (the context is current).
    func release() {
        quads.release()
        releaseDensity()
    }

    private func releaseDensity() {
        for d in densities {
            var t = d.texture, f = d.fbo
            glDeleteTextures(1, &t)
            glDeleteFramebuffers(1, &f)
        }
        densities = []
    }

    /// Whether the density targets hold half floats (nil before the first heatmap is drawn).
    var densityIsHalfFloat: Bool? { densities.first?.halfFloat }

    /// Starts a frame: its first heatmap layer draws into the first target.
    func beginFrame() {
        nextDensity = 0
        pending = []
        past3D = false
    }

    func upload(_ h: HeatmapBucket, owner: HeadlessContext) -> GPUBucket? {
        guard h.instanceCount > 0 else { return nil }
        let ramp = h.layer.ramp
        let u = Uploaded(bucket: h, vertices: GLDrawing.vertexBuffer(PointQuads.vertices(h.instances, stride: h.stride)),
                         ramp: GLDrawing.texture(width: ramp.width, height: ramp.height, format: GL_RGBA8, pixelFormat: GL_RGBA,
                                                 filter: GL_LINEAR, wrap: GL_CLAMP_TO_EDGE, pixels: ramp.pixels))
        return GPUBucket(.heatmap(u), buffers: [u.vertices], textures: [u.ramp], owner: owner)
    }

    /// The frame's next density target for a `width × height` frame (reallocated when the size changes).
    private func densityTarget(width: Int, height: Int) throws -> (texture: GLuint, fbo: GLuint, width: Int, height: Int, halfFloat: Bool) {
        let w = max(1, width / 4), h = max(1, height / 4)
        if let d = densities.first, d.width != w || d.height != h { releaseDensity() }
        defer { nextDensity += 1 }
        if nextDensity < densities.count { return densities[nextDensity] }
        func make(halfFloat: Bool) -> (GLuint, GLuint)? {
            var t: GLuint = 0, f: GLuint = 0
            glGenTextures(1, &t)
            glBindTexture(GLenum(GL_TEXTURE_2D), t)
            for (p, v) in [(GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE), (GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE),
                           (GL_TEXTURE_MIN_FILTER, GL_LINEAR), (GL_TEXTURE_MAG_FILTER, GL_LINEAR)] {
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(p), v)
            }
            if halfFloat {
                glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA16F, GLsizei(w), GLsizei(h), 0, GLenum(GL_RGBA), GLenum(GL_HALF_FLOAT), nil)
            } else {
                glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(w), GLsizei(h), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
            }
            glGenFramebuffers(1, &f)
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), f)
            glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), t, 0)
            let complete = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE)
            while glGetError() != GLenum(GL_NO_ERROR) {}
            if complete { return (t, f) }
            glDeleteFramebuffers(1, &f)
            glDeleteTextures(1, &t)
            return nil
        }
        var made = halfFloatUnavailable ? nil : make(halfFloat: true)
        let half = made != nil
        if made == nil { halfFloatUnavailable = true; made = make(halfFloat: false) }
        guard let (t, f) = made else {
            throw GLError(call: "glCheckFramebufferStatus", message: "the heatmap density target (\(w)x\(h)) is incomplete on this driver, as RGBA16F and as RGBA8")
        }
        densities.append((t, f, w, h, half))
        return densities[densities.count - 1]
    }

    /// Draws one layer: the density of every tile's points, then the coloured quad; returns what
    /// the colour pass reads (nil when the layer draws nothing).
    @discardableResult
    func draw(_ tiles: [(tile: OverscaledTileID, bucket: Uploaded)], frame: FrameState, stats: inout DrawStats) throws -> Composite? {
        guard let first = tiles.first?.bucket else { return nil }
        let view = frame.view
        let zoom = max(0, view.camera.zoom)
        let opacity = first.bucket.texturePaint.source.value(HeatmapProperties.heatmapOpacity, zoom: zoom).number ?? 1
        guard opacity > 0 else { return nil }
        let fullWidth = Int((view.width * frame.ratio).rounded()), fullHeight = Int((view.height * frame.ratio).rounded())
        var previousFBO: GLint = 0
        var previousViewport: [GLint] = [0, 0, 0, 0]
        glGetIntegerv(GLenum(GL_FRAMEBUFFER_BINDING), &previousFBO)
        glGetIntegerv(GLenum(GL_VIEWPORT), &previousViewport)
        let target = try densityTarget(width: fullWidth, height: fullHeight)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target.fbo)
        glViewport(0, 0, GLsizei(target.width), GLsizei(target.height))
        glDisable(GLenum(GL_STENCIL_TEST))
        glDisable(GLenum(GL_DEPTH_TEST))
        glClearColor(0, 0, 0, 0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE))
        // The whole frame's density, whatever part of the frame this pass draws.
        let unfolded = FrameState(view: view, ratio: frame.ratio, clipFold: .identity,
                                  viewport: (Float(fullWidth), Float(fullHeight)))
        for (tile, g) in tiles {
            let h = g.bucket
            let program = try programs.program(ShaderSource.heatmap, paint: h.paint)
            GLDrawing.resetAttributes()
            glUseProgram(program.id)
            try GLDrawing.bindAttributes(program, g.vertices, GLDrawing.layout(PointQuads.cornerLayout + Self.pointLayout, h.paint))
            GLDrawing.setPaintUniforms(program, h.paint, zoom: zoom)
            GLDrawing.setMatrix(program, unfolded.matrix(tile))
            glUniform1f(program.uniform("u_extrude_scale"), Float(unfolded.tile(tile).unitsPerPixel))
            quads.draw(count: h.instanceCount, stats: &stats)
        }
        GLDrawing.resetAttributes()
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(previousFBO))
        glViewport(previousViewport[0], previousViewport[1], previousViewport[2], previousViewport[3])
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        let handle = Composite(density: target.texture, ramp: first.ramp, paint: first.bucket.texturePaint)
        try composite(handle, frame: frame, stats: &stats)
        if !past3D { pending.append(handle) }
        return handle
    }

    /// The colour pass: one quad over the frame reading the density and the ramp (blended over
    /// the frame with the state the caller set: depth test, range).
    func composite(_ c: Composite, frame: FrameState, stats: inout DrawStats) throws {
        let program = try programs.program(ShaderSource.heatmapTexture, paint: c.paint)
        glUseProgram(program.id)
        GLDrawing.setPaintUniforms(program, c.paint, zoom: max(0, frame.view.camera.zoom))
        let fold = frame.clipFold
        glUniform4f(program.uniform("u_fold"), Float(fold.sx), Float(fold.sy), Float(fold.tx), Float(fold.ty))
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), c.density)
        glUniform1i(program.uniform("u_image"), 0)
        glActiveTexture(GLenum(GL_TEXTURE1))
        glBindTexture(GLenum(GL_TEXTURE_2D), c.ramp)
        glUniform1i(program.uniform("u_color_ramp"), 1)
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        stats.triangles += 2
        stats.calls += 1
        glActiveTexture(GLenum(GL_TEXTURE0))
    }
}
