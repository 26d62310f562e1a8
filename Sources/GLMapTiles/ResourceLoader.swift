// Resource loader — contract
// The one way glmap fetches a resource a style names (the style, TileJSON, tiles; glyphs and
// sprites later). Input: a reference as the style writes it. Steps, in order:
// 1. rewrite rules (prefix → replacement; the first rule whose prefix matches applies) — e.g. a
//    test harness maps an origin onto a folder;
// 2. no-content markers: a reference containing one answers `.noContent` without any fetch;
// 3. by scheme: `http(s)://` through libcurl; `file://PATH`; any other `scheme://` is refused; a
//    plain path is read from disk, relative ones against `base` (the style file's folder, or the
//    URL of a style fetched over http, relative references then being URLs too).
// Output: `.data(bytes)`, `.notFound` (HTTP 404/410, a missing file), `.noContent` (HTTP 204, an
// empty file), or `.failed(message)` whose message names the URL and what went wrong (HTTP status,
// timeout, refused connection, too large, offline).
// HTTP: redirects followed (http/https only), gzip/deflate Content-Encoding decoded by libcurl,
// a per-request timeout, at most `maxConcurrentRequests` transfers at once for `load([...])`.
// Cache (when `cacheDirectory` is set): responses are kept on disk with their validators; a
// `Cache-Control: max-age` response is served from disk until it expires (less its `Age`);
// `no-cache`, or validators without max-age, are revalidated with If-None-Match /
// If-Modified-Since (a 304 serves the kept bytes); `no-store` is never written. Entries are
// written atomically (temporary file + rename) and checked against their URL when read.
// Offline mode: no network request is made; an http(s) reference answers from the cache when it
// holds the URL (fresh or not), else `.failed("offline: … not fetched")`.
// Limits: a response or file larger than `maxBytes` fails (the transfer is stopped there).
// Nothing is fetched that the caller does not ask for. Thread-safe; `load([...])` runs its
// requests concurrently and returns the results in order.
import CCurl
import Foundation
import GLMapCore

/// What fetching one resource gave.
public enum ResourceResult: Sendable, Equatable {
    /// The resource's bytes.
    case data([UInt8])
    /// The resource does not exist (HTTP 404 or 410, no such file).
    case notFound
    /// The resource is empty (HTTP 204, an empty file).
    case noContent
    /// It could not be fetched: the message names the URL and what went wrong.
    case failed(String)

    /// The bytes, if any.
    public var bytes: [UInt8]? { if case .data(let b) = self { return b }; return nil }
}

/// A rewrite applied to references before they are fetched: `prefix` is replaced by `replacement`.
public struct URLRewriteRule: Sendable, Equatable {
    /// The start of the references the rule applies to (e.g. `http://localhost:2900/`).
    public var prefix: String
    /// What replaces the prefix: a URL, a `file://` URL or a folder path.
    public var replacement: String
    /// A rule.
    public init(prefix: String, replacement: String) { self.prefix = prefix; self.replacement = replacement }
}

/// How a `ResourceLoader` fetches.
public struct ResourceLoaderOptions: Sendable {
    /// What relative references resolve against: a folder path (the style file's folder) or an
    /// http(s) URL (a style fetched from the network). Nil: the current directory.
    public var base: String?
    /// Rewrites applied before fetching; the first matching prefix wins.
    public var rewrites: [URLRewriteRule]
    /// References containing one of these answer `.noContent` without a fetch.
    public var noContentMarkers: [String]
    /// The on-disk HTTP cache folder (created when needed); nil: no cache.
    public var cacheDirectory: String?
    /// Seconds one HTTP request may take, connection included.
    public var timeout: Double
    /// When true, no network request is made (see the contract).
    public var offline: Bool
    /// Most HTTP transfers at once in `load(_ references:)`.
    public var maxConcurrentRequests: Int
    /// Largest response or file accepted, in bytes.
    public var maxBytes: Int
    /// The User-Agent header.
    public var userAgent: String
    /// A folder of TrueType/OpenType fonts text is drawn from when the style has no `glyphs` URL
    /// or a glyph range cannot be loaded (`--fonts DIR`; read by the scene, not fetched); fonts
    /// match `text-font` names by family and style. Nil: glyph PBFs only.
    public var fontsDirectory: String?

    /// Options with the given values (30 s timeout, 8 parallel requests, 64 MiB responses, no cache).
    public init(base: String? = nil, rewrites: [URLRewriteRule] = [], noContentMarkers: [String] = [],
                cacheDirectory: String? = nil, timeout: Double = 30, offline: Bool = false,
                maxConcurrentRequests: Int = 8, maxBytes: Int = InputLimits.default.maxStyleFileBytes,
                userAgent: String = "glmap", fontsDirectory: String? = nil) {
        self.base = base; self.rewrites = rewrites; self.noContentMarkers = noContentMarkers
        self.cacheDirectory = cacheDirectory; self.timeout = timeout; self.offline = offline
        self.maxConcurrentRequests = maxConcurrentRequests; self.maxBytes = maxBytes; self.userAgent = userAgent
        self.fontsDirectory = fontsDirectory
    }
}

/// Fetches resources from files and http(s) (see the contract above).
public final class ResourceLoader: Sendable {
    /// How this loader fetches.
    public let options: ResourceLoaderOptions
    private let cache: HTTPCache?
    private let stats = Locked((network: 0, cacheHits: 0, revalidated: 0))

    /// A loader with `options`.
    public init(options: ResourceLoaderOptions = ResourceLoaderOptions()) {
        self.options = options
        cache = options.cacheDirectory.map { HTTPCache(directory: $0) }
    }

    /// Where a reference leads after rewrites.
    public enum Target: Sendable, Equatable {
        /// An http(s) URL.
        case network(String)
        /// A file path.
        case file(String)
        /// An empty answer by rule (a no-content marker).
        case noContent
        /// A reference that cannot be fetched (unsupported scheme), with the reason.
        case unsupported(String)
    }

    /// Rewrites and resolves `reference` (no fetch).
    public func target(of reference: String) -> Target {
        var r = reference
        if let rule = options.rewrites.first(where: { r.hasPrefix($0.prefix) }) {
            r = rule.replacement + r.dropFirst(rule.prefix.count)
        }
        if options.noContentMarkers.contains(where: { !$0.isEmpty && (r.contains($0) || reference.contains($0)) }) { return .noContent }
        let lower = r.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return .network(r) }
        if lower.hasPrefix("file://") {
            let rest = String(r.dropFirst(7))
            return .file(rest.removingPercentEncoding ?? rest)
        }
        if let colon = r.range(of: "://"), r[..<colon.lowerBound].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
           !r[..<colon.lowerBound].isEmpty {
            return .unsupported("\(reference): the scheme \(r[..<colon.lowerBound]):// is not supported (glmap fetches http, https, file and paths)")
        }
        let base = options.base ?? FileManager.default.currentDirectoryPath
        let lb = base.lowercased()
        if r.hasPrefix("/") && !(lb.hasPrefix("http://") || lb.hasPrefix("https://")) { return .file(r) }
        if lb.hasPrefix("http://") || lb.hasPrefix("https://") {
            return .network(ResourceLoader.join(url: base, relative: r))
        }
        if lb.hasPrefix("file://") { return .file(String(base.dropFirst(7)) + "/" + r) }
        return .file(base.isEmpty ? r : (base.hasSuffix("/") ? base + r : base + "/" + r))
    }

    /// Fetches one resource.
    public func load(_ reference: String) -> ResourceResult {
        switch target(of: reference) {
        case .noContent: return .noContent
        case .unsupported(let why): return .failed(why)
        case .file(let path): return loadFile(path, reference: reference)
        case .network(let url):
            let client = HTTPClient(options: options)
            return fetch(url, client: client)
        }
    }

    /// Fetches several resources, the network ones concurrently; results in the same order.
    public func load(_ references: [String]) -> [ResourceResult] {
        let targets = references.map(target(of:))
        var results = [ResourceResult?](repeating: nil, count: references.count)
        var network: [Int] = []
        for (i, t) in targets.enumerated() {
            switch t {
            case .noContent: results[i] = .noContent
            case .unsupported(let why): results[i] = .failed(why)
            case .file(let p): results[i] = loadFile(p, reference: references[i])
            case .network: network.append(i)
            }
        }
        if !network.isEmpty {
            let network = network
            let shared = Locked(results)
            let next = Locked(0)
            let workers = max(1, min(options.maxConcurrentRequests, network.count))
            let group = DispatchGroup()
            for _ in 0..<workers {
                group.enter()
                let thread = Thread { [self] in
                    let client = HTTPClient(options: options)
                    while true {
                        let k = next.withLock { v -> Int in defer { v += 1 }; return v }
                        guard k < network.count else { break }
                        let i = network[k]
                        guard case .network(let url) = targets[i] else { continue }
                        let r = fetch(url, client: client)
                        shared.withLock { $0[i] = r }
                    }
                    group.leave()
                }
                thread.stackSize = 1 << 20
                thread.start()
            }
            group.wait()
            results = shared.value
        }
        return results.map { $0! }
    }

    /// Requests made so far: network transfers, answers from a fresh cache entry, and 304
    /// revalidations (for tests and diagnostics).
    public var statistics: (network: Int, cacheHits: Int, revalidated: Int) { stats.value }

    // MARK: Files

    private func loadFile(_ path: String, reference: String) -> ResourceResult {
        var st = stat()
        guard stat(path, &st) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .notFound : .failed("\(reference): cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR { return .failed("\(reference): \(path) is a folder, not a file") }
        guard Int(st.st_size) <= options.maxBytes else {
            return .failed("\(reference): \(InputLimits.fileSizeMessage(size: Int(st.st_size), limit: options.maxBytes, name: "maxBytes of the resource loader"))")
        }
        guard let d = FileManager.default.contents(atPath: path) else { return .failed("\(reference): cannot read \(path)") }
        return d.isEmpty ? .noContent : .data([UInt8](d))
    }

    // MARK: Network

    private func fetch(_ url: String, client: HTTPClient) -> ResourceResult {
        let entry = cache?.entry(for: url)
        if let entry, entry.isFresh(now: Date().timeIntervalSince1970) {
            stats.withLock { $0.cacheHits += 1 }
            return entry.body.isEmpty ? .noContent : .data(entry.body)
        }
        if options.offline {
            if let entry {
                stats.withLock { $0.cacheHits += 1 }
                return entry.body.isEmpty ? .noContent : .data(entry.body)
            }
            return .failed("\(url): offline: not fetched (the network is off and the cache does not hold it)")
        }
        stats.withLock { $0.network += 1 }
        let response = client.get(url, etag: entry?.etag, lastModified: entry?.lastModified)
        switch response {
        case .failure(let failure):
            return .failed("\(url): \(failure.message)")
        case .success(let r):
            let now = Date().timeIntervalSince1970
            switch r.status {
            case 200...299 where r.status != 204:
                cache?.store(url: url, response: r, now: now)
                return r.body.isEmpty ? .noContent : .data(r.body)
            case 204:
                return .noContent
            case 304:
                guard let entry else { return .failed("\(url): HTTP 304 Not Modified to a request that had no validators") }
                stats.withLock { $0.revalidated += 1 }
                cache?.refresh(entry, with: r, now: now)
                return entry.body.isEmpty ? .noContent : .data(entry.body)
            case 404, 410:
                return .notFound
            default:
                return .failed("\(url): HTTP \(r.status)\(r.reason.isEmpty ? "" : " " + r.reason)")
            }
        }
    }

    /// `relative` resolved against the URL `base` (its folder, or the host root for "/x").
    static func join(url base: String, relative: String) -> String {
        guard let schemeEnd = base.range(of: "://") else { return base + "/" + relative }
        let afterScheme = base[schemeEnd.upperBound...]
        let hostEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        let origin = String(base[..<hostEnd])
        if relative.hasPrefix("/") { return origin + relative }
        var path = String(base[hostEnd...])
        if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<q]) }
        if !path.hasSuffix("/") {
            if let slash = path.lastIndex(of: "/") { path = String(path[...slash]) } else { path = "/" }
        }
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        for c in relative.split(separator: "/", omittingEmptySubsequences: false) {
            if c == ".." { if !parts.isEmpty { parts.removeLast() } } else if c != "." { parts.append(String(c)) }
        }
        return origin + "/" + parts.joined(separator: "/")
    }
}
