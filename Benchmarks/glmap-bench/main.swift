import Foundation

let benchArgs = Array(CommandLine.arguments.dropFirst())
if benchArgs.first == "earcut" {
    do {
        try runEarcutBenchmark(Array(benchArgs.dropFirst()))
    } catch {
        FileHandle.standardError.write("\(error)\n".data(using: .utf8)!)
        exit(1)
    }
} else {
    print("bench")
}
