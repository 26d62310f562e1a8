import Foundation
import GLMapCore
import GLMapGeoJSON
import GLMapTiles

/// `glmap-bench geojson-tiles --cases DIR [--runs 5] [--show 3] [--width 600]`: glmap's GeoJSON tiler against
/// geojson-vt. DIR is what `Benchmarks/geojson-vt-compare.mjs` wrote: per case the data, the
/// geojson-vt options and geojson-vt's tiles (`NNNN.expected`). Each case is tiled by
/// `GeoJSONTileIndex` (rewind off, as geojson-vt alone), the same tiles are asked for in the same
/// order and compared line for line; the counts of identical and different tiles are printed
/// (with the first `--show` differences, `--width` characters of each). Cases geojson-vt timed (the scenes) are timed here too:
/// index build (from the decoded collection) and the getTile calls, median of `--runs`.
func runGeoJSONTilesBenchmark(_ args: [String]) throws {
    let a = try BenchArgs(args)
    let dir = try a.string("cases")
    let runs = try a.int("runs", 5)
    let show = try a.int("show", 3)
    let width = try a.int("width", 600)
    let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }.sorted()
    guard !names.isEmpty else { throw BenchError("no cases in \(dir): run Benchmarks/geojson-vt-compare.mjs first") }

    var totalSame = 0, totalDifferent = 0, casesSame = 0, casesDifferent = 0, casesFailed = 0
    var shown = 0
    var differentCases: [(String, Int, Int)] = []
    var timings: [(String, Int, Double, Double, Double, Double)] = []
    for name in names {
        let base = (dir as NSString).appendingPathComponent(String(name.dropLast(5)))
        let record = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: base + ".json"))))
        let caseName = record["name"]?.stringValue ?? name
        let cluster = record["cluster"]
        let collection: FeatureCollection
        do {
            if let file = record["data"]?["file"]?.stringValue {
                collection = try GeoJSONDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))), file: file)
            } else if let inline = record["data"]?["inline"] {
                collection = try GeoJSONDecoder.decode(inline, path: "data")
            } else {
                throw BenchError("no data")
            }
        } catch {
            print("  \(caseName): glmap cannot decode the data (\(error)); not compared")
            casesFailed += 1
            continue
        }
        let expected = try String(contentsOfFile: base + ".expected", encoding: .utf8).split(separator: "\n")
        let ids: [CanonicalTileID] = try expected.map { line in
            let parts = line.prefix { $0 != "\t" }.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 3, let id = CanonicalTileID(z: parts[0], x: parts[1], y: parts[2]) else { throw BenchError("bad tile line in \(base).expected") }
            return id
        }
        let tiler: (CanonicalTileID) -> GeoJSONTile?
        let build: () throws -> (CanonicalTileID) -> GeoJSONTile?
        do {
            if let cluster {
                let options = try clusterOptions(cluster)
                var filter: (@Sendable (Feature) -> Bool)?
                if cluster["filter"]?.stringValue == "cape" {
                    filter = { (f: Feature) -> Bool in f.properties["featureclass"] == JSONValue.string("cape") }
                }
                let filterCopy = filter
                build = {
                    let index = try SuperclusterIndex(collection, options: options, filter: filterCopy)
                    return { index.tile($0) }
                }
            } else {
                let options = try tileOptions(record["options"])
                build = {
                    let index = try GeoJSONTileIndex(collection, options: options)
                    return { index.tile($0) }
                }
            }
            tiler = try build()
        } catch {
            print("  \(caseName): glmap could not tile it (\(error)); geojson-vt did")
            casesFailed += 1
            continue
        }
        var same = 0, different = 0
        for (i, id) in ids.enumerated() {
            let line = "\(id)\t" + canonical(tiler(id))
            if line == expected[i] {
                same += 1
            } else {
                different += 1
                if shown < show {
                    shown += 1
                    print("  \(caseName) \(id) differs:\n    geojson-vt: \(expected[i].dropFirst(id.description.count + 1).prefix(width))\n    glmap:      \(line.dropFirst(id.description.count + 1).prefix(width))")
                }
            }
        }
        totalSame += same
        totalDifferent += different
        if different == 0 { casesSame += 1 } else { casesDifferent += 1; differentCases.append((caseName, same, different)) }

        if let node = record["node"], let nodeBuild = node["buildMs"]?.numberValue, let nodeTiles = node["tilesMs"]?.numberValue {
            var buildTimes: [Double] = [], tiles: [Double] = []
            for _ in 0..<runs {
                let t0 = DispatchTime.now().uptimeNanoseconds
                let idx = try build()
                let t1 = DispatchTime.now().uptimeNanoseconds
                for id in ids { _ = idx(id) }
                let t2 = DispatchTime.now().uptimeNanoseconds
                buildTimes.append(Double(t1 - t0) / 1e6)
                tiles.append(Double(t2 - t1) / 1e6)
            }
            timings.append((caseName, ids.count, median(buildTimes), median(tiles), nodeBuild, nodeTiles))
        }
    }
    for (n, s, d) in differentCases { print("  different: \(n): \(s) identical, \(d) different") }
    print("geojson-tiles: \(names.count) cases, \(casesSame) identical in every tile, \(casesDifferent) with differences, \(casesFailed) not compared; tiles: \(totalSame) identical, \(totalDifferent) different")
    if !timings.isEmpty {
        print("\n| scene | tiles asked | glmap build ms | glmap getTile ms | geojson-vt build ms | geojson-vt getTile ms |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for (n, c, b, t, nb, nt) in timings {
            print("| \(n) | \(c) | \(String(format: "%.1f", b)) | \(String(format: "%.1f", t)) | \(String(format: "%.1f", nb)) | \(String(format: "%.1f", nt)) |")
        }
    }
}

/// The script's supercluster options; `properties: "places"` are the render suite's
/// clusterProperties (max and sum of scalerank, any featureclass == island) as closures.
private func clusterOptions(_ o: JSONValue) throws -> SuperclusterOptions {
    guard let maxZoom = o["maxZoom"]?.numberValue, let minPoints = o["minPoints"]?.numberValue,
          let extent = o["extent"]?.numberValue, let radius = o["radius"]?.numberValue else { throw BenchError("bad cluster options") }
    var properties: [ClusterProperty] = []
    if o["properties"]?.stringValue == "places" {
        @Sendable func number(_ v: JSONValue?) -> Double { v?.numberValue ?? (v?.boolValue.map { $0 ? 1 : 0 } ?? 0) }
        properties = [
            ClusterProperty(name: "max", map: { $0["scalerank"] ?? .null },
                            reduce: { acc, p in .number(Swift.max(number(acc), number(p["max"]))) }),
            ClusterProperty(name: "sum", map: { $0["scalerank"] ?? .null },
                            reduce: { acc, p in .number(number(acc) + number(p["sum"])) }),
            ClusterProperty(name: "has_island", map: { .bool($0["featureclass"] == .string("island")) },
                            reduce: { acc, p in .bool(acc.boolValue == true || p["has_island"]?.boolValue == true) }),
        ]
    }
    return SuperclusterOptions(maxZoom: Int(maxZoom), minPoints: Int(minPoints), radius: radius, extent: Int(extent),
                               generateId: o["generateId"]?.boolValue ?? false, clusterProperties: properties)
}

/// geojson-vt's option object (as the script wrote it) as `GeoJSONTileOptions`, rewind off.
private func tileOptions(_ o: JSONValue?) throws -> GeoJSONTileOptions {
    guard let o else { throw BenchError("case without options") }
    func num(_ k: String) throws -> Double {
        guard let v = o[k]?.numberValue else { throw BenchError("case options lack \(k)") }
        return v
    }
    return GeoJSONTileOptions(maxZoom: Int(try num("maxZoom")), indexMaxZoom: Int(try num("indexMaxZoom")),
                              indexMaxPoints: Int(try num("indexMaxPoints")), tolerance: try num("tolerance"),
                              extent: Int(try num("extent")), buffer: try num("buffer"),
                              lineMetrics: o["lineMetrics"]?.boolValue ?? false,
                              generateId: o["generateId"]?.boolValue ?? false, rewind: false)
}

/// The script's canonical text of a tile: features as {t, id, tags, g} with object keys sorted,
/// points as geojson-vt lists them, non-finite numbers as null (as JSON.stringify writes them).
private func canonical(_ tile: GeoJSONTile?) -> String {
    guard let tile else { return "null" }
    var s = "["
    for (i, f) in tile.features.enumerated() {
        if i > 0 { s += "," }
        s += "{\"g\":"
        func point(_ p: GeoJSONTile.Point) -> String { "[\(p.x),\(p.y)]" }
        if f.type == .point {
            s += "[" + f.geometry.flatMap { $0 }.map(point).joined(separator: ",") + "]"
        } else {
            s += "[" + f.geometry.map { "[" + $0.map(point).joined(separator: ",") + "]" }.joined(separator: ",") + "]"
        }
        s += ",\"id\":" + canonical(f.id ?? .null)
        s += ",\"t\":" + (f.type == .point ? "1" : f.type == .lineString ? "2" : "3")
        s += ",\"tags\":" + canonical(.object(f.tags)) + "}"
    }
    return s + "]"
}

private func canonical(_ v: JSONValue) -> String {
    switch v {
    case .number(let n): return n.isFinite ? JSONValue.formatNumber(n) : "null"
    case .array(let a): return "[" + a.map(canonical).joined(separator: ",") + "]"
    case .object(let o):
        let keys = o.keys.sorted { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) }
        return "{" + keys.map { JSONValue.string($0).jsonText + ":" + canonical(o[$0]!) }.joined(separator: ",") + "}"
    default: return v.jsonText
    }
}
