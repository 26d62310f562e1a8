import GLMap
import Foundation
import GLMapCore
import GLMapPNG
import GLMapStyle

/// `glmap render`: flags follow MapLibre's `mbgl-render`.
public enum RenderCommand {
    /// The options this command accepts.
    public static let options: [CommandLineArguments.Option] = [
        .init("style", "s", help: "style JSON file (MapLibre style spec v8); - reads standard input"),
        .init("output", "o", help: "PNG file to write (default out.png); - writes standard output"),
        .init("width", "w", help: "image width in CSS pixels (default 512)"),
        .init("height", "h", help: "image height in CSS pixels (default 512)"),
        .init("ratio", "r", help: "pixel ratio: the image is width·ratio × height·ratio (default 1)"),
        .init("lon", "x", help: "center longitude (default: the style's center)"),
        .init("lat", "y", help: "center latitude (default: the style's center)"),
        .init("zoom", "z", help: "zoom level (default: the style's zoom)"),
        .init("bearing", "b", help: "bearing in degrees (default: the style's bearing)"),
        .init("pitch", "p", help: "pitch in degrees (default: the style's pitch)"),
        .init("backend", help: "auto (default: GPU through EGL, else CPU), gpu or cpu"),
        .init("strict", value: false, help: "treat warnings (unusable source data, what glmap skips) as errors (exit 2)"),
        .init("frames", help: "JSON Lines file: one frame a line (lon, lat, zoom, bearing, pitch, width, height, ratio, output); missing fields come from these options"),
        .init("png-level", help: "PNG compression: default (libdeflate level 6) or fast (libdeflate level 1)"),
        .init("jobs", "j", help: "PNG encoder threads for --frames (default: the number of cores)"),
        .init("quiet", "q", value: false, help: "no progress bar or summary on stderr"),
        .init("help", value: false, help: "show this help"),
    ]

    static let help = """
    usage: glmap render --style FILE --output FILE [--width 512] [--height 512] [--ratio 1]
                        [--lon X --lat Y] [--zoom Z] [--bearing B] [--pitch P]
                        [--backend auto|gpu|cpu] [--strict] [--png-level default|fast]
           glmap render --style FILE --frames FRAMES.jsonl [options as defaults] [--jobs N] [--quiet]
           glmap render --help

    Renders a MapLibre style headlessly (OpenGL ES 3 through EGL) and writes a PNG.
    Camera flags override the style's own center/zoom/bearing/pitch.
    With --frames, every line of FRAMES.jsonl is one frame of the same scene (parsed, evaluated and
    uploaded once); the whole file is checked before anything is rendered.

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
        guard let stylePath = a.string("style") else { throw UsageError("missing --style FILE (see glmap render --help)") }
        let compression = try pngCompression(a.string("png-level"))
        let output = a.string("output") ?? "out.png"
        let opts = RenderOptions(width: try a.int("width") ?? 512, height: try a.int("height") ?? 512,
                                 ratio: try a.double("ratio") ?? 1, longitude: try a.double("lon"),
                                 latitude: try a.double("lat"), zoom: try a.double("zoom"),
                                 bearing: try a.double("bearing"), pitch: try a.double("pitch"))
        try opts.validate()
        let backendName = a.string("backend") ?? "auto"
        guard let backend = Backend(rawValue: backendName) else {
            throw UsageError("--backend expects auto, gpu or cpu, got \"\(backendName)\"")
        }
        var frames: [FrameSpec]?
        if let framesPath = a.string("frames") {
            if a.string("output") != nil { throw UsageError("--output and --frames exclude each other: each frame line names its own \"output\"") }
            frames = try FramesFile.load(path: framesPath, defaults: opts)
        }
        let jobs = try a.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        guard (1...EncoderPool.maxWorkers).contains(jobs) else { throw UsageError("--jobs expects 1 to \(EncoderPool.maxWorkers) threads, got \(jobs)") }
        if frames == nil && output != "-" {
            let dir = PathText.directory(of: output)
            var isDir: ObjCBool = false
            if !dir.isEmpty && !(FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) && isDir.boolValue) {
                throw IOFailure(path: output, message: "the directory \(dir) does not exist")
            }
        }
        let scene: Scene
        if stylePath == "-" {
            let style = try Scene.parseStyle(io.readStdin(), file: nil)
            scene = try Scene(style: style, strict: a.flag("strict"))
        } else {
            scene = try Scene(styleFile: stylePath, strict: a.flag("strict"))
        }
        for w in scene.warningMessages { io.writeStderr("glmap: warning: \(w)\n") }
        if let frames {
            let batch = try BatchRenderer(scene: scene, backend: backend)
            if let reason = batch.fallbackReason {
                io.writeStderr("glmap: no usable EGL/GLES (\(reason)); rendering on the CPU\n")
            }
            let progress = BatchProgress(total: frames.count, mode: BatchProgress.mode(quiet: a.flag("quiet")), write: io.writeStderr)
            let pool = EncoderPool(workers: jobs, compression: compression)
            let summary = try batch.run(count: frames.count, options: { frames[$0].options }, deliver: { i in
                let path = frames[i].output
                return { bytes in try AtomicFileWriter.write(bytes, to: path) }
            }, pool: pool, progress: progress)
            // GL failures the batch recovered from are reported; a frame that failed twice exits 1.
            try summary.finish(noun: "frames", describe: { "frame \($0 + 1) (line \(frames[$0].line), \(frames[$0].output))" },
                               write: io.writeStderr)
            return 0
        }
        let renderer = MapRenderer(backend: backend)
        try renderer.prepare()
        if let reason = renderer.fallbackReason {
            io.writeStderr("glmap: no usable EGL/GLES (\(reason)); rendering on the CPU\n")
        }
        let image = try renderer.render(scene, options: opts)   // premultiplied
        if output == "-" {
            io.writeStdout(try PNGEncoder.encode(premultiplied: image, compression: compression))
        } else {
            try PNGEncoder.write(image, to: output, compression: compression, premultiplied: true)
        }
        return 0
    }

    /// `--png-level` → the encoder setting.
    static func pngCompression(_ name: String?) throws -> PNGCompression {
        switch name ?? "default" {
        case "default": return .default
        case "fast": return .fast
        default: throw UsageError("--png-level expects default or fast, got \"\(name!)\"")
        }
    }
}

