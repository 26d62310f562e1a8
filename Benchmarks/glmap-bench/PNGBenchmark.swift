import Foundation
import GLMap
import GLMapCore
import GLMapPNG

/// `glmap-bench png --style FILE [--width 1024 --height 1024 --runs 5]`: renders one frame, then
/// times each PNG encoding method on it (median ms) and prints the file size, so the default can
/// be chosen by measurement.
func runPNGBenchmark(_ args: [String]) throws {
    let a = try BenchArgs(args)
    let scene = try Scene(styleFile: try a.string("style"))
    let image = try MapRenderer().render(scene, options: RenderOptions(width: try a.int("width", 1024), height: try a.int("height", 1024))).unpremultiplied()
    let runs = try a.int("runs", 5)
    let methods: [(String, () throws -> [UInt8])] = [
        ("libpng default (adaptive, zlib 6)", { try PNGEncoder.encodeWithLibPNG(image, fast: false) }),
        ("libpng fast (none, zlib 3)", { try PNGEncoder.encodeWithLibPNG(image, fast: true) }),
        ("libdeflate 1, up", { try DeflatePNGWriter.encode(image, level: 1, filter: .up) }),
        ("libdeflate 3, up", { try DeflatePNGWriter.encode(image, level: 3, filter: .up) }),
        ("libdeflate 6, up", { try DeflatePNGWriter.encode(image, level: 6, filter: .up) }),
        ("libdeflate 1, adaptive", { try DeflatePNGWriter.encode(image, level: 1, filter: .adaptive) }),
        ("libdeflate 6, adaptive", { try DeflatePNGWriter.encode(image, level: 6, filter: .adaptive) }),
        ("libdeflate 1, none, one stream", { try DeflatePNGWriter.encode(image, level: 1, filter: .none, singleStream: true) }),
        ("libdeflate 4, none, one stream", { try DeflatePNGWriter.encode(image, level: 4, filter: .none, singleStream: true) }),
        ("libdeflate 6, none, one stream", { try DeflatePNGWriter.encode(image, level: 6, filter: .none, singleStream: true) }),
        ("libdeflate 9, none, one stream", { try DeflatePNGWriter.encode(image, level: 9, filter: .none, singleStream: true) }),
        ("libdeflate 6, none, 1 MiB pieces, 1 thread", { try DeflatePNGWriter.encode(image, level: 6, filter: .none, threads: 1) }),
        ("libdeflate 6, none, 1 MiB pieces, \(PNGEncoder.allCores) threads", { try DeflatePNGWriter.encode(image, level: 6, filter: .none, threads: PNGEncoder.allCores) }),
        ("libdeflate 1, none, 1 MiB pieces, \(PNGEncoder.allCores) threads", { try DeflatePNGWriter.encode(image, level: 1, filter: .none, threads: PNGEncoder.allCores) }),
    ]
    print("method\tmedian-ms\tbytes")
    for (name, f) in methods {
        var times: [Double] = []
        var bytes = 0
        for _ in 0..<max(1, runs) {
            let t = now()
            bytes = try f().count
            times.append((now() - t) * 1000)
        }
        print("\(name)\t\(String(format: "%.2f", median(times)))\t\(bytes)")
    }
}
