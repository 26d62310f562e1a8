import GLMap
import GLMapBatch
import Foundation
import GLMapImageFormats
import GLMapCore
import GLMapPNG
import GLMapStyle

/// `glmap render`: flags follow MapLibre's `mbgl-render`.
public enum RenderCommand {
    /// The options this command accepts.
    public static let options: [CommandLineArguments.Option] = [
        .init("style", "s", help: "style JSON file (MapLibre style spec v8); - reads standard input"),
        .init("output", "o", help: "image file to write (default out.png); its extension (.png, .jpg/.jpeg, .webp) picks the format; - writes standard output"),
        .init("format", "f", help: "png (default), jpeg or webp; must agree with the output's extension"),
        .init("quality", help: "JPEG / lossy WebP quality 1-100 (default 90)"),
        .init("lossless", value: false, help: "WebP: lossless instead of lossy"),
        .init("width", "w", help: "image width in CSS pixels (default 512)"),
        .init("height", "h", help: "image height in CSS pixels (default 512)"),
        .init("ratio", "r", help: "pixel ratio: the image is width·ratio × height·ratio (default 1)"),
        .init("lon", "x", help: "center longitude (default: the style's center)"),
        .init("lat", "y", help: "center latitude (default: the style's center)"),
        .init("zoom", "z", help: "zoom level (default: the style's zoom)"),
        .init("bearing", "b", help: "bearing in degrees (default: the style's bearing)"),
        .init("pitch", "p", help: "pitch in degrees (default: the style's pitch)"),
        .init("bounds", help: "W,S,E,N: fit the view to this box (west > east crosses the antimeridian)"),
        .init("fit", optionalValue: true, help: "fit the view to the data of every source, or of --fit SOURCE"),
        .init("padding", help: "CSS pixels kept free on each edge by --bounds / --fit (default 0)"),
        .init("source", repeatable: true, help: "ID=FILE: replace source ID's data with FILE: GeoJSON (- reads standard input) for a geojson source; an .mbtiles or .pmtiles archive or a z/x/y folder for a vector or raster source; repeatable"),
        .init("backend", help: "auto (default: GPU through EGL, else CPU), gpu or cpu"),
        .init("strict", value: false, help: "treat warnings (unusable source data, what glmap skips) as errors (exit 2)"),
        .init("frames", help: "JSON Lines file: one frame a line (lon, lat, zoom, bearing, pitch, width, height, ratio, output); missing fields come from these options"),
        .init("png-level", help: "PNG compression: default (igzip, fastest) or small (libdeflate level 3: 6–32 % smaller, ~6× the time); fast is default's old name"),
        .init("jobs", "j", help: "PNG encoder threads for --frames (default: the number of cores)"),
        .init("quiet", "q", value: false, help: "no progress bar or summary on stderr"),
        .init("help", value: false, help: "show this help"),
    ] + ResourceFlags.options

    static let help = """
    usage: glmap render --style FILE --output FILE [--width 512] [--height 512] [--ratio 1]
                        [--lon X --lat Y] [--zoom Z] [--bearing B] [--pitch P]
                        [--bounds W,S,E,N | --fit [SOURCE]] [--padding PX] [--source ID=FILE]…
                        [--backend auto|gpu|cpu] [--strict] [--png-level default|small]
                        [--format png|jpeg|webp] [--quality 1-100] [--lossless]
                        [--http-cache DIR] [--offline] [--fonts DIR]
           glmap render --style FILE --frames FRAMES.jsonl [options as defaults] [--jobs N] [--quiet]
           glmap render --help

    Renders a MapLibre style headlessly (OpenGL ES 3 through EGL) and writes a PNG, JPEG or WebP
    (by --format or the output's extension; JPEG has no alpha: transparent pixels are composited
    on the style's background colour, or white without a background layer).
    Camera flags override the style's own center/zoom/bearing/pitch. --bounds and --fit choose the
    center and zoom as MapLibre's fitBounds does (with the bearing and pitch in effect).
    With --frames, every line of FRAMES.jsonl is one frame of the same scene (parsed, evaluated and
    uploaded once); the whole file is checked before anything is rendered.

    options:
    \(CommandLineArguments.helpLines(options))

    exit codes: 0 ok, 1 render or I/O failure, 2 invalid input or usage

    """

    /// What `render` says when neither the style nor the flags choose a view.
    public static let defaultViewNote = "glmap: note: the style has no center or zoom and no view was given: rendering lon 0, lat 0, zoom 0 (the whole world); use --fit, --bounds or --lon/--lat/--zoom\n"

    /// Runs `glmap render` with `args` (after the subcommand name); returns the exit code.
    public static func run(_ args: [String], io: CommandIO) throws -> Int32 {
        let a = try CommandLineArguments(args, options: options)
        if a.flag("help") {
            io.writeStdout(Array(help.utf8))
            return 0
        }
        let plan = try Plan(a)
        if plan.frames == nil {
            // One image: EGL is set up on another thread while the scene loads.
            let renderer = MapRenderer(backend: plan.backend)
            renderer.prepareInBackground()
            let scene = try loadScene(plan, io: io)
            var opts = plan.options
            if let fit = plan.fit { opts = try scene.fitted(opts, to: fit, padding: EdgeInsets(all: plan.padding)) }
            try renderImage(scene, options: opts, plan: plan, renderer: renderer, io: io)
            io.keepUntilExit(scene)
            return 0
        }
        let scene = try loadScene(plan, io: io)
        try renderFrames(plan.frames!, of: scene, plan: plan, io: io)
        io.keepUntilExit(scene)
        return 0
    }

    /// What the options ask for, every one checked before anything is loaded or rendered.
    struct Plan {
        var stylePath: String
        var output: String
        var options: RenderOptions
        var backend: Backend
        var compression: PNGCompression
        var framesPath: String?
        var frames: [FrameSpec]?
        var formatName: String?, quality: Int?, lossless: Bool
        var strict: Bool, quiet: Bool
        // Set after the formats are checked (`checkFormats` runs first, as the messages' order says).
        var jobs = 1
        var fit: ViewFit?
        var padding = 0.0
        var overrides: [SourceOverride] = []
        var resources: ResourceLoaderOptions?

        init(_ a: CommandLineArguments) throws {
            guard let stylePath = a.string("style") else { throw UsageError("missing --style FILE (see glmap render --help)") }
            self.stylePath = stylePath
            compression = try pngCompression(a.string("png-level"))
            output = a.string("output") ?? "out.png"
            options = RenderOptions(width: try a.int("width") ?? 512, height: try a.int("height") ?? 512,
                                    ratio: try a.double("ratio") ?? 1, longitude: try a.double("lon"),
                                    latitude: try a.double("lat"), zoom: try a.double("zoom"),
                                    bearing: try a.double("bearing"), pitch: try a.double("pitch"))
            try options.validate()
            backend = try a.backend()
            framesPath = a.string("frames")
            if let framesPath {
                if a.string("output") != nil { throw UsageError("--output and --frames exclude each other: each frame line names its own \"output\"") }
                frames = try FramesFile.load(path: framesPath, defaults: options)
            }
            formatName = a.string("format"); quality = try a.int("quality"); lossless = a.flag("lossless")
            strict = a.flag("strict"); quiet = a.flag("quiet")
            try checkFormats()
            jobs = try a.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
            guard (1...EncoderPool.maxWorkers).contains(jobs) else { throw UsageError("--jobs expects 1 to \(EncoderPool.maxWorkers) threads, got \(jobs)") }
            if frames == nil && output != "-" { try OutputFolder.requireParent(of: output) }
            (fit, padding) = try Self.viewFit(a, options: options, frames: frames != nil)
            overrides = try a.values("source").map(SourceOverride.parse)
            resources = try ResourceFlags.loaderOptions(a)
            if stylePath == "-" && overrides.contains(where: { $0.file == "-" }) {
                throw UsageError("--style - and --source ID=- cannot both read standard input")
            }
        }

        /// The image format for an output path (the matte is the JPEG background).
        func format(for path: String, matte: Color = .white) throws -> ImageFormat {
            try ImageFormat.forOutput(path, format: formatName, quality: quality, lossless: lossless,
                                      pngCompression: compression, matte: matte)
        }

        /// Every output's format is known before anything is loaded (the matte comes later).
        func checkFormats() throws {
            guard let frames else { _ = try format(for: output); return }
            for f in frames {
                do { _ = try format(for: f.output) } catch let e as InputFailure {
                    throw FramesFileError(file: framesPath ?? "", line: f.line, message: e.message)
                }
            }
        }

        /// `--bounds` or `--fit` with `--padding` (not with an explicit center/zoom or --frames).
        static func viewFit(_ a: CommandLineArguments, options: RenderOptions, frames: Bool) throws -> (ViewFit?, Double) {
            var fit: ViewFit?
            if let b = a.string("bounds") { fit = .bounds(try LngLatBounds.parse(b, flag: "--bounds")) }
            if a.flag("fit") || a.string("fit") != nil {
                if fit != nil { throw UsageError("--bounds and --fit exclude each other") }
                fit = .data(source: a.string("fit"))
            }
            let padding = try a.double("padding") ?? 0
            if a.string("padding") != nil && fit == nil { throw UsageError("--padding goes with --bounds or --fit") }
            guard padding >= 0 else { throw UsageError("--padding expects at least 0, got \(padding)") }
            if fit != nil {
                if options.longitude != nil || options.latitude != nil || options.zoom != nil {
                    throw UsageError("--bounds/--fit choose the center and zoom: leave out --lon, --lat and --zoom")
                }
                if frames { throw UsageError("--bounds/--fit apply to one image, not --frames (give each frame its lon, lat and zoom)") }
            }
            return (fit, padding)
        }
    }

    /// The style (a file or standard input) with its `--source` overrides, as a scene; its warnings
    /// go to stderr, and so does the note when neither the style nor the flags choose a view.
    static func loadScene(_ plan: Plan, io: CommandIO) throws -> Scene {
        var style: StyleDocument
        if plan.stylePath == "-" {
            style = try Scene.parseStyle(io.readStdin(), file: nil)
        } else {
            style = try Scene.loadStyle(file: plan.stylePath)
        }
        try SourceOverride.apply(plan.overrides, to: &style, stdin: io.readStdin)
        let scene = try Scene(style: style, strict: plan.strict, resources: plan.resources)
        for w in scene.warningMessages { io.writeStderr("glmap: warning: \(w)\n") }
        let opts = plan.options
        if plan.fit == nil && plan.frames == nil && !style.hasCenter && !style.hasZoom
            && opts.longitude == nil && opts.latitude == nil && opts.zoom == nil {
            io.writeStderr(defaultViewNote)
        }
        return scene
    }

    /// `--frames`: every line one image of the same scene, encoded on `--jobs` threads.
    static func renderFrames(_ frames: [FrameSpec], of scene: Scene, plan: Plan, io: CommandIO) throws {
        if plan.backend != .cpu {   // small frames: llvmpipe's hand-offs cost more than its pool saves
            let pixels = frames.map { Int(Double($0.options.width) * $0.options.ratio * Double($0.options.height) * $0.options.ratio) }.max() ?? 0
            RasterizerThreads.rasterizeOnDrawingThread(for: .batch(framePixels: pixels))
        }
        let batch = try BatchRenderer(scene: scene, backend: plan.backend)
        io.noteCPUFallback(batch.fallbackReason)
        let progress = BatchProgress(total: frames.count, mode: BatchProgress.mode(quiet: plan.quiet), write: io.writeStderr)
        let formats = try frames.map { f in try plan.format(for: f.output, matte: scene.matte(zoom: f.options.drawnCamera(default: scene.style.camera).zoom)) }
        batch.frameFormat = { formats[$0] }
        let pool = EncoderPool(workers: plan.jobs, compression: plan.compression)
        let summary = try batch.run(count: frames.count, options: { frames[$0].options }, deliver: { i in
            let path = frames[i].output
            return { bytes in try AtomicFileWriter.write(bytes, to: path) }
        }, pool: pool, progress: progress)
        // GL failures the batch recovered from are reported; a frame that failed twice exits 1.
        try summary.finish(noun: "frames", describe: { "frame \($0 + 1) (line \(frames[$0].line), \(frames[$0].output))" },
                           write: io.writeStderr)
        try reportTileWarnings(scene, strict: plan.strict, io: io)
    }

    /// One image to `--output` (a file, written atomically, or standard output for "-").
    static func renderImage(_ scene: Scene, options opts: RenderOptions, plan: Plan, renderer: MapRenderer, io: CommandIO) throws {
        let image = try renderer.render(scene, options: opts)   // premultiplied (waits for the renderer's preparation)
        io.noteCPUFallback(renderer.fallbackReason)
        try reportTileWarnings(scene, strict: plan.strict, io: io)
        let imageFormat = try plan.format(for: plan.output, matte: scene.matte(zoom: opts.drawnCamera(default: scene.style.camera).zoom))
        let bytes = try imageFormat.encode(image, threads: PNGEncoder.allCores)
        let output = plan.output
        if output == "-" {
            io.writeStdout(bytes)
            return
        }
        do {
            try AtomicFileWriter.write(bytes, to: output)
        } catch let e as IOFailure {
            // Worded as PNGEncoder.write words it: "PATH: cannot write PNG: why" (JPEG, WebP alike).
            switch imageFormat.kind {
            case .png: throw PNGError(.write, path: output, message: e.message)
            case .jpeg, .webp: throw IOFailure(path: output, message: "cannot write \(imageFormat.kind == .jpeg ? "JPEG" : "WebP"): \(e.message)")
            }
        }
    }

    /// Tiles, sprites and images the frame could not load: warnings, or with `--strict` an error
    /// (exit 2, nothing written).
    static func reportTileWarnings(_ scene: Scene, strict: Bool, io: CommandIO) throws {
        let messages = scene.tileWarningMessages + scene.imageWarningMessages
        guard !messages.isEmpty else { return }
        if strict { throw InputFailure(messages.joined(separator: "\n") + "\n(--strict: a tile, sprite or image that cannot be loaded is an error)") }
        for m in messages { io.writeStderr("glmap: warning: \(m)\n") }
    }

    /// `--png-level` → the encoder setting.
    static func pngCompression(_ name: String?) throws -> PNGCompression {
        switch name ?? "default" {
        case "default", "fast": return .default   // "fast" (libdeflate level 1 once) is slower than igzip
        case "small": return .small
        default: throw UsageError("--png-level expects default or small, got \"\(name!)\"")
        }
    }
}

