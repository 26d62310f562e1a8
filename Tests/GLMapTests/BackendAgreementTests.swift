import Foundation
import XCTest
import GLMapCore
import GLMapPNG
@testable import GLMap

/// The GPU path (tessellation + shaders) against the independent CPU reference renderer, on every
/// MapLibre render case and every scene in ../shared/scenes (at 1024² and at ratio 2): the two must
/// agree within pixelmatch mismatch fraction ≤ 0.001 at threshold 0.1285. Cases where they are
/// known to disagree are listed with the reason in `BackendAgreement-known-differences.txt`.
final class BackendAgreementTests: XCTestCase {
    static let allowed = 0.001
    static let threshold = 0.1285
    static let knownFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("BackendAgreement-known-differences.txt")

    struct Outcome { let name: String; let fraction: Double; let meanDiff: Double; let maxDiff: Int }

    static func known() throws -> [String: String] {
        var out: [String: String] = [:]
        for line in try String(contentsOf: knownFile, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let p = line.split(separator: "\t", maxSplits: 1)
            out[String(p[0])] = p.count > 1 ? String(p[1]) : ""
        }
        return out
    }

    /// Renders a scene with both backends and compares (straight alpha, as in the PNG).
    static func compare(_ name: String, scene: Scene, options: RenderOptions, gpu: MapRenderer, cpu: MapRenderer,
                        writeTo dir: URL?) throws -> Outcome {
        let a = try gpu.render(scene, options: options).unpremultiplied()
        let b = try cpu.render(scene, options: options).unpremultiplied()
        var diff: StraightImage? = StraightImage(width: a.width, height: a.height)
        var opts = Pixelmatch.Options()
        opts.threshold = threshold
        let mismatches = try Pixelmatch.compare(a, b, options: opts, diff: &diff)
        var sum = 0, maxD = 0
        for i in 0..<a.pixels.count {
            let d = abs(Int(a.pixels[i]) - Int(b.pixels[i]))
            sum += d
            if d > maxD { maxD = d }
        }
        let fraction = Double(mismatches) / Double(a.width * a.height)
        if fraction > allowed, let dir {
            let d = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
            try PNGEncoder.write(a, to: d.appendingPathComponent("gpu.png").path)
            try PNGEncoder.write(b, to: d.appendingPathComponent("cpu.png").path)
            if let diff { try PNGEncoder.write(diff, to: d.appendingPathComponent("diff.png").path) }
        }
        return Outcome(name: name, fraction: fraction, meanDiff: Double(sum) / Double(a.pixels.count), maxDiff: maxD)
    }

    func check(_ outcomes: [Outcome], label: String, known: [String: String], dir: URL) {
        var unexpected: [String] = []
        for o in outcomes {
            let ok = o.fraction <= Self.allowed
            let tag = ok ? "agree" : (known[o.name] != nil ? "known difference" : "DISAGREE")
            print(String(format: "backend agreement: %@: %@ mismatch %.5f mean %.3f max %d", tag, o.name, o.fraction, o.meanDiff, o.maxDiff))
            if !ok && known[o.name] == nil { unexpected.append(o.name) }
        }
        let agreeing = outcomes.filter { $0.fraction <= Self.allowed }.count
        if agreeing < outcomes.count { print("backend agreement: images of disagreeing cases are in \(dir.path)") }
        print("backend agreement (\(label)): \(agreeing) passed, \(outcomes.count - agreeing) failed")
        XCTAssertTrue(unexpected.isEmpty, "GPU and CPU disagree on cases not in \(Self.knownFile.lastPathComponent): \(unexpected)")
    }

    func testRenderCasesAgree() throws {
        let root = RenderConformanceTests.casesRoot
        guard FileManager.default.fileExists(atPath: root.path) else { return XCTFail("render tests not found at \(root.path)") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-backend-agreement-\(ProcessInfo.processInfo.processIdentifier)")
        let gpu = MapRenderer(backend: .gpu), cpu = MapRenderer(backend: .cpu)
        var outcomes: [Outcome] = []
        for c in try RenderConformanceTests.loadCases() {
            let scene = try Scene(styleFile: c.dir.appendingPathComponent("style.json").path)
            outcomes.append(try Self.compare(c.name, scene: scene, options: RenderOptions(width: c.width, height: c.height, ratio: c.ratio),
                                             gpu: gpu, cpu: cpu, writeTo: dir))
        }
        check(outcomes, label: "render cases", known: try Self.known(), dir: dir)
    }

    func testScenesAgree() throws {
        let scenes = sharedDir.appendingPathComponent("scenes")
        guard FileManager.default.fileExists(atPath: scenes.path) else { return XCTFail("scenes not found at \(scenes.path)") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-backend-agreement-\(ProcessInfo.processInfo.processIdentifier)")
        let gpu = MapRenderer(backend: .gpu), cpu = MapRenderer(backend: .cpu)
        var outcomes: [Outcome] = []
        let styles = try FileManager.default.contentsOfDirectory(atPath: scenes.path).filter { $0.hasSuffix(".style.json") }.sorted()
        XCTAssertEqual(styles.count, 6)
        for s in styles {
            let scene = try Scene(styleFile: scenes.appendingPathComponent(s).path)
            let name = String(s.dropLast(".style.json".count))
            outcomes.append(try Self.compare("scenes/\(name)@1024", scene: scene, options: RenderOptions(width: 1024, height: 1024),
                                             gpu: gpu, cpu: cpu, writeTo: dir))
            outcomes.append(try Self.compare("scenes/\(name)@512x2", scene: scene, options: RenderOptions(width: 512, height: 512, ratio: 2),
                                             gpu: gpu, cpu: cpu, writeTo: dir))
        }
        check(outcomes, label: "scenes", known: try Self.known(), dir: dir)
    }
}
