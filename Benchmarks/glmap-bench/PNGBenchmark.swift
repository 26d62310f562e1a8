import Foundation
import GLMap
import GLMapCore
import GLMapPNG

/// `glmap-bench png --style FILE [--width 1024 --height 1024 --runs 5] [--only TEXT]`: renders one
/// frame, then times each PNG encoding method on it (median and minimum ms) and prints the file
/// size, so the default can be chosen by measurement; `--only` keeps the methods whose name
/// contains TEXT.
func runPNGBenchmark(_ args: [String]) throws {
    let a = try BenchArgs(args)
    let scene = try Scene(styleFile: try a.string("style"))
    let image = try MapRenderer().render(scene, options: RenderOptions(width: try a.int("width", 1024), height: try a.int("height", 1024))).unpremultiplied()
    let runs = try a.int("runs", 5)
    let frame = try MapRenderer().render(scene, options: RenderOptions(width: try a.int("width", 1024), height: try a.int("height", 1024)))
    var methods: [(String, () throws -> [UInt8])] = [
        ("libpng default (adaptive, zlib 6)", { try PNGEncoder.encodeWithLibPNG(image, fast: false) }),
        ("libpng fast (none, zlib 3)", { try PNGEncoder.encodeWithLibPNG(image, fast: true) }),
        ("libdeflate 6, adaptive, RGBA", { try DeflatePNGWriter.encode(image, compressor: .libdeflate(level: 6), filter: .adaptive, rgbWhenOpaque: false) }),
        ("libdeflate 6, up, RGBA", { try DeflatePNGWriter.encode(image, compressor: .libdeflate(level: 6), filter: .up, rgbWhenOpaque: false) }),
        ("libdeflate 9, none, RGBA", { try DeflatePNGWriter.encode(image, compressor: .libdeflate(level: 9), filter: .none, rgbWhenOpaque: false) }),
        ("igzip, none, RGBA, one stream", { try DeflatePNGWriter.encode(image, compressor: .igzip, filter: .none, singleStream: true, rgbWhenOpaque: false) }),
        ("igzip, up, RGB when opaque, one stream", { try DeflatePNGWriter.encode(frame, compressor: .igzip, filter: .up, singleStream: true) }),
        ("igzip, none, RGB when opaque, one stream, premultiplied in", { try DeflatePNGWriter.encode(frame, compressor: .igzip, filter: .none, singleStream: true) }),
        ("igzip, none, RGB when opaque, 512 KiB bands, 1 thread, premultiplied in", { try DeflatePNGWriter.encode(frame, compressor: .igzip, filter: .none, threads: 1) }),
    ]
    // libdeflate's levels, RGBA against RGB when opaque, from the premultiplied frame as the
    // renderers hand it over (unpremultiplied on the way), one stream, one thread.
    for level: Int32 in [1, 2, 3, 4, 5, 6] {
        methods.append(("libdeflate \(level), none, RGBA, premultiplied in", { try DeflatePNGWriter.encode(frame, compressor: .libdeflate(level: level), filter: .none, rgbWhenOpaque: false) }))
        methods.append(("libdeflate \(level), none, RGB when opaque, premultiplied in", { try DeflatePNGWriter.encode(frame, compressor: .libdeflate(level: level), filter: .none) }))
    }
    methods.append(("default (PNGEncoder, 1 thread)", { try PNGEncoder.encode(frame) }))
    methods.append(("default (PNGEncoder, \(PNGEncoder.allCores) threads)", { try PNGEncoder.encode(frame, threads: PNGEncoder.allCores) }))
    methods.append(("small (PNGEncoder, libdeflate 3)", { try PNGEncoder.encode(frame, compression: .small) }))
    print("# opaque: \(DeflatePNGWriter.isOpaque(frame.pixels, count: frame.pixels.count))")
    print("method\tmedian-ms\tbytes\tmin-ms")
    for (name, f) in methods where a.values["only"].map({ name.contains($0) }) ?? true {
        var times: [Double] = []
        var bytes = 0
        for _ in 0..<max(1, runs) {
            let t = now()
            bytes = try f().count
            times.append((now() - t) * 1000)
        }
        print("\(name)\t\(String(format: "%.2f", median(times)))\t\(bytes)\t\(String(format: "%.2f", times.min() ?? 0))")
    }
}
