import Foundation
import Testing
import GLMapCore
@testable import GLMap
import GLMapTesting
import GLMapTestSupport

extension DifferentialFixture.Configuration {
    /// The tile-source set: Benchmarks/differential/generate_tiles.py, seed 1, 100 cases of at most
    /// 256² device pixels, vector sources (MVT as templates, MBTiles, TileJSON) and raster sources
    /// (generated PNG tiles); a case agrees at most 0.002 of its pixels differing (the issue's bar
    /// for this set), under the render tests' colour threshold.
    static let tiles = DifferentialFixture.Configuration(
        generator: "generate_tiles.py", seed: 1, count: 100, maxSize: 256, allowed: 0.002,
        knownFailures: "DifferentialTiles-known-failures.txt", inPlace: true, cachePrefix: "tiles-")
}

extension DifferentialFixture {
    static let tiles = DifferentialFixture(.tiles)
}

/// Differential testing of vector and raster tile sources against MapLibre Native: the styles of
/// generate.py over tiles that generate_tiles.py cuts from their GeoJSON (and raster tiles it
/// paints), drawn by MapLibre Native inside the run (cached under .build/differential-cache/
/// keyed by the generator's hash) and by glmap, compared with pixelmatch. One test per case: a
/// case fails when more than 0.002 of its pixels differ and it is not listed in
/// DifferentialTiles-known-failures.txt; the floor test fails when fewer cases agree than the
/// floor written there. Without pymgl the suite skips with a message, except under CI=true.
@Suite("Differential tile sources against MapLibre Native", .serialized)
struct DifferentialTileSourceTests {
    static var config: DifferentialFixture.Configuration { .tiles }
    static let caseIDs: [String] = (0..<DifferentialFixture.Configuration.tiles.count).map {
        String(format: "t%d-%05d", DifferentialFixture.Configuration.tiles.seed, $0)
    }

    @Test("agrees with MapLibre Native", .enabled(if: DifferentialFixture.tiles.runnable),
          arguments: DifferentialTileSourceTests.caseIDs)
    func tileCase(_ id: String) throws {
        try DifferentialFixture.tiles.judge(id, label: "differential tiles")
    }

    @Test("agreement stays at or above the floor", .enabled(if: DifferentialFixture.tiles.runnable))
    func floor() throws {
        let fixture = DifferentialFixture.tiles
        let root = try fixture.casesRoot()
        let known = try fixture.knownFailures()
        var within = 0, strict = 0, compared = 0, noImage = 0
        var byKind: [String: (within: Int, all: Int)] = [:]
        var failing: [String] = []
        for id in Self.caseIDs {
            let dir = root.appendingPathComponent(id)
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("oracle-error.txt").path) {
                noImage += 1
                continue
            }
            compared += 1
            let outcome = fixture.measure(dir)
            let ok = outcome.fraction.map { $0 <= Self.config.allowed } ?? false
            if ok { within += 1 } else { failing.append(id) }
            if let f = outcome.fraction, f <= DifferentialTests.allowed { strict += 1 }
            let style = (try? String(contentsOf: dir.appendingPathComponent("style.json"), encoding: .utf8)) ?? ""
            let kind = style.contains("\"source:raster\"") ? (style.contains("\"source:vector\"") ? "vector+raster" : "raster") : "vector"
            byKind[kind, default: (0, 0)].all += 1
            if ok { byKind[kind, default: (0, 0)].within += 1 }
        }
        let kinds = byKind.keys.sorted().map { "\($0) \(byKind[$0]!.within)/\(byKind[$0]!.all)" }.joined(separator: ", ")
        print("differential tiles: \(within)/\(compared) within \(Self.config.allowed) (\(kinds)), \(strict)/\(compared) within \(DifferentialTests.allowed), "
              + "\(noImage) without a MapLibre Native image (seed \(Self.config.seed), \(Self.config.count) cases, generator \(fixture.generatorHash ?? "?"))")
        let listing = failing.map { "\($0)\t\(known.cases[$0] ?? "unclassified")" }.joined(separator: "\n")
        try? Data((listing + "\n").utf8).write(to: root.appendingPathComponent("failing.txt"))
        #expect(known.generator == fixture.generatorHash,
                "DifferentialTiles-known-failures.txt was measured with generator \(known.generator ?? "?"), the set now comes from \(fixture.generatorHash ?? "?"): regenerate it (Benchmarks/README.md, Differential testing)")
        #expect(noImage == 0, "MapLibre Native drew no image for \(noImage) cases (see oracle-error.txt in \(root.path))")
        #expect(within >= known.floor,
                "\(within) cases agree, fewer than the floor of \(known.floor) in DifferentialTiles-known-failures.txt; failing now: \(root.appendingPathComponent("failing.txt").path)")
    }
}
