// Line tessellation benchmark.
// Input: scenes/data/helsinki.geojson (its LineString features, open lines) and
// scenes/data/us_states.geojson (every polygon ring, closed), projected to CSS px at the zoom of
// each scene's style, relative to the first point. Output: one line per dataset and join/cap
// setting with output vertices/s and input vertices/s, timed over repeated runs that reuse the
// output buffers (the first, allocating run is reported separately as "cold"). Rates use the
// best thread CPU time of a run, which a shared machine disturbs least; wall times are printed too.
// Usage: glmap-bench lines [--scenes DIR] [--seconds S]   (DIR defaults to ../shared/scenes)

import Foundation
import GLMapCore
import GLMapTessellation

/// Runs the line tessellation benchmark (`args` are the arguments after the subcommand name).
func runLineBenchmark(_ args: [String]) throws {
    var scenes = "../shared/scenes"
    var seconds = 1.0
    var i = 0
    while i < args.count {
        switch args[i] {
        case "--scenes" where i + 1 < args.count:
            scenes = args[i + 1]
            i += 2
        case "--seconds" where i + 1 < args.count:
            guard let s = Double(args[i + 1]), s > 0 else {
                throw InputFailure("--seconds expects a positive number, got '\(args[i + 1])'")
            }
            seconds = s
            i += 2
        default:
            throw InputFailure("lines benchmark: unknown or incomplete argument '\(args[i])' "
                + "(usage: lines [--scenes DIR] [--seconds S])")
        }
    }

    let datasets = [
        try LineBenchmarkData.load(scenes: scenes, name: "helsinki", rings: false),
        try LineBenchmarkData.load(scenes: scenes, name: "us_states", rings: true),
    ]
    let settings: [(LineJoin, LineCap)] = [(.miter, .butt), (.bevel, .butt), (.round, .round)]
    print("line tessellation (seconds per setting: \(seconds))")
    for data in datasets {
        print("  \(data.name): \(data.lineCount) \(data.closed ? "rings" : "lines"), "
            + "\(data.inputVertexCount) input vertices, zoom \(data.zoom)")
        for (join, cap) in settings {
            let r = data.measure(join: join, cap: cap, seconds: seconds)
            let outRate = Double(r.outputVertices) / r.bestSeconds
            let inRate = Double(data.inputVertexCount) / r.bestSeconds
            print("    \(join.specName)/\(cap.specName): \(r.outputVertices) vertices, \(r.triangles) triangles; "
                + String(format: "%.1f M output vertices/s, %.1f M input vertices/s ", outRate / 1e6, inRate / 1e6)
                + String(format: "(best of %d runs: %.2f ms thread CPU, %.2f ms wall; mean wall %.2f ms; cold %.2f ms)",
                         r.runs, r.bestSeconds * 1e3, r.bestWallSeconds * 1e3, r.meanSeconds * 1e3,
                         r.coldSeconds * 1e3))
        }
    }
}

/// The polylines of one scene, projected and flattened for the tessellator.
struct LineBenchmarkData {
    var name: String
    var zoom: Double
    var closed: Bool
    /// Interleaved x, y of every line, back to back; `starts` has one offset per line plus the end.
    var coordinates: [Double] = []
    var starts: [Int] = [0]

    var lineCount: Int { starts.count - 1 }
    var inputVertexCount: Int { coordinates.count / 2 }

    struct Result {
        var outputVertices = 0
        var triangles = 0
        var runs = 0
        /// Best thread CPU time of one run (robust on a shared machine); rates use it.
        var bestSeconds = Double.infinity
        var bestWallSeconds = Double.infinity
        var meanSeconds = 0.0
        var coldSeconds = 0.0
    }

    /// Reads `<scenes>/data/<name>.geojson` and the zoom of `<scenes>/<name>.style.json`.
    static func load(scenes: String, name: String, rings: Bool) throws -> LineBenchmarkData {
        let style = try readJSON("\(scenes)/\(name).style.json")
        guard let zoom = style["zoom"]?.numberValue else {
            throw InputFailure("\(scenes)/\(name).style.json: expected a number at \"zoom\"")
        }
        let path = "\(scenes)/data/\(name).geojson"
        guard let features = try readJSON(path)["features"]?.arrayValue else {
            throw InputFailure("\(path): expected an array at \"features\"")
        }
        var data = LineBenchmarkData(name: name, zoom: zoom, closed: rings)
        let scale = WebMercator.worldSize(zoom: zoom)
        var origin: (Double, Double)?
        func addLine(_ positions: [JSONValue]) {
            for p in positions {
                guard let a = p.arrayValue, a.count >= 2, let lon = a[0].numberValue, let lat = a[1].numberValue
                else { continue }
                let w = WebMercator.project(lon: lon, lat: lat)
                let o = origin ?? (w.x * scale, w.y * scale)
                origin = o
                data.coordinates.append(w.x * scale - o.0)
                data.coordinates.append(w.y * scale - o.1)
            }
            data.starts.append(data.coordinates.count)
        }
        for feature in features {
            guard let geometry = feature["geometry"], let type = geometry["type"]?.stringValue,
                  let coords = geometry["coordinates"]?.arrayValue else { continue }
            switch (type, rings) {
            case ("LineString", false): addLine(coords)
            case ("MultiLineString", false): coords.forEach { addLine($0.arrayValue ?? []) }
            case ("Polygon", true): coords.forEach { addLine($0.arrayValue ?? []) }
            case ("MultiPolygon", true):
                for polygon in coords { (polygon.arrayValue ?? []).forEach { addLine($0.arrayValue ?? []) } }
            default: continue
            }
        }
        guard data.lineCount > 0 else {
            throw InputFailure("\(path): no \(rings ? "polygon rings" : "LineString features") to tessellate")
        }
        return data
    }

    private static func readJSON(_ path: String) throws -> JSONValue {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw IOFailure(path: path, message: "cannot read the file (pass --scenes DIR to point at shared/scenes)")
        }
        do {
            return try JSONParser.parse([UInt8](bytes))
        } catch let e as JSONSyntaxError {
            throw InputFailure("\(path):\(e.line):\(e.column): \(e.message)")
        }
    }

    /// Tessellates every line repeatedly for at least `seconds` (after one cold run).
    func measure(join: LineJoin, cap: LineCap, seconds: Double) -> Result {
        var tessellator = LineTessellator(join: join, cap: cap, pixelsPerUnit: 1)
        var geometry = LineGeometry()
        var result = Result()
        let clock = ContinuousClock()
        var lastCPU = 0.0
        func run() -> Double {
            geometry.removeAll(keepingCapacity: true)
            let cpuStart = threadCPUSeconds()
            let start = clock.now
            coordinates.withUnsafeBufferPointer { all in
                for k in 0..<lineCount {
                    let slice = UnsafeBufferPointer(rebasing: all[starts[k]..<starts[k + 1]])
                    tessellator.append(slice, closed: closed, into: &geometry)
                }
            }
            let d = clock.now - start
            lastCPU = threadCPUSeconds() - cpuStart
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
        result.coldSeconds = run()
        result.outputVertices = geometry.vertices.count
        result.triangles = geometry.triangleCount
        var total = 0.0
        while total < seconds || result.runs < 3 {
            let t = run()
            total += t
            result.runs += 1
            result.bestWallSeconds = min(result.bestWallSeconds, t)
            result.bestSeconds = min(result.bestSeconds, lastCPU)
        }
        result.meanSeconds = total / Double(result.runs)
        return result
    }
}
