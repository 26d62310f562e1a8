// Renderer pool — contract
// Input: render jobs (a style, the render options of one frame, the pieces cut from it — a static
// image is one piece, a metatile one per tile — each with its cache key, a deadline, and the
// requests waiting, each for one piece and with what to call when the job is finished) from the
// HTTP thread. Output: every piece's PNG (encoded exactly as `glmap tiles` encodes: PNGEncoder's
// default compression) and its ETag, put in the encoded tile cache, or the error, or nothing when
// the deadline passed first (a timeout); each waiting request's `onFinish` is then called exactly
// once, on the thread that finished the job (a worker, or the deadline watcher), with its result set.
// Coalescing: a request for a piece of a job that is queued or rendering (a tile of a metatile
// being drawn) waits for that job instead of queuing another, so a frame is never drawn twice at
// once; once a job is finished its pieces are in the cache. A request that joins a job shares the
// first request's deadline.
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
    /// One image cut from a job's frame: its cache key and where it lies (nil: the whole frame).
    struct Piece: Sendable {
        let key: String
        let crop: PixelRect?
    }

    /// One frame to render, and the requests waiting for its pieces.
    final class Job: @unchecked Sendable {
        let style: Int
        let options: RenderOptions
        /// What identifies the frame: a second request for a piece of it joins this job.
        let key: String
        let pieces: [Piece]
        /// When the job times out.
        let deadline: Date
        /// The requests waiting: the piece each wants, and what to call once the job is finished
        /// (by the worker that rendered it or by the deadline watcher): the server resumes the
        /// request's connection there. Then, each piece's image or the error; a timeout: `.timedOut`.
        private let box = Locked<(waiters: [(key: String, onFinish: @Sendable () -> Void)], results: [String: (Result<EncodedTileCache.Entry, Error>, takers: Int)], finished: Bool)>(([], [:], false))
        /// 0 until finished, then 1 (set once, by whoever finishes it first).
        private let state = Atomic<Int>(0)
        var isFinished: Bool { state.load(ordering: .acquiring) == 1 }
        /// Called once, when the job is finished, before the waiters are (the pool forgets it then).
        let detach: @Sendable (Job) -> Void
        /// Set when the job timed out; read by the worker mid-render without the lock.
        var cancelled: Bool {
            get { stop.load(ordering: .relaxed) }
            set { stop.store(newValue, ordering: .relaxed) }
        }
        let stop = Atomic<Bool>(false)
        init(style: Int, options: RenderOptions, key: String, pieces: [Piece], deadline: Date, detach: @escaping @Sendable (Job) -> Void) {
            self.style = style; self.options = options; self.key = key; self.pieces = pieces; self.deadline = deadline; self.detach = detach
        }

        /// Adds a request waiting for the piece `key`; false when the job is already finished.
        func join(_ key: String, onFinish: @escaping @Sendable () -> Void) -> Bool {
            box.withLock { b in
                guard !b.finished else { return false }
                b.waiters.append((key, onFinish))
                return true
            }
        }

        /// The result for the piece `key`, dropped from the job once every request waiting for it
        /// has taken it (the deadline watcher's list may keep the job a while: it need not keep the
        /// image too); nil: the job timed out.
        func takeResult(for key: String) -> Result<EncodedTileCache.Entry, Error>? {
            box.withLock { b in
                guard let (result, takers) = b.results[key] else { return nil }
                b.results[key] = takers > 1 ? (result, takers - 1) : nil
                return result
            }
        }

        /// Finishes the job with the pieces' images or the error (nil: timed out) unless it is
        /// already finished; true when this call finished it (and called the waiters' `onFinish`).
        @discardableResult
        func finish(_ result: Result<[String: EncodedTileCache.Entry], Error>?) -> Bool {
            guard state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else { return false }
            if result == nil { cancelled = true }
            detach(self)
            let waiters = box.withLock { b in
                b.finished = true
                for w in b.waiters {   // only what a waiter takes is kept
                    let takers = (b.results[w.key]?.takers ?? 0) + 1
                    switch result {
                    case .success(let entries)?: b.results[w.key] = entries[w.key].map { (.success($0), takers) }
                    case .failure(let e)?: b.results[w.key] = (.failure(e), takers)
                    case nil: break
                    }
                }
                return b.waiters
            }
            for w in waiters { w.onFinish() }
            return true
        }
    }

    /// What `submit` did with a request.
    enum Submitted {
        /// The request waits for this job (a new one, or one already queued or rendering).
        case job(Job)
        /// A job finished meanwhile: the image is in the cache.
        case cached(EncodedTileCache.Entry)
        /// The queue is full or the pool is shutting down.
        case full
    }

    private let condition = NSCondition()
    private var queue: [Job] = []
    /// The jobs queued or rendering, by key (guarded by `condition`).
    private var inFlight: [String: Job] = [:]
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

    /// Asks for the piece `wanted` of the frame `key` (cut into `pieces`): joins the job drawing
    /// that frame, or answers from the cache when one finished meanwhile, or queues a new job.
    /// `onFinish` is called once the job has its result or has timed out at `deadline` (see `Job.finish`).
    func submit(style: Int, options: RenderOptions, key: String, pieces: [Piece], wanted: String, deadline: Date,
                onFinish: @escaping @Sendable () -> Void) -> Submitted {
        condition.lock()
        if let running = inFlight[key], running.join(wanted, onFinish: onFinish) {
            condition.unlock()
            metrics.count("renders_shared")
            return .job(running)
        }
        // A job finishes (and leaves `inFlight`) only after its pieces are cached.
        if let hit = cache.get(wanted) {
            condition.unlock()
            metrics.count("renders_shared")
            return .cached(hit)
        }
        guard !closed, queue.count < capacity else { condition.unlock(); return .full }
        let job = Job(style: style, options: options, key: key, pieces: pieces, deadline: deadline) { [weak self] done in
            guard let self else { return }
            condition.lock()
            if inFlight[done.key] === done { inFlight[done.key] = nil }
            condition.unlock()
        }
        _ = job.join(wanted, onFinish: onFinish)
        queue.append(job)
        inFlight[key] = job
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
        return .job(job)
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
            if case .success(let entries) = result { for (key, entry) in entries { cache.put(key, entry) } }
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

    private func render(_ job: Job, _ renderers: [BatchRenderer?], _ uniform: UniformImageCache) -> Result<[String: EncodedTileCache.Entry], Error> {
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
            var entries: [String: EncodedTileCache.Entry] = [:]
            for piece in job.pieces {
                let png = try uniform.encode(piece.crop.map(image.cropped) ?? image)
                entries[piece.key] = .init(png: png, etag: RendererPool.etag(png))
            }
            metrics.count("uniform_encodes_reused", uniform.hits - reused)
            metrics.count("renders")
            return .success(entries)
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
