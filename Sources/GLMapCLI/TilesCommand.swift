import GLMap
import Foundation
import GLMapCore
import GLMapPNG

/// `glmap tiles`: renders an XYZ tile pyramid of one style to DIR/z/x/y.png or an MBTiles file.
public enum TilesCommand {
    /// The options this command accepts.
    public static let options: [CommandLineArguments.Option] = [
        .init("style", "s", help: "style JSON file (MapLibre style spec v8)"),
        .init("zoom", "z", help: "zoom levels: Z or Z0-Z1 (e.g. 0-5)"),
        .init("bbox", help: "W,S,E,N in degrees (default: the whole world)"),
        .init("tile-size", help: "256 or 512 CSS px (default 256; a 256-px tile at z is the 512-px world at z-1)"),
        .init("ratio", "r", help: "pixel ratio 1 or 2 (default 1; 2 writes y@2x.png)"),
        .init("output", "o", help: "directory (DIR/z/x/y.png) or FILE.mbtiles"),
        .init("jobs", "j", help: "PNG encoder threads (default: the number of cores)"),
        .init("shard", help: "I/N: render only the tiles at positions ≡ I (mod N), 0 ≤ I < N"),
        .init("png-level", help: "PNG compression: default or fast"),
        .init("backend", help: "auto (default), gpu or cpu"),
        .init("strict", value: false, help: "treat warnings (unusable source data, what glmap skips) as errors (exit 2)"),
        .init("max-tiles", help: "refuse pyramids of more tiles than this (default \(Pyramid.defaultTileLimit))"),
        .init("overwrite", value: false, help: "replace an existing FILE.mbtiles (refused without it)"),
        .init("quiet", "q", value: false, help: "no progress bar or summary on stderr"),
        .init("help", value: false, help: "show this help"),
    ]

    static let help = """
    usage: glmap tiles --style FILE --zoom 0-5 --output DIR|FILE.mbtiles [--bbox W,S,E,N]
                       [--tile-size 256|512] [--ratio 1|2] [--jobs N] [--shard I/N]
                       [--png-level default|fast] [--backend auto|gpu|cpu] [--strict]
                       [--max-tiles N] [--overwrite] [--quiet]
           glmap tiles --help

    Renders every tile of the zoom range inside the box from one scene (parsed, evaluated and
    uploaded once per zoom). MBTiles rows are in TMS order; the file appears only when complete.
    Zooms go from 0 to \(Pyramid.maxZoom), as for glmap render. The tile count is printed before
    anything is rendered; more than --max-tiles (default \(Pyramid.defaultTileLimit)) is refused.

    options:
    \(CommandLineArguments.helpLines(options))

    exit codes: 0 ok, 1 render or I/O failure, 2 invalid input or usage

    """

    public static func run(_ args: [String], io: CommandIO) throws -> Int32 {
        let a = try CommandLineArguments(args, options: options)
        if a.flag("help") {
            io.writeStdout(Array(help.utf8))
            return 0
        }
        guard let stylePath = a.string("style") else { throw UsageError("missing --style FILE (see glmap tiles --help)") }
        guard let zoomText = a.string("zoom") else { throw UsageError("missing --zoom Z0-Z1 (see glmap tiles --help)") }
        guard let output = a.string("output") else { throw UsageError("missing --output DIR or FILE.mbtiles") }
        let bbox = try a.string("bbox").map(Pyramid.BBox.parse) ?? .world
        let pyramid = try Pyramid(zooms: Pyramid.parseZooms(zoomText), bbox: bbox)
        let tileSize = try a.int("tile-size") ?? 256
        guard tileSize == 256 || tileSize == 512 else { throw UsageError("--tile-size expects 256 or 512, got \(tileSize)") }
        let ratio = try a.double("ratio") ?? 1
        guard ratio == 1 || ratio == 2 else { throw UsageError("--ratio expects 1 or 2, got \(ratio)") }
        let jobs = try a.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        guard (1...EncoderPool.maxWorkers).contains(jobs) else { throw UsageError("--jobs expects 1 to \(EncoderPool.maxWorkers) threads, got \(jobs)") }
        let shard = try a.string("shard").map(Pyramid.parseShard) ?? (index: 0, count: 1)
        let compression = try RenderCommand.pngCompression(a.string("png-level"))
        let backendName = a.string("backend") ?? "auto"
        guard let backend = Backend(rawValue: backendName) else { throw UsageError("--backend expects auto, gpu or cpu, got \"\(backendName)\"") }

        let maxTiles = try a.int("max-tiles") ?? Pyramid.defaultTileLimit
        guard maxTiles >= 1 else { throw UsageError("--max-tiles expects at least 1, got \(maxTiles)") }
        let tiles = pyramid.shard(shard.index, of: shard.count)
        guard tiles.count <= maxTiles else {
            throw UsageError("--zoom \(zoomText)\(a.string("bbox").map { " --bbox \($0)" } ?? "") covers \(grouped(tiles.count)) tiles"
                             + (shard.count > 1 ? " in shard \(shard.index)/\(shard.count)" : "")
                             + ", more than the limit of \(grouped(maxTiles)); pass --max-tiles \(tiles.count) to render them all, or narrow --zoom or --bbox")
        }
        let mbtiles = output.lowercased().hasSuffix(".mbtiles")
        try TileOutput.check(output, mbtiles: mbtiles, overwrite: a.flag("overwrite"))
        if !a.flag("quiet") {
            io.writeStderr("glmap: \(grouped(tiles.count)) tile\(tiles.count == 1 ? "" : "s") (zoom \(zoomText)\(shard.count > 1 ? ", shard \(shard.index)/\(shard.count)" : "")) → \(output)\n")
        }

        let scene = try Scene(styleFile: stylePath, strict: a.flag("strict"))
        for w in scene.warningMessages { io.writeStderr("glmap: warning: \(w)\n") }
        let batch = try BatchRenderer(scene: scene, backend: backend)
        if let reason = batch.fallbackReason {
            io.writeStderr("glmap: no usable EGL/GLES (\(reason)); rendering on the CPU\n")
        }
        let writer = mbtiles ? try MBTilesWriter(path: output, metadata: MBTilesWriter.metadata(
            name: PathText.lastComponent(of: stylePath).replacingOccurrences(of: ".json", with: "").replacingOccurrences(of: ".style", with: ""),
            pyramid: pyramid, tileSize: tileSize, ratio: ratio,
            description: shard.count > 1 ? "shard \(shard.index)/\(shard.count) of the pyramid" : nil)) : nil
        let progress = BatchProgress(total: tiles.count, mode: BatchProgress.mode(quiet: a.flag("quiet")), noun: "tiles", write: io.writeStderr)
        let pool = EncoderPool(workers: jobs, compression: compression)
        do {
            let summary = try batch.run(count: tiles.count, options: { tiles[$0].renderOptions(tileSize: tileSize, ratio: ratio) }, deliver: { i in
                let tile = tiles[i]
                if let writer { return { try writer.add(tile, png: $0) } }
                let path = tile.path(in: output, ratio: ratio)
                // DIR/z/x is made when its first tile is written, so nothing is allocated per tile up front.
                return { try TileOutput.makeColumn(output, tile); try AtomicFileWriter.write($0, to: path) }
            }, pool: pool, progress: progress, noun: "tiles")
            // A tile that failed twice on the GPU exits 1 (an MBTiles file missing it is not written).
            try summary.finish(noun: "tiles", describe: { "tile \(tiles[$0].z)/\(tiles[$0].x)/\(tiles[$0].y)" }, write: io.writeStderr)
            try writer?.finish()
        } catch {
            writer?.abandon()
            throw error
        }
        return 0
    }

    /// 1234567 → "1,234,567".
    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}
