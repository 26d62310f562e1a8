// Batch rendering — contract
// Input: one `Scene` and a sequence of frames (render options, each with a delivery for its PNG).
// Output: every frame rendered, PNG-encoded on an `EncoderPool` and delivered, in any order; a
// frame given as pieces (the tiles of a metatile) has each piece cut, encoded and delivered.
// Work done once: parsing and tiling (the scene); per tile and layer, evaluation and tessellation
// (the scene's tile bucket cache) and GPU upload (the renderer's upload cache), reused by every
// later frame that shows the same tile at the same tile zoom — everything that follows the exact
// camera (matrices, camera values, composite mix factors) is a uniform set per frame, so a
// fly-through tessellates only the tiles it has not drawn yet.
// Pipeline (GPU): draw frame n+1 while frame n's pixels travel through a pixel buffer object
// (`GLRenderer.beginReadback`/`endReadback`), then hand frame n to the encoder pool, whose
// bounded queue blocks the GL thread when encoding falls behind. The CPU backend renders each
// frame with the reference renderer on the calling thread and uses the same pool. A GPU frame
// larger than one framebuffer (GL's limit or `maxTileSize`) is drawn in tiles and read back
// synchronously instead; small frames keep the ring. Every frame is checked against
// `MapRenderer.maxImageSize` first (input error).
// GL failures mid-batch (RendererRecovery.swift): the renderer is replaced and the frames in flight
// drawn again; a frame failing twice is reported in the returned `BatchSummary`, not thrown.
// Limits: zooms below 0 (256-px tiles at z0) are drawn by the camera at that zoom and evaluated
// at zoom 0. Threading: use one BatchRenderer from one thread (it owns a GL context).
import GLMap
import Foundation
import GLMapImageFormats
import GLMapCore
import GLMapGLES
import GLMapPNG
import GLMapReference
import GLMapStyle
import GLMapTessellation

/// Renders many frames of one scene: shared evaluation/upload, pipelined readback, pooled encoding.
public final class BatchRenderer {
    /// The scene every frame renders.
    public let scene: Scene
    /// The backend in use: `.gpu` or `.cpu`.
    public let activeBackend: Backend
    /// Why `auto` fell back to the CPU, if it did.
    public let fallbackReason: String?
    /// The format frame `i` is encoded in, when it differs from the pool's (nil: the pool's).
    public var frameFormat: (@Sendable (Int) -> ImageFormat?)?
    /// How many tile buckets were evaluated and tessellated for this batch's frames (cache misses).
    public var evaluations: Int { scene.tileBucketsBuilt - bucketsBefore }
    private let bucketsBefore: Int
    /// How many times an unusable GL renderer was replaced by a new one (new context).
    public internal(set) var replacements = 0
    /// False once a GL failure (error, reset, lost context) broke the GPU renderer; the next
    /// `render` or `run` replaces it. Always true on the CPU.
    public var isHealthy: Bool { activeBackend == .cpu || (gl?.isUsable ?? false) }

    /// The GL renderer (replaced after a GL failure; nil on the CPU).
    var gl: GLRenderer?
    /// Called before each GPU frame is drawn, with its index (-1 from `render`; tests cause GL failures here).
    var testHookBeforeDraw: ((Int, GLRenderer) -> Void)?

    /// Prepares a renderer for `scene` on `backend` (creating the GL context for the GPU).
    public init(scene: Scene, backend: Backend = .auto) throws {
        self.scene = scene
        bucketsBefore = scene.tileBucketsBuilt
        switch backend {
        case .cpu:
            gl = nil; activeBackend = .cpu; fallbackReason = nil
        case .gpu:
            gl = try GLRenderer(); activeBackend = .gpu; fallbackReason = nil
        case .auto:
            var reason: String?
            var context: HeadlessContext?
            do { context = try HeadlessContext() } catch { reason = "\(error)" }
            if let context {
                gl = try GLRenderer(context: context); activeBackend = .gpu
            } else {
                gl = nil; activeBackend = .cpu
            }
            fallbackReason = reason
        }
    }

    /// The frame for a view: on the GPU its plan uploaded (tiles drawn before are reused), on the
    /// CPU the layers evaluated per tile.
    func frame(_ view: ViewTransform, ratio: Double) throws -> (gpu: GPUScene?, layers: [ReferenceLayer]) {
        if let gl { return (try gl.upload(scene.framePlan(view: view, ratio: ratio)), []) }
        return (nil, scene.referenceFrame(view: view, ratio: ratio))
    }

    func view(_ o: RenderOptions) -> ViewTransform {
        ViewTransform(camera: o.camera(default: scene.style.camera), width: Double(o.width), height: Double(o.height))
    }

    /// Largest framebuffer side the GPU draws in one pass (nil: GL's limit); larger frames are
    /// drawn in tiles, synchronously, outside the pixel buffer ring.
    public var maxTileSize: Int? {
        get { gl?.maxTileSize }
        set { gl?.maxTileSize = newValue }
    }

    /// Renders one frame synchronously (premultiplied), sharing the evaluation cache.
    /// `shouldStop` is asked before the evaluation, before each layer's draw and before the
    /// read-back (GPU backend); true throws `RenderInterrupted` there and the renderer stays usable.
    public func render(_ options: RenderOptions, shouldStop: (() -> Bool)? = nil) throws -> PremultipliedImage {
        try MapRenderer.checkImageSize(options)
        if activeBackend == .gpu && !(gl?.isUsable ?? false) { try replaceRenderer() }  // an earlier GL failure broke it
        if let shouldStop, shouldStop() { throw RenderInterrupted(stage: "before it started") }
        let v = view(options)
        let e = try frame(v, ratio: options.ratio)
        guard let gl, let gpu = e.gpu else {
            return ReferenceRenderer().render(e.layers, view: v, ratio: options.ratio)
        }
        testHookBeforeDraw?(-1, gl)
        gl.shouldStop = shouldStop
        defer { gl.shouldStop = nil }
        try gl.draw(gpu, view: v, ratio: options.ratio)
        return try gl.readback()
    }

    /// Renders `count` frames in order; frame `i` has `options(i)` and its PNG goes to `deliver(i)`
    /// on an encoder thread. Returns when every frame is delivered or reported failed (GL failures
    /// are recovered from: see `BatchSummary`); throws the first other failure, or `BatchGPUFailure`
    /// when the GPU keeps failing (frames delivered before it stay delivered).
    @discardableResult
    public func run(count: Int, options: (Int) throws -> RenderOptions, deliver: (Int) -> EncoderPool.Delivery,
                    pool: EncoderPool, progress: BatchProgress? = nil, noun: String = "frames") throws -> BatchSummary {
        try run(count: count, options: options, pieces: { [EncoderPool.Piece(deliver: deliver($0))] }, pool: pool, progress: progress, noun: noun)
    }

    /// `run` with each frame cut into pieces (the tiles of a metatile): frame `i`'s pieces are
    /// `pieces(i)`, each encoded and delivered on its own; `progress` counts pieces.
    @discardableResult
    public func run(count: Int, options: (Int) throws -> RenderOptions, pieces: (Int) -> [EncoderPool.Piece],
                    pool: EncoderPool, progress: BatchProgress? = nil, noun: String = "frames") throws -> BatchSummary {
        var failure: Error?
        var summary = BatchSummary(total: count)
        do {
            if activeBackend == .gpu {
                try runOnGPU(count: count, options: options, pieces: pieces, pool: pool, progress: progress, summary: &summary, noun: noun)
            } else {
                for i in 0..<count {
                    let o = try options(i)
                    try pool.submit(try render(o), format: frameFormat?(i), pieces: pieces(i))
                    summary.completed += 1
                    progress?.update(pool.completed)
                }
            }
        } catch {
            failure = error
        }
        // Always drain the pool: frames already rendered are finished and written.
        do { try pool.finish() } catch { if failure == nil { failure = error } }
        progress?.finish(pool.completed)
        if let failure { throw failure }
        return summary
    }
}
