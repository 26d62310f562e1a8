import Foundation
import GLMapPNG

/// Monotonic seconds.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// CPU time of the calling thread, in seconds (robust against a loaded machine, unlike wall time).
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// User + system CPU seconds of this process, all threads.
func processCPUSeconds() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) * 1e-6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) * 1e-6
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// A `/proc/self/status` memory line (e.g. "VmHWM", "VmRSS") in MiB.
private func procStatusMiB(_ key: String) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return .nan }
    for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
        let kb = line.split(separator: " ").compactMap { Double($0) }.first ?? .nan
        return kb / 1024
    }
    return .nan
}

/// Peak resident set size of this process in MiB (VmHWM).
func peakRSSMiB() -> Double { procStatusMiB("VmHWM") }

/// Current resident set size in MiB (VmRSS).
func currentRSSMiB() -> Double { procStatusMiB("VmRSS") }

func cpuModel() -> String {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
    for line in text.split(separator: "\n") where line.hasPrefix("model name") {
        return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    }
    return "unknown"
}

/// Simple `--name value` option reader for the benchmark subcommands.
struct BenchArgs {
    var values: [String: String] = [:]
    init(_ args: [String]) throws {
        var i = 0
        while i < args.count {
            guard args[i].hasPrefix("--"), i + 1 < args.count else {
                throw BenchError("expected --option value pairs, got \(args[i])")
            }
            values[String(args[i].dropFirst(2))] = args[i + 1]
            i += 2
        }
    }
    func string(_ k: String, _ d: String? = nil) throws -> String {
        guard let v = values[k] ?? d else { throw BenchError("missing --\(k)") }
        return v
    }
    func int(_ k: String, _ d: Int) throws -> Int {
        guard let v = values[k] else { return d }
        guard let n = Int(v) else { throw BenchError("--\(k) expects an integer") }
        return n
    }
    /// `--png-level` read as `glmap render` reads it: default (or its old name fast) or small.
    func pngCompression() throws -> PNGCompression {
        switch values["png-level"] ?? "default" {
        case "default", "fast": return .default
        case "small": return .small
        case let other: throw BenchError("--png-level expects default or small, got \(other)")
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
