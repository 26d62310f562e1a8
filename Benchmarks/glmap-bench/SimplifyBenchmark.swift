import Foundation
import GLMapCore
import GLMapGeoJSON
import GLMapStyle

/// `glmap-bench simplify --geojson FILE [--runs 5]`
/// geojson-vt's Douglas–Peucker ranks of every line and ring of a GeoJSON file (projected once,
/// tolerance 0.375 px at maxzoom 18, a source's defaults), median of runs, three ways:
/// `one-thread` — every line and ring on the calling thread (thread CPU); `by-feature` — the
/// scheduling before 2026-12-01 session 4: features.count / 64 + 1 chunks of whole features on
/// the cores (us_states' 56 features: one chunk); `rank` — `Simplification.rank`, one job per
/// line or ring, longest first. Wall and process CPU for the last two.
func runSimplifyBenchmark(_ args: [String]) throws {
    let a = try BenchArgs(args)
    let file = try a.string("geojson"), runs = try a.int("runs", 5)
    let features = try ProjectedFeature.project(GeoJSONDecoder.decode(Array(Data(contentsOf: URL(fileURLWithPath: file)))))
    let t = 0.375 / (WebMercator.tileSize * exp2(18)), sq = t * t
    var parts: [([Double], Range<Int>, Bool)] = []
    for f in features {
        for line in f.lines { parts.append((line, 0..<(line.count / 2), false)) }
        for p in f.polygons { for r in p.ringRanges { parts.append((p.coords, r, true)) } }
    }
    var one: [Double] = [], oldWall: [Double] = [], oldCPU: [Double] = [], newWall: [Double] = [], newCPU: [Double] = []
    for _ in 0..<max(1, runs) {
        let c0 = threadCPUSeconds()
        _ = parts.map { Simplification.ranks($0.0, positions: $0.1, isRing: $0.2, sqTolerance: sq) }
        one.append((threadCPUSeconds() - c0) * 1000)

        var copy = features
        var p0 = processCPUSeconds(), w0 = now()
        let chunks = min(copy.count / 64 + 1, ProcessInfo.processInfo.activeProcessorCount * 4)
        copy.withUnsafeMutableBufferPointer { buffer in
            let base = UnsafeSendable(buffer.baseAddress!), n = buffer.count
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                for i in (n * c / chunks)..<(n * (c + 1) / chunks) { base.value[i].rankForSimplification(sqTolerance: sq) }
            }
        }
        oldWall.append((now() - w0) * 1000)
        oldCPU.append((processCPUSeconds() - p0) * 1000)

        var fresh = features
        p0 = processCPUSeconds(); w0 = now()
        Simplification.rank(&fresh, tolerance: 0.375, maxzoom: 18)
        newWall.append((now() - w0) * 1000)
        newCPU.append((processCPUSeconds() - p0) * 1000)
        precondition(fresh.map(\.lineRanks) == copy.map(\.lineRanks) && fresh.map { $0.polygons.map(\.ringRanks) } == copy.map { $0.polygons.map(\.ringRanks) },
                     "the two schedules must give the same ranks")
    }
    func f(_ x: [Double]) -> String { String(format: "%.2f", median(x)) }
    print("one-thread-cpu-ms\t\(f(one))")
    print("by-feature-wall-ms\t\(f(oldWall))\tcpu-ms\t\(f(oldCPU))")
    print("rank-wall-ms\t\(f(newWall))\tcpu-ms\t\(f(newCPU))")
    let positions = parts.reduce(0) { $0 + $1.1.count }
    print("# \(file): \(features.count) features, \(parts.count) lines and rings, \(positions) positions, runs \(runs), \(ProcessInfo.processInfo.activeProcessorCount) cores")
}
