import Foundation
import XCTest
import GLMapCore
import GLMapPNG
@testable import GLMap
import GLMapTesting
import GLMapTestSupport

/// MapLibre's render tests drawn by the CPU reference renderer (`MapRenderer(backend: .cpu)`),
/// with the same cases and comparison as `RenderConformanceTests`. The reference is an oracle for
/// the GPU path rather than a MapLibre port, so no per-case list is kept: the test reports the
/// pass count per family and fails when it drops below `floor`.
final class ReferenceConformanceTests: XCTestCase {
    /// Cases the CPU reference renderer must pass (the count reached when this was last raised).
    static let floor = 182

    func testReferenceRenderConformance() throws {
        let cases = SharedData.renderCases
        guard !cases.isEmpty else { return XCTFail(SharedData.missing("render tests", at: SharedData.renderTests)) }
        let dir = RenderConformanceTests.outDir("reference-conformance")
        try? FileManager.default.removeItem(at: dir)
        let renderer = MapRenderer(backend: .cpu)
        let runner = RenderTestRunner(backend: renderer.backend, artifactsDirectory: dir.path, keepsPassingImages: false)
        var passed = 0, failed = 0
        var byFamily: [String: (pass: Int, total: Int)] = [:]
        for (i, c) in cases.enumerated() {
            let r = runner.run(c, renderer: renderer, index: i)
            let family = RenderConformanceTests.family(of: c.name)
            var f = byFamily[family] ?? (0, 0)
            f.total += 1
            if r.isPass { passed += 1; f.pass += 1 } else { failed += 1; print("reference render conformance: failed: \(c.name): \(r.message)") }
            byFamily[family] = f
        }
        for family in byFamily.keys.sorted() {
            let f = byFamily[family]!
            print("reference render conformance: family \(family): \(f.pass)/\(f.total)")
        }
        if failed > 0 { print("reference render conformance: actual.png and diff.png of each failure are in \(dir.path)") }
        print("reference render conformance: \(passed) passed, \(failed) failed")
        XCTAssertGreaterThanOrEqual(passed, Self.floor, "CPU reference pass count fell below the floor in \(#file)")
    }
}
