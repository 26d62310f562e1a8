// Renderer pool — contract
// Input: render jobs (a style, the render options, a cache key) from the HTTP threads. Output: each
// job's PNG (encoded exactly as `glmap tiles` encodes: PNGEncoder's default compression) and its ETag,
// or the error, handed back to the one HTTP thread waiting for it.
// Workers: `workers` threads, each owning one `BatchRenderer` per style, created on that thread
// when it starts (the threading contract: one GL context per renderer per thread). Scenes are
// parsed and projected once for the server and shared read-only; each worker evaluates,
// tessellates and uploads a style once per evaluation key and keeps the uploads (`zoomKeys` keys).
// Queue: at most `capacity` jobs wait; `submit` returns nil when it is full (the caller answers
// 503). A caller waits until its deadline; past it the job is cancelled: a worker that has not
// started it skips it; one that has stops it at its next check (before each layer's draw and
// before the read-back: `RenderInterrupted`, counted as `renders_interrupted`), and its renderer
// goes on with the next job. A frame of one colour reuses its encoded bytes
// (UniformImageCache.swift).
// GL failures: a frame failing with a GL failure (the renderer is then unusable) is drawn again
// once; `BatchRenderer.render` replaces the renderer first (new context, scene uploaded again),
// as batches do, and the replacement is counted. A second failure is the job's error (500).
// Shutdown: `shutdown()` finishes the queued jobs, then stops and joins the workers.
import Foundation
import GLMap
import Synchronization
import GLMapCore
import GLMapPNG

/// A fixed set of render threads, each with its own GL renderers, behind a bounded queue.
final class RendererPool: @unchecked Sendable {
    /// One image to render.
    final class Job: @unchecked Sendable {
        let style: Int
        let options: RenderOptions
        let key: String
        // Guarded by the pool's condition.
        var result: Result<EncodedTileCache.Entry, Error>?
        var cancelled: Bool {
            get { stop.load(ordering: .relaxed) }
            set { stop.store(newValue, ordering: .relaxed) }
        }
        /// Set by the waiter when it gives up; read by the worker mid-render without the lock.
        let stop = Atomic<Bool>(false)
        /// Signalled once the result is set: each waiter sleeps on its own job's semaphore, so a
        /// finished job wakes only its own connection thread (not every waiting one).
        let done = DispatchSemaphore(value: 0)
        init(style: Int, options: RenderOptions, key: String) { self.style = style; self.options = options; self.key = key }
    }

    private let condition = NSCondition()
    private var queue: [Job] = []
    private var closed = false
    private var running = 0
    private var started = 0
    private var threads: [Thread] = []
    private let scenes: [SharedScene]
    private let backend: Backend
    let capacity: Int
    let metrics: ServerMetrics
    let cache: EncodedTileCache
    /// Evaluation keys (zooms) each worker keeps uploaded per style.
    static let zoomKeys = 25
    /// Called on the worker thread before each render (tests break the renderer here).
    var testHookBeforeRender: (@Sendable (BatchRenderer, Job) -> Void)?
    /// The first renderer creation failure, if any (the server reports it on /health).
    private(set) var startupFailure: String?

    /// A scene shared read-only by the workers.
    struct SharedScene: @unchecked Sendable { let scene: Scene }

    init(scenes: [Scene], workers: Int, capacity: Int, backend: Backend, metrics: ServerMetrics, cache: EncodedTileCache) {
        self.scenes = scenes.map(SharedScene.init)
        self.backend = backend
        self.capacity = max(1, capacity)
        self.metrics = metrics
        self.cache = cache
        let n = max(1, workers)
        running = n
        for i in 0..<n {
            let t = Thread { [unowned self] in self.work() }
            t.name = "glmap-render-\(i)"
            t.stackSize = 8 << 20
            threads.append(t)
        }
    }

    func start() { threads.forEach { $0.start() } }

    /// Blocks until every worker has created its renderers (or failed to).
    func waitUntilReady() {
        condition.lock(); defer { condition.unlock() }
        while started < threads.count { condition.wait() }
    }

    /// Jobs waiting for a worker.
    var depth: Int { condition.lock(); defer { condition.unlock() }; return queue.count }

    /// Queues a job; nil when the queue is full or the pool is shutting down.
    func submit(style: Int, options: RenderOptions, key: String) -> Job? {
        condition.lock(); defer { condition.unlock() }
        guard !closed, queue.count < capacity else { return nil }
        let job = Job(style: style, options: options, key: key)
        queue.append(job)
        condition.signal()   // one idle worker is enough
        return job
    }

    /// Waits for `job` until `deadline`; nil (and the job cancelled) when the deadline passes first.
    func wait(_ job: Job, until deadline: Date) -> Result<EncodedTileCache.Entry, Error>? {
        let seconds = max(0, deadline.timeIntervalSinceNow)
        let signalled = job.done.wait(timeout: .now() + seconds) == .success
        condition.lock(); defer { condition.unlock() }
        if !signalled && job.result == nil {
            job.cancelled = true
            queue.removeAll { $0 === job }
            return nil
        }
        return job.result
    }

    /// Finishes the queued jobs, then stops and joins the workers.
    func shutdown() {
        condition.lock()
        closed = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func work() {
        // This thread's renderers: one per style, each with its own GL context, made here.
        var renderers: [BatchRenderer?] = []
        let uniform = UniformImageCache()
        var failure: String?
        for s in scenes {
            do {
                let r = try BatchRenderer(scene: s.scene, backend: backend)
                r.cacheCapacity = RendererPool.zoomKeys
                renderers.append(r)
            } catch {
                failure = "\(error)"
                renderers.append(nil)
            }
        }
        condition.lock()
        if let failure, startupFailure == nil { startupFailure = failure }
        started += 1
        condition.broadcast()
        while true {
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty { break }
            let job = queue.removeFirst()
            if job.cancelled { continue }
            condition.unlock()
            let result = render(job, renderers, uniform)
            if case .success(let entry) = result { cache.put(job.key, entry) }
            condition.lock()
            job.result = result
            job.done.signal()
        }
        // Tear this thread's GL contexts down here, on their own thread, before `shutdown` can
        // return (and the process exit while a context is still being destroyed).
        condition.unlock()
        renderers.removeAll()
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func render(_ job: Job, _ renderers: [BatchRenderer?], _ uniform: UniformImageCache) -> Result<EncodedTileCache.Entry, Error> {
        guard let renderer = renderers[job.style] else {
            return .failure(IOFailure(path: "renderer", message: startupFailure ?? "no renderer for this style"))
        }
        do {
            let before = renderer.replacements
            defer { metrics.count("renderer_replacements", renderer.replacements - before) }
            var image: PremultipliedImage
            let stop = { job.cancelled }
            do {
                testHookBeforeRender?(renderer, job)
                image = try renderer.render(job.options, shouldStop: stop)
            } catch where !renderer.isHealthy {
                image = try renderer.render(job.options, shouldStop: stop)   // replaces the broken renderer first
            }
            let reused = uniform.hits
            let png = try uniform.encode(image)
            metrics.count("uniform_encodes_reused", uniform.hits - reused)
            metrics.count("renders")
            return .success(.init(png: png, etag: RendererPool.etag(png)))
        } catch let e as RenderInterrupted {
            metrics.count("renders_interrupted")
            return .failure(e)
        } catch {
            metrics.count("render_failures")
            return .failure(error)
        }
    }

    /// A strong ETag from the bytes (FNV-1a, 64 bits): the same image gives the same tag on every
    /// instance, so caches behind a load balancer agree.
    static func etag(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "-\(bytes.count)\""
    }
}
