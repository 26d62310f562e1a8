// Batch rendering — contract
// Input: one `Scene` and a sequence of frames (render options, each with a delivery for its PNG).
// Output: every frame rendered, PNG-encoded on an `EncoderPool` and delivered, in any order.
// Work done once: parsing and projection (the scene), and — per evaluation key — evaluation,
// tessellation and GPU upload. On the GPU the key is `Scene.gpuKey`: the tile zoom floor(zoom)
// (plus the dash cross-fade direction and fractional layer zoom ranges), because buckets hold
// geometry and per-feature paint at the tile zoom only, and everything that follows the exact
// zoom (camera values, composite mix factors) is a uniform set per frame — a fly-through with
// fractional zooms re-tessellates once per integer zoom. On the CPU the key is the frame's zoom,
// or floor(zoom) when nothing in the style depends on fractional zoom (no zoom expressions or
// filters, integer min/maxzoom, no line-dasharray). A small LRU keeps `cacheCapacity` keys, so
// memory stays flat whatever the zoom mix.
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
import Foundation
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
    /// Whether evaluations are shared per floor(zoom) (else per exact zoom).
    public let keysByIntegerZoom: Bool
    /// How many evaluation keys (evaluated layers + GPU buffers) are kept.
    public var cacheCapacity = 3
    /// The format frame `i` is encoded in, when it differs from the pool's (nil: the pool's).
    public var frameFormat: (@Sendable (Int) -> ImageFormat?)?
    /// How many times the scene was evaluated and tessellated (cache misses).
    public private(set) var evaluations = 0
    /// How many times an unusable GL renderer was replaced by a new one (new context).
    public internal(set) var replacements = 0
    /// False once a GL failure (error, reset, lost context) broke the GPU renderer; the next
    /// `render` or `run` replaces it. Always true on the CPU.
    public var isHealthy: Bool { activeBackend == .cpu || (gl?.isUsable ?? false) }

    /// The GL renderer (replaced after a GL failure; nil on the CPU).
    var gl: GLRenderer?
    struct Entry { let key: String; let layers: [EvaluatedLayer]; let gpu: GPUScene? }
    var cache: [Entry] = []
    /// Called before each GPU frame is drawn, with its index (-1 from `render`; tests cause GL failures here).
    var testHookBeforeDraw: ((Int, GLRenderer) -> Void)?

    /// Prepares a renderer for `scene` on `backend` (creating the GL context for the GPU).
    public init(scene: Scene, backend: Backend = .auto) throws {
        self.scene = scene
        keysByIntegerZoom = !BatchRenderer.dependsOnFractionalZoom(scene.style)
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

    /// Whether any layer's output can change between two zooms with the same integer part.
    public static func dependsOnFractionalZoom(_ style: StyleDocument) -> Bool {
        for layer in style.layers {
            if layer.minzoom.isFinite && layer.minzoom != layer.minzoom.rounded(.down) { return true }
            if layer.maxzoom.isFinite && layer.maxzoom != layer.maxzoom.rounded(.down) { return true }
            if let f = layer.filter, !f.isZoomConstant { return true }
            for (name, value) in layer.values {
                if !value.expression.isZoomConstant || name == "line-dasharray" { return true }
            }
        }
        return false
    }

    /// The CPU backend's cache key of a camera zoom.
    public func evaluationKey(zoom: Double) -> Double {
        let z = max(0, zoom)
        return keysByIntegerZoom ? z.rounded(.down) : z
    }

    /// The cache key of a camera zoom on the backend in use.
    public func cacheKey(zoom: Double) -> String {
        activeBackend == .gpu ? scene.gpuKey(zoom: max(0, zoom)) : "\(evaluationKey(zoom: zoom))"
    }

    func entry(zoom: Double) throws -> Entry {
        let key = cacheKey(zoom: zoom)
        if let i = cache.firstIndex(where: { $0.key == key }) {
            let e = cache.remove(at: i)
            cache.append(e)
            return e
        }
        evaluations += 1
        var layers: [EvaluatedLayer] = []
        var gpu: GPUScene?
        if let gl {
            if cache.count >= max(1, cacheCapacity) { cache.removeFirst() }  // free GPU memory first
            gpu = try gl.upload(scene.gpuBuckets(zoom: max(0, zoom)))
        } else {
            if cache.count >= max(1, cacheCapacity) { cache.removeFirst() }
            layers = scene.evaluatedLayers(zoom: max(0, zoom))
        }
        // The GPU path keeps only the uploaded buffers; the CPU path keeps the evaluated layers.
        let e = Entry(key: key, layers: gpu == nil ? layers : [], gpu: gpu)
        cache.append(e)
        return e
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
        let e = try entry(zoom: v.camera.zoom)
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
        var failure: Error?
        var summary = BatchSummary(total: count)
        do {
            if activeBackend == .gpu {
                try runOnGPU(count: count, options: options, deliver: deliver, pool: pool, progress: progress, summary: &summary, noun: noun)
            } else {
                for i in 0..<count {
                    let o = try options(i)
                    try pool.submit(try render(o), format: frameFormat?(i), deliver: deliver(i))
                    progress?.update(pool.completed)
                }
            }
        } catch {
            failure = error
        }
        // Always drain the pool: frames already rendered are finished and written.
        do { try pool.finish() } catch { if failure == nil { failure = error } }
        progress?.finish(pool.completed)
        summary.completed = pool.completed
        if var stopped = failure as? BatchGPUFailure {
            stopped.summary.completed = pool.completed
            failure = stopped
        }
        if let failure { throw failure }
        return summary
    }
}
