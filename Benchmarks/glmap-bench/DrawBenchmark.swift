import Foundation
import GLMap
import GLMapCore
import GLMapGLES
import GLMapPNG
import GLMapTessellation

/// `glmap-bench draw --style FILE [--width 1024] [--height 1024] [--frames 40] [--mode repeat|readback|upload] [--png FILE]`
/// The draw stage alone: the scene is tessellated and uploaded once, then frames are drawn
/// (glFinish after each) and timed by wall clock and by this process's CPU time (every thread,
/// llvmpipe's included: steadier than wall time on a shared machine). `--mode readback` reads
/// each frame back after timing its draw, `upload` also uploads the buckets afresh before each
/// draw (as `glmap-bench scene` does). Medians; `--png` writes the last frame (to compare two
/// builds' pixels).
func runDrawBenchmark(_ args: [String]) throws {
    let a = try BenchArgs(args)
    let stylePath = try a.string("style")
    let width = try a.int("width", 1024), height = try a.int("height", 1024), frames = try a.int("frames", 40)
    let gl = try GLRenderer(context: try HeadlessContext())
    let scene = try Scene(styleFile: stylePath)
    let camera = scene.style.camera
    let view = ViewTransform(camera: camera, width: Double(width), height: Double(height))
    let plan = scene.framePlan(view: view)
    let gpu = try gl.upload(plan)
    try gl.draw(gpu, view: view, ratio: 1)   // compiles the programs
    gl.finish()
    var wall: [Double] = [], cpu: [Double] = []
    let mode = a.values["mode"] ?? "repeat"
    for _ in 0..<max(1, frames) {
        var g = gpu
        if mode == "upload" { g = try gl.upload(scene.framePlan(view: view)); gl.finish() }
        let c0 = processCPUSeconds(), t0 = now()
        try gl.draw(g, view: view, ratio: 1)
        gl.finish()
        wall.append((now() - t0) * 1000)
        cpu.append((processCPUSeconds() - c0) * 1000)
        if mode == "readback" || mode == "upload" { _ = try gl.readback() }
    }
    let image = try gl.readback()
    if let out = a.values["png"] { try Data(PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: out)) }
    print("wall-ms\t\(String(format: "%.2f", median(wall)))")
    print("cpu-ms\t\(String(format: "%.2f", median(cpu)))")
    print("triangles\t\(gl.trianglesDrawn)")
    print("draw-calls\t\(gl.drawCalls)")
    print("# style \(stylePath) \(width)x\(height) frames \(frames) (medians; cpu = all threads of the process)")
}
