import Foundation
import Testing
import GLMapCore
import GLMapPNG
import GLMapTesting
import GLMapTestSupport
@testable import GLMap

/// The GPU path (tessellation + shaders) against the independent CPU reference renderer, on every
/// MapLibre render case, every raster-like case of the render suite (raster, hillshade and
/// color-relief layers, drawn through the harness) and every scene in ../shared/scenes (at 1024²
/// and at ratio 2): the two must
/// agree within pixelmatch mismatch fraction ≤ 0.001 at threshold 0.1285. Cases where they are
/// known to disagree are listed with the reason in `BackendAgreement-known-differences.txt` (read
/// by GLMapTesting's `KnownFailures`, with the agreeing count's floor). Each case is its own test
/// case, so one disagreement hides no other.
@Suite struct BackendAgreementTests {
    static let allowed = 0.001
    static let threshold = 0.1285
    static let knownFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("BackendAgreement-known-differences.txt")
    /// Where the images of a disagreeing case go (gpu.png, cpu.png, diff.png).
    static let imagesDir = FileManager.default.temporaryDirectory
        .appendingPathComponent("glmap-backend-agreement-\(ProcessInfo.processInfo.processIdentifier)")

    struct Outcome: Sendable { let name: String; let fraction: Double; let meanDiff: Double; let maxDiff: Int }

    /// A scene of ../shared/scenes at one size.
    struct SceneFrame: Sendable, CustomTestStringConvertible {
        let scene: String
        let label: String
        let options: RenderOptions
        var name: String { "scenes/\(scene)@\(label)" }
        var testDescription: String { name }
    }

    static let sceneFrames: [SceneFrame] = SharedData.sceneNames.flatMap { s in
        [SceneFrame(scene: s, label: "1024", options: RenderOptions(width: 1024, height: 1024)),
         SceneFrame(scene: s, label: "512x2", options: RenderOptions(width: 512, height: 512, ratio: 2))]
    }

    /// Every render case drawn by both backends, compared once (on one thread, one renderer each);
    /// the first test to need it waits for it.
    static let renderCaseOutcomes: [String: Result<Outcome, RenderFailure>] = {
        let gpu = MapRenderer(backend: .gpu), cpu = MapRenderer(backend: .cpu)
        var out: [String: Result<Outcome, RenderFailure>] = [:]
        for c in SharedData.renderCases {
            out[c.name] = Result {
                let scene = try Scene(styleFile: c.styleFile)
                return try compare(c.name, scene: scene, options: RenderOptions(width: c.width, height: c.height, ratio: c.pixelRatio),
                                   gpu: gpu, cpu: cpu)
            }.mapError { RenderFailure(message: "\(c.name): \($0)") }
        }
        return out
    }()

    struct RenderFailure: Error, CustomStringConvertible { let message: String; var description: String { message } }

    /// Renders a scene with both backends and compares (straight alpha, as in the PNG); writes the
    /// images of a disagreement to `imagesDir`.
    static func compare(_ name: String, scene: Scene, options: RenderOptions, gpu: MapRenderer, cpu: MapRenderer) throws -> Outcome {
        try compare(name, gpu.render(scene, options: options).unpremultiplied(), cpu.render(scene, options: options).unpremultiplied())
    }

    /// Compares a GPU image `a` with a CPU image `b` (straight alpha); writes the images of a
    /// disagreement to `imagesDir`.
    static func compare(_ name: String, _ a: StraightImage, _ b: StraightImage) throws -> Outcome {
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
        if fraction > allowed {
            let d = imagesDir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
            try PNGEncoder.write(a, to: d.appendingPathComponent("gpu.png").path)
            try PNGEncoder.write(b, to: d.appendingPathComponent("cpu.png").path)
            if let diff { try PNGEncoder.write(diff, to: d.appendingPathComponent("diff.png").path) }
        }
        return Outcome(name: name, fraction: fraction, meanDiff: Double(sum) / Double(a.pixels.count), maxDiff: maxD)
    }

    /// One outcome's verdict: agreement, or a listed difference (a known issue), or a failure.
    static func judge(_ o: Outcome, known: KnownFailures, knownFile: URL = BackendAgreementTests.knownFile) {
        let ok = o.fraction <= allowed
        let reason = known.reasons[o.name]
        let tag = ok ? "agree" : (reason != nil ? "known difference" : "DISAGREE")
        print(String(format: "backend agreement: %@: %@ mismatch %.5f mean %.3f max %d", tag, o.name, o.fraction, o.meanDiff, o.maxDiff))
        let detail = String(format: "%@: mismatch %.5f > %.3f (images in %@)", o.name, o.fraction, allowed, imagesDir.appendingPathComponent(o.name).path)
        if ok {
            if reason != nil { print("backend agreement: now agrees (remove it from \(knownFile.lastPathComponent)): \(o.name)") }
        } else if let reason {
            withKnownIssue("\(reason)") { Issue.record("\(detail)") }
        } else {
            Issue.record("GPU and CPU disagree on a case not in \(knownFile.lastPathComponent): \(detail)")
        }
    }

    @Test func suitesArePresent() throws {
        try SharedData.require("render tests", at: SharedData.renderTests.appendingPathComponent("cases"))
        try SharedData.require("the six scenes", at: SharedData.scenes)
        #expect(!SharedData.renderCases.isEmpty, "\(SharedData.missing("render tests", at: SharedData.renderTests))")
        #expect(SharedData.sceneNames.count == 6, "\(SharedData.missing("the six scenes", at: SharedData.scenes))")
    }

    @Test("render case: GPU agrees with the CPU reference", arguments: SharedData.renderCases)
    func renderCase(_ c: RenderTestCase) throws {
        let known = try KnownFailures(contentsOf: Self.knownFile.path)
        let outcome = try #require(Self.renderCaseOutcomes[c.name]).get()
        Self.judge(outcome, known: known)
    }

    @Test func renderCasesHoldTheFloor() throws {
        try SharedData.require("render tests", at: SharedData.renderTests.appendingPathComponent("cases"))
        let known = try KnownFailures(contentsOf: Self.knownFile.path)
        let outcomes = Self.renderCaseOutcomes.values.compactMap { try? $0.get() }
        let agreeing = outcomes.filter { $0.fraction <= Self.allowed }.count
        if agreeing < Self.renderCaseOutcomes.count { print("backend agreement: images of disagreeing cases are in \(Self.imagesDir.path)") }
        print("backend agreement (render cases): \(agreeing) passed, \(Self.renderCaseOutcomes.count - agreeing) failed")
        #expect(agreeing >= known.floor, "\(agreeing) render cases agree, fewer than the floor \(known.floor) in \(Self.knownFile.lastPathComponent)")
    }

    /// The render suite's raster-like cases: a raster, hillshade or color-relief layer over raster,
    /// raster-dem or image sources, needing nothing else the manifest names but runtime operations.
    static let rasterSuiteCases: [RenderTestCase] = {
        guard let first = SharedData.renderSuiteCases.first,
              let manifest = try? RenderSuite.manifest(assetRoot: first.assetRoot) else { return [] }
        let layers: Set = ["layer:raster", "layer:hillshade", "layer:color-relief"]
        let allowed: Set = layers.union(["source:raster", "source:raster-dem", "source:image", "operations"])
        return SharedData.renderSuiteCases.filter { c in
            guard let needs = manifest[c.name]?.needs else { return false }
            return needs.contains(where: layers.contains) && needs.allSatisfy(allowed.contains)
        }
    }()

    /// Every raster-like suite case drawn through the harness (URLs localized, operations applied)
    /// by both backends, compared once.
    static let rasterSuiteOutcomes: [String: Result<Outcome, RenderFailure>] = {
        let gpu = MapRenderer(backend: .gpu), cpu = MapRenderer(backend: .cpu)
        var out: [String: Result<Outcome, RenderFailure>] = [:]
        for c in rasterSuiteCases {
            let name = "render-suite/" + c.name
            out[name] = Result {
                let a = try RenderTestSession.draw(c, renderer: gpu).image
                let b = try RenderTestSession.draw(c, renderer: cpu).image
                return try compare(name, a, b)
            }.mapError { RenderFailure(message: "\(name): \($0)") }
        }
        return out
    }()

    @Test("render suite raster case: GPU agrees with the CPU reference", arguments: BackendAgreementTests.rasterSuiteCases)
    func rasterSuiteCase(_ c: RenderTestCase) throws {
        let known = try KnownFailures(contentsOf: Self.knownFile.path)
        let outcome = try #require(Self.rasterSuiteOutcomes["render-suite/" + c.name]).get()
        Self.judge(outcome, known: known)
    }

    @Test func rasterSuiteCasesAreThere() throws {
        try SharedData.require("the render suite", at: SharedData.renderSuite.appendingPathComponent("cases"))
        // raster 51, hillshade 25, image 14, color-relief 3 and their mixtures, runtime operations on them
        #expect(Self.rasterSuiteCases.count >= 100, "\(Self.rasterSuiteCases.count) raster-like cases found")
        let agreeing = Self.rasterSuiteOutcomes.values.compactMap { try? $0.get() }.filter { $0.fraction <= Self.allowed }.count
        print("backend agreement (render suite raster cases): \(agreeing) of \(Self.rasterSuiteOutcomes.count) agree")
    }

    @Test("scene: GPU agrees with the CPU reference", arguments: BackendAgreementTests.sceneFrames)
    func sceneAgrees(_ frame: SceneFrame) throws {
        let known = try KnownFailures(contentsOf: Self.knownFile.path)
        let scene = try Scene(styleFile: SharedData.scenes.appendingPathComponent("\(frame.scene).style.json").path)
        let outcome = try Self.compare(frame.name, scene: scene, options: frame.options,
                                       gpu: MapRenderer(backend: .gpu), cpu: MapRenderer(backend: .cpu))
        Self.judge(outcome, known: known)
    }
}
