import Foundation
import GLMap
import GLMapCore
import GLMapGLES

/// `glmap-bench soak --style FILE [--frames 10000] [--width 256] [--height 256] [--every 1000]`
/// Renders many frames in one process with one renderer (camera moving and zooming, so every
/// frame re-evaluates, re-tessellates and re-uploads), sampling RSS and the GL buffers/textures
/// held by live scenes every `every` frames: both must stay flat.
func runSoakBenchmark(_ args: [String]) throws {
    let a = try BenchArgs(args)
    let scene = try Scene(styleFile: try a.string("style"))
    let frames = try a.int("frames", 10000), every = max(1, try a.int("every", 1000))
    let w = try a.int("width", 256), h = try a.int("height", 256)
    let renderer = MapRenderer(backend: .gpu)
    let base = scene.style.camera
    print("frame\trss-mib\tlive-gl-objects\tms-per-frame")
    var t0 = now()
    for i in 1...frames {
        let phase = Double(i) * 0.01
        let opts = RenderOptions(width: w, height: h, longitude: base.longitude + sin(phase) * 2,
                                 latitude: base.latitude + cos(phase) * 1, zoom: base.zoom + (sin(phase * 0.7) + 1) * 0.75)
        _ = try renderer.render(scene, options: opts)
        if i % every == 0 || i == 1 {
            let dt = (now() - t0) * 1000 / Double(i == 1 ? 1 : every)
            print("\(i)\t\(String(format: "%.1f", currentRSSMiB()))\t\(GPUScene.liveGLObjects)\t\(String(format: "%.2f", dt))")
            t0 = now()
        }
    }
    print("# peak-rss-mib \(String(format: "%.1f", peakRSSMiB()))")
}
