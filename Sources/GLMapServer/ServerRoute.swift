// Server routes — contract
// Input: the path of a request (libmicrohttpd has already removed the query and decoded %XX) and
// the server's limits. Output: a `ServerRoute`, or a `RouteError` (status 400 or 404 with a
// one-line reason). Everything is checked here, before any work is queued: numbers are decimal
// and finite, tile z/x/y exist, tile sizes are 256 or 512, scales are @1x…@3x, static images are
// at most `maxStaticSize` CSS px a side and `MapRenderer.maxImageSize` device px, zoom 0…24,
// pitch 0…85, latitudes within Web Mercator's range. Style ids are looked up by the caller
// exactly as given, so ids carrying "..", "/" or "%2f" simply name no style (404).
// URL forms (tileserver-gl's):
//   /health, /metrics
//   /styles/{id}.json, /styles/{id}/{tileSize}.json                      TileJSON 3
//   /styles/{id}[/{tileSize}]/{z}/{x}/{y}[@{n}x].png                    tiles
//   /styles/{id}/static/{lon},{lat},{zoom}[@{bearing}[,{pitch}]]/{w}x{h}[@{n}x].png
//   /styles/{id}/static/{minx},{miny},{maxx},{maxy}/{w}x{h}[@{n}x].png  fit to the box
//   /styles/{id}/static/auto/{w}x{h}[@{n}x].png                         fit to the style's data
import Foundation
import GLMap
import GLMapCore

/// What a request asks for.
public enum ServerRoute: Equatable, Sendable {
    /// `/health`: whether the server is up.
    case health
    /// `/metrics`: the Prometheus counters.
    case metrics
    /// `/styles/{id}[/{tileSize}].json`: TileJSON 3 for 256- or 512-px tiles.
    case tileJSON(style: String, tileSize: Int)
    /// `/styles/{id}[/{tileSize}]/{z}/{x}/{y}[@{n}x].png`: one tile, `scale` device pixels per CSS pixel.
    case tile(style: String, tileSize: Int, z: Int, x: Int, y: Int, scale: Int)
    /// `/styles/{id}/static/{view}/{w}x{h}[@{n}x].png`: an image of `width × height` CSS pixels.
    case staticImage(style: String, view: StaticView, width: Int, height: Int, scale: Int)

    /// The camera part of a static image URL.
    public enum StaticView: Equatable, Sendable {
        /// `{lon},{lat},{zoom}[@{bearing}[,{pitch}]]`: a camera in degrees (bearing and pitch default 0).
        case center(lon: Double, lat: Double, zoom: Double, bearing: Double, pitch: Double)
        /// `{minx},{miny},{maxx},{maxy}`: the camera that fits this box in degrees.
        case area(minLon: Double, minLat: Double, maxLon: Double, maxLat: Double)
        /// `auto`: the camera that fits the style's data.
        case auto
    }

    /// The style id the route names, if any.
    public var style: String? {
        switch self {
        case .health, .metrics: return nil
        case .tileJSON(let s, _), .tile(let s, _, _, _, _, _), .staticImage(let s, _, _, _, _): return s
        }
    }

    /// A canonical key for caching: two URLs asking for the same image have the same key.
    public var cacheKey: String {
        switch self {
        case .health: return "health"
        case .metrics: return "metrics"
        case let .tileJSON(s, t): return "json|\(s)|\(t)"
        case let .tile(s, t, z, x, y, n): return "tile|\(s)|\(t)|\(z)/\(x)/\(y)|\(n)"
        case let .staticImage(s, v, w, h, n):
            let view: String
            switch v {
            case let .center(lon, lat, zoom, b, p): view = "c\(lon),\(lat),\(zoom),\(b),\(p)"
            case let .area(a, b, c, d): view = "a\(a),\(b),\(c),\(d)"
            case .auto: view = "auto"
            }
            return "static|\(s)|\(view)|\(w)x\(h)|\(n)"
        }
    }
}

/// A request the server refuses: HTTP status 400 (malformed) or 404 (nothing there) and a one-line reason.
public struct RouteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 400 (malformed request) or 404 (no such style or tile).
    public var status: Int
    /// One line saying what is wrong, sent as the response body.
    public var reason: String
    /// A refusal with `status` and `reason`.
    public init(_ status: Int, _ reason: String) { self.status = status; self.reason = reason }
    /// `status: reason`.
    public var description: String { "\(status): \(reason)" }
}

/// Parses request paths into routes under the server's limits.
public struct ServerRouter: Sendable {
    /// Largest static image side in CSS px.
    public var maxStaticSize: Int
    /// Largest scale factor n in `@{n}x`.
    public var maxScale = 3
    /// Deepest tile zoom served.
    public var maxTileZoom = 22

    /// A router with glmap serve's limits: static images up to `maxStaticSize` CSS px a side.
    public init(maxStaticSize: Int = 2048) { self.maxStaticSize = maxStaticSize }

    /// The route for `path`, or a `RouteError`.
    public func route(_ path: String) throws -> ServerRoute {
        guard path.utf8.count <= 1024 else { throw RouteError(400, "the path is longer than 1024 bytes") }
        if path == "/health" { return .health }
        if path == "/metrics" { return .metrics }
        guard path.hasPrefix("/styles/") else { throw RouteError(404, "no such resource: the URL forms are /styles/{id}/{z}/{x}/{y}.png, /styles/{id}/static/…, /styles/{id}.json, /health, /metrics") }
        let parts = path.dropFirst("/styles/".count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, !first.isEmpty else { throw RouteError(404, "missing style id after /styles/") }
        if parts.count == 1 {
            guard first.hasSuffix(".json") else { throw RouteError(404, "no such resource: /styles/\(first) (TileJSON is /styles/{id}.json)") }
            return .tileJSON(style: String(first.dropLast(5)), tileSize: 256)
        }
        let id = first
        let rest = Array(parts.dropFirst())
        if rest.count == 1, rest[0].hasSuffix(".json") {
            return .tileJSON(style: id, tileSize: try tileSize(String(rest[0].dropLast(5))))
        }
        if rest.first == "static" { return try staticRoute(id: id, Array(rest.dropFirst())) }
        switch rest.count {
        case 3: return try tileRoute(id: id, tileSize: 256, rest)
        case 4: return try tileRoute(id: id, tileSize: tileSize(rest[0]), Array(rest.dropFirst()))
        default: throw RouteError(404, "no such resource: tiles are /styles/{id}[/{tileSize}]/{z}/{x}/{y}[@{n}x].png")
        }
    }

    func tileSize(_ text: String) throws -> Int {
        guard let n = Self.integer(text), n == 256 || n == 512 else { throw RouteError(400, "tile size must be 256 or 512, got \"\(text)\"") }
        return n
    }

    func tileRoute(id: String, tileSize: Int, _ p: [String]) throws -> ServerRoute {
        let (name, scale) = try Self.splitFile(p[2], what: "tile")
        guard let z = Self.integer(p[0]) else { throw RouteError(400, "tile zoom must be a whole number, got \"\(p[0])\"") }
        guard let x = Self.integer(p[1]) else { throw RouteError(400, "tile x must be a whole number, got \"\(p[1])\"") }
        guard let y = Self.integer(name) else { throw RouteError(400, "tile y must be a whole number, got \"\(name)\"") }
        guard (0...maxTileZoom).contains(z) else { throw RouteError(400, "tile zoom must be between 0 and \(maxTileZoom), got \(z)") }
        let n = 1 << z
        guard (0..<n).contains(x), (0..<n).contains(y) else { throw RouteError(404, "tile \(z)/\(x)/\(y) does not exist: x and y are 0…\(n - 1) at zoom \(z)") }
        try checkScale(scale)
        return .tile(style: id, tileSize: tileSize, z: z, x: x, y: y, scale: scale)
    }

    func staticRoute(id: String, _ p: [String]) throws -> ServerRoute {
        guard p.count == 2 else { throw RouteError(404, "static images are /styles/{id}/static/{lon},{lat},{zoom}[@{bearing}[,{pitch}]]/{w}x{h}[@{n}x].png, …/static/{minx},{miny},{maxx},{maxy}/… or …/static/auto/…") }
        let (sizeText, scale) = try Self.splitFile(p[1], what: "static image")
        let dims = sizeText.split(separator: "x", omittingEmptySubsequences: false).map(String.init)
        guard dims.count == 2, let w = Self.integer(dims[0]), let h = Self.integer(dims[1]) else {
            throw RouteError(400, "static image size must be {width}x{height} in whole CSS pixels, got \"\(sizeText)\"")
        }
        try checkScale(scale)
        guard (1...maxStaticSize).contains(w), (1...maxStaticSize).contains(h) else {
            throw RouteError(400, "static image size \(w)x\(h) is outside 1…\(maxStaticSize) CSS px a side")
        }
        guard w * scale <= MapRenderer.maxImageSize, h * scale <= MapRenderer.maxImageSize else {
            throw RouteError(400, "static image \(w * scale)x\(h * scale) device px exceeds \(MapRenderer.maxImageSize) a side")
        }
        let view: ServerRoute.StaticView
        if p[0] == "auto" {
            view = .auto
        } else {
            let (position, angles) = Self.split(p[0], at: "@")
            let nums = try position.split(separator: ",", omittingEmptySubsequences: false).map { try Self.number(String($0), what: "static image position") }
            switch nums.count {
            case 3:
                let (lon, lat, zoom) = (nums[0], nums[1], nums[2])
                guard (-180...180).contains(lon) else { throw RouteError(400, "longitude must be between -180 and 180, got \(lon)") }
                guard abs(lat) <= WebMercator.maxLatitude else { throw RouteError(400, "latitude must be between -85.0511 and 85.0511, got \(lat)") }
                guard (0...24).contains(zoom) else { throw RouteError(400, "zoom must be between 0 and 24, got \(zoom)") }
                var bearing = 0.0, pitch = 0.0
                if let angles {
                    let a = try angles.split(separator: ",", omittingEmptySubsequences: false).map { try Self.number(String($0), what: "bearing/pitch") }
                    guard a.count == 1 || a.count == 2 else { throw RouteError(400, "expected @{bearing} or @{bearing},{pitch}, got \"@\(angles)\"") }
                    bearing = a[0]
                    guard abs(bearing) <= 360 else { throw RouteError(400, "bearing must be between -360 and 360, got \(bearing)") }
                    if a.count == 2 { pitch = a[1] }
                    guard (0...85).contains(pitch) else { throw RouteError(400, "pitch must be between 0 and 85, got \(pitch)") }
                }
                view = .center(lon: lon, lat: lat, zoom: zoom, bearing: bearing, pitch: pitch)
            case 4:
                guard angles == nil else { throw RouteError(400, "an area static image takes no @bearing") }
                let (a, b, c, d) = (nums[0], nums[1], nums[2], nums[3])
                guard -180 <= a, a < c, c <= 180 else { throw RouteError(400, "area needs -180 ≤ minx < maxx ≤ 180, got minx \(a), maxx \(c)") }
                guard -90 <= b, b < d, d <= 90 else { throw RouteError(400, "area needs -90 ≤ miny < maxy ≤ 90, got miny \(b), maxy \(d)") }
                view = .area(minLon: a, minLat: b, maxLon: c, maxLat: d)
            default:
                throw RouteError(400, "static image position must be {lon},{lat},{zoom} or {minx},{miny},{maxx},{maxy}, got \"\(p[0])\"")
            }
        }
        return .staticImage(style: id, view: view, width: w, height: h, scale: scale)
    }

    func checkScale(_ n: Int) throws {
        guard (1...maxScale).contains(n) else { throw RouteError(400, "scale @\(n)x is outside @1x…@\(maxScale)x") }
    }

    /// "NAME[@{n}x].png" → (NAME, n).
    static func splitFile(_ file: String, what: String) throws -> (String, Int) {
        guard file.hasSuffix(".png") else { throw RouteError(404, "\(what)s are PNG: the name must end in .png, got \"\(file)\"") }
        let stem = String(file.dropLast(4))
        let (name, suffix) = split(stem, at: "@")
        guard let suffix else { return (name, 1) }
        guard suffix.hasSuffix("x"), let n = integer(String(suffix.dropLast())) else { throw RouteError(400, "scale must be @{n}x with n a whole number, got \"@\(suffix)\"") }
        return (name, n)
    }

    static func split(_ s: String, at c: Character) -> (String, String?) {
        guard let i = s.firstIndex(of: c) else { return (s, nil) }
        return (String(s[..<i]), String(s[s.index(after: i)...]))
    }

    /// A decimal whole number of at most 9 digits (no sign, no spaces, no leading "+").
    static func integer(_ s: String) -> Int? {
        guard !s.isEmpty, s.utf8.count <= 9, s.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(s)
    }

    /// A finite decimal number ("-77.03", "1e1"; not "nan", "inf", hex or empty).
    static func number(_ s: String, what: String) throws -> Double {
        let allowed = Set("0123456789+-.eE".utf8)
        guard !s.isEmpty, s.utf8.count <= 32, s.utf8.allSatisfy({ allowed.contains($0) }), let v = Double(s), v.isFinite else {
            throw RouteError(400, "\(what): \"\(s)\" is not a finite decimal number")
        }
        return v
    }
}
