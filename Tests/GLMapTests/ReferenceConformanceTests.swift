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
    static let floor = 178

    func testReferenceRenderConformance() throws {
        let root = RenderConformanceTests.casesRoot
        guard FileManager.default.fileExists(atPath: root.path) else {
            return XCTFail("render tests not found at \(root.path) (set GLMAP_RENDER_TESTS or provide ../shared/render-tests)")
        }
        let cases = try RenderConformanceTests.loadCases()
        XCTAssertGreaterThan(cases.count, 0, "no cases under \(root.path)")
        let outDir = FileManager.default.temporaryDirectory
            .appendingPathComponent("glmap-reference-conformance-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: outDir)
        let renderer = MapRenderer(backend: .cpu)
        var passed = 0, failed = 0
        var byFamily: [String: (pass: Int, total: Int)] = [:]
        for c in cases {
            var reason: String?
            do {
                let actual = try RenderConformanceTests.render(c, renderer: renderer)
                let (difference, diff) = try RenderConformanceTests.compare(actual, c)
                if difference > c.allowed {
                    reason = String(format: "difference %.5f > allowed %.5f", difference, c.allowed)
                    let dir = outDir.appendingPathComponent(c.name)
                    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                    try PNGEncoder.write(actual, to: dir.appendingPathComponent("actual.png").path)
                    if let diff { try PNGEncoder.write(diff, to: dir.appendingPathComponent("diff.png").path) }
                }
            } catch {
                reason = "error: \(error)"
            }
            let family = RenderConformanceTests.family(of: c.name)
            var f = byFamily[family] ?? (0, 0)
            f.total += 1
            if let reason {
                failed += 1
                print("reference render conformance: failed: \(c.name): \(reason)")
            } else {
                passed += 1
                f.pass += 1
            }
            byFamily[family] = f
        }
        for family in byFamily.keys.sorted() {
            let f = byFamily[family]!
            print("reference render conformance: family \(family): \(f.pass)/\(f.total)")
        }
        if failed > 0 { print("reference render conformance: actual.png and diff.png of each failure are in \(outDir.path)") }
        print("reference render conformance: \(passed) passed, \(failed) failed")
        XCTAssertGreaterThanOrEqual(passed, Self.floor, "CPU reference pass count fell below the floor in \(#file)")
    }
}
