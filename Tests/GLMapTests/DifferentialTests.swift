import Foundation
import Testing
import GLMapCore
import GLMapPNG
@testable import GLMap
import GLMapTesting
import GLMapTestSupport

/// Differential testing against MapLibre Native: a fixed seeded set of random styles
/// (Benchmarks/differential/generate.py, seed 1, 300 cases of at most 256² device pixels), drawn
/// by MapLibre Native through pymgl (Benchmarks/differential/oracle.py) inside the test run and
/// cached under .build/differential-cache/ keyed by the generator's hash, then drawn by glmap
/// through the same path as `glmap render` and compared with the project's pixelmatch port under
/// the render tests' rule (threshold 0.1285, at most 0.00025 of the pixels differing).
///
/// One test per case: a case fails when it differs and is not listed in
/// Differential-known-failures.txt (each listed with its class). The floor test fails when the
/// number of agreeing cases drops below the floor written there. Without pymgl the suite is
/// skipped with a message, except under CI=true, where it fails.
@Suite("Differential against MapLibre Native", .serialized)
struct DifferentialTests {
    static let seed = 1
    static let count = 300
    static let maxSize = 256
    static let allowed = 0.00025
    static let loose = 0.002

    static let caseIDs: [String] = (0..<count).map { String(format: "s%d-%05d", seed, $0) }

    @Test("agrees with MapLibre Native", .enabled(if: DifferentialFixture.shared.runnable),
          arguments: DifferentialTests.caseIDs)
    func differentialCase(_ id: String) throws {
        try DifferentialFixture.shared.judge(id, label: "differential")
    }

    @Test("agreement stays at or above the floor", .enabled(if: DifferentialFixture.shared.runnable))
    func floor() throws {
        let fixture = DifferentialFixture.shared
        let root = try fixture.casesRoot()
        let known = try fixture.knownFailures()
        var within = 0, withinLoose = 0, compared = 0, noImage = 0
        var failing: [String] = []
        for id in Self.caseIDs {
            let dir = root.appendingPathComponent(id)
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("oracle-error.txt").path) {
                noImage += 1
                continue
            }
            compared += 1
            let outcome = fixture.measure(dir)
            if let f = outcome.fraction, f <= Self.allowed { within += 1 } else { failing.append(id) }
            if let f = outcome.fraction, f <= Self.loose { withinLoose += 1 }
        }
        print("differential: \(within)/\(compared) within \(Self.allowed), \(withinLoose)/\(compared) within \(Self.loose), "
              + "\(noImage) without a MapLibre Native image (seed \(Self.seed), \(Self.count) cases, generator \(fixture.generatorHash ?? "?"))")
        // A fresh list for Differential-known-failures.txt, next to the cache.
        let listing = failing.map { "\($0)\t\(known.cases[$0] ?? "unclassified")" }.joined(separator: "\n")
        try? Data((listing + "\n").utf8).write(to: root.appendingPathComponent("failing.txt"))
        #expect(known.generator == fixture.generatorHash,
                "Differential-known-failures.txt was measured with generator \(known.generator ?? "?"), the fixed set now comes from \(fixture.generatorHash ?? "?"): regenerate it (Benchmarks/README.md, Differential testing)")
        #expect(noImage == 0, "MapLibre Native drew no image for \(noImage) cases (see oracle-error.txt in \(root.path))")
        #expect(within >= known.floor,
                "\(within) cases agree, fewer than the floor of \(known.floor) in Differential-known-failures.txt; failing now: \(root.appendingPathComponent("failing.txt").path)")
    }
}

/// The drawn fixed set: generated and drawn by MapLibre Native once per generator hash.
final class DifferentialFixture: @unchecked Sendable {
    static let shared = DifferentialFixture(.geojson)

    /// Which seeded set: its generator script, size and rule.
    struct Configuration {
        var generator: String
        var seed: Int
        var count: Int
        var maxSize: Int
        /// Largest fraction of differing pixels a case may have.
        var allowed: Double
        var knownFailures: String
        /// Generate where the set is drawn (its styles name their tiles by absolute file:// URLs).
        var inPlace = false
        var cachePrefix = ""

        static let geojson = Configuration(generator: "generate.py", seed: DifferentialTests.seed, count: DifferentialTests.count,
                                           maxSize: DifferentialTests.maxSize, allowed: DifferentialTests.allowed,
                                           knownFailures: "Differential-known-failures.txt")
    }
    let config: Configuration

    let lock = NSLock()
    let scripts = SharedData.packageRoot.appendingPathComponent("Benchmarks/differential")
    let python: String?
    /// Why the suite cannot run here (no Python with pymgl), or nil.
    let unavailable: String?
    let generatorHash: String?
    private var prepared: Result<URL, Error>?

    var knownFailuresFile: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(config.knownFailures)
    }

    /// One case of the set: glmap against MapLibre Native's image under `config.allowed`. A case
    /// Native could not draw is reported (the generator only writes styles Native accepts, and the
    /// floor test counts it); a listed case that fails prints its reason; a listed case that
    /// agrees says so; any other failure fails the test.
    func judge(_ id: String, label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let root = try casesRoot()
        let known = try knownFailures()
        let dir = root.appendingPathComponent(id)
        if let why = try? String(contentsOf: dir.appendingPathComponent("oracle-error.txt"), encoding: .utf8) {
            print("\(label): \(id): no MapLibre Native image: \(why.trimmingCharacters(in: .whitespacesAndNewlines))")
            return
        }
        let outcome = measure(dir)
        let failing = outcome.fraction.map { $0 > config.allowed } ?? true
        if failing, let reason = known.cases[id] {
            print("\(label): \(id): known failure (\(reason)): \(outcome.summary)")
            return
        }
        if !failing, known.cases[id] != nil {
            print("\(label): \(id): now agrees (remove it from \(config.knownFailures))")
        }
        #expect(!failing, "\(id) differs from MapLibre Native: \(outcome.summary); case in \(dir.path)", sourceLocation: sourceLocation)
    }


    /// Runs when pymgl is there, and always under CI (where its absence is a failure).
    var runnable: Bool {
        guard let unavailable else { return true }
        if OutsideTool.inCI { return true }
        lock.lock(); defer { lock.unlock() }
        if !saidSkipped {
            saidSkipped = true
            print("differential: SKIPPED: \(unavailable) (run `bash .ci/install-deps`; under CI=true this fails)")
        }
        return false
    }
    private var saidSkipped = false

    init(_ config: Configuration) {
        self.config = config
        switch OutsideTool.findPython(importing: ["pymgl"]) {
        case .failure(let missing):
            python = nil
            generatorHash = nil
            unavailable = missing.reason
        case .success(let candidate):
            python = candidate
            let hash = Self.run(candidate, [scripts.appendingPathComponent(config.generator).path, "--hash"])
            generatorHash = hash.status == 0 ? hash.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil
            unavailable = generatorHash == nil ? "\(config.generator) --hash failed: \(hash.output.suffix(300))" : nil
        }
    }

    /// The cache folder with every case's style.json and expected.png, made on first use.
    func casesRoot() throws -> URL {
        lock.lock(); defer { lock.unlock() }
        if let prepared { return try prepared.get() }
        let result = Result { try prepare() }
        prepared = result
        return try result.get()
    }

    private func prepare() throws -> URL {
        if let unavailable { throw FixtureError(unavailable) }
        guard let python, let generatorHash else { throw FixtureError("no Python") }
        let cache = SharedData.packageRoot.appendingPathComponent(".build/differential-cache")
        let suffix = "-seed\(config.seed)-n\(config.count)-max\(config.maxSize)"
        let name = config.cachePrefix + generatorHash + suffix
        let root = cache.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: root.appendingPathComponent("complete").path) { return root }
        let building = config.inPlace ? root : cache.appendingPathComponent(name + ".building-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: building)
        try FileManager.default.createDirectory(at: building, withIntermediateDirectories: true)
        let gen = Self.run(python, [scripts.appendingPathComponent(config.generator).path, "--out", building.path,
                                    "--count", String(config.count), "--seed", String(config.seed),
                                    "--max-size", String(config.maxSize)])
        guard gen.status == 0 else { throw FixtureError("\(config.generator) failed (\(gen.status)): \(gen.output.suffix(500))") }
        let oracle = Self.run(python, [scripts.appendingPathComponent("oracle.py").path, building.path, "--jobs", "2"])
        guard oracle.status == 0 else { throw FixtureError("oracle.py failed (\(oracle.status)): \(oracle.output.suffix(500))") }
        print(oracle.output.trimmingCharacters(in: .whitespacesAndNewlines))
        try Data().write(to: building.appendingPathComponent("complete"))
        if !config.inPlace {
            try? FileManager.default.removeItem(at: root)
            try FileManager.default.moveItem(at: building, to: root)
        }
        // Sets drawn for earlier generator versions are dead weight: drop them.
        for old in (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []
        where old != name && old.hasSuffix(suffix) && old.hasPrefix(config.cachePrefix)
            && !(config.cachePrefix.isEmpty && old.hasPrefix(Configuration.tiles.cachePrefix)) {
            try? FileManager.default.removeItem(at: cache.appendingPathComponent(old))
        }
        return root
    }

    /// A case drawn by glmap and compared with expected.png.
    struct Outcome {
        let fraction: Double?
        let summary: String
    }

    func measure(_ dir: URL) -> Outcome {
        lock.lock(); defer { lock.unlock() }
        var c = RenderTestCase(name: dir.lastPathComponent, directory: dir.path)
        c.allowed = config.allowed
        // A GL context is current on one thread only, and Swift Testing moves tests between
        // threads: one renderer per thread.
        let key = "glmap.differential.renderer"
        let renderer = Thread.current.threadDictionary[key] as? MapRenderer ?? MapRenderer(backend: .gpu)
        Thread.current.threadDictionary[key] = renderer
        let result = RenderTestRunner(backend: .gpu).run(c, renderer: renderer)
        guard let difference = result.difference else {
            return Outcome(fraction: nil, summary: "glmap error: \(result.message)")
        }
        return Outcome(fraction: difference, summary: String(format: "%.5f of the pixels differ", difference))
    }

    /// Known failures (case → class), the pass-count floor and the generator hash the list was
    /// measured with (its `generator<TAB>HASH` line, which `KnownFailures` reads as an entry).
    func knownFailures() throws -> (cases: [String: String], floor: Int, generator: String?) {
        var list = try KnownFailures(contentsOf: knownFailuresFile.path)
        let generator = list.reasons.removeValue(forKey: "generator")
        return (list.reasons, list.floor, generator)
    }

    /// Runs a script with EGL surfaceless (pymgl's platform); stdout and stderr together.
    static func run(_ exe: String, _ args: [String]) -> (status: Int32, output: String) {
        var env = ProcessInfo.processInfo.environment
        env["EGL_PLATFORM"] = env["EGL_PLATFORM"] ?? "surfaceless"
        let r = OutsideTool.run(exe, args, environment: env, timeout: 3600)
        return (r.status, String(decoding: r.stdout, as: UTF8.self) + r.stderr)
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
