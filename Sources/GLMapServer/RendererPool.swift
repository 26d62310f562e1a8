// Renderer pool — contract
// Input: render jobs (a style, the render options, a cache key, a deadline, and what to call when
// the job is finished) from the HTTP thread. Output: each job's PNG (encoded exactly as
// `glmap tiles` encodes: PNGEncoder's default compression) and its ETag, or the error, or nothing
// when the deadline passed first (a timeout); `onFinish` is then called exactly once, on the
// thread that finished it (a worker, or the deadline watcher), with `result` set.
// Workers: `workers` threads, each owning one `BatchRenderer` per style, created on that thread
// when it starts (the threading contract: one GL context per renderer per thread). Scenes are
// parsed and tiled once for the server and shared read-only (with their tile bucket caches);
// each worker uploads the tile buckets its frames draw and keeps the uploads recent frames used.
// Queue: at most `capacity` jobs wait; `submit` returns nil when it is full (the caller answers
// 503). Deadlines: one watcher thread sleeps until the oldest unfinished job's deadline (the server
// has one timeout, so deadlines come in submission order); past it the job is finished as timed
// out and cancelled: a worker that has not started it skips it; one that has stops it at its next
// check (before each layer's draw and before the read-back: `RenderInterrupted`, counted as
// `renders_interrupted`), and its renderer goes on with the next job. A frame of one colour
// reuses its encoded bytes (UniformImageCache.swift).
// GL failures: a frame failing with a GL failure (the renderer is then unusable) is drawn again
// once; `BatchRenderer.render` replaces the renderer first (new context, scene uploaded again),
// as batches do, and the replacement is counted. A second failure is the job's error (500).
// Shutdown: `shutdown()` finishes the queued jobs, then stops and joins the workers and the watcher.
import Foundation
import GLMap
import GLMapBatch
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
        /// When the job times out.
        let deadline: Date
        /// Called once the job is finished (`result` set): by the worker that rendered it or by
        /// the deadline watcher. The server resumes the job's connection here.
        let onFinish: @Sendable () -> Void
        /// The image or the error; nil once finished means it timed out.
        var result: Result<EncodedTileCache.Entry, Error>? { resultBox.value }
        /// The result, dropped from the job (the deadline watcher's list may keep the job a while:
        /// it need not keep the image too).
        func takeResult() -> Result<EncodedTileCache.Entry, Error>? {
            resultBox.withLock { r in defer { r = nil }; return r }
        }
        private let resultBox = Locked<Result<EncodedTileCache.Entry, Error>?>(nil)
        /// 0 until finished, then 1 (set once, by whoever finishes it first).
        private let state = Atomic<Int>(0)
        var isFinished: Bool { state.load(ordering: .acquiring) == 1 }
        /// Set when the job timed out; read by the worker mid-render without the lock.
        var cancelled: Bool {
            get { stop.load(ordering: .relaxed) }
            set { stop.store(newValue, ordering: .relaxed) }
        }
        let stop = Atomic<Bool>(false)
        init(style: Int, options: RenderOptions, key: String, deadline: Date, onFinish: @escaping @Sendable () -> Void) {
            self.style = style; self.options = options; self.key = key; self.deadline = deadline; self.onFinish = onFinish
        }

        /// Finishes the job with `result` (nil: timed out) unless it is already finished; true
        /// when this call finished it (and called `onFinish`).
        @discardableResult
        func finish(_ result: Result<EncodedTileCache.Entry, Error>?) -> Bool {
            guard state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else { return false }
            if result == nil { cancelled = true }
            resultBox.withLock { $0 = result }
            onFinish()
            return true
        }
    }

    private let condition = NSCondition()
    private var queue: [Job] = []
    private var closed = false
    private var running = 0
    private var started = 0
    private var threads: [Thread] = []
    /// The deadline watcher's jobs, oldest first (finished ones are dropped lazily).
    private let watch = NSCondition()
    private var watched: [Job] = []
    private var watchedAfterCompaction = 0
    private var watcherDone = false
    private var watcher: Thread?
    private let scenes: [SharedScene]
    private let backend: Backend
    let capacity: Int
    let metrics: ServerMetrics
    let cache: EncodedTileCache
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

    func start() {
        let w = Thread { [unowned self] in self.watchDeadlines() }
        w.name = "glmap-deadlines"
        watcher = w
        w.start()
        threads.forEach { $0.start() }
    }

    /// Blocks until every worker has created its renderers (or failed to).
    func waitUntilReady() {
        condition.lock(); defer { condition.unlock() }
        while started < threads.count { condition.wait() }
    }

    /// Jobs waiting for a worker.
    var depth: Int { condition.lock(); defer { condition.unlock() }; return queue.count }

    /// Queues a job; nil when the queue is full or the pool is shutting down. `onFinish` is called
    /// once the job has its result or has timed out at `deadline` (see `Job.finish`).
    func submit(style: Int, options: RenderOptions, key: String, deadline: Date,
                onFinish: @escaping @Sendable () -> Void) -> Job? {
        let job = Job(style: style, options: options, key: key, deadline: deadline, onFinish: onFinish)
        condition.lock()
        guard !closed, queue.count < capacity else { condition.unlock(); return nil }
        queue.append(job)
        condition.signal()   // one idle worker is enough
        condition.unlock()
        watch.lock()
        watched.append(job)
        if watched.count == 1 { watch.signal() }   // the watcher sleeps without a deadline when it has none
        // Finished jobs leave the list lazily: compact it whenever it has doubled since the last time.
        if watched.count > max(1024, 2 * watchedAfterCompaction) {
            watched.removeAll { $0.isFinished }
            watchedAfterCompaction = watched.count
        }
        watch.unlock()
        return job
    }

    /// Finishes timed-out jobs: sleeps until the oldest unfinished job's deadline (deadlines come
    /// in submission order: one timeout for the server), then finishes it as timed out, takes it
    /// out of the queue if no worker has it yet, and cancels it if one has.
    private func watchDeadlines() {
        watch.lock()
        while true {
            var head = 0
            while head < watched.count && watched[head].isFinished { head += 1 }
            if head > 0 { watched.removeFirst(head) }
            if watcherDone && watched.isEmpty { break }
            guard let first = watched.first else { watch.wait(); continue }
            if first.deadline > Date() {
                _ = watch.wait(until: first.deadline)
                continue
            }
            watched.removeFirst()
            watch.unlock()
            if first.finish(nil) {
                condition.lock()
                queue.removeAll { $0 === first }
                condition.unlock()
            }
            watch.lock()
        }
        watch.unlock()
    }

    /// Finishes the queued jobs, then stops and joins the workers and the deadline watcher.
    func shutdown() {
        condition.lock()
        closed = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
        // Every job is finished now (the workers emptied the queue): the watcher has nothing left.
        watch.lock()
        watcherDone = true
        watched.removeAll { $0.isFinished }
        watch.signal()
        watch.unlock()
    }

    private func work() {
        // This thread's renderers: one per style, each with its own GL context, made here.
        var renderers: [BatchRenderer?] = []
        let uniform = UniformImageCache()
        var failure: String?
        for s in scenes {
            do {
                let r = try BatchRenderer(scene: s.scene, backend: backend)
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
            if job.isFinished { continue }   // timed out while it waited
            condition.unlock()
            let result = render(job, renderers, uniform)
            if case .success(let entry) = result { cache.put(job.key, entry) }
            job.finish(result)   // no-op when it timed out meanwhile
            condition.lock()
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
