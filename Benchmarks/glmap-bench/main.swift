import Foundation
import GLMapCore

// glmap-bench: per-stage benchmarks (release build). One subcommand per stage.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "geojson": try runGeoJSONBenchmark(Array(arguments.dropFirst()))
    default:
        print("usage: glmap-bench geojson --file F [--runs N] [--no-baseline]")
        exit(2)
    }
} catch let error as GLMapError {
    FileHandle.standardError.write(Data("glmap-bench: \(error)\n".utf8))
    exit(error.kind.exitCode)
} catch {
    FileHandle.standardError.write(Data("glmap-bench: \(error)\n".utf8))
    exit(1)
}
