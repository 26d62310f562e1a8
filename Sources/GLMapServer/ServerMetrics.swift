// Server metrics — contract
// Counters and a latency histogram for `/metrics`, written in the Prometheus text exposition
// format (version 0.0.4): requests by status code, request latency (seconds, cumulative buckets,
// sum and count), renders, render failures, renderer replacements, cache hits and misses; gauges
// (queue depth, requests in flight, cache bytes) are read when the page is written. Threading:
// every method locks; safe from any thread.
import Foundation

/// The server's counters and latency histogram, and their Prometheus text.
public final class ServerMetrics: @unchecked Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    public static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    private let lock = NSLock()
    private var byStatus: [Int: Int] = [:]
    private var bucketCounts = [Int](repeating: 0, count: ServerMetrics.latencyBuckets.count)
    private var latencySum = 0.0
    private var latencyCount = 0
    private var counters: [String: Int] = [:]

    /// Zeroed counters.
    public init() {}

    /// Records one answered request.
    public func record(status: Int, seconds: Double) {
        lock.lock(); defer { lock.unlock() }
        byStatus[status, default: 0] += 1
        latencySum += seconds
        latencyCount += 1
        if let i = ServerMetrics.latencyBuckets.firstIndex(where: { seconds <= $0 }) { bucketCounts[i] += 1 }
    }

    /// Adds `n` to a counter (`renders`, `render_failures`, `renderer_replacements`, `cache_hits`, `cache_misses`, `queue_rejections`, `timeouts`, `renders_interrupted`, `renders_shared`, `uniform_encodes_reused`).
    public func count(_ name: String, _ n: Int = 1) {
        lock.lock(); defer { lock.unlock() }
        counters[name, default: 0] += n
    }

    /// The value of a counter.
    public func value(_ name: String) -> Int { lock.lock(); defer { lock.unlock() }; return counters[name] ?? 0 }

    /// Requests answered with `status` so far.
    public func requests(status: Int) -> Int { lock.lock(); defer { lock.unlock() }; return byStatus[status] ?? 0 }

    /// The Prometheus text page, with the current gauges.
    public func text(queueDepth: Int, inFlight: Int, cacheBytes: Int, cacheEntries: Int, workers: Int) -> String {
        lock.lock(); defer { lock.unlock() }
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) { out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n" }
        family("glmap_http_requests_total", "counter", "HTTP requests answered, by status code.")
        for (s, n) in byStatus.sorted(by: { $0.key < $1.key }) { out += "glmap_http_requests_total{code=\"\(s)\"} \(n)\n" }
        family("glmap_http_request_duration_seconds", "histogram", "Time from the request's headers to its response being queued.")
        var cumulative = 0
        for (i, le) in ServerMetrics.latencyBuckets.enumerated() {
            cumulative += bucketCounts[i]
            out += "glmap_http_request_duration_seconds_bucket{le=\"\(le)\"} \(cumulative)\n"
        }
        out += "glmap_http_request_duration_seconds_bucket{le=\"+Inf\"} \(latencyCount)\n"
        out += "glmap_http_request_duration_seconds_sum \(latencySum)\n"
        out += "glmap_http_request_duration_seconds_count \(latencyCount)\n"
        let named: [(String, String, String)] = [
            ("renders", "glmap_renders_total", "Images rendered and encoded."),
            ("render_failures", "glmap_render_failures_total", "Renders that failed (answered 500)."),
            ("renderer_replacements", "glmap_renderer_replacements_total", "GL renderers replaced after a GL failure."),
            ("cache_hits", "glmap_cache_hits_total", "Images answered from the encoded tile cache."),
            ("cache_misses", "glmap_cache_misses_total", "Images that had to be rendered."),
            ("queue_rejections", "glmap_queue_rejections_total", "Requests refused with 503 because the render queue was full."),
            ("timeouts", "glmap_timeouts_total", "Requests answered 504 because their render did not finish in time."),
            ("renders_interrupted", "glmap_renders_interrupted_total", "Renders stopped part-way because their request had timed out."),
            ("renders_shared", "glmap_renders_shared_total", "Images that missed the cache but came from a render another request had started (a tile of the same metatile)."),
            ("uniform_encodes_reused", "glmap_uniform_encodes_reused_total", "Single-colour images answered with the PNG bytes encoded for an earlier one."),
        ]
        for (key, name, help) in named {
            family(name, "counter", help)
            out += "\(name) \(counters[key] ?? 0)\n"
        }
        family("glmap_queue_depth", "gauge", "Render jobs waiting for a worker.")
        out += "glmap_queue_depth \(queueDepth)\n"
        family("glmap_http_requests_in_flight", "gauge", "Requests being handled now.")
        out += "glmap_http_requests_in_flight \(inFlight)\n"
        family("glmap_cache_bytes", "gauge", "Bytes of encoded images in the cache.")
        out += "glmap_cache_bytes \(cacheBytes)\n"
        family("glmap_cache_entries", "gauge", "Encoded images in the cache.")
        out += "glmap_cache_entries \(cacheEntries)\n"
        family("glmap_render_workers", "gauge", "Render worker threads (one GL context per style each).")
        out += "glmap_render_workers \(workers)\n"
        return out
    }
}
