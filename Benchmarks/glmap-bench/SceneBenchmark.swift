import Foundation
import GLMap
import GLMapCore
import GLMapGLES
import GLMapPNG
import GLMapStyle
import GLMapTessellation

/// `glmap-bench scene --style FILE [--width 1024] [--height 1024] [--ratio 1] [--runs 5] [--layers 1]`
/// Times each stage of one frame (median of runs): egl-init, shader-compile (once), then per run
/// parse (style + GeoJSON + projection), evaluate, tessellate, upload, draw, readback, encode,
/// release (the scene and its tiles freed, as the next frame's new scene does), and total = the
/// sum of those stage medians, each stage with the process's CPU time beside it (every thread:
/// `cpu` near the wall time is a stage on one core). Layers are evaluated on all
/// cores and tessellated one by one (a large layer's features on all cores), as
/// `Scene.gpuBuckets` does; the PNG is encoded on all cores, as `glmap render` does. Then `frame`:
/// the median of the same frame end to end through the public API (`Scene(styleFile:)`,
/// `MapRenderer.render`, `PNGEncoder.encode`), with no GL finish between the stages. `--layers 1`
/// also prints each layer's tessellation time alone (`Bucket.make`, which spreads a large layer
/// over the cores itself).
func runSceneBenchmark(_ args: [String]) throws {
    let a = try BenchArgs(args)
    let stylePath = try a.string("style")
    let width = try a.int("width", 1024), height = try a.int("height", 1024), runs = try a.int("runs", 5)
    let ratio = Double(a.values["ratio"] ?? "1") ?? 1

    var t = now()
    let context = try HeadlessContext()
    let eglInit = now() - t
    t = now()
    let gl = try GLRenderer(context: context)
    let shaderCompile = now() - t

    var stages: [String: [Double]] = [:]
    var cpuMark = processCPUSeconds()
    /// Records a stage's wall time and the process CPU time since the previous stage ended.
    func record(_ name: String, _ seconds: Double) {
        stages[name, default: []].append(seconds * 1000)
        let c = processCPUSeconds()
        stages["cpu-" + name, default: []].append((c - cpuMark) * 1000)
        cpuMark = c
    }
    var lastBytes = 0
    for _ in 0..<max(1, runs) {
        cpuMark = processCPUSeconds()
        var t0 = now()
        var scene: Scene? = try Scene(styleFile: stylePath)
        record("parse", now() - t0)
        let camera = scene!.style.camera
        let view = ViewTransform(camera: camera, width: Double(width), height: Double(height))
        t0 = now()
        // Tile cover, each drawn layer evaluated and tessellated over each of its tiles.
        var plan: FramePlan? = scene!.framePlan(view: view)
        record("evaluate+tessellate", now() - t0)
        t0 = now()
        let gpu = try gl.upload(plan!)
        gl.finish()
        record("upload", now() - t0)
        t0 = now()
        try gl.draw(gpu, view: view, ratio: ratio)
        gl.finish()
        record("draw", now() - t0)
        t0 = now()
        let image = try gl.readback()
        record("readback", now() - t0)
        t0 = now()
        let png = try PNGEncoder.encode(image, threads: PNGEncoder.allCores)
        record("encode", now() - t0)
        lastBytes = png.count
        t0 = now()
        plan = nil
        scene = nil
        record("release", now() - t0)
    }
    // The same frame end to end through the public API, as a user renders it: the scene loaded,
    // `MapRenderer.render` (evaluate, tessellate, upload, draw, read back; no finish between the
    // stages) and the PNG on all cores, with the renderer warm.
    let renderer = MapRenderer(backend: .gpu)
    let renderOptions = RenderOptions(width: width, height: height, ratio: ratio)
    _ = try PNGEncoder.encode(renderer.render(try Scene(styleFile: stylePath), options: renderOptions), threads: PNGEncoder.allCores)
    for _ in 0..<max(1, runs) {
        let t0 = now()
        let image = try renderer.render(try Scene(styleFile: stylePath), options: renderOptions)
        _ = try PNGEncoder.encode(image, threads: PNGEncoder.allCores)
        stages["frame", default: []].append((now() - t0) * 1000)
    }
    print("egl-init\t\(String(format: "%.2f", eglInit * 1000))")
    print("shader-compile\t\(String(format: "%.2f", shaderCompile * 1000))")
    let order = ["parse", "evaluate+tessellate", "upload", "draw", "readback", "encode", "release"]
    var total = 0.0
    for s in order {
        let m = median(stages[s] ?? [])
        total += m
        print("\(s)\t\(String(format: "%.2f", m))\tcpu \(String(format: "%.2f", median(stages["cpu-" + s] ?? [])))")
    }
    // The total is the sum of per-stage medians (parse through encode).
    print("total\t\(String(format: "%.2f", total))")
    print("frame\t\(String(format: "%.2f", median(stages["frame"] ?? [])))")
    let info = gl.info
    print("# style \(stylePath) \(width)x\(height) ratio \(ratio) runs \(runs) png-bytes \(lastBytes)")
    print("# peak-rss-mib \(String(format: "%.1f", peakRSSMiB()))")
    print("# gl \(info.renderer) | \(info.version)")
    print("# cpu \(cpuModel()) x\(ProcessInfo.processInfo.activeProcessorCount)")
    print("# LP_NUM_THREADS \(ProcessInfo.processInfo.environment["LP_NUM_THREADS"] ?? "(default)")")
}
