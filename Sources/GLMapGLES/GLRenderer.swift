// GLES backend — renderer contract
// Input: a `FramePlan` (layers in draw order, each a background or one bucket per tile in tile
// units), a `ViewTransform` in CSS pixels and the pixel ratio. Output: the frame as premultiplied
// RGBA8 (`PremultipliedImage`, rows top to bottom) of (width·ratio) × (height·ratio) device
// pixels. Cleared to transparent black; every layer blends with ONE, ONE_MINUS_SRC_ALPHA
// (premultiplied); no MSAA; antialiasing comes from the shaders. Each tile is drawn with its own
// matrix (tile units → clip space, world copy included), and fill and line layers are cut to
// their tile's square with the stencil as MapLibre does (one mask per visible tile of the layer's
// source). One drawer per layer type owns its programs and vertex layout (`FillDrawer`,
// `LineDrawer`, `CircleDrawer`, `BackgroundDrawer`; `RasterDrawer` for raster, hillshade and
// color-relief layers, whose textures it uploads and prepares before the frame). Uploads are cached per tile bucket (its
// key) while frames keep drawing it. All GL state lives here; failures are `GLError`s naming the
// call. Threading: use from the thread that owns the context.
internal import CGLES3
import Foundation
import GLMapCore
import GLMapShaders
import GLMapStyle
import GLMapTessellation
import GLMapText
import GLMapTiles

/// Draws frame plans with OpenGL ES 3 into an offscreen framebuffer and reads the frame back.
public final class GLRenderer {
    /// The EGL display and GL context the renderer draws with (current on its thread).
    public let context: HeadlessContext
    let backgrounds: BackgroundDrawer
    let fills = FillDrawer()
    let lines = LineDrawer()
    let circles = CircleDrawer()
    let extrusions = FillExtrusionDrawer()
    let heatmaps = HeatmapDrawer()
    let rasters = RasterDrawer()
    let symbols = SymbolDrawer()
    let clipping: TileClipping
    var vao: GLuint = 0
    var maxVertexAttribs: GLint = 0
    var framebuffer: Framebuffer?
    /// Pixel buffer ring for `beginReadback`/`endReadback` (created on first use).
    var asyncReadback: AsyncReadback?
    /// Largest framebuffer side drawn in one pass (nil: GL's limit); larger frames are drawn in
    /// tiles and stitched (TiledFrame.swift). Tests lower it to exercise tiling on small frames.
    public var maxTileSize: Int?
    /// Whether clipped layers of a window-aligned view use scissor boxes instead of stencil masks
    /// where those cover the same pixels (TileClipping.swift). Tests turn it off to compare.
    var scissorClipping: Bool {
        get { clipping.scissorAllowed }
        set { clipping.scissorAllowed = newValue }
    }
    /// GL's framebuffer size limits (queried on first use).
    lazy var sizeLimits = GLSizeLimits.query()
    /// The last frame when it was drawn in tiles, until `readback` takes it.
    var tiledFrame: TiledFrame?
    /// Clip-space fold applied to every matrix while a tile is drawn past GL_MAX_VIEWPORT_DIMS.
    var clipFold = ClipFold.identity
    /// Usable or not, and why (RendererHealth.swift: every entry point goes through it).
    let health = RendererHealth()
    /// Asked before each layer is drawn and before a read-back: true stops the frame there with
    /// `RenderInterrupted` (the renderer stays usable). nil: never stop.
    public var shouldStop: (() -> Bool)?
    /// Triangles (two per circle instance) submitted by the last `draw`.
    public internal(set) var trianglesDrawn = 0
    /// Draw calls issued by the last `draw`.
    public internal(set) var drawCalls = 0
    /// Uploaded tile buckets by key, with the upload generation that last used each.
    var uploads: [UInt64: (bucket: GPUBucket, used: Int)] = [:]
    var uploadGeneration = 0
    /// The pattern atlas texture and the atlas key it holds (GLRenderer+Frame.swift).
    var patternTexture: (key: UInt64, texture: GLuint, width: Int, height: Int)?

    /// Compiles the programs on a fresh headless context.
    public init(context: HeadlessContext? = nil) throws {
        let ctx = try context ?? HeadlessContext()
        self.context = ctx
        backgrounds = try BackgroundDrawer()
        clipping = try TileClipping()
        glGenVertexArrays(1, &vao)
        glGetIntegerv(GLenum(GL_MAX_VERTEX_ATTRIBS), &maxVertexAttribs)
        try GLState.check("creating the renderer")
    }

    deinit {
        uploads = [:]
        guard context.makeCurrentForTeardown() else { return }   // a lost context's objects are gone
        releaseFrameResources()
        circles.release()
        rasters.release()
        clipping.release()
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

    /// Uploads a plan's buckets (those not uploaded by an earlier plan of this renderer) and
    /// forgets uploads the plan and the one before did not use.
    func uploadPlan(_ plan: FramePlan) throws -> GPUScene {
        try context.makeCurrent()
        uploadGeneration += 1
        var layers: [GPUScene.Layer] = []
        for layer in plan.layers {
            switch layer {
            case .background(let b):
                layers.append(.background(b))
            case .tiled(let source, let clipped, let buckets):
                var tiles: [(tile: OverscaledTileID, bucket: GPUBucket)] = []
                for tb in buckets {
                    if let hit = uploads[tb.key] {
                        uploads[tb.key] = (hit.bucket, uploadGeneration)
                        tiles.append((tb.tile, hit.bucket))
                        continue
                    }
                    guard let g = try upload(tb.bucket) else { continue }
                    uploads[tb.key] = (g, uploadGeneration)
                    tiles.append((tb.tile, g))
                }
                layers.append(.tiled(source: source, clipped: clipped, tiles: tiles))
            case .raster(let r):
                layers.append(.raster(try rasters.upload(r, generation: uploadGeneration, owner: context)))
            case .symbol(let plan):
                var tiles: [(frame: SymbolTileFrame, bucket: GPUBucket)] = []
                for (tb, frame) in plan.tiles {
                    if let hit = uploads[tb.key] {
                        uploads[tb.key] = (hit.bucket, uploadGeneration)
                        tiles.append((frame, hit.bucket))
                    } else if let g = try upload(tb.bucket) {
                        uploads[tb.key] = (g, uploadGeneration)
                        tiles.append((frame, g))
                    }
                }
                layers.append(.symbol(tiles: tiles, iconItems: plan.iconItems, textItems: plan.textItems, debug: plan.debug))
            }
        }
        let keep = uploadGeneration - 1
        uploads = uploads.filter { $0.value.used >= keep }
        rasters.evict(keep: keep)
        try GLState.check("glBufferData (uploading buckets)")
        let scene = GPUScene(layers: layers, sourceTiles: plan.sourceTiles)
        scene.extras = try uploadExtras(plan)
        return scene
    }

    /// One bucket's upload by its layer type's drawer (nil: nothing to draw).
    func upload(_ bucket: Bucket) throws -> GPUBucket? {
        switch bucket {
        case .background: return nil
        case .fill(let f): return fills.upload(f, owner: context)
        case .line(let l): return lines.upload(l, owner: context)
        case .circle(let c): return circles.upload(c, owner: context)
        case .fillExtrusion(let x): return extrusions.upload(x, owner: context)
        case .heatmap(let h): return heatmaps.upload(h, owner: context)
        case .symbol(let s): return symbols.upload(s, owner: context)
        }
    }

    /// Renders a plan for a view into a premultiplied RGBA image of size × ratio device pixels.
    public func render(_ plan: FramePlan, view: ViewTransform, ratio: Double) throws -> PremultipliedImage {
        let scene = try upload(plan)
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
        try drawLayers(scene, view: view, ratio: ratio, width: w, height: h, target: fb)
    }

    /// Draws every layer of a `w × h` frame into `target` (bound) and the viewport.
    func drawLayers(_ scene: GPUScene, view: ViewTransform, ratio: Double, width w: Int, height h: Int, target: Framebuffer) throws {
        glDisable(GLenum(GL_DEPTH_TEST))
        glDisable(GLenum(GL_STENCIL_TEST))
        glDisable(GLenum(GL_CULL_FACE))
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        // A background drawn first over the cleared (transparent) frame is exactly its own colour
        // × opacity everywhere (blending ONE, ONE_MINUS_SRC_ALPHA over zero), so it becomes the
        // clear colour — the same float → unorm conversion as the shader's output, without a
        // full-frame pass. Under pitch a view can see past the world's north or south edge, where
        // MapLibre draws no background (it draws it over the covering tiles): then every
        // background is the polygon of the part that shows the world (WorldBand).
        var layers = scene.layers[...]
        let band = view.worldBand
        if band.coversView, case .background(let b)? = layers.first, !b.patterned {
            let o = Float(b.opacity)
            glClearColor(Float(b.color.r) * o, Float(b.color.g) * o, Float(b.color.b) * o, Float(b.color.a) * o)
            layers = layers.dropFirst()
        } else {
            glClearColor(0, 0, 0, 0)
        }
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDepthMask(GLboolean(GL_TRUE))
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))   // depth and stencil: when first used (TileClipping)
        glBindVertexArray(vao)
        var frame = FrameState(view: view, ratio: ratio, clipFold: clipFold,
                               viewport: (Float(Double(w) / clipFold.sx), Float(Double(h) / clipFold.sy)))
        frame.use(scene.extras)
        var box: [GLint] = [0, 0, 0, 0]
        glGetIntegerv(GLenum(GL_VIEWPORT), &box)
        frame.window = (Int(box[0]), Int(box[1]), Int(box[2]), Int(box[3]))
        clipping.beginFrame(target: target)
        heatmaps.beginFrame()
        var counts = DrawStats()
        defer { trianglesDrawn += counts.triangles; drawCalls += counts.calls }
        for (i, layer) in layers.enumerated() {
            try stopIfAsked("before layer \(i + 1) of \(layers.count)")
            resetAttributes()
            switch layer {
            case .background(let b):
                backgrounds.draw(b, band: band, frame: frame)
                if !heatmaps.pending.isEmpty && b.drawsInOpaquePass { repeatHeatmaps(over: b, band: band, frame: frame, stats: &counts) }
            case .tiled(let source, let clipped, let tiles):
                guard !tiles.isEmpty else { continue }
                if try drawWholeLayer(tiles, frame: frame, stats: &counts) {
                    try GLState.check("drawing layer")
                    continue
                }
                defer { if !heatmaps.pending.isEmpty { repeatHeatmaps(over: tiles, source: source, scene: scene, frame: frame, stats: &counts) } }
                if clipped {
                    clipping.drawMasks(for: source, tiles: scene.sourceTiles[source] ?? tiles.map(\.tile), frame: frame)
                } else {
                    glDisable(GLenum(GL_STENCIL_TEST))
                }
                for (tile, bucket) in tiles {
                    // A clipped layer draws nothing outside its tile's square: skip tiles whose
                    // square misses the frame (the world copies at a view's edges).
                    if clipped {
                        guard frame.showsSquare(of: tile) else { continue }
                        clipping.clip(to: tile)
                    }
                    let t = frame.tile(tile)
                    switch bucket.content {
                    case .fill(let f): try fills.draw(f, tile: t, frame: frame, stats: &counts)
                    case .line(let l): try lines.draw(l, tile: t, frame: frame, stats: &counts)
                    case .circle(let c): try circles.draw(c, tile: t, frame: frame, stats: &counts)
                    case .fillExtrusion, .heatmap, .symbol: break   // drawn as whole layers
                    }
                }
                clipping.end()
            case .raster(let r):
                try rasters.draw(r, frame: frame, clipping: clipping, stats: &counts)
            case .symbol(let tiles, let iconItems, let textItems, let debug):
                glDisable(GLenum(GL_STENCIL_TEST))
                var drawn: [(frame: SymbolTileFrame, bucket: SymbolDrawer.Uploaded)] = []
                for (f, b) in tiles { if case .symbol(let u) = b.content { drawn.append((f, u)) } }
                // Items index the plan's tiles; a tile whose upload failed draws nothing.
                if drawn.count == tiles.count {
                    try symbols.draw(drawn, iconItems: iconItems, textItems: textItems, frame: frame, stats: &counts)
                }
                if let debug { try symbols.drawDebug(debug, frame: frame, stats: &counts) }
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

    func resetAttributes() {
        for i in 0..<GLuint(maxVertexAttribs) {
            glDisableVertexAttribArray(i)
            glVertexAttribDivisor(i, 0)
        }
    }
}

/// Draw calls and triangles submitted (benchmarks print them).
struct DrawStats {
    var triangles = 0
    var calls = 0
}

/// What every draw of a frame shares: the view, the pixel ratio and the viewport fold.
struct FrameState {
    let view: ViewTransform
    let ratio: Double
    let clipFold: ClipFold
    /// The frame's size in device pixels as the shaders see it (before folding).
    let viewport: (Float, Float)
    /// The GL viewport in window pixels (x, y of its bottom-left corner, width, height; a tiled
    /// frame's viewport is offset or folded); zero: not known.
    var window = (x: 0, y: 0, width: 0, height: 0)

    /// The matrix from a tile's units to clip space, world copy included, with a translation in
    /// CSS pixels (`viewport` anchor: turned with the bearing), folded for tiled frames.
    func matrix(_ tile: OverscaledTileID, translate: (x: Double, y: Double) = (0, 0), inViewport: Bool = false) -> Matrix4 {
        let (tx, ty) = WorldCopies.translation(view, translate, inViewport: inViewport)
        let scale = view.worldSize / Double(tile.canonical.tilesPerSide)
        let m = view.projectionMatrix
            * Matrix4.translation(Double(tile.unwrappedX) * scale + tx, Double(tile.canonical.y) * scale + ty, 0)
            * Matrix4.scale(scale / Double(TileExtent.extent), scale / Double(TileExtent.extent), 1)
        return clipFold.apply(m)
    }

    /// The style's light (fill-extrusion shading).
    var light = EvaluatedLight.default
    /// The far end of the depth range extrusions use (`ExtrusionDepth.rangeEnd`).
    var extrusionDepthEnd = 1.0
    /// The pattern atlas texture (0: none) and its size in pixels.
    var patternTexture: GLuint = 0
    var patternTextureSize = (width: 1, height: 1)
    /// Whether any part of `tile`'s square lies in the frame (in front of the camera).
    func showsSquare(of tile: OverscaledTileID) -> Bool {
        let m = matrix(tile)
        var lo = (Double.infinity, Double.infinity), hi = (-Double.infinity, -Double.infinity)
        let e = Double(TileExtent.extent)
        for (x, y) in [(0.0, 0.0), (e, 0), (0, e), (e, e)] {
            let p = m.transform(x, y, 0)
            guard p.w > 1e-9 else { return true }   // crosses the camera plane: keep it
            lo = (min(lo.0, p.x / p.w), min(lo.1, p.y / p.w))
            hi = (max(hi.0, p.x / p.w), max(hi.1, p.y / p.w))
        }
        return hi.0 > -1 && lo.0 < 1 && hi.1 > -1 && lo.1 < 1
    }

    /// The per-tile values drawers need.
    func tile(_ id: OverscaledTileID) -> TileDraw {
        TileDraw(id: id, unitsPerPixel: Double(TileExtent.extent) * Double(id.canonical.tilesPerSide) / view.worldSize)
    }
}

/// One tile as a drawer draws it.
struct TileDraw {
    /// The tile.
    let id: OverscaledTileID
    /// Tile units per CSS pixel at the frame's zoom (MapLibre's `pixelsToTileUnits(tile, 1, zoom)`).
    let unitsPerPixel: Double
}
