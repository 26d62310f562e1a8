import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GLMap
import GLMapCore
import GLMapPyramid

/// What `glmap serve` serves and its limits (the command-line flags, with their defaults).
public struct ServerConfiguration: Sendable {
    /// One style to serve: its URL id and its file.
    public struct StyleEntry: Equatable, Sendable {
        /// The id in URLs (`/styles/{id}/…`).
        public var id: String
        /// The style file.
        public var path: String
        /// A style served as `id` from `path`.
        public init(id: String, path: String) { self.id = id; self.path = path }

        /// Parses `--style` values: "FILE" (id: the file name without `.json` and `.style`) or "ID=FILE".
        /// Ids are letters, digits, `.`, `_`, `-` (not starting with `.`), at most 64 bytes.
        public static func parse(_ text: String) throws -> StyleEntry {
            var id: String, path: String
            if let eq = text.firstIndex(of: "="), !text[..<eq].contains("/") {
                id = String(text[..<eq]); path = String(text[text.index(after: eq)...])
            } else {
                path = text
                id = PathText.lastComponent(of: path)
                for suffix in [".json", ".style"] where id.hasSuffix(suffix) { id = String(id.dropLast(suffix.count)) }
            }
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".utf8)
            guard !id.isEmpty, id.utf8.count <= 64, !id.hasPrefix("."), id.utf8.allSatisfy({ allowed.contains($0) }) else {
                throw InputFailure("--style \(text): the style id \"\(id)\" must be 1–64 letters, digits, '.', '_' or '-' and not start with '.' (give one with ID=FILE)")
            }
            guard !path.isEmpty else { throw InputFailure("--style \(text): missing file after \"\(id)=\"") }
            return StyleEntry(id: id, path: path)
        }
    }

    /// The styles served, one `--style` each.
    public var styles: [StyleEntry]
    /// IPv4 or IPv6 address to listen on ("127.0.0.1", "0.0.0.0", "::1", "::"; IPv6 may be
    /// written in brackets, "[::1]").
    public var bindAddress = "127.0.0.1"
    /// `bindAddress` without URL brackets, as the socket takes it.
    public var socketAddress: String {
        bindAddress.hasPrefix("[") && bindAddress.hasSuffix("]") ? String(bindAddress.dropFirst().dropLast()) : bindAddress
    }
    /// `bindAddress` as a URL host: IPv6 in brackets.
    public var urlHost: String { socketAddress.contains(":") ? "[" + socketAddress + "]" : socketAddress }
    /// TCP port (0: an ephemeral port; `TileServer.port` tells which).
    public var port: UInt16 = 8080
    /// Render worker threads (each with its own GL context per style).
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Render jobs that may wait for a worker; past it requests get 503 with Retry-After.
    public var maxQueue = 64
    /// Seconds a request may wait for its image (queue + render); past it: 504.
    public var timeout = 30.0
    /// Encoded image cache, in MiB (0: none).
    public var cacheMiB = 64
    /// Tiles a metatile side: a tile request draws its metatile (labels placed once) and caches
    /// all its tiles; 1 draws each tile alone. Tiles equal `glmap tiles` with the same `--metatile`.
    public var metatile = Metatile.defaultSize
    /// Largest static image side in CSS px.
    public var maxStaticSize = 2048
    /// Most simultaneous connections (libmicrohttpd refuses more).
    public var maxConnections: UInt32 = 256
    /// Seconds a connection may stay idle or slow before it is closed.
    public var connectionTimeout: UInt32 = 15
    /// Seconds SIGTERM waits for requests in flight before stopping.
    public var drainTimeout = 30.0
    /// `Cache-Control` of images.
    public var cacheControl = "public, max-age=86400"
    /// Base URL written into TileJSON (e.g. the load balancer's "https://tiles.example.com"); nil:
    /// from the request's Host header.
    public var publicURL: String?
    /// The backend the renderers use (`--backend`, default auto).
    public var backend: Backend = .auto
    /// How the styles' http(s) URLs are fetched (`--http-cache`, `--offline`); nil: the defaults.
    public var resources: ResourceLoaderOptions?

    /// The defaults for serving `styles`.
    public init(styles: [StyleEntry]) { self.styles = styles }

    /// Checks the values (invalid input, exit 2).
    public func validate() throws {
        guard !styles.isEmpty else { throw InputFailure("at least one --style FILE is needed") }
        var seen: Set<String> = []
        for s in styles where !seen.insert(s.id).inserted {
            throw InputFailure("two styles have the id \"\(s.id)\": give one of them another with --style ID=FILE")
        }
        guard ServerConfiguration.isIPAddress(socketAddress) else {
            throw InputFailure("--bind expects an IPv4 or IPv6 address (127.0.0.1, 0.0.0.0, ::1, ::), got \"\(bindAddress)\"")
        }
        guard jobs >= 1, jobs <= 256 else { throw InputFailure("--jobs expects 1…256, got \(jobs)") }
        guard maxQueue >= 0, maxQueue <= 1_000_000 else { throw InputFailure("--max-queue expects 0…1000000, got \(maxQueue)") }
        guard timeout.isFinite, timeout > 0, timeout <= 3600 else { throw InputFailure("--timeout expects seconds in (0, 3600], got \(timeout)") }
        guard cacheMiB >= 0, cacheMiB <= 1 << 20 else { throw InputFailure("--cache expects MiB in 0…1048576, got \(cacheMiB)") }
        guard (1...Metatile.maxSize).contains(metatile) else { throw InputFailure("--metatile expects 1…\(Metatile.maxSize), got \(metatile)") }
        guard maxStaticSize >= 1, maxStaticSize <= MapRenderer.maxImageSize else { throw InputFailure("--max-size expects 1…\(MapRenderer.maxImageSize), got \(maxStaticSize)") }
    }

    /// Whether `text` is a numeric IPv4 or IPv6 address (no host names: nothing is resolved).
    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
