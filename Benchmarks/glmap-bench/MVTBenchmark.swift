import Foundation
import GLMapArchives
import GLMapCore
import GLMapTiles

/// `glmap-bench mvt (--tiles DIR | --mbtiles FILE) [--runs 20] [--label NAME]`: decodes every
/// tile of a set — the `.mvt` files under DIR, or every tile of an MBTiles (inflated first, not
/// timed) — with `VectorTileDecoder` on one thread, `runs` times, and prints the median:
/// milliseconds for the whole set, MB/s of uncompressed tile bytes, features per second, and the
/// allocation-free decode floor is not claimed: every feature's geometry and properties are built.
func runMVTBenchmark(_ args: [String]) throws {
    let a = try BenchArgs(args)
    let runs = try a.int("runs", 20)
    var tiles: [(String, [UInt8])] = []
    if let dir = a.values["tiles"] {
        let files = (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".mvt") }.sorted()
        for f in files {
            guard let d = FileManager.default.contents(atPath: dir + "/" + f) else { continue }
            tiles.append((f, [UInt8](d)))
        }
    } else if let file = a.values["mbtiles"] {
        let r = try MBTilesReader(path: file)
        for (t, data) in try r.tiles() {
            tiles.append((t.description, try Decompression.inflateIfCompressed(data, limit: InputLimits.default.maxTileBytes)))
        }
    } else {
        throw BenchError("usage: glmap-bench mvt (--tiles DIR | --mbtiles FILE) [--runs 20] [--label NAME]")
    }
    // Tiles the decoder refuses (e.g. the suite's truncated contours.mvt) are left out of the set.
    var usable: [[UInt8]] = []
    var features = 0, refused: [String] = []
    for (name, bytes) in tiles {
        do {
            let d = try VectorTileDecoder.decode(bytes)
            usable.append(bytes)
            features += d.data.layers.values.reduce(0) { $0 + $1.features.count }
        } catch {
            refused.append(name)
        }
    }
    let bytes = usable.reduce(0) { $0 + $1.count }
    var times: [Double] = []
    for _ in 0..<runs {
        var keep: [DecodedVectorTile] = []
        keep.reserveCapacity(usable.count)
        let c0 = threadCPUSeconds()
        for b in usable { keep.append(try VectorTileDecoder.decode(b)) }
        times.append(threadCPUSeconds() - c0)
        withExtendedLifetime(keep) {}
    }
    let t = median(times)
    let label = a.values["label"] ?? a.values["tiles"] ?? a.values["mbtiles"] ?? ""
    print(String(format: "glmap mvt  %@: %d tiles, %.2f MB, %d features: %.2f ms (median of %d, thread CPU), %.1f MB/s, %.2f M features/s",
                 label, usable.count, Double(bytes) / 1e6, features, t * 1000, runs, Double(bytes) / 1e6 / t, Double(features) / 1e6 / t))
    if !refused.isEmpty { print("  left out (not decodable): \(refused.joined(separator: ", "))") }
}
