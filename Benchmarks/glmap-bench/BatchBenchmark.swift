import Foundation
import GLMap
import GLMapBatch
import GLMapCore
import GLMapPNG

/// `glmap-bench batch --style FILE [--frames 100] [--width 256] [--height 256] [--ratio 1]
/// [--jobs cores] [--png-level default|small]`
/// Renders `frames` frames of one scene (the camera pans across the style's view, same zoom)
/// through `BatchRenderer` — shared evaluation/upload, PBO readback, pooled PNG encoding — with
/// the PNGs discarded, and prints frames-per-second. Then encodes the same images again with the
/// same pool and no rendering: encode-floor-frames-per-second, the rate PNG encoding alone allows
/// on these cores. Scene parsing and GL set-up are outside both timings.
func runBatchBenchmark(_ args: [String]) throws {
    let a = try BenchArgs(args)
    let stylePath = try a.string("style")
    let count = try a.int("frames", 100), width = try a.int("width", 256), height = try a.int("height", 256)
    let jobs = try a.int("jobs", ProcessInfo.processInfo.activeProcessorCount)
    let ratio = Double(a.values["ratio"] ?? "1") ?? 1
    let compression = try a.pngCompression()
    guard count >= 1 else { throw BenchError("--frames must be at least 1") }

    let scene = try Scene(styleFile: stylePath)
    let drawingThread = RasterizerThreads.rasterizeOnDrawingThread(for: .batch(framePixels: Int(Double(width * height) * ratio * ratio)))   // as `glmap render --frames` does
    let batch = try BatchRenderer(scene: scene, backend: .gpu)
    let camera = scene.style.camera
    // Pan in a small spiral around the style's center, a few viewport widths wide.
    let worldSize = WebMercator.worldSize(zoom: camera.zoom)
    let c = WebMercator.project(lon: camera.longitude, lat: camera.latitude)
    func options(_ i: Int) -> RenderOptions {
        let angle = Double(i) * 0.7, radius = Double(i % 16) * Double(width) / 8
        let p = WebMercator.unproject(x: c.x + radius * cos(angle) / worldSize, y: c.y + radius * sin(angle) / worldSize)
        return RenderOptions(width: width, height: height, ratio: ratio, longitude: p.lon, latitude: p.lat, zoom: camera.zoom)
    }
    _ = try batch.render(options(0))  // evaluate + upload once, outside the timing

    let bytes = Locked(0)   // PNG bytes, summed from encoder threads
    let t0 = now()
    let pool = EncoderPool(workers: jobs, compression: compression)
    try batch.run(count: count, options: options, deliver: { _ in { png in bytes.withLock { $0 += png.count } } }, pool: pool)
    let batchSeconds = now() - t0
    let rssAfterBatch = peakRSSMiB()

    // The encode floor: the same images (up to 32 distinct, cycled), encoded by the same pool.
    let distinct = min(count, 32)
    var images: [PremultipliedImage] = []
    for i in 0..<distinct { images.append(try batch.render(options(i))) }
    let t1 = now()
    let floorPool = EncoderPool(workers: jobs, compression: compression)
    for i in 0..<count { try floorPool.submit(images[i % distinct], deliver: { _ in }) }
    try floorPool.finish()
    let floorSeconds = now() - t1

    let fps = Double(count) / batchSeconds, floorFPS = Double(count) / floorSeconds
    print("frames-per-second\t\(String(format: "%.1f", fps))")
    print("encode-floor-frames-per-second\t\(String(format: "%.1f", floorFPS))")
    print("# ratio floor/batch \(String(format: "%.2f", floorFPS / fps)) (target ≤ 1.25)")
    print("# style \(stylePath) \(count) frames \(width)x\(height) ratio \(ratio) jobs \(jobs) png \(compression) mean-png-bytes \(bytes.value / count) evaluations \(batch.evaluations)")
    print("# peak-rss-mib \(String(format: "%.1f", rssAfterBatch)) (after the batch, before the floor's image set)")
    print("# cpu \(cpuModel()) x\(ProcessInfo.processInfo.activeProcessorCount)  LP_NUM_THREADS \(getenv("LP_NUM_THREADS").map { String(cString: $0) } ?? "(default)")\(drawingThread ? " (set: small frames)" : "")")
}

