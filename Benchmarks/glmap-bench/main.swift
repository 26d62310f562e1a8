// glmap-bench — release-build benchmarks. Subcommands:
//   scene  --style FILE [--width 1024 --height 1024 --ratio 1 --runs 5]   per-stage frame timings
//   lines  [--scenes DIR] [--seconds S]                                   line tessellation throughput
import Foundation

let args = Array(CommandLine.arguments.dropFirst())
let usage = "usage: glmap-bench scene|lines [options]\n"
do {
    switch args.first {
    case "scene": try runSceneBenchmark(Array(args.dropFirst()))
    case "lines": try runLineBenchmark(Array(args.dropFirst()))
    default:
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("glmap-bench: \(error)\n".utf8))
    exit(1)
}
