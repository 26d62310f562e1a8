import Foundation
import XCTest
import GLMapCore
import GLMapPNG
@testable import GLMap

/// MapLibre's render tests drawn by the CPU reference renderer (`MapRenderer(backend: .cpu)`),
/// with the same cases and comparison as `RenderConformanceTests`. The reference is an oracle for
/// the GPU path rather than a MapLibre port, so no per-case list is kept: the test reports the
/// pass count per family and fails when it drops below `floor`.
final class ReferenceConformanceTests: XCTestCase {
    /// Cases the CPU reference renderer must pass (the count reached when this was last raised).
    static let floor = 182

    func testReferenceRenderConformance() throws {
        let root = RenderConformanceTests.casesRoot
        guard FileManager.default.fileExists(atPath: root.path) else {
            return XCTFail("render tests not found at \(root.path) (set GLMAP_RENDER_TESTS or provide ../shared/render-tests)")
        }
        let cases = try RenderConformanceTests.loadCases()
        XCTAssertGreaterThan(cases.count, 0, "no cases under \(root.path)")
        let run = RenderConformanceTests.runCases(cases, renderer: MapRenderer(backend: .cpu), label: "reference-conformance")
        for (name, reason) in run.failed { print("reference render conformance: failed: \(name): \(reason)") }
        for family in run.byFamily.keys.sorted() {
            let f = run.byFamily[family]!
            print("reference render conformance: family \(family): \(f.pass)/\(f.total)")
        }
        if !run.failed.isEmpty { print("reference render conformance: actual.png and diff.png of each failure are in \(run.outDir.path)") }
        print("reference render conformance: \(run.passed.count) passed, \(run.failed.count) failed")
        let passed = run.passed.count
        XCTAssertGreaterThanOrEqual(passed, Self.floor, "CPU reference pass count fell below the floor in \(#file)")
    }
}
