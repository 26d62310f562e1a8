// Tile server — contract
// Input: a `ServerConfiguration` (styles, address, limits). Output: an HTTP/1.1 server on
// libmicrohttpd (Debian's libmicrohttpd; glmap parses no HTTP itself) answering the routes of
// ServerRoute.swift: tiles and static images as PNG (each tile byte-identical to what
// `glmap tiles` writes for it with the same `--metatile`: a tile request draws its metatile once,
// cut into its tiles, which all go into the cache), TileJSON 3, /health and /metrics (Prometheus text).
// Work: styles are parsed and their sources loaded once, at `init` (a bad style throws there:
// exit 2); `start` starts the render workers (RendererPool.swift: one GL context per style per
// worker thread) and the daemon: one polling thread (epoll) for every connection; a request whose
// image must be rendered suspends its connection (libmicrohttpd's suspend/resume) and hands the job
// to the pool, whose worker resumes it when the image is ready, so slow renders never stall other
// connections and no thread waits per connection.
// Invariants per request: the URL is checked before any work (400/404 with a one-line reason);
// GET and HEAD only (else 405); an image in the cache is answered from it; `If-None-Match`
// matching the ETag gives 304; a full render queue gives 503 with `Retry-After: 1`; an image not
// ready within `timeout` gives 504; a render failure gives 500 with the error's one line. Every
// answer is counted in the metrics. Nothing a client sends can crash the process: the request
// line and headers are bounded by libmicrohttpd's per-connection memory limit (431/414 there),
// idle or slow connections close after `connectionTimeout` seconds.
// Shutdown (`stop`, SIGTERM through `runUntilTerminated`): stop accepting, answer the requests in
// flight (up to `drainTimeout` seconds; /health says "draining" meanwhile), then close.
// Threading: `start`/`stop` from one thread; handlers run on libmicrohttpd's polling thread (one:
// a request's state is touched by that thread only; jobs resume connections from workers).
import CMicroHTTPD
import Foundation
import GLMap
import GLMapArchives
import GLMapPyramid
import GLMapCore
import GLMapStyle
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP server of rendered tiles, static maps and TileJSON for a set of styles.
public final class TileServer: @unchecked Sendable {
    /// What is served and the limits, as configured.
    public let configuration: ServerConfiguration
    /// The counters behind /metrics.
    public let metrics = ServerMetrics()
    /// The encoded image cache.
    public let cache: EncodedTileCache
    let router: ServerRouter
    let ids: [String: Int]
    let scenes: [Scene]
    let dataBounds: [(x0: Double, y0: Double, x1: Double, y1: Double)?]
    let pool: RendererPool
    private var daemon: OpaquePointer?
    private let lock = NSLock()
    private var inFlight = 0
    private var draining = false
    private var stopped = false
    /// Warnings from loading the styles' sources (shown by the CLI).
    public let warnings: [String]

    /// Loads every style and its sources (throws the style or source error).
    public init(configuration: ServerConfiguration) throws {
        try configuration.validate()
        self.configuration = configuration
        var scenes: [Scene] = []
        var warnings: [String] = []
        for s in configuration.styles {
            let scene = try Scene(style: Scene.loadStyle(file: s.path), resources: configuration.resources)
            warnings += scene.warnings.map { "style \(s.id): \($0)" }
            scenes.append(scene)
        }
        self.scenes = scenes
        self.warnings = warnings
        dataBounds = scenes.map(StaticCamera.dataBounds)
        ids = Dictionary(uniqueKeysWithValues: configuration.styles.enumerated().map { ($1.id, $0) })
        router = ServerRouter(maxStaticSize: configuration.maxStaticSize)
        cache = EncodedTileCache(capacityBytes: configuration.cacheMiB << 20)
        pool = RendererPool(scenes: scenes, workers: configuration.jobs, capacity: configuration.maxQueue,
                            backend: configuration.backend, metrics: metrics, cache: cache)
    }

    /// The port listened on (after `start`).
    public private(set) var port: UInt16 = 0

    /// The first renderer creation failure of a worker, if any.
    public var rendererFailure: String? { pool.startupFailure }

    /// Starts the render workers (waiting until their GL contexts exist) and the HTTP daemon.
    public func start() throws {
        RasterizerThreads.rasterizeOnDrawingThread(for: .renderThreads(configuration.jobs))   // workers covering the cores each rasterize themselves
        pool.start()
        pool.waitUntilReady()
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let d = glmap_mhd_start(configuration.socketAddress, configuration.port, configuration.maxConnections,
                                      configuration.connectionTimeout, 64 << 10, accessHandler, me, requestCompleted, nil) else {
            pool.shutdown()
            throw IOFailure(path: "\(configuration.urlHost):\(configuration.port)",
                            message: "cannot listen (address in use, not an IPv4 or IPv6 address of this machine, or no permission)")
        }
        daemon = d
        port = glmap_mhd_port(d)
    }

    /// Stops accepting connections, answers the requests in flight (up to `drainTimeout`), then
    /// closes every connection and stops the workers.
    public func stop() {
        lock.lock()
        if stopped || daemon == nil { lock.unlock(); return }
        stopped = true
        draining = true
        lock.unlock()
        let listener = MHD_quiesce_daemon(daemon)
        if listener >= 0 { close(listener) }
        let deadline = Date().addingTimeInterval(configuration.drainTimeout)
        while Date() < deadline {
            lock.lock(); let n = inFlight; lock.unlock()
            if n == 0 { break }
            usleep(10_000)
        }
        // Every suspended connection must be resumed before the daemon stops: the pool finishes
        // (and so resumes) every job it has first.
        pool.shutdown()
        MHD_stop_daemon(daemon)
        daemon = nil
    }

    /// Blocks until SIGTERM or SIGINT, then drains and stops (`stop`). Returns the signal.
    public func runUntilTerminated() -> Int32 {
        let semaphore = DispatchSemaphore(value: 0)
        let received = Locked<Int32>(0)   // the first signal wins
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGTERM, SIGINT] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { received.withLock { if $0 == 0 { $0 = sig } }; semaphore.signal() }
            source.resume()
            sources.append(source)
        }
        semaphore.wait()
        stop()
        sources.forEach { $0.cancel() }
        return received.value
    }

    /// Requests being handled now.
    public var requestsInFlight: Int { lock.lock(); defer { lock.unlock() }; return inFlight }

    /// The /metrics page.
    public func metricsText() -> String {
        metrics.text(queueDepth: pool.depth, inFlight: requestsInFlight, cacheBytes: cache.byteCount,
                     cacheEntries: cache.count, workers: configuration.jobs)
    }

    // MARK: Requests

    /// An answer to one request.
    struct Answer {
        var status: Int
        var body: [UInt8]
        var headers: [(String, String)] = []

        static func text(_ status: Int, _ line: String, headers: [(String, String)] = []) -> Answer {
            Answer(status: status, body: Array((line + "\n").utf8), headers: [("Content-Type", "text/plain; charset=utf-8")] + headers)
        }
    }

    /// What a request's headers say (read through libmicrohttpd).
    struct RequestHeaders {
        var ifNoneMatch: String?
        var host: String?
    }

    /// What to do with one request: answer now, or render an image first.
    enum Step {
        case answer(Answer)
        case render(Render)
    }

    /// An image to render for a request, and what its answer needs.
    struct Render {
        var style: Int
        var options: RenderOptions
        /// The frame (a metatile's, or the image's own cache key) and the pieces cut from it.
        var frameKey: String
        var pieces: [RendererPool.Piece]
        /// The cache key of the piece this request wants.
        var key: String
        var ifNoneMatch: String?
    }

    /// Answers one request, or says which image it needs (a cache miss).
    func step(method: String, path: String, headers: RequestHeaders) -> Step {
        guard method == "GET" || method == "HEAD" else {
            return .answer(.text(405, "method \(TileServer.printable(method)) not allowed: GET or HEAD", headers: [("Allow", "GET, HEAD")]))
        }
        let route: ServerRoute
        do { route = try router.route(path) } catch let e as RouteError {
            return .answer(.text(e.status, e.reason))
        } catch {
            return .answer(.text(400, "\(error)"))
        }
        var styleIndex = 0
        if let id = route.style {
            guard let i = ids[id] else {
                return .answer(.text(404, "no style \"\(TileServer.printable(id))\"; served: \(configuration.styles.map(\.id).joined(separator: ", "))"))
            }
            styleIndex = i
        }
        switch route {
        case .health:
            lock.lock(); let d = draining; lock.unlock()
            if d { return .answer(.text(503, "draining")) }
            if let f = pool.startupFailure { return .answer(.text(503, "renderer unavailable: \(TileServer.oneLine(f))")) }
            return .answer(.text(200, "ok"))
        case .metrics:
            return .answer(Answer(status: 200, body: Array(metricsText().utf8), headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")]))
        case let .tileJSON(id, tileSize):
            let base = configuration.publicURL ?? "http://" + (headers.host.flatMap(TileServer.saneHost) ?? "\(configuration.urlHost):\(port)")
            let doc = TileJSON.document(id: id, style: scenes[styleIndex].style, tileSize: tileSize, baseURL: base, maxzoom: router.maxTileZoom)
            return .answer(Answer(status: 200, body: Array(doc.utf8), headers: [("Content-Type", "application/json"), ("Cache-Control", "no-cache")]))
        case let .tile(id, tileSize, z, x, y, scale):
            // The tile's metatile is drawn once and cut, exactly as `glmap tiles` does with the same --metatile.
            let ratio = Double(scale)
            let metatile = Metatile(containing: TileAddress(unchecked: z, x, y), size: Metatile.size(configuration.metatile, tileSize: tileSize, ratio: ratio))
            return image(route, style: styleIndex, headers: headers) {
                let pieces = metatile.tiles.map { t in
                    RendererPool.Piece(key: ServerRoute.tile(style: id, tileSize: tileSize, z: t.z, x: t.x, y: t.y, scale: scale).cacheKey,
                                       crop: metatile.crop(t, tileSize: tileSize, ratio: ratio))
                }
                return (metatile.renderOptions(tileSize: tileSize, ratio: ratio), "metatile|\(id)|\(tileSize)|\(metatile)|\(scale)", pieces)
            }
        case let .staticImage(_, view, w, h, scale):
            return image(route, style: styleIndex, headers: headers) {
                (StaticCamera.options(view, width: w, height: h, scale: scale, dataBounds: self.dataBounds[styleIndex]), route.cacheKey, [RendererPool.Piece(key: route.cacheKey, crop: nil)])
            }
        }
    }

    /// A cached image's answer, or the render it needs: `frame` gives the frame's options, its key
    /// and the pieces cut from it (one of them this route's image).
    func image(_ route: ServerRoute, style: Int, headers: RequestHeaders,
               frame: () -> (options: RenderOptions, key: String, pieces: [RendererPool.Piece])) -> Step {
        let key = route.cacheKey
        if let hit = cache.get(key) {
            metrics.count("cache_hits")
            return .answer(imageAnswer(hit, cacheState: "hit", ifNoneMatch: headers.ifNoneMatch))
        }
        metrics.count("cache_misses")
        let f = frame()
        return .render(Render(style: style, options: f.options, frameKey: f.key, pieces: f.pieces, key: key, ifNoneMatch: headers.ifNoneMatch))
    }

    /// The answer to a full render queue.
    func queueFull() -> Answer {
        metrics.count("queue_rejections")
        return .text(503, "the render queue is full (\(pool.capacity) waiting) or the server is stopping; retry later", headers: [("Retry-After", "1")])
    }

    /// The answer once a render job is finished (nil result: it timed out).
    func rendered(_ result: Result<EncodedTileCache.Entry, Error>?, _ render: Render) -> Answer {
        switch result {
        case nil:
            metrics.count("timeouts")
            return .text(504, "the image was not ready within \(configuration.timeout) s")
        case .failure(let error)?:
            let status = (error as? GLMapError)?.kind == .invalidInput ? 400 : 500
            return .text(status, "render failed: \(TileServer.oneLine("\(error)"))")
        case .success(let e)?:
            return imageAnswer(e, cacheState: "miss", ifNoneMatch: render.ifNoneMatch)
        }
    }

    func imageAnswer(_ entry: EncodedTileCache.Entry, cacheState: String, ifNoneMatch: String?) -> Answer {
        let common = [("ETag", entry.etag), ("Cache-Control", configuration.cacheControl), ("X-Cache", cacheState)]
        if let inm = ifNoneMatch, TileServer.matches(inm, entry.etag) {
            return Answer(status: 304, body: [], headers: common)
        }
        return Answer(status: 200, body: entry.png, headers: [("Content-Type", "image/png")] + common)
    }

    /// Whether an If-None-Match value ("*", or a list of tags, weak or strong) matches `etag`.
    static func matches(_ ifNoneMatch: String, _ etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { part in
            var t = part.trimmingCharacters(in: .whitespaces)
            if t == "*" { return true }
            if t.hasPrefix("W/") { t.removeFirst(2) }
            return t == etag
        }
    }

    /// A Host header usable in URLs (host name or address with an optional port), or nil.
    static func saneHost(_ h: String) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]".utf8)
        return !h.isEmpty && h.utf8.count <= 255 && h.utf8.allSatisfy({ allowed.contains($0) }) ? h : nil
    }

    /// Client text made safe to echo in a one-line reason (no control characters, at most 80 characters).
    static func printable(_ s: String) -> String {
        let cleaned = String(String.UnicodeScalarView(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : $0 }))
        return cleaned.count > 80 ? String(cleaned.prefix(80)) + "…" : cleaned
    }

    /// The first line of a message.
    static func oneLine(_ s: String) -> String { String(s.split(separator: "\n", maxSplits: 1).first ?? "") }

    // MARK: libmicrohttpd glue

    /// One request's state across its handler calls (libmicrohttpd's per-request pointer); touched
    /// by the polling thread only.
    final class RequestState {
        let start = DispatchTime.now().uptimeNanoseconds
        var counted = false
        var closing = false
        /// The job of a suspended request, and what its answer needs.
        var job: RendererPool.Job?
        var render: Render?
        /// An answer decided before the connection was resumed (a full queue).
        var pending: Answer?
    }

    fileprivate func handle(_ connection: OpaquePointer, state: RequestState, url: String, method: String) -> MHD_Result {
        if let job = state.job, let render = state.render {   // resumed: the job is finished
            state.job = nil
            return send(connection, state, rendered(job.takeResult(for: render.key), render))
        }
        if let a = state.pending { state.pending = nil; return send(connection, state, a) }
        lock.lock(); inFlight += 1; state.closing = draining; lock.unlock()
        state.counted = true
        func header(_ name: String) -> String? {
            glmap_mhd_header(connection, name).map { String(cString: $0) }
        }
        switch step(method: method, path: url, headers: RequestHeaders(ifNoneMatch: header("If-None-Match"), host: header("Host"))) {
        case .answer(let a):
            return send(connection, state, a)
        case .render(let r):
            // Suspended before the job exists, so its worker can only resume a suspended connection;
            // the polling thread calls the handler again once it is resumed.
            MHD_suspend_connection(connection)
            let resumable = UnsafeSendable(connection)
            switch pool.submit(style: r.style, options: r.options, key: r.frameKey, pieces: r.pieces, wanted: r.key,
                               deadline: Date().addingTimeInterval(configuration.timeout),
                               onFinish: { MHD_resume_connection(resumable.value) }) {
            case .job(let job):
                state.job = job
                state.render = r
            case .cached(let entry):
                state.pending = imageAnswer(entry, cacheState: "hit", ifNoneMatch: r.ifNoneMatch)
                MHD_resume_connection(connection)
            case .full:
                state.pending = queueFull()
                MHD_resume_connection(connection)
            }
            return .YES
        }
    }

    /// Queues `a` on the connection and counts it.
    private func send(_ connection: OpaquePointer, _ state: RequestState, _ answer: Answer) -> MHD_Result {
        var a = answer
        if state.closing { a.headers.append(("Connection", "close")) }
        let response = a.body.withUnsafeBytes { glmap_mhd_response($0.baseAddress, $0.count) }
        var result = MHD_Result.NO
        if let response {
            for (k, v) in a.headers { _ = MHD_add_response_header(response, k, v) }
            result = MHD_queue_response(connection, UInt32(a.status), response)
            MHD_destroy_response(response)
        }
        metrics.record(status: a.status, seconds: Double(DispatchTime.now().uptimeNanoseconds - state.start) / 1e9)
        if state.counted {
            state.counted = false
            lock.lock(); inFlight -= 1; lock.unlock()
        }
        return result
    }
}

/// libmicrohttpd's request callback. It is called once when the headers are in (the request's
/// `RequestState` is made then), again for each piece of a body (discarded: glmap takes none), and
/// once more when the request is complete: only then is it answered (or its connection suspended
/// until its image is rendered, and the handler called again when it is resumed), so the
/// connection stays usable for the next (pipelined or keep-alive) request.
private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, _, uploadSize, requestState in
    guard let cls, let connection, let requestState else { return .NO }
    guard let raw = requestState.pointee else {
        requestState.pointee = Unmanaged.passRetained(TileServer.RequestState()).toOpaque()
        return .YES
    }
    if let uploadSize, uploadSize.pointee != 0 {
        uploadSize.pointee = 0
        return .YES
    }
    let server = Unmanaged<TileServer>.fromOpaque(cls).takeUnretainedValue()
    let state = Unmanaged<TileServer.RequestState>.fromOpaque(raw).takeUnretainedValue()
    return server.handle(connection, state: state, url: url.map { String(cString: $0) } ?? "/", method: method.map { String(cString: $0) } ?? "")
}

/// libmicrohttpd's request-completed callback: releases the request's `RequestState`.
private let requestCompleted: MHD_RequestCompletedCallback = { _, _, requestState, _ in
    guard let requestState, let raw = requestState.pointee else { return }
    Unmanaged<TileServer.RequestState>.fromOpaque(raw).release()
    requestState.pointee = nil
}
