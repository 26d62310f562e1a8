import Foundation
import GLMap
import GLMapBatch
import GLMapCore
import GLMapPNG

/// One camera of the fly-through path (shared with MapLibre Native through `--path-out`).
struct FlyCamera {
    var lon, lat, zoom, bearing, pitch: Double
}

/// The fly-through camera path of `count` frames from a style's view: a pan across two view
/// widths, the zoom rising from z − 0.5 to z + 1 (fractional zooms, two integer crossings), the
/// bearing turning 0 → 60°, the pitch rising to 40° and back.
func flythroughPath(camera: Camera, count: Int, width: Int) -> [FlyCamera] {
    let c = WebMercator.project(lon: camera.longitude, lat: camera.latitude)
    let span = 2 * Double(width) / WebMercator.worldSize(zoom: camera.zoom)
    return (0..<count).map { i in
        let t = count > 1 ? Double(i) / Double(count - 1) : 0
        let p = WebMercator.unproject(x: c.x + span * (t - 0.5), y: c.y + span * 0.25 * sin(2 * Double.pi * t))
        return FlyCamera(lon: p.lon, lat: p.lat, zoom: max(0, camera.zoom - 0.5 + 1.5 * t), bearing: 60 * t,
                         pitch: 40 * sin(Double.pi * t))
    }
}

/// `glmap-bench flythrough --style FILE [--frames 200] [--width 256] [--height W] [--jobs cores]
/// [--png-level default|small] [--path-out FILE.jsonl]`
/// Renders the fly-through path through `BatchRenderer` (PNGs encoded by the pool and discarded)
/// and prints frames/s, then the two stage floors measured on the same frames: GL-thread time
/// (draw + synchronous readback of every frame, no encoding) and encode CPU (each frame's PNG on
/// one thread), and the pipeline floor max(GL, encode CPU ÷ cores). `--path-out` writes the
/// cameras as JSON lines for Benchmarks/flythrough_maplibre.py.
func runFlythroughBenchmark(_ args: [String]) throws {
    let a = try BenchArgs(args)
    let stylePath = try a.string("style")
    let count = try a.int("frames", 200), width = try a.int("width", 256), height = try a.int("height", width)
    let jobs = try a.int("jobs", ProcessInfo.processInfo.activeProcessorCount)
    let compression = try a.pngCompression()
    guard count >= 1 else { throw BenchError("--frames must be at least 1") }

    let scene = try Scene(styleFile: stylePath)
    let path = flythroughPath(camera: scene.style.camera, count: count, width: width)
    if let out = a.values["path-out"] {
        let lines = path.map { c in
            String(format: "{\"lon\": %.9f, \"lat\": %.9f, \"zoom\": %.6f, \"bearing\": %.4f, \"pitch\": %.4f}", c.lon, c.lat, c.zoom, c.bearing, c.pitch)
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: out))
    }
    func options(_ i: Int) -> RenderOptions {
        let c = path[i]
        return RenderOptions(width: width, height: height, longitude: c.lon, latitude: c.lat, zoom: c.zoom,
                             bearing: c.bearing, pitch: c.pitch)
    }
    let drawingThread = RasterizerThreads.rasterizeOnDrawingThread(for: .batch(framePixels: width * height))   // as `glmap render --frames` does
    let batch = try BatchRenderer(scene: scene, backend: .gpu)
    _ = try batch.render(options(0))   // GL programs and the first tile zoom, outside the timing
    let warmEvaluations = batch.evaluations

    let bytes = Locked(0)   // PNG bytes, summed from encoder threads
    let t0 = now()
    let pool = EncoderPool(workers: jobs, compression: compression)
    try batch.run(count: count, options: options, deliver: { _ in { png in bytes.withLock { $0 += png.count } } }, pool: pool)
    let seconds = now() - t0
    let evaluations = batch.evaluations - warmEvaluations

    // Stage floors on the same frames: GL thread alone, then encoding alone (one thread per frame).
    var images: [PremultipliedImage] = []
    let t1 = now()
    for i in 0..<count {
        let img = try batch.render(options(i))
        if i % max(1, count / 16) == 0 { images.append(img) }
    }
    let glSeconds = now() - t1
    let t2 = now()
    for img in images { _ = try PNGEncoder.encode(img, compression: compression) }
    let encodePerFrame = (now() - t2) / Double(images.count)
    let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
    let floorPerFrame = max(glSeconds / Double(count), encodePerFrame / cores)
    let framePerFrame = seconds / Double(count)
    func ms(_ s: Double) -> String { String(format: "%.2f", s * 1000) }
    print("frames-per-second\t\(String(format: "%.1f", Double(count) / seconds))")
    print("frame-ms\t\(ms(framePerFrame))")
    print("gl-thread-ms\t\(ms(glSeconds / Double(count)))")
    print("encode-cpu-ms\t\(ms(encodePerFrame))")
    print("floor-ms\t\(ms(floorPerFrame))")
    print("frame/floor\t\(String(format: "%.2f", framePerFrame / floorPerFrame))")
    print("# style \(stylePath) \(count) frames \(width)x\(height) jobs \(jobs) png \(compression) mean-png-bytes \(bytes.value / count) tessellations \(evaluations) (one per tile zoom)")
    print("# peak-rss-mib \(String(format: "%.1f", peakRSSMiB()))  cpu \(cpuModel()) x\(Int(cores))  LP_NUM_THREADS \(getenv("LP_NUM_THREADS").map { String(cString: $0) } ?? "(default)")\(drawingThread ? " (set: small frames)" : "")")
}
