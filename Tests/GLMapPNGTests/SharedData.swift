import Foundation
import XCTest

/// The read-only reference data in `../shared` (relative to the repository root).
enum SharedData {
    /// `<repo>/../shared`, found from this file's path so the working directory does not matter.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // GLMapPNGTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // repository root
        .appendingPathComponent("../shared").standardizedFileURL

    /// One line of `render-tests/manifest.tsv`.
    struct RenderCase {
        var name: String
        var directory: URL
        /// Image size in device pixels (`width * pixelRatio`).
        var width: Int
        var height: Int
        /// The case's pixelmatch threshold (manifest default 0.1285 filled in).
        var threshold: Double
        /// `expected.png` first, then any alternates, sorted.
        var expectedPNGs: [URL]
    }

    /// The render-test cases, or a test failure with a clear message when `../shared` is absent.
    static func renderCases(file: StaticString = #filePath, line: UInt = #line) -> [RenderCase] {
        let base = root.appendingPathComponent("render-tests")
        let manifest = base.appendingPathComponent("manifest.tsv")
        guard let text = try? String(contentsOf: manifest, encoding: .utf8) else {
            let message = "render-tests not found: \(manifest.path) is missing; the shared reference data must sit at ../shared next to the repository"
            print("error: \(message)")
            XCTFail(message, file: file, line: line)
            return []
        }
        var cases: [RenderCase] = []
        let lines = text.split(separator: "\n")
        guard let header = lines.first?.split(separator: "\t").map(String.init),
              let ci = header.firstIndex(of: "case"), let wi = header.firstIndex(of: "width"),
              let hi = header.firstIndex(of: "height"), let ri = header.firstIndex(of: "pixelRatio"),
              let ti = header.firstIndex(of: "threshold") else {
            XCTFail("manifest.tsv has no case/width/height/pixelRatio/threshold header", file: file, line: line)
            return []
        }
        for row in lines.dropFirst() {
            let cols = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count > max(ci, wi, hi, ri, ti), let w = Int(cols[wi]), let h = Int(cols[hi]),
                  let ratio = Double(cols[ri]), let threshold = Double(cols[ti]) else {
                XCTFail("bad manifest line: \(row)", file: file, line: line)
                continue
            }
            let dir = base.appendingPathComponent("cases").appendingPathComponent(cols[ci])
            let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            let expected = files.filter { $0.hasPrefix("expected") && $0.hasSuffix(".png") }
                .sorted { ($0 == "expected.png" ? "" : $0) < ($1 == "expected.png" ? "" : $1) }
                .map { dir.appendingPathComponent($0) }
            cases.append(RenderCase(name: cols[ci], directory: dir, width: Int((Double(w) * ratio).rounded()),
                                    height: Int((Double(h) * ratio).rounded()), threshold: threshold,
                                    expectedPNGs: expected))
        }
        return cases
    }
}
