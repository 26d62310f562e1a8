// `glmap-bench earcut`: times the earcut triangulator on earcut's test fixtures, the same way
// shared/tools/anchors/earcut_anchor.py times earcut.hpp, so the two TSVs compare line by line.
//
// Per fixture: flatten once (outside the timing), pick a call count so one repeat lasts at
// least --min-time seconds, time --repeats repeats and report the median µs per call.

import Foundation
import GLMapTessellation

/// Runs the earcut benchmark: `earcut [--fixtures DIR] [--only a,b] [--min-time S] [--repeats N] [--reuse]`.
func runEarcutBenchmark(_ args: [String]) throws {
    var fixtures = "../shared/fixtures/earcut"
    var only: Set<String>? = nil
    var minTime = 0.2
    var repeats = 5
    var reuse = false

    var k = 0
    func value(_ flag: String) throws -> String {
        k += 1
        guard k < args.count else { throw EarcutBenchmarkError("\(flag) needs a value") }
        return args[k]
    }
    while k < args.count {
        switch args[k] {
        case "--fixtures": fixtures = try value("--fixtures")
        case "--only": only = Set(try value("--only").split(separator: ",").map(String.init))
        case "--min-time":
            let v = try value("--min-time")
            guard let t = Double(v), t > 0 else { throw EarcutBenchmarkError("--min-time wants seconds > 0, got \(v)") }
            minTime = t
        case "--repeats":
            let v = try value("--repeats")
            guard let r = Int(v), r > 0 else { throw EarcutBenchmarkError("--repeats wants a count > 0, got \(v)") }
            repeats = r
        case "--reuse": reuse = true
        case "-h", "--help":
            print("usage: glmap-bench earcut [--fixtures DIR] [--only a,b] [--min-time S] [--repeats N] [--reuse]")
            print("  --reuse  time one EarcutTriangulator reused across calls (default: Earcut.triangulate)")
            return
        default: throw EarcutBenchmarkError("unknown option \(args[k]) (try --help)")
        }
        k += 1
    }

    let dir = URL(fileURLWithPath: fixtures)
    let expectedURL = dir.appendingPathComponent("expected.json")
    guard let expectedData = try? Data(contentsOf: expectedURL) else {
        throw EarcutBenchmarkError("cannot read \(expectedURL.path): pass --fixtures DIR (the folder with expected.json)")
    }
    let expected = try JSONDecoder().decode(EarcutExpected.self, from: expectedData)
    var names = fixtureOrder(expectedData).filter { expected.triangles[$0] != nil }
    if names.count != expected.triangles.count { names = expected.triangles.keys.sorted() }
    if let only {
        let unknown = only.subtracting(names)
        if !unknown.isEmpty { throw EarcutBenchmarkError("unknown fixture(s): \(unknown.sorted().joined(separator: ","))") }
        names = names.filter { only.contains($0) }
    }

    for line in machineLines() { print(line) }
    print("#loadavg_start\t\(loadAverage())")
    print("#timing\tmedian of \(repeats) repeats, each >= \(minTime)s of back-to-back " +
          (reuse ? "EarcutTriangulator.triangulate calls (one reused instance)" : "Earcut.triangulate calls") +
          "; inputs pre-built")
    print("fixture\tvertices\ttriangles\tdeviation\tus_per_call")

    let triangulator = EarcutTriangulator()
    var totalVertices = 0, totalTriangles = 0, totalMicros = 0.0, worstDeviation = 0.0
    var failures: [String] = []
    for name in names {
        let url = dir.appendingPathComponent("fixtures/\(name).json")
        let rings = try JSONDecoder().decode([[[Double]]].self, from: Data(contentsOf: url))
        var coords: [Double] = []
        var holes: [Int] = []
        var vertexCount = 0
        for (r, ring) in rings.enumerated() {
            if r > 0 { holes.append(vertexCount) }
            for p in ring { coords.append(p[0]); coords.append(p[1]) }
            vertexCount += ring.count
        }

        let indices = Earcut.triangulate(coords, holeIndices: holes)
        let deviation = Earcut.deviation(coords, holeIndices: holes, dimensions: 2, triangles: indices)
        let triangles = indices.count / 3
        if let want = expected.triangles[name], want != triangles {
            failures.append("\(name): \(triangles) triangles, expected \(want)")
        }
        if triangles > 0, deviation > (expected.errors[name] ?? 0) + 1e-14 {
            failures.append("\(name): deviation \(deviation)")
        }

        let micros = coords.withUnsafeBufferPointer { buffer -> Double in
            if reuse {
                return measure(minTime: minTime, repeats: repeats) {
                    blackHole(triangulator.triangulate(buffer, holeIndices: holes).count)
                }
            }
            return measure(minTime: minTime, repeats: repeats) {
                blackHole(Earcut.triangulate(buffer, holeIndices: holes).count)
            }
        }
        print("\(name)\t\(vertexCount)\t\(triangles)\t\(format(deviation))\t\(String(format: "%.3f", micros))")
        fflush(nil)   // every stream (stdout is shared mutable state in Swift 6)
        totalVertices += vertexCount
        totalTriangles += triangles
        totalMicros += micros
        worstDeviation = max(worstDeviation, deviation)
    }
    print("TOTAL\t\(totalVertices)\t\(totalTriangles)\t\(format(worstDeviation))\t\(String(format: "%.3f", totalMicros))")
    print("#loadavg_end\t\(loadAverage())")
    print("#check\t" + (failures.isEmpty ? "\(names.count)/\(names.count) ok" : failures.joined(separator: "; ")))
    if !failures.isEmpty { throw EarcutBenchmarkError("\(failures.count) fixture check(s) failed") }
}

/// A failure of the earcut benchmark (bad option, missing fixtures, failed check).
struct EarcutBenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = "glmap-bench earcut: " + message }
}

private struct EarcutExpected: Decodable {
    var triangles: [String: Int]
    var errors: [String: Double]
}

/// Median µs per call over `repeats` timed batches, each lasting at least `minTime` seconds.
private func measure(minTime: Double, repeats: Int, _ body: () -> Void) -> Double {
    body() // warm-up
    func batch(_ n: Int) -> Double {
        let t0 = monotonicSeconds()
        for _ in 0..<n { body() }
        return monotonicSeconds() - t0
    }
    var n = 1
    while true {
        let t = batch(n)
        if t >= minTime { break }
        n = max(n * 2, Int(Double(n) * minTime * 1.2 / max(t, 1e-9)))
    }
    var perCall: [Double] = []
    for _ in 0..<repeats { perCall.append(batch(n) / Double(n) * 1e6) }
    perCall.sort()
    return perCall.count % 2 == 1 ? perCall[perCall.count / 2]
        : (perCall[perCall.count / 2 - 1] + perCall[perCall.count / 2]) / 2
}

private func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

nonisolated(unsafe) private var blackHoleSink = 0   // written by the benchmark thread only
@inline(never) private func blackHole(_ value: Int) { blackHoleSink &+= value }

private func format(_ deviation: Double) -> String {
    deviation == 0 ? "0" : String(format: "%.3g", deviation)
}

/// Fixture names in the order `expected.json` lists them under "triangles".
private func fixtureOrder(_ data: Data) -> [String] {
    guard let text = String(data: data, encoding: .utf8),
          let start = text.range(of: "\"triangles\""),
          let open = text[start.upperBound...].firstIndex(of: "{"),
          let close = text[open...].firstIndex(of: "}") else { return [] }
    var names: [String] = []
    var rest = text[text.index(after: open)..<close]
    while let q1 = rest.firstIndex(of: "\"") {
        let afterQuote = rest.index(after: q1)
        guard let q2 = rest[afterQuote...].firstIndex(of: "\"") else { break }
        names.append(String(rest[afterQuote..<q2]))
        rest = rest[rest.index(after: q2)...]
        guard let comma = rest.firstIndex(of: ",") else { break }
        rest = rest[rest.index(after: comma)...]
    }
    return names
}

private func machineLines() -> [String] {
    var model = "unknown", detail = ""
    if let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) {
        var fields: [String: String] = [:]
        for line in cpuinfo.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, fields[parts[0]] == nil { fields[parts[0]] = parts[1] }
        }
        model = fields["model name"] ?? model
        detail = "family \(fields["cpu family"] ?? "?") model \(fields["model"] ?? "?") " +
            "stepping \(fields["stepping"] ?? "?"), \(fields["cpu MHz"] ?? "?") MHz" +
            ((fields["flags"] ?? "").contains(" hypervisor") ? ", virtualized" : "")
    }
    var uts = utsname()
    uname(&uts)
    func field<T>(_ value: T) -> String {
        withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    let date = ISO8601DateFormatter().string(from: Date())
    return [
        "#date\t\(date)",
        "#cpu_model\t\(model)\t\(detail)",
        "#nproc\t\(ProcessInfo.processInfo.activeProcessorCount)",
        "#machine\t\(field(uts.machine))\t\(field(uts.sysname)) \(field(uts.release))",
        "#build\tglmap-bench earcut (Swift, release build)",
    ]
}

private func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}
