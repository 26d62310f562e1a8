import Foundation
import GLMapArchives
import GLMapCore
import GLMapTestSupport
import GLMapTiles
import XCTest

/// Every tile of the Helsinki OpenMapTiles MBTiles that examples/basemap/build.sh makes (tilemaker
/// output: gzip-compressed MVT, TMS rows), loaded through a `mbtiles://` vector source and checked
/// against the independent decoder layer by layer. The data is built, not committed: without it
/// the test skips and says how to build it.
final class BasemapTilesTests: XCTestCase {
    static var mbtiles: String {
        ProcessInfo.processInfo.environment["GLMAP_BASEMAP"]
            ?? SharedData.packageRoot.appendingPathComponent(".build/basemap/helsinki.mbtiles").path
    }

    func testEveryHelsinkiTileDecodes() throws {
        let path = Self.mbtiles
        guard FileManager.default.fileExists(atPath: path) else {
            if OutsideTool.inCI { return XCTFail("\(path) is not built: .ci/run builds it with examples/basemap/build.sh") }
            throw XCTSkip("\(path) is not built: run `bash examples/basemap/build.sh` (needs tilemaker and the .venv of bash .ci/install-deps), or set GLMAP_BASEMAP")
        }
        let reader = try MBTilesReader(path: path)
        let all = try reader.tiles().map { CanonicalTileID($0.tile.z, $0.tile.x, $0.tile.y) }
        XCTAssertGreaterThan(all.count, 14, "zooms 0–14")
        let d = try TileSourceDescription(id: "openmaptiles", json: JSONObject([("type", .string("vector")), ("url", .string("mbtiles://" + path))]))
        let source = try VectorTileSource(d, loader: ResourceLoader())
        XCTAssertEqual(source.source.maxzoom, 14)
        XCTAssertEqual(source.source.bounds?.west ?? 0, 24.935177, accuracy: 1e-6, "build.sh fixed the bounds")
        var warnings: [String] = []
        let results = source.load(tiles: all, warnings: &warnings)
        var features = 0
        var layers: Set<String> = []
        var empty = 0
        for t in all {
            switch results[t] {
            case .loaded(let data)?:
                features += data.layers.values.reduce(0) { $0 + $1.features.count }
                layers.formUnion(data.layers.keys)
            case .empty?:
                empty += 1   // tilemaker stores a gzip of nothing where a low zoom keeps no feature
                XCTAssertEqual(try Decompression.gunzip(try XCTUnwrap(try reader.tile(z: t.z, x: t.x, y: t.y)), limit: 1), [], "\(t)")
            default:
                XCTFail("\(t): \(String(describing: results[t]))")
            }
        }
        XCTAssertLessThan(empty, all.count / 2)
        XCTAssertTrue(layers.isSuperset(of: ["transportation", "building", "water", "landuse", "poi", "place"]), "\(layers.sorted())")
        print("BasemapTilesTests: \(all.count) tiles (\(empty) empty), \(features) features, layers \(layers.sorted()), \(warnings.count) warnings")
        // The independent decoder agrees on the feature count of every layer of every tile.
        guard case .success(let py) = OutsideTool.findPython(importing: ["mapbox_vector_tile"]) else { return }
        let script = #"""
import sys, sqlite3, gzip, zlib, json, mapbox_vector_tile as m
db = sqlite3.connect(sys.argv[1]); out = {}
for z, x, row, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
    if data[:2] == b"\x1f\x8b": data = gzip.decompress(data)
    elif data[:1] == b"\x78": data = zlib.decompress(data)
    t = m.decode(data)
    out["%d/%d/%d" % (z, x, (1 << z) - 1 - row)] = {k: len(v["features"]) for k, v in t.items()}
print(json.dumps(out))
"""#
        let r = OutsideTool.run(py, ["-c", script, path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let reference = try XCTUnwrap(try JSONParser.parse(r.stdout).objectValue)
        XCTAssertEqual(reference.count, all.count)
        for t in all {
            var counts: [String: Double] = [:]
            if case .loaded(let data)? = results[t] { counts = data.layers.mapValues { Double($0.features.count) } }
            let ref = (reference[t.description]?.objectValue?.pairs ?? []).reduce(into: [String: Double]()) { $0[$1.key] = $1.value.numberValue }
            XCTAssertEqual(counts, ref, "\(t)")
        }
    }
}
