import Foundation
import GLMap
import GLMapCore
import GLMapPNG
import GLMapTesting
import GLMapTessellation

/// `glmap-bench differential --cases DIR [--out FILE.tsv] [--save DIR | --save-all DIR] [--backend gpu|cpu]`
/// Draws every DIR/<case>/style.json that has MapLibre Native's expected.png (see
/// Benchmarks/differential) through the library path `glmap render` uses, compares with the
/// project's pixelmatch port under the render tests' rule (threshold 0.1285 unless the case sets
/// one) and writes one TSV row per case: id, status (ok, glmap-error, oracle-error), mismatch
/// fraction, message. --save keeps actual.png and diff.png of each case over 0.00025, --save-all
/// of every case (the second-opinion step of Benchmarks/differential needs glmap's images).
/// Prints the agreement at 0.00025 and 0.002 at the end.
func runDifferentialBenchmark(_ args: [String]) throws {
    let a = try BenchArgs(args)
    let root = URL(fileURLWithPath: try a.string("cases"))
    let saveAll = a.values["save-all"] != nil
    let save = (a.values["save-all"] ?? a.values["save"]).map { URL(fileURLWithPath: $0) }
    let backend: Backend = a.values["backend"] == "cpu" ? .cpu : .gpu
    let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        .filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).appendingPathComponent("style.json").path) }
    let renderer = MapRenderer(backend: backend)
    var rows: [String] = []
    var compared = 0, within1 = 0, within2 = 0, glmapErrors = 0, oracleErrors = 0
    for name in names {
        let dir = root.appendingPathComponent(name)
        let expectedPath = dir.appendingPathComponent("expected.png").path
        guard FileManager.default.fileExists(atPath: expectedPath) else {
            let why = (try? String(contentsOf: dir.appendingPathComponent("oracle-error.txt"), encoding: .utf8)) ?? "no expected.png"
            rows.append("\(name)\toracle-error\t\t\(oneLine(why))")
            oracleErrors += 1
            continue
        }
        do {
            let result = try DifferentialCase.compare(dir: dir, renderer: renderer)
            compared += 1
            if result.fraction <= 0.00025 { within1 += 1 }
            if result.fraction <= 0.002 { within2 += 1 }
            rows.append("\(name)\tok\t\(String(format: "%.6f", result.fraction))\t")
            if let save, saveAll || result.fraction > 0.00025 {
                let out = save.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
                try PNGEncoder.write(result.actual, to: out.appendingPathComponent("actual.png").path)
                try PNGEncoder.write(result.diff, to: out.appendingPathComponent("diff.png").path)
            }
        } catch {
            compared += 1
            glmapErrors += 1
            rows.append("\(name)\tglmap-error\t1\t\(oneLine("\(error)"))")
        }
    }
    let table = "id\tstatus\tfraction\tmessage\n" + rows.joined(separator: "\n") + "\n"
    if let out = a.values["out"] {
        try Data(table.utf8).write(to: URL(fileURLWithPath: out))
    } else {
        print(table, terminator: "")
    }
    func pct(_ n: Int) -> String { compared == 0 ? "n/a" : String(format: "%.1f %%", 100 * Double(n) / Double(compared)) }
    print("differential: \(compared) cases compared (\(oracleErrors) without a MapLibre Native image, \(glmapErrors) glmap errors)")
    print("differential: within 0.00025: \(within1)/\(compared) (\(pct(within1)))")
    print("differential: within 0.002:   \(within2)/\(compared) (\(pct(within2)))")
}

private func oneLine(_ s: String) -> String {
    s.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
}

/// One differential case: render it as `glmap render` would and compare with expected.png.
enum DifferentialCase {
    struct Result {
        let fraction: Double
        let actual: StraightImage
        let diff: StraightImage
    }

    static func compare(dir: URL, renderer: MapRenderer) throws -> Result {
        let stylePath = dir.appendingPathComponent("style.json").path
        let json = try JSONParser.parse([UInt8](Data(contentsOf: URL(fileURLWithPath: stylePath))))
        let t = json["metadata"]?["test"]
        let width = Int(t?["width"]?.numberValue ?? 512), height = Int(t?["height"]?.numberValue ?? 512)
        let ratio = t?["pixelRatio"]?.numberValue ?? 1
        var options = Pixelmatch.Options()
        options.threshold = t?["threshold"]?.numberValue ?? 0.1285
        let scene = try Scene(styleFile: stylePath)
        let actual = try renderer.render(scene, options: RenderOptions(width: width, height: height, ratio: ratio)).unpremultiplied()
        let expected = try PNGDecoder.decode(contentsOf: dir.appendingPathComponent("expected.png").path)
        guard expected.width == actual.width, expected.height == actual.height else {
            throw BenchError("size \(actual.width)x\(actual.height) differs from expected.png \(expected.width)x\(expected.height)")
        }
        var diff: StraightImage? = StraightImage(width: actual.width, height: actual.height)
        let mismatches = try Pixelmatch.compare(actual, expected, options: options, diff: &diff)
        return Result(fraction: Double(mismatches) / Double(actual.width * actual.height), actual: actual, diff: diff!)
    }
}
