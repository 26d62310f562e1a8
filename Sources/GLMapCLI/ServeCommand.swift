import GLMap
import GLMapCore
import GLMapPyramid
import GLMapServer

/// `glmap serve`: serves tiles, static maps and TileJSON over HTTP until SIGTERM/SIGINT.
public enum ServeCommand {
    static let options: [CommandLineArguments.Option] = [
        .init("style", "s", repeatable: true, help: "style file to serve, repeatable; ID=FILE names its URL id (default: the file name without .json/.style)"),
        .init("bind", help: "IPv4 or IPv6 address to listen on (default 127.0.0.1; 0.0.0.0 or :: for every interface, ::1 for IPv6 loopback)"),
        .init("port", "p", help: "TCP port (default 8080; 0 picks a free one, printed on stderr)"),
        .init("jobs", "j", help: "render worker threads, one GL context per style each (default: the number of cores)"),
        .init("max-queue", help: "render jobs that may wait (default 64); past it: 503 with Retry-After"),
        .init("timeout", help: "seconds a request may wait for its image (default 30); past it: 504"),
        .init("cache", help: "encoded image cache in MiB (default 64; 0: none)"),
        .init("metatile", help: "a tile request draws its N×N metatile once (labels placed once) and caches every tile of it; tiles equal glmap tiles with the same --metatile (default \(Metatile.defaultSize), or 1 with --cache 0; 1: each tile alone)"),
        .init("max-size", help: "largest static image side in CSS px (default 2048)"),
        .init("public-url", help: "base URL written into TileJSON (e.g. the load balancer's); default: from the Host header"),
        .init("backend", help: "auto (default), gpu or cpu"),
        .init("help", value: false, help: "show this help"),
    ] + ResourceFlags.options

    static let help = """
    usage: glmap serve --style FILE [--style ID=FILE…] [--bind 127.0.0.1] [--port 8080] [--jobs N]
                       [--max-queue 64] [--timeout 30] [--cache 64] [--metatile 4] [--max-size 2048] [--http-cache DIR] [--offline]
                       [--fonts DIR]

    Serves, for each style id:
      /styles/{id}[/{256|512}]/{z}/{x}/{y}[@{2|3}x].png     tiles (a 256-px tile at z is the 512-px world at z-1)
      /styles/{id}/static/{lon},{lat},{zoom}[@{bearing}[,{pitch}]]/{w}x{h}[@{n}x].png
      /styles/{id}/static/{minx},{miny},{maxx},{maxy}/{w}x{h}[@{n}x].png
      /styles/{id}/static/auto/{w}x{h}[@{n}x].png          fitted to the style's data
      /styles/{id}.json, /styles/{id}/{256|512}.json        TileJSON 3
      /health, /metrics                                      (Prometheus text)
    SIGTERM or SIGINT: stop accepting, answer the requests in flight, exit 0.

    options:
    \(CommandLineArguments.helpLines(options))

    exit codes: 0 stopped by a signal, 1 cannot listen or render, 2 invalid input or usage

    """

    /// Runs `glmap serve` with `args` until a signal stops it; returns the exit code.
    public static func run(_ args: [String], io: CommandIO) throws -> Int32 {
        let a = try CommandLineArguments(args, options: options)
        if a.flag("help") {
            io.writeStdout(Array(help.utf8))
            return 0
        }
        let c = try configuration(a)
        let server = try TileServer(configuration: c)
        for w in server.warnings { io.writeStderr("glmap: warning: \(w)\n") }
        try server.start()
        if let f = server.rendererFailure { io.writeStderr("glmap: warning: a renderer could not be created: \(f)\n") }
        io.writeStderr("glmap: serving \(c.styles.map(\.id).joined(separator: ", ")) on http://\(c.urlHost):\(server.port) (\(c.jobs) workers)\n")
        let sig = server.runUntilTerminated()
        io.writeStderr("glmap: stopped (signal \(sig)); \(server.metrics.value("renders")) images rendered\n")
        return 0
    }

    /// The server configuration the options ask for (nothing is opened or checked on disk).
    static func configuration(_ a: CommandLineArguments) throws -> ServerConfiguration {
        let styles = try (a.repeated["style"] ?? []).map(ServerConfiguration.StyleEntry.parse)
        guard !styles.isEmpty else { throw UsageError("missing --style FILE (see glmap serve --help)") }
        var c = ServerConfiguration(styles: styles)
        if let b = a.string("bind") { c.bindAddress = b }
        if let p = try a.int("port") {
            guard (0...65535).contains(p) else { throw UsageError("--port expects 0…65535, got \(p)") }
            c.port = UInt16(p)
        }
        if let j = try a.int("jobs") { c.jobs = j }
        if let q = try a.int("max-queue") { c.maxQueue = q }
        if let t = try a.double("timeout") { c.timeout = t }
        if let m = try a.int("cache") { c.cacheMiB = m }
        if let s = try a.int("max-size") { c.maxStaticSize = s }
        // Without a cache a metatile's other tiles would be drawn for nothing: one tile per render.
        if let m = try a.int("metatile") { c.metatile = m } else if c.cacheMiB == 0 { c.metatile = 1 }
        c.publicURL = a.string("public-url")
        c.backend = try a.backend()
        c.resources = try ResourceFlags.loaderOptions(a)
        return c
    }
}
