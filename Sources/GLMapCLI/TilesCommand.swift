import GLMap
import GLMapArchives
import GLMapPyramid
import GLMapBatch
import Foundation
import GLMapImageFormats
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
        .init("metatile", help: "draw N×N tiles (plus a \(Metatile.defaultMargin)-px margin) as one frame, labels placed once, then cut: labels cross tile edges whole (default \(Metatile.defaultSize); 1: each tile on its own)"),
        .init("output", "o", help: "directory (DIR/z/x/y.png), FILE.mbtiles or FILE.pmtiles"),
        .init("format", "f", help: "tile format: png (default), jpeg or webp"),
        .init("quality", help: "JPEG / lossy WebP quality 1-100 (default 90)"),
        .init("lossless", value: false, help: "WebP: lossless instead of lossy"),
        .init("jobs", "j", help: "encoder threads (default: the number of cores)"),
        .init("shard", help: "I/N: render only the metatiles at positions ≡ I (mod N), 0 ≤ I < N; auto or auto/N: I (and N) from the scheduler's environment (JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID/COUNT)"),
        .init("resume", value: false, help: "continue an interrupted run: skip the tiles already written (archives: the OUT.partial journal; directories: existing files)"),
        .init("png-level", help: "PNG compression: default (igzip, fastest) or small (libdeflate level 3)"),
        .init("backend", help: "auto (default), gpu or cpu"),
        .init("strict", value: false, help: "treat warnings (unusable source data, what glmap skips) as errors (exit 2)"),
        .init("max-tiles", help: "refuse pyramids of more tiles than this (default \(Pyramid.defaultTileLimit))"),
        .init("overwrite", value: false, help: "replace an existing FILE.mbtiles or FILE.pmtiles (refused without it or --resume)"),
        .init("quiet", "q", value: false, help: "no progress bar or summary on stderr"),
        .init("help", value: false, help: "show this help"),
    ] + ResourceFlags.options

    static let help = """
    usage: glmap tiles --style FILE --zoom 0-5 --output DIR|FILE.mbtiles|FILE.pmtiles [--bbox W,S,E,N]
                       [--tile-size 256|512] [--ratio 1|2] [--metatile N] [--format png|jpeg|webp] [--quality Q]
                       [--lossless] [--jobs N] [--shard I/N|auto|auto/N] [--resume]
                       [--png-level default|small] [--backend auto|gpu|cpu] [--strict]
                       [--max-tiles N] [--overwrite] [--quiet] [--http-cache DIR] [--offline] [--fonts DIR]
           glmap tiles merge OUT.mbtiles|OUT.pmtiles IN… [--quiet]
           glmap tiles --help

    Renders every tile of the zoom range inside the box from one scene (parsed, evaluated and
    uploaded once per zoom), a metatile at a time: N×N tiles (N = --metatile, default \(Metatile.defaultSize),
    fewer where a zoom has fewer) and a \(Metatile.defaultMargin)-px margin are one frame with labels placed
    once, then cut, so a label crossing a tile edge is whole on both sides and neighbouring tiles
    agree (between metatiles the margin makes disagreement rare). A tile's bytes depend on its
    address and N only: shards (whole metatiles each), --resume and glmap serve with the same
    --metatile give the same bytes. Archives (MBTiles rows in TMS order, PMTiles v3 clustered)
    store identical tiles once, carry the style's name, the sources' attribution, bounds, center,
    zooms and format, and appear only when complete; meanwhile tiles go to OUT.partial, which
    --resume continues after an interruption. An existing archive is replaced only with --overwrite.
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
        let plan = try Plan(a)
        try TileOutput.check(plan.output, archive: plan.archiveKind.map { $0 == .pmtiles ? "PMTiles" : "MBTiles" }, overwrite: plan.overwrite || plan.resume)
        if !plan.quiet {
            let count = plan.tileCount, frames = plan.shardMetatiles.count
            let metatiles = plan.metatileSize > 1 ? " in \(grouped(frames)) metatile\(frames == 1 ? "" : "s") of up to \(plan.metatileSize)×\(plan.metatileSize)" : ""
            io.writeStderr("glmap: \(grouped(count)) tile\(count == 1 ? "" : "s")\(metatiles) (zoom \(plan.zoomText)\(plan.shardLabel.map { ", shard \($0)" } ?? "")) → \(plan.output)\n")
        }
        // The metatiles to draw: the shard, streamed; when resuming, those with tiles not written yet (a list).
        var remaining: [Frame]?
        if plan.archiveKind == nil && plan.resume {   // a directory: tiles whose file is there are done (files are written atomically)
            remaining = plan.remaining { !FileManager.default.fileExists(atPath: $0.path(in: plan.output, ratio: plan.ratio, fileExtension: plan.formatKind.fileExtension)) }
        }
        let scene = try Scene(style: Scene.loadStyle(file: plan.stylePath), strict: plan.strict, resources: plan.resources)
        for w in scene.warningMessages { io.writeStderr("glmap: warning: \(w)\n") }
        let format = try ImageFormat.make(plan.formatKind, quality: plan.quality, lossless: plan.lossless, pngCompression: plan.compression,
                                          matte: scene.matte(zoom: Double(plan.pyramid.zooms.lowerBound)))
        var writer: TileArchiveWriter?
        if let archiveKind = plan.archiveKind {
            let w = try openArchive(archiveKind, plan: plan, scene: scene, format: format)
            if !w.done.isEmpty {
                let frames = plan.remaining { !w.done.contains($0) }
                io.writeStderr("glmap: resuming: \(w.done.count) tiles already written, \(frames.reduce(0) { $0 + $1.tiles.count }) to go\n")
                remaining = frames
            }
            writer = w
        }
        try renderTiles(remaining, of: scene, plan: plan, format: format, writer: writer, io: io)
        try RenderCommand.reportTileWarnings(scene, strict: plan.strict, io: io)
        return 0
    }

    /// What the options ask for, every one checked before anything is loaded or rendered.
    struct Plan {
        var stylePath: String, zoomText: String, output: String
        var bbox: Pyramid.BBox
        var pyramid: Pyramid
        var tileSize: Int
        var ratio: Double
        /// Tiles a metatile side (`--metatile`, shrunk to fit the largest image).
        var metatileSize: Int
        var jobs: Int
        var shard: (index: Int, count: Int)
        var compression: PNGCompression
        var formatKind: ImageFormat.Kind
        var quality: Int?, lossless: Bool
        var backend: Backend
        var archiveKind: TileArchiveWriter.Kind?
        var resume: Bool, overwrite: Bool, strict: Bool, quiet: Bool
        var resources: ResourceLoaderOptions?
        /// The metatiles of the pyramid, and the positions of this shard's (all without --shard).
        var metatiles: Pyramid.Metatiles
        var shardMetatiles: LazyMapCollection<Range<Int>, Int>
        /// The tiles of this shard (of the whole pyramid without --shard).
        var tileCount: Int

        init(_ a: CommandLineArguments) throws {
            guard let stylePath = a.string("style") else { throw UsageError("missing --style FILE (see glmap tiles --help)") }
            guard let zoomText = a.string("zoom") else { throw UsageError("missing --zoom Z0-Z1 (see glmap tiles --help)") }
            guard let output = a.string("output") else { throw UsageError("missing --output DIR, FILE.mbtiles or FILE.pmtiles") }
            self.stylePath = stylePath; self.zoomText = zoomText; self.output = output
            bbox = try a.string("bbox").map(Pyramid.BBox.parse) ?? .world
            pyramid = try Pyramid(zooms: Pyramid.parseZooms(zoomText), bbox: bbox)
            tileSize = try a.int("tile-size") ?? 256
            guard tileSize == 256 || tileSize == 512 else { throw UsageError("--tile-size expects 256 or 512, got \(tileSize)") }
            ratio = try a.double("ratio") ?? 1
            guard ratio == 1 || ratio == 2 else { throw UsageError("--ratio expects 1 or 2, got \(ratio)") }
            let metatile = try a.int("metatile") ?? Metatile.defaultSize
            guard (1...Metatile.maxSize).contains(metatile) else { throw UsageError("--metatile expects 1 to \(Metatile.maxSize) tiles, got \(metatile)") }
            metatileSize = Metatile.size(metatile, tileSize: tileSize, ratio: ratio)
            jobs = try a.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
            guard (1...EncoderPool.maxWorkers).contains(jobs) else { throw UsageError("--jobs expects 1 to \(EncoderPool.maxWorkers) threads, got \(jobs)") }
            shard = try a.string("shard").map { try SchedulerShard.parse($0, environment: ProcessInfo.processInfo.environment) } ?? (index: 0, count: 1)
            compression = try RenderCommand.pngCompression(a.string("png-level"))
            formatKind = try ImageFormat.Kind.parse(a.string("format") ?? "png")
            quality = try a.int("quality"); lossless = a.flag("lossless")
            // Checked now; the JPEG matte (the style's background) is set once the style is loaded.
            _ = try ImageFormat.make(formatKind, quality: quality, lossless: lossless, pngCompression: compression)
            backend = try a.backend()
            archiveKind = TileArchiveWriter.Kind(path: output)
            if archiveKind == nil, PathText.pathExtension(of: output).lowercased() == "partial" {
                throw UsageError("--output \(output): name the archive (OUT.mbtiles or OUT.pmtiles), not its journal")
            }
            resume = a.flag("resume"); overwrite = a.flag("overwrite"); strict = a.flag("strict"); quiet = a.flag("quiet")
            resources = try ResourceFlags.loaderOptions(a)
            let maxTiles = try a.int("max-tiles") ?? Pyramid.defaultTileLimit
            guard maxTiles >= 1 else { throw UsageError("--max-tiles expects at least 1, got \(maxTiles)") }
            // Shards are whole metatiles (positions ≡ I mod N), so no metatile is drawn twice.
            metatiles = pyramid.metatiles(size: metatileSize)
            shardMetatiles = metatiles.shard(shard.index, of: shard.count)
            tileCount = shard.count == 1 ? pyramid.count : metatiles.tileCount(shardMetatiles)
            guard tileCount <= maxTiles else {
                throw UsageError("--zoom \(zoomText)\(a.string("bbox").map { " --bbox \($0)" } ?? "") covers \(grouped(tileCount)) tiles"
                                 + (shard.count > 1 ? " in shard \(shard.index)/\(shard.count)" : "")
                                 + ", more than the limit of \(grouped(maxTiles)); pass --max-tiles \(tileCount) to render them all, or narrow --zoom or --bbox")
            }
        }

        /// "I/N" when the run is one shard of several.
        var shardLabel: String? { shard.count > 1 ? "\(shard.index)/\(shard.count)" : nil }

        /// The shard's metatile at `i` and its tiles to write.
        func frame(_ i: Int) -> Frame {
            let m = metatiles[shardMetatiles[i]]
            return Frame(metatile: m, tiles: metatiles.tiles(of: m))
        }

        /// The shard's metatiles with the tiles still `toDo` (those with none are left out).
        func remaining(_ toDo: (TileAddress) -> Bool) -> [Frame] {
            shardMetatiles.indices.compactMap { i in
                var f = frame(i)
                f.tiles = f.tiles.filter(toDo)
                return f.tiles.isEmpty ? nil : f
            }
        }
    }

    /// One frame of the run: a metatile and the tiles of it to write.
    struct Frame: Sendable {
        var metatile: Metatile
        var tiles: [TileAddress]
    }

    /// Opens (or, with --resume, reopens) the archive's journal, with the metadata from the style.
    static func openArchive(_ kind: TileArchiveWriter.Kind, plan: Plan, scene: Scene, format: ImageFormat) throws -> TileArchiveWriter {
        let name = PathText.stem(of: plan.stylePath).replacingOccurrences(of: ".style", with: "")
        let metadata = TileArchiveMetadata.from(style: scene.style, fallbackName: name, pyramid: plan.pyramid, tileSize: plan.tileSize, ratio: plan.ratio,
                                                format: plan.formatKind, description: plan.shardLabel.map { "shard \($0) of the pyramid" })
        let styleBytes = FileManager.default.contents(atPath: plan.stylePath).map { [UInt8]($0) } ?? []
        let b = plan.bbox, shard = plan.shard
        let job = "style \(String(TileSpool.fnv1a(styleBytes), radix: 16)) zoom \(plan.zoomText) bbox \(b.west),\(b.south),\(b.east),\(b.north) tile-size \(plan.tileSize) ratio \(plan.ratio) format \(format) shard \(shard.index)/\(shard.count) metatile \(plan.metatileSize)"
        return try TileArchiveWriter(path: plan.output, kind: kind, metadata: metadata, job: job, resume: plan.resume)
    }

    /// Draws the metatiles (`remaining`, or the whole shard), cut into tiles, into the archive or DIR/z/x/y files.
    static func renderTiles(_ remaining: [Frame]?, of scene: Scene, plan: Plan, format: ImageFormat,
                            writer: TileArchiveWriter?, io: CommandIO) throws {
        if plan.backend != .cpu {   // small frames (256² tiles one by one): llvmpipe's hand-offs cost more than its pool saves
            let side = Double(Metatile.frameSide(size: plan.metatileSize, tileSize: plan.tileSize)) * plan.ratio
            RasterizerThreads.rasterizeOnDrawingThread(for: .batch(framePixels: Int(side * side)))
        }
        let batch = try BatchRenderer(scene: scene, backend: plan.backend)
        io.noteCPUFallback(batch.fallbackReason)
        let output = plan.output, ratio = plan.ratio, tileSize = plan.tileSize
        let fileExtension = plan.formatKind.fileExtension
        let frameCount = remaining?.count ?? plan.shardMetatiles.count
        let tileCount = remaining?.reduce(0) { $0 + $1.tiles.count } ?? plan.tileCount
        let frameAt: (Int) -> Frame = { i in remaining?[i] ?? plan.frame(i) }
        let progress = BatchProgress(total: tileCount, mode: BatchProgress.mode(quiet: plan.quiet), noun: "tiles", write: io.writeStderr)
        let pool = EncoderPool(workers: plan.jobs, format: format)
        do {
            let summary = try batch.run(count: frameCount, options: { frameAt($0).metatile.renderOptions(tileSize: tileSize, ratio: ratio) }, pieces: { i in
                let frame = frameAt(i)
                return frame.tiles.map { tile in
                    let crop = frame.metatile.crop(tile, tileSize: tileSize, ratio: ratio)
                    if let writer { return EncoderPool.Piece(crop: crop) { try writer.add(tile, data: $0) } }
                    let path = tile.path(in: output, ratio: ratio, fileExtension: fileExtension)
                    // DIR/z/x is made when its first tile is written, so nothing is allocated per tile up front.
                    return EncoderPool.Piece(crop: crop) { try TileOutput.makeColumn(output, tile); try AtomicFileWriter.write($0, to: path) }
                }
            }, pool: pool, progress: progress, noun: plan.metatileSize > 1 ? "metatiles" : "tiles")
            // A metatile that failed twice on the GPU exits 1 (an archive missing its tiles is not written).
            try summary.finish(noun: plan.metatileSize > 1 ? "metatiles" : "tiles", describe: { i in
                let m = frameAt(i).metatile
                return m.columns.count * m.rows.count == 1 ? "tile \(m.z)/\(m.columns.lowerBound)/\(m.rows.lowerBound)" : "metatile \(m)"
            }, write: io.writeStderr)
            try writer?.finish()
        } catch {
            if let writer {
                writer.close()
                io.writeStderr("glmap: the tiles written so far are kept in \(TileArchiveWriter.journalPath(writer.path)); --resume continues the run\n")
            }
            throw error
        }
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
        let mergeOptions: [CommandLineArguments.Option] = [.init("quiet", "q", value: false, help: ""), .init("help", value: false, help: "")]
        let (paths, rest) = CommandLineArguments.splitPositionals(args, options: mergeOptions)
        let a = try CommandLineArguments(rest, options: mergeOptions)
        if a.flag("help") { io.writeStdout(Array(help.utf8)); return 0 }
        guard paths.count >= 2 else { throw UsageError("usage: glmap tiles merge OUT.mbtiles|OUT.pmtiles IN… (at least one input)") }
        let summary = try TileArchiveMerge.merge(output: paths[0], inputs: Array(paths.dropFirst()))
        if !a.flag("quiet") {
            io.writeStderr("glmap: merged \(summary.inputs) archives: \(summary.tiles) tiles (\(summary.overlaps) identical overlaps) into \(paths[0])\n")
        }
        return 0
    }
}
