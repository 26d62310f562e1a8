import GLMap
import Foundation
import GLMapCore
import GLMapPNG

/// `glmap tiles`: renders an XYZ tile pyramid of one style to DIR/z/x/y.png, an MBTiles or a
/// PMTiles archive; `glmap tiles merge` joins shard archives.
public enum TilesCommand {
    /// The options this command accepts.
    public static let options: [CommandLineArguments.Option] = [
        .init("style", "s", help: "style JSON file (MapLibre style spec v8)"),
        .init("zoom", "z", help: "zoom levels: Z or Z0-Z1 (e.g. 0-5)"),
        .init("bbox", help: "W,S,E,N in degrees (default: the whole world; west > east crosses the antimeridian)"),
        .init("tile-size", help: "256 or 512 CSS px (default 256; a 256-px tile at z is the 512-px world at z-1)"),
        .init("ratio", "r", help: "pixel ratio 1 or 2 (default 1; 2 writes y@2x.png)"),
        .init("output", "o", help: "directory (DIR/z/x/y.png), FILE.mbtiles or FILE.pmtiles"),
        .init("format", "f", help: "tile format: png (default), jpeg or webp"),
        .init("quality", help: "JPEG / lossy WebP quality 1-100 (default 90)"),
        .init("lossless", value: false, help: "WebP: lossless instead of lossy"),
        .init("jobs", "j", help: "encoder threads (default: the number of cores)"),
        .init("shard", help: "I/N: render only the tiles at positions ≡ I (mod N), 0 ≤ I < N; auto or auto/N: I (and N) from the scheduler's environment (JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID/COUNT)"),
        .init("resume", value: false, help: "continue an interrupted run: skip the tiles already written (archives: the OUT.partial journal; directories: existing files)"),
        .init("png-level", help: "PNG compression: default or fast"),
        .init("backend", help: "auto (default), gpu or cpu"),
        .init("strict", value: false, help: "treat warnings (unusable source data, what glmap skips) as errors (exit 2)"),
        .init("max-tiles", help: "refuse pyramids of more tiles than this (default \(Pyramid.defaultTileLimit))"),
        .init("overwrite", value: false, help: "replace an existing FILE.mbtiles or FILE.pmtiles (refused without it or --resume)"),
        .init("quiet", "q", value: false, help: "no progress bar or summary on stderr"),
        .init("help", value: false, help: "show this help"),
    ]

    static let help = """
    usage: glmap tiles --style FILE --zoom 0-5 --output DIR|FILE.mbtiles|FILE.pmtiles [--bbox W,S,E,N]
                       [--tile-size 256|512] [--ratio 1|2] [--format png|jpeg|webp] [--quality Q]
                       [--lossless] [--jobs N] [--shard I/N|auto|auto/N] [--resume]
                       [--png-level default|fast] [--backend auto|gpu|cpu] [--strict]
                       [--max-tiles N] [--overwrite] [--quiet]
           glmap tiles merge OUT.mbtiles|OUT.pmtiles IN… [--quiet]
           glmap tiles --help

    Renders every tile of the zoom range inside the box from one scene (parsed, evaluated and
    uploaded once per zoom). Archives (MBTiles rows in TMS order, PMTiles v3 clustered) store
    identical tiles once, carry the style's name, the sources' attribution, bounds, center, zooms
    and format, and appear only when complete; meanwhile tiles go to OUT.partial, which --resume
    continues after an interruption. An existing archive is replaced only with --overwrite.
    Zooms go from 0 to \(Pyramid.maxZoom), as for glmap render. The tile count is printed before
    anything is rendered; more than --max-tiles (default \(Pyramid.defaultTileLimit)) is refused.
    `merge` joins the archives of --shard runs (any mix of MBTiles and PMTiles) into one, refusing
    tiles that two inputs hold with different bytes.

    options:
    \(CommandLineArguments.helpLines(options))

    exit codes: 0 ok, 1 render or I/O failure, 2 invalid input or usage

    """

    /// Runs `glmap tiles` (or `glmap tiles merge`) with `args`; returns the exit code.
    public static func run(_ args: [String], io: CommandIO) throws -> Int32 {
        if args.first == "merge" { return try merge(Array(args.dropFirst()), io: io) }
        let a = try CommandLineArguments(args, options: options)
        if a.flag("help") {
            io.writeStdout(Array(help.utf8))
            return 0
        }
        guard let stylePath = a.string("style") else { throw UsageError("missing --style FILE (see glmap tiles --help)") }
        guard let zoomText = a.string("zoom") else { throw UsageError("missing --zoom Z0-Z1 (see glmap tiles --help)") }
        guard let output = a.string("output") else { throw UsageError("missing --output DIR, FILE.mbtiles or FILE.pmtiles") }
        let bbox = try a.string("bbox").map(Pyramid.BBox.parse) ?? .world
        let pyramid = try Pyramid(zooms: Pyramid.parseZooms(zoomText), bbox: bbox)
        let tileSize = try a.int("tile-size") ?? 256
        guard tileSize == 256 || tileSize == 512 else { throw UsageError("--tile-size expects 256 or 512, got \(tileSize)") }
        let ratio = try a.double("ratio") ?? 1
        guard ratio == 1 || ratio == 2 else { throw UsageError("--ratio expects 1 or 2, got \(ratio)") }
        let jobs = try a.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        guard (1...EncoderPool.maxWorkers).contains(jobs) else { throw UsageError("--jobs expects 1 to \(EncoderPool.maxWorkers) threads, got \(jobs)") }
        let shard = try a.string("shard").map { try SchedulerShard.parse($0, environment: ProcessInfo.processInfo.environment) } ?? (index: 0, count: 1)
        let compression = try RenderCommand.pngCompression(a.string("png-level"))
        let formatKind = try ImageFormat.Kind.parse(a.string("format") ?? "png")
        let quality = try a.int("quality"), lossless = a.flag("lossless")
        // Checked now; the JPEG matte (the style's background) is set once the style is loaded.
        _ = try ImageFormat.make(formatKind, quality: quality, lossless: lossless, pngCompression: compression)
        let backendName = a.string("backend") ?? "auto"
        guard let backend = Backend(rawValue: backendName) else { throw UsageError("--backend expects auto, gpu or cpu, got \"\(backendName)\"") }
        let archiveKind = TileArchiveWriter.Kind(path: output)
        if archiveKind == nil, PathText.pathExtension(of: output).lowercased() == "partial" {
            throw UsageError("--output \(output): name the archive (OUT.mbtiles or OUT.pmtiles), not its journal")
        }
        let resume = a.flag("resume")

        let maxTiles = try a.int("max-tiles") ?? Pyramid.defaultTileLimit
        guard maxTiles >= 1 else { throw UsageError("--max-tiles expects at least 1, got \(maxTiles)") }
        let shardTiles = pyramid.shard(shard.index, of: shard.count)
        guard shardTiles.count <= maxTiles else {
            throw UsageError("--zoom \(zoomText)\(a.string("bbox").map { " --bbox \($0)" } ?? "") covers \(grouped(shardTiles.count)) tiles"
                             + (shard.count > 1 ? " in shard \(shard.index)/\(shard.count)" : "")
                             + ", more than the limit of \(grouped(maxTiles)); pass --max-tiles \(shardTiles.count) to render them all, or narrow --zoom or --bbox")
        }
        try TileOutput.check(output, archive: archiveKind.map { $0 == .pmtiles ? "PMTiles" : "MBTiles" }, overwrite: a.flag("overwrite") || resume)
        if !a.flag("quiet") {
            io.writeStderr("glmap: \(grouped(shardTiles.count)) tile\(shardTiles.count == 1 ? "" : "s") (zoom \(zoomText)\(shard.count > 1 ? ", shard \(shard.index)/\(shard.count)" : "")) → \(output)\n")
        }
        // The tiles to draw: the shard, streamed; when resuming, those not written yet (a list).
        var remaining: [TileAddress]?
        if archiveKind == nil && resume {   // a directory: tiles whose file is there are done (files are written atomically)
            remaining = shardTiles.filter { !FileManager.default.fileExists(atPath: $0.path(in: output, ratio: ratio, fileExtension: formatKind.fileExtension)) }
        }

        let scene = try Scene(styleFile: stylePath, strict: a.flag("strict"))
        for w in scene.warningMessages { io.writeStderr("glmap: warning: \(w)\n") }
        let format = try ImageFormat.make(formatKind, quality: quality, lossless: lossless, pngCompression: compression,
                                          matte: scene.matte(zoom: Double(pyramid.zooms.lowerBound)))
        var writer: TileArchiveWriter?
        if let archiveKind {
            let name = PathText.stem(of: stylePath).replacingOccurrences(of: ".style", with: "")
            let metadata = TileArchiveMetadata.from(style: scene.style, fallbackName: name, pyramid: pyramid, tileSize: tileSize, ratio: ratio,
                                                    format: formatKind, description: shard.count > 1 ? "shard \(shard.index)/\(shard.count) of the pyramid" : nil)
            let styleBytes = FileManager.default.contents(atPath: stylePath).map { [UInt8]($0) } ?? []
            let job = "style \(String(TileSpool.fnv1a(styleBytes), radix: 16)) zoom \(zoomText) bbox \(bbox.west),\(bbox.south),\(bbox.east),\(bbox.north) tile-size \(tileSize) ratio \(ratio) format \(format) shard \(shard.index)/\(shard.count)"
            let w = try TileArchiveWriter(path: output, kind: archiveKind, metadata: metadata, job: job, resume: resume)
            if !w.done.isEmpty {
                remaining = shardTiles.filter { !w.done.contains($0) }
                io.writeStderr("glmap: resuming: \(w.done.count) tiles already written, \(remaining!.count) to go\n")
            }
            writer = w
        }
        let batch = try BatchRenderer(scene: scene, backend: backend)
        if let reason = batch.fallbackReason {
            io.writeStderr("glmap: no usable EGL/GLES (\(reason)); rendering on the CPU\n")
        }
        let tileCount = remaining?.count ?? shardTiles.count
        let tileAt: @Sendable (Int) -> TileAddress = { [remaining] i in remaining?[i] ?? shardTiles[i] }
        let progress = BatchProgress(total: tileCount, mode: BatchProgress.mode(quiet: a.flag("quiet")), noun: "tiles", write: io.writeStderr)
        let pool = EncoderPool(workers: jobs, format: format)
        do {
            let summary = try batch.run(count: tileCount, options: { tileAt($0).renderOptions(tileSize: tileSize, ratio: ratio) }, deliver: { i in
                let tile = tileAt(i)
                if let writer { return { try writer.add(tile, data: $0) } }
                let path = tile.path(in: output, ratio: ratio, fileExtension: formatKind.fileExtension)
                // DIR/z/x is made when its first tile is written, so nothing is allocated per tile up front.
                return { try TileOutput.makeColumn(output, tile); try AtomicFileWriter.write($0, to: path) }
            }, pool: pool, progress: progress, noun: "tiles")
            // A tile that failed twice on the GPU exits 1 (an archive missing it is not written).
            try summary.finish(noun: "tiles", describe: { let t = tileAt($0); return "tile \(t.z)/\(t.x)/\(t.y)" }, write: io.writeStderr)
            try writer?.finish()
        } catch {
            if let writer {
                writer.close()
                io.writeStderr("glmap: the tiles written so far are kept in \(TileArchiveWriter.journalPath(writer.path)); --resume continues the run\n")
            }
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

    /// `glmap tiles merge OUT IN…`.
    static func merge(_ args: [String], io: CommandIO) throws -> Int32 {
        let a = try CommandLineArguments(args.filter { $0.hasPrefix("-") },
                                         options: [.init("quiet", "q", value: false, help: ""), .init("help", value: false, help: "")])
        if a.flag("help") { io.writeStdout(Array(help.utf8)); return 0 }
        let paths = args.filter { !$0.hasPrefix("-") }
        guard paths.count >= 2 else { throw UsageError("usage: glmap tiles merge OUT.mbtiles|OUT.pmtiles IN… (at least one input)") }
        let summary = try TileArchiveMerge.merge(output: paths[0], inputs: Array(paths.dropFirst()))
        if !a.flag("quiet") {
            io.writeStderr("glmap: merged \(summary.inputs) archives: \(summary.tiles) tiles (\(summary.overlaps) identical overlaps) into \(paths[0])\n")
        }
        return 0
    }
}
