// GLES backend — renderer contract
// Input: buckets (tessellated layers in draw order), a `ViewTransform` in CSS pixels and the pixel
// ratio. Output: the frame as premultiplied RGBA8 (`PremultipliedImage`, rows top to bottom) of
// (width·ratio) × (height·ratio) device pixels. Cleared to transparent black; every layer blends
// with ONE, ONE_MINUS_SRC_ALPHA (premultiplied); no depth, stencil or MSAA; antialiasing comes
// from the shaders. World copies are drawn side by side where visible. All GL state lives here;
// failures are `GLError`s naming the call. Threading: use from the thread that owns the context.
internal import CGLES3
import Foundation
import GLMapCore
import GLMapShaders
import GLMapStyle
import GLMapTessellation

/// Draws buckets with OpenGL ES 3 into an offscreen framebuffer and reads the frame back.
public final class GLRenderer {
    /// The EGL display and GL context the renderer draws with (current on its thread).
    public let context: HeadlessContext
    let background: GLProgram
    /// Program variants, compiled on first use: (source, `#define`s, paint attributes) → program.
    /// Line variants: DASH (MapLibre's line_sdf), GRADIENT, both (line_gradient_sdf); each
    /// program's paint inputs are uniforms or attributes as the bucket's `PaintLayout` says.
    var programs: [String: GLProgram] = [:]
    var vao: GLuint = 0
    var maxVertexAttribs: GLint = 0
    var framebuffer: Framebuffer?
    /// Pixel buffer ring for `beginReadback`/`endReadback` (created on first use).
    var asyncReadback: AsyncReadback?
    /// Per-corner vertex buffer for circle instancing.
    var cornerBuffer: GLuint = 0
    /// Largest framebuffer side drawn in one pass (nil: GL's limit); larger frames are drawn in
    /// tiles and stitched (TiledFrame.swift). Tests lower it to exercise tiling on small frames.
    public var maxTileSize: Int?
    /// GL's framebuffer size limits (queried on first use).
    lazy var sizeLimits = GLSizeLimits.query()
    /// The last frame when it was drawn in tiles, until `readback` takes it.
    var tiledFrame: TiledFrame?
    /// Clip-space fold applied to every matrix while a tile is drawn past GL_MAX_VIEWPORT_DIMS.
    var clipFold = ClipFold.identity
    /// Usable or not, and why (RendererHealth.swift: every entry point goes through it).
    let health = RendererHealth()
    /// Draw only the parts of each bucket that may reach the view (ViewCulling.swift; the frame
    /// is the same either way). On unless the environment sets `GLMAP_VIEW_CULLING=0` (for
    /// before/after benchmarks).
    public var viewCulling = GLRenderer.viewCullingDefault
    static let viewCullingDefault = ProcessInfo.processInfo.environment["GLMAP_VIEW_CULLING"].map { $0 != "0" && $0 != "off" } ?? true
    /// Asked before each layer is drawn and before a read-back: true stops the frame there with
    /// `RenderInterrupted` (the renderer stays usable). nil: never stop.
    public var shouldStop: (() -> Bool)?
    /// Triangles (two per circle instance) submitted by the last `draw`, per world copy.
    public private(set) var trianglesDrawn = 0
    /// Draw calls (glDrawRangeElements, glDrawArraysInstanced) issued by the last `draw`.
    public private(set) var drawCalls = 0

    /// Compiles the programs on a fresh headless context.
    public init(context: HeadlessContext? = nil) throws {
        let ctx = try context ?? HeadlessContext()
        self.context = ctx
        background = try GLProgram(ShaderSource.background)
        glGenVertexArrays(1, &vao)
        glGetIntegerv(GLenum(GL_MAX_VERTEX_ATTRIBS), &maxVertexAttribs)
        glGenBuffers(1, &cornerBuffer)
        let corners: [Float] = [-1, -1, 1, -1, -1, 1, 1, 1]
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), cornerBuffer)
        corners.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        try GLState.check("glBufferData")
    }

    deinit {
        guard context.makeCurrentForTeardown() else { return }  // a lost context's objects are gone
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

    func makeBuffer(_ target: Int32, _ bytes: UnsafeRawBufferPointer) -> GLuint {
        var b: GLuint = 0
        glGenBuffers(1, &b)
        glBindBuffer(GLenum(target), b)
        glBufferData(GLenum(target), bytes.count, bytes.baseAddress, GLenum(GL_STATIC_DRAW))
        return b
    }

    func vertexBuffer(_ data: [Float]) -> GLuint { data.withUnsafeBytes { makeBuffer(GL_ARRAY_BUFFER, $0) } }
    func indexBuffer(_ data: [UInt32]) -> GLuint { data.withUnsafeBytes { makeBuffer(GL_ELEMENT_ARRAY_BUFFER, $0) } }

    /// Uploads buckets into GPU buffers once; frames of any camera then only set uniforms and draw.
    func uploadBuckets(_ buckets: [Bucket]) throws -> GPUScene {
        try context.makeCurrent()
        var layers: [GPUScene.Layer] = []
        for bucket in buckets {
            switch bucket {
            case .background(let b):
                layers.append(.background(b))
            case .fill(let f):
                layers.append(.fill(GPUScene.Fill(
                    bucket: f,
                    vertices: f.indices.isEmpty ? 0 : vertexBuffer(f.vertices),
                    indices: f.indices.isEmpty ? 0 : indexBuffer(f.indices),
                    outlineVertices: f.outlineIndices.isEmpty ? 0 : vertexBuffer(f.outlineVertices),
                    outlineIndices: f.outlineIndices.isEmpty ? 0 : indexBuffer(f.outlineIndices),
                    ranges: ViewCulling.triangleRanges(indices: f.indices, vertices: f.vertices, stride: f.stride, positions: [0]),
                    outlineRanges: ViewCulling.triangleRanges(indices: f.outlineIndices, vertices: f.outlineVertices,
                                                              stride: f.outlineStride, positions: [0, 2]))))
            case .line(let l):
                var line = GPUScene.Line(
                    bucket: l,
                    vertices: l.indices.isEmpty ? 0 : vertexBuffer(l.vertices),
                    indices: l.indices.isEmpty ? 0 : indexBuffer(l.indices),
                    ranges: ViewCulling.triangleRanges(indices: l.indices, vertices: l.vertices, stride: l.stride,
                                                       positions: [0], extrude: 2),
                    paintBound: PaintBound(l.paint, vertices: l.vertices, stride: l.stride, geometry: VertexLayout.line))
                if !l.indices.isEmpty && !l.fxVertices.isEmpty {
                    line.fxVertices = vertexBuffer(l.fxVertices)
                    if let atlas = l.atlas { line.atlasTexture = atlasTexture(atlas) }
                    if let ramp = l.ramp { line.rampTexture = rampTexture(ramp) }
                }
                layers.append(.line(line))
            case .circle(let c):
                layers.append(.circle(GPUScene.Circle(
                    bucket: c, instances: c.instanceCount == 0 ? 0 : vertexBuffer(c.instances),
                    ranges: ViewCulling.instanceRanges(instances: c.instances, stride: c.stride),
                    paintBound: PaintBound(c.paint, vertices: c.instances, stride: c.stride, geometry: VertexLayout.circle))))
            }
        }
        try GLState.check("glBufferData (uploading buckets)")
        return GPUScene(layers: layers)
    }

    /// Renders buckets for a view into a premultiplied RGBA image of size × ratio device pixels.
    public func render(_ buckets: [Bucket], view: ViewTransform, ratio: Double) throws -> PremultipliedImage {
        let scene = try upload(buckets)
        try draw(scene, view: view, ratio: ratio)
        return try readback()
    }

    /// Draws an uploaded scene into the framebuffer (allocated at the view's device size).
    func drawFrame(_ scene: GPUScene, view: ViewTransform, ratio: Double) throws {
        try context.makeCurrent()
        let w = Int((view.width * ratio).rounded()), h = Int((view.height * ratio).rounded())
        tiledFrame = nil
        trianglesDrawn = 0
        drawCalls = 0
        if w >= 1, h >= 1, let tile = tileSize(width: w, height: h) {
            tiledFrame = try drawTiled(scene, view: view, ratio: ratio, width: w, height: h, tile: tile)
            return
        }
        if framebuffer == nil || framebuffer!.width != w || framebuffer!.height != h {
            framebuffer = nil
            framebuffer = try Framebuffer(width: w, height: h)
        }
        let fb = framebuffer!
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fb.fbo)
        glViewport(0, 0, GLsizei(w), GLsizei(h))
        try drawLayers(scene, view: view, ratio: ratio, width: w, height: h)
    }

    /// Draws every layer of a `w × h` frame into the bound framebuffer and viewport.
    func drawLayers(_ scene: GPUScene, view: ViewTransform, ratio: Double, width w: Int, height h: Int) throws {
        glDisable(GLenum(GL_DEPTH_TEST))
        glDisable(GLenum(GL_STENCIL_TEST))
        glDisable(GLenum(GL_CULL_FACE))
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        // A background drawn first over the cleared (transparent) frame is exactly its own colour
        // × opacity everywhere (blending ONE, ONE_MINUS_SRC_ALPHA over zero), so it becomes the
        // clear colour — the same float → unorm conversion as the shader's output, without a
        // full-frame pass (several ms per 1024² frame on llvmpipe).
        var layers = scene.layers[...]
        // Under pitch a view can see past the world's north or south edge, where MapLibre draws
        // no background (it draws it over the covering tiles): then every background is the
        // polygon of the part that shows the world (WorldBand) and nothing becomes the clear colour.
        let band = view.worldBand
        if band.coversView, case .background(let b)? = layers.first {
            let o = Float(b.opacity)
            glClearColor(Float(b.color.r) * o, Float(b.color.g) * o, Float(b.color.b) * o, Float(b.color.a) * o)
            layers = layers.dropFirst()
        } else {
            glClearColor(0, 0, 0, 0)
        }
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glBindVertexArray(vao)
        for (i, layer) in layers.enumerated() {
            try stopIfAsked("before layer \(i + 1) of \(layers.count)")
            resetAttributes()
            switch layer {
            case .background(let b): drawBackground(b, band: band)
            case .fill(let f): try drawFill(f, view: view, ratio: ratio, viewport: (Float(Double(w) / clipFold.sx), Float(Double(h) / clipFold.sy)))
            case .line(let l): try drawLine(l, view: view, ratio: ratio)
            case .circle(let c): try drawCircle(c, view: view, ratio: ratio)
            }
            try GLState.check("drawing layer")
        }
    }

    /// Blocks until GL has finished every command issued so far (for timing).
    public func finish() {
        guard isUsable, (try? context.makeCurrent()) != nil else { return }
        glFinish()
    }

    /// Throws `RenderInterrupted` at `stage` when `shouldStop` says so.
    func stopIfAsked(_ stage: @autoclosure () -> String) throws {
        if let shouldStop, shouldStop() { throw RenderInterrupted(stage: stage()) }
    }

    /// Reads the last drawn frame back (premultiplied RGBA, rows top to bottom).
    func readbackFrame() throws -> PremultipliedImage {
        try stopIfAsked("before the read-back")
        try context.makeCurrent()
        if let tiled = tiledFrame { return try tiled.take() }
        guard let fb = framebuffer else { throw GLError(call: "glReadPixels", message: "nothing has been drawn yet") }
        return PremultipliedImage(width: fb.width, height: fb.height, pixels: try fb.readPixels())
    }

    /// The program variant for a source, its defines and a paint layout (compiled on first use).
    func program(_ source: ShaderSource.Program, defines: [String] = [], paint: PaintLayout) throws -> GLProgram {
        let attributes = paint.attributes.map { $0.binding.name + ($0.composite ? "~" : "") }
        let key = ([source.name] + defines + ["|"] + attributes).joined(separator: " ")
        if let p = programs[key] { return p }
        let p = try GLProgram(source, defines: defines, attributes: paint.attributeNames, composite: paint.compositeNames)
        programs[key] = p
        return p
    }

    /// Sets a paint layout's uniforms for a frame at `zoom`: constants, camera values at the
    /// zoom, composite mix factors.
    func setPaintUniforms(_ program: GLProgram, _ paint: PaintLayout, zoom: Double) {
        for (name, v) in paint.uniformValues(zoom: max(0, zoom)) {
            let loc = program.uniform(name)
            switch v.count {
            case 1: glUniform1f(loc, v[0])
            case 4: glUniform4f(loc, v[0], v[1], v[2], v[3])
            default: break
            }
        }
    }

    /// The geometry attributes of a layout followed by its paint attributes.
    func layout(_ geometry: [(String, Int)], _ paint: PaintLayout) -> [(String, Int)] {
        geometry + paint.attributes.flatMap { a -> [(String, Int)] in
            let b = a.binding
            return a.composite ? [(b.attribute, b.components), (b.attribute + "_next", b.components)] : [(b.attribute, b.components)]
        }
    }

    /// Binds float attributes laid out as `(name, components)` in order, interleaved, from
    /// `buffer`. An attribute the program's source does not declare is an error (a layout that
    /// disagrees with its shader); one it declares but the compiler dropped as unused is skipped.
    /// `firstVertex`: the vertex (instance) the pointers start at.
    func bindAttributes(_ program: GLProgram, _ buffer: GLuint, _ layout: [(String, Int)], divisor: GLuint = 0,
                        firstVertex: Int = 0) throws {
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        let stride = layout.reduce(0) { $0 + $1.1 } * 4
        var offset = firstVertex * stride
        for (name, n) in layout {
            guard program.declaredAttributes.contains(name) else {
                throw GLError(call: "glVertexAttribPointer", message: "program \(program.name) has no vertex input \(name), which the bucket's vertex layout supplies")
            }
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
        for i in 0..<GLuint(maxVertexAttribs) {
            glDisableVertexAttribArray(i)
            glVertexAttribDivisor(i, 0)
        }
    }

    func setMatrix(_ program: GLProgram, _ m: Matrix4) {
        let f = clipFold.apply(m).floats
        glUniformMatrix4fv(program.uniform("u_matrix"), 1, GLboolean(GL_FALSE), f)
    }

    /// A background over the viewport, or over the part of it that shows the world.
    func drawBackground(_ b: EvaluatedBackground, band: WorldBand) {
        glUseProgram(background.id)
        glUniform4f(background.uniform("u_color"), Float(b.color.r), Float(b.color.g), Float(b.color.b), Float(b.color.a))
        glUniform1f(background.uniform("u_opacity"), Float(b.opacity))
        if band.coversView {
            glUniform1i(background.uniform("u_count"), 0)
            glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
            return
        }
        let poly = band.polygon.prefix(8)
        guard poly.count >= 3, let view = band.viewSize else { return }
        // screen CSS px → the frame's clip space → the tile's (ClipFold)
        var xy: [Float] = []
        for p in poly {
            let nx = 2 * p.x / view.width - 1, ny = 1 - 2 * p.y / view.height
            xy.append(Float(clipFold.sx * nx + clipFold.tx))
            xy.append(Float(clipFold.sy * ny + clipFold.ty))
        }
        glUniform1i(background.uniform("u_count"), GLint(poly.count))
        glUniform2fv(background.uniform("u_polygon"), GLsizei(poly.count), xy)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(3 * (poly.count - 2)))
    }

    func drawFill(_ g: GPUScene.Fill, view: ViewTransform, ratio: Double, viewport: (Float, Float)) throws {
        let f = g.bucket
        guard !f.indices.isEmpty || !f.outlineIndices.isEmpty else { return }
        let matrices = WorldCopies.matrices(view: view, origin: f.origin, translate: f.layer.translate,
                                            anchor: f.layer.translateAnchor, bounds: f.bounds)
        // fill-translate in bucket-local units (as WorldCopies applies it) for the per-tile clip
        let shift = WorldCopies.translation(view, f.layer.translate, inViewport: f.layer.translateAnchor == .viewport)
        let w = view.worldSize
        /// Draws the tile pieces `clips` (index range and square; everything, unclipped, when
        /// empty), each clipped to its square, drawing only the culling runs that reach the view.
        func draw(_ program: GLProgram, _ clips: [(Range<Int>, (Double, Double, Double, Double))],
                  _ cullRanges: [DrawRange], _ margin: CullMargin) {
            if !clips.isEmpty { glUniform2f(program.uniform("u_clip_shift"), Float(shift.x / w), Float(shift.y / w)) }
            for m in matrices {
                setMatrix(program, m)
                let runs = visibleRuns(cullRanges, matrix: m, view: view, margin: margin)
                guard !clips.isEmpty else {
                    drawRuns(runs)   // the program variant without CLIP
                    continue
                }
                for ((_, box), pieces) in zip(clips, ViewCulling.runs(runs, cutAt: clips.map(\.0))) where !pieces.isEmpty {
                    // an infinite side as a huge finite value (GLSL ES need not keep infinities)
                    func side(_ v: Double) -> Float { v.isFinite ? Float(v) : (v < 0 ? -1e30 : 1e30) }
                    glUniform4f(program.uniform("u_clip_box"), side(box.0), side(box.1), side(box.2), side(box.3))
                    drawRuns(pieces)
                }
            }
        }
        // Per-fragment tile clipping only where the bucket has clipped pieces (fill-translate).
        let clip = f.tileClips.isEmpty ? [] : ["CLIP"]
        if !f.indices.isEmpty {
            let fill = try program(ShaderSource.fill, defines: clip, paint: f.paint)
            glUseProgram(fill.id)
            try bindAttributes(fill, g.vertices, layout([("a_pos", 2)], f.paint))
            setPaintUniforms(fill, f.paint, zoom: view.camera.zoom)
            glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), g.indices)
            draw(fill, f.tileClips.map { ($0.indices, $0.box) }, g.ranges, CullMargin())
        }
        if !f.outlineIndices.isEmpty {
            resetAttributes()
            // The cheaper distance where no matrix has perspective on the ground (fill_outline.vert).
            let affine = matrices.allSatisfy { m in let f = clipFold.apply(m).floats; return f[3] == 0 && f[7] == 0 }
            let fillOutline = try program(ShaderSource.fillOutline, defines: clip + (affine ? ["AFFINE"] : []), paint: f.outlinePaint)
            glUseProgram(fillOutline.id)
            try bindAttributes(fillOutline, g.outlineVertices, layout([("a_start", 2), ("a_end", 2), ("a_t", 1), ("a_side", 1)], f.outlinePaint))
            setPaintUniforms(fillOutline, f.outlinePaint, zoom: view.camera.zoom)
            glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), g.outlineIndices)
            glUniform2f(fillOutline.uniform("u_viewport"), viewport.0, viewport.1)
            draw(fillOutline, f.tileClips.map { ($0.outlineIndices, $0.box) }, g.outlineRanges, .fillOutline)
        }
    }

    func drawLine(_ g: GPUScene.Line, view: ViewTransform, ratio: Double) throws {
        let l = g.bucket
        guard !l.indices.isEmpty else { return }
        let dashed = g.atlasTexture != 0, gradient = g.rampTexture != 0
        let program = try self.program(ShaderSource.line, defines: (dashed ? ["DASH"] : []) + (gradient ? ["GRADIENT"] : [])
                                           + (dashed && l.nativeDashRows ? ["DASH_ROWS"] : []), paint: l.paint)
        glUseProgram(program.id)
        try bindAttributes(program, g.vertices, layout([("a_pos", 2), ("a_extrude", 2), ("a_normal", 2), ("a_distance", 1), ("a_direction", 1)], l.paint))
        setPaintUniforms(program, l.paint, zoom: view.camera.zoom)
        if dashed || gradient {
            try bindAttributes(program, g.fxVertices, [("a_fx", 4), ("a_dash_to", 3), ("a_dash_from", 3), ("a_tile", 3)])
            let tilesPerPixel = Double(1 << l.tileZoom) / view.worldSize
            glUniform1f(program.uniform("u_tile_units_per_pixel"), Float(tilesPerPixel))
            // MapLibre's tile clip (stencil) is drawn with the tile's own matrix, the line with the
            // translated one: a translated piece is cut to its untranslated square.
            let shift = WorldCopies.translation(view, l.layer.translate, inViewport: l.layer.translateAnchor == .viewport)
            glUniform2f(program.uniform("u_tile_clip_shift"), Float(shift.x * tilesPerPixel), Float(shift.y * tilesPerPixel))
        }
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), g.indices)
        glUniform1f(program.uniform("u_units_per_pixel"), Float(1 / view.worldSize))
        glUniform1f(program.uniform("u_ratio"), Float(ratio))
        glUniform2f(program.uniform("u_units_to_pixels"), Float(view.width / 2 / clipFold.sx), Float(-view.height / 2 / clipFold.sy))
        if dashed, let atlas = l.atlas {
            // MapLibre's u_tileratio: CSS px per tile unit at the integer zoom the frame is drawn at.
            let tileratio = LineTiling.tileRatio(cameraZoom: view.camera.zoom, tileZoom: l.tileZoom)
            glUniform1f(program.uniform("u_tileratio"), Float(tileratio))
            glUniform1f(program.uniform("u_crossfade_from"), Float(l.layer.dashFromScale))
            glUniform1f(program.uniform("u_crossfade_to"), 1)
            glUniform1f(program.uniform("u_mix"), 1)  // a still frame has finished cross-fading
            glUniform1f(program.uniform("u_lineatlas_height"), Float(atlas.height))
            glActiveTexture(GLenum(GL_TEXTURE1))
            glBindTexture(GLenum(GL_TEXTURE_2D), g.atlasTexture)
            glUniform1i(program.uniform("u_dash"), 1)
        }
        if gradient, let ramp = l.ramp {
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(GL_TEXTURE_2D), g.rampTexture)
            glUniform1i(program.uniform("u_gradient"), 0)
            glUniform1f(program.uniform("u_image_height"), Float(ramp.height))
        }
        let margin = CullMargin.line(g.paintBound, zoom: view.camera.zoom, ratio: ratio)
        for m in WorldCopies.matrices(view: view, origin: l.origin, translate: l.layer.translate,
                                      anchor: l.layer.translateAnchor, bounds: l.bounds) {
            setMatrix(program, m)
            drawRuns(visibleRuns(g.ranges, matrix: m, view: view, margin: margin))
        }
        if dashed || gradient { glActiveTexture(GLenum(GL_TEXTURE0)) }
    }

    /// The runs of `ranges` to draw through `matrix` (all of them, merged, with culling off).
    func visibleRuns(_ ranges: [DrawRange], matrix: Matrix4, view: ViewTransform, margin: CullMargin) -> [DrawRange] {
        var m = margin
        if !viewCulling { m.disabled = true }
        return ViewCulling.visibleRuns(ranges, matrix: matrix, view: view, margin: m)
    }

    /// Draws runs of the bound index buffer (GL_TRIANGLES, UInt32 indices), in order.
    func drawRuns(_ runs: [DrawRange]) {
        for r in runs {
            trianglesDrawn += r.count / 3
            drawCalls += 1
            glDrawRangeElements(GLenum(GL_TRIANGLES), r.minIndex, r.maxIndex, GLsizei(r.count), GLenum(GL_UNSIGNED_INT),
                                UnsafeRawPointer(bitPattern: r.first * 4))
        }
    }

    /// Uploads a line atlas as an R8 texture (LINEAR, REPEAT, as MapLibre binds it).
    func atlasTexture(_ atlas: LineAtlas) -> GLuint {
        texture(width: atlas.width, height: max(1, atlas.height), format: GL_R8, pixelFormat: GL_RED,
                filter: GL_LINEAR, wrap: GL_REPEAT, pixels: atlas.pixels.isEmpty ? [0] : atlas.pixels)
    }

    /// Uploads a colour ramp as an RGBA8 texture (NEAREST for step gradients, else LINEAR; clamped).
    func rampTexture(_ ramp: ColorRamp) -> GLuint {
        texture(width: ramp.width, height: ramp.height, format: GL_RGBA8, pixelFormat: GL_RGBA,
                filter: ramp.nearest ? GL_NEAREST : GL_LINEAR, wrap: GL_CLAMP_TO_EDGE, pixels: ramp.pixels)
    }

    func texture(width: Int, height: Int, format: Int32, pixelFormat: Int32, filter: Int32, wrap: Int32, pixels: [UInt8]) -> GLuint {
        var t: GLuint = 0
        glGenTextures(1, &t)
        glBindTexture(GLenum(GL_TEXTURE_2D), t)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        pixels.withUnsafeBytes {
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, format, GLsizei(width), GLsizei(height), 0,
                         GLenum(pixelFormat), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), wrap)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), wrap)
        return t
    }

    func drawCircle(_ g: GPUScene.Circle, view: ViewTransform, ratio: Double) throws {
        let c = g.bucket
        guard c.instanceCount > 0 else { return }
        let circle = try program(ShaderSource.circle, paint: c.paint)
        glUseProgram(circle.id)
        try bindAttributes(circle, cornerBuffer, [("a_corner", 2)])
        try bindAttributes(circle, g.instances, layout([("a_center", 2)], c.paint), divisor: 1)
        setPaintUniforms(circle, c.paint, zoom: view.camera.zoom)
        let pitchWithMap = c.layer.pitchAlignment == .map
        glUniform1i(circle.uniform("u_scale_with_map"), c.layer.pitchScale == .map ? 1 : 0)
        glUniform1i(circle.uniform("u_pitch_with_map"), pitchWithMap ? 1 : 0)
        if pitchWithMap {
            let upp = Float(1 / view.worldSize)
            glUniform2f(circle.uniform("u_extrude_scale"), upp, upp)
        } else {
            glUniform2f(circle.uniform("u_extrude_scale"), Float(2 / view.width * clipFold.sx), Float(-2 / view.height * clipFold.sy))
        }
        glUniform1f(circle.uniform("u_camera_to_center_distance"), Float(view.cameraToCenterDistance))
        glUniform1f(circle.uniform("u_ratio"), Float(ratio))
        let margin = CullMargin.circle(g.paintBound, pitchWithMap: pitchWithMap, scaleWithMap: c.layer.pitchScale == .map,
                                       view: view, zoom: view.camera.zoom)
        let instanceLayout = layout([("a_center", 2)], c.paint)
        var bound = 0   // the instance the attributes point at
        for m in WorldCopies.matrices(view: view, origin: c.origin, translate: c.layer.translate,
                                      anchor: c.layer.translateAnchor, bounds: c.bounds) {
            setMatrix(circle, m)
            // ES 3 has no base instance: each run points the instance attributes at its first.
            for run in visibleRuns(g.ranges, matrix: m, view: view, margin: margin) {
                if run.first != bound {
                    try bindAttributes(circle, g.instances, instanceLayout, divisor: 1, firstVertex: run.first)
                    bound = run.first
                }
                glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(run.count))
                trianglesDrawn += 2 * run.count
                drawCalls += 1
            }
        }
    }
}
