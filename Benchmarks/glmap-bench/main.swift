// glmap-bench — release-build benchmarks (see Benchmarks/README.md). Subcommands:
//   scene    --style FILE [--width 1024 --height 1024 --ratio 1 --runs 5]   per-stage frame timings
//   draw     --style FILE [--width 1024 --height 1024 --frames 40]            the draw stage alone, wall and CPU ms
//   geojson  --file F [--runs N] [--no-baseline]                            GeoJSON decoding MB/s
//   geojson-tiles --cases DIR [--runs 5 --show 3]                            GeoJSON tiler vs geojson-vt: identical tiles, build/getTile ms
//   lines    [--scenes DIR] [--seconds S]                                   line tessellation throughput
//   earcut   --fixtures DIR [--only a,b] [--min-time S] [--repeats N]       earcut per fixture, µs (TSV)
//   png      --style FILE [--width 1024 --height 1024 --runs 5]            PNG encoding methods compared
//   soak     --style FILE [--frames 10000 --every 1000]                      RSS and live GL objects over many frames
//   batch    --style FILE [--frames 100 --width 256 --height 256 --jobs N]  batch frames/s vs the PNG encode floor
//   flythrough --style FILE [--frames 200 --width 256 --jobs N --path-out F]  pan/zoom/bearing/pitch path vs its stage floors
//   expressions [--features 20000] [--only LABEL]                           expression/filter evaluation, ns per feature
//   mvt      (--tiles DIR | --mbtiles FILE) [--runs 20] [--label NAME]           vector tile decoding (Benchmarks/mvt-decode.sh)
//   differential --cases DIR [--out FILE.tsv --save[-all] DIR --backend gpu|cpu --emulate-native NAMES] agreement with MapLibre Native's expected.png
import Foundation
import GLMapCore

AllocatorTuning.keepFrameBuffersInHeap()   // as the glmap executable does
let args = Array(CommandLine.arguments.dropFirst())
let benchUsage = "usage: glmap-bench scene|draw|geojson|geojson-tiles|lines|earcut|batch|flythrough|png|soak|expressions|mvt|differential [options] (see Benchmarks/README.md)\n"
do {
    switch args.first {
    case "scene": try runSceneBenchmark(Array(args.dropFirst()))
    case "draw": try runDrawBenchmark(Array(args.dropFirst()))
    case "geojson": try runGeoJSONBenchmark(Array(args.dropFirst()))
    case "geojson-tiles": try runGeoJSONTilesBenchmark(Array(args.dropFirst()))
    case "lines": try runLineBenchmark(Array(args.dropFirst()))
    case "earcut": try runEarcutBenchmark(Array(args.dropFirst()))
    case "batch": try runBatchBenchmark(Array(args.dropFirst()))
    case "flythrough": try runFlythroughBenchmark(Array(args.dropFirst()))
    case "png": try runPNGBenchmark(Array(args.dropFirst()))
    case "soak": try runSoakBenchmark(Array(args.dropFirst()))
    case "expressions": try runExpressionBenchmark(Array(args.dropFirst()))
    case "mvt": try runMVTBenchmark(Array(args.dropFirst()))
    case "differential": try runDifferentialBenchmark(Array(args.dropFirst()))
    default:
        FileHandle.standardError.write(Data(benchUsage.utf8))
        exit(2)
    }
} catch let error as GLMapError {
    FileHandle.standardError.write(Data("glmap-bench: \(error)\n".utf8))
    exit(error.kind.exitCode)
} catch {
    FileHandle.standardError.write(Data("glmap-bench: \(error)\n".utf8))
    exit(1)
}
