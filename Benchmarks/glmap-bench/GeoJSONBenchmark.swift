import Foundation
import GLMapCore
import GLMapGeoJSON

/// `glmap-bench geojson --file F [--runs N] [--no-baseline]`: times `GeoJSONDecoder.decode` on one
/// file and, as a baseline, Foundation's `JSONSerialization` on the same bytes in the same process
/// (`--no-baseline` leaves it out, e.g. for profiling). Prints the median of the runs (MB = 10^6 bytes).
func runGeoJSONBenchmark(_ args: [String]) throws {
    var file: String?
    var runs = 15
    var baseline = true
    var i = 0
    while i < args.count {
        switch args[i] {
        case "--file" where i + 1 < args.count:
            file = args[i + 1]
            i += 2
        case "--runs" where i + 1 < args.count:
            guard let n = Int(args[i + 1]), n > 0 else { throw InputFailure("--runs needs a positive integer, got '\(args[i + 1])'") }
            runs = n
            i += 2
        case "--no-baseline":
            baseline = false
            i += 1
        default:
            throw InputFailure("unknown or incomplete argument '\(args[i])'; usage: \(usage)")
        }
    }
    guard let path = file else { throw InputFailure("usage: \(usage)") }
    guard let data = FileManager.default.contents(atPath: path) else {
        throw IOFailure(path: path, message: "cannot read the file")
    }
    let bytes = [UInt8](data)
    let megabytes = Double(bytes.count) / 1e6

    // Warm up both (page in the bytes, first-use allocations), then time each run.
    var decoded = try GeoJSONDecoder.decode(bytes, file: path)
    if baseline { _ = try JSONSerialization.jsonObject(with: data) }

    var glmapTimes: [Double] = []
    var glmapCPUTimes: [Double] = []
    for _ in 0..<runs {
        let c0 = threadCPUSeconds()
        let t0 = DispatchTime.now().uptimeNanoseconds
        let fc = try GeoJSONDecoder.decode(bytes, file: path)
        let t1 = DispatchTime.now().uptimeNanoseconds
        glmapCPUTimes.append(threadCPUSeconds() - c0)
        glmapTimes.append(Double(t1 - t0) / 1e9)
        decoded = fc  // the previous result is freed outside the timed region
    }
    var foundationTimes: [Double] = []
    for _ in 0..<(baseline ? runs : 0) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let object = try JSONSerialization.jsonObject(with: data)
        let t1 = DispatchTime.now().uptimeNanoseconds
        foundationTimes.append(Double(t1 - t0) / 1e9)
        withExtendedLifetime(object) {}
    }

    let glmap = median(glmapTimes)
    let name = (path as NSString).lastPathComponent
    print("geojson \(name): \(bytes.count) bytes, \(decoded.features.count) features, \(decoded.vertexCount) vertices, \(runs) runs")
    let glmapCPU = median(glmapCPUTimes)
    print(String(format: "  GeoJSONDecoder      %8.2f ms  %8.1f MB/s (median wall time; min %.2f ms)",
                 glmap * 1e3, megabytes / glmap, (glmapTimes.min() ?? 0) * 1e3))
    print(String(format: "  GeoJSONDecoder      %8.2f ms  %8.1f MB/s (median thread CPU time, less sensitive to a busy machine)",
                 glmapCPU * 1e3, megabytes / glmapCPU))
    guard baseline else { return }
    let foundation = median(foundationTimes)
    print(String(format: "  JSONSerialization   %8.2f ms  %8.1f MB/s (median; JSON only, no GeoJSON model)",
                 foundation * 1e3, megabytes / foundation))
    print(String(format: "  ratio               %8.2fx faster than JSONSerialization", foundation / glmap))
}

private let usage = "glmap-bench geojson --file F [--runs N] [--no-baseline]"
