// GLMapTestSupport — what the test targets share (a test-only target, not in the GLMap product).
//
// SharedData: where the read-only reference data sits (`../shared` next to the repository, never
// copied into it) and how its suites are found; OutsideTool: the Python, commands and processes
// tests drive, with the rule "skip with a clear message locally, fail when CI=true";
// CommandLineRun: `glmap` run in-process with captured streams; TestFolder: a temporary folder per
// test; SplitMix64: the seeded generator of randomised tests.
import Foundation
import GLMapTesting
import Testing
import XCTest

/// The repository and the read-only reference data in `../shared`.
public enum SharedData {
    /// The package root, found from this file's path so the working directory does not matter.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // GLMapTestSupport
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // the repository

    /// `<repo>/../shared`.
    public static let root: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// The README's example (`examples/multiple-geometries`).
    public static let examples: URL = packageRoot.appendingPathComponent("examples/multiple-geometries")

    /// The example's style.json.
    public static var exampleStyle: String { examples.appendingPathComponent("style.json").path }

    /// MapLibre's render tests: `$GLMAP_RENDER_TESTS`, else `../shared/render-tests`.
    public static var renderTests: URL {
        if let env = ProcessInfo.processInfo.environment["GLMAP_RENDER_TESTS"], !env.isEmpty { return URL(fileURLWithPath: env) }
        return root.appendingPathComponent("render-tests")
    }

    /// MapLibre GL JS's whole render suite: `$GLMAP_RENDER_SUITE`, else `../shared/render-suite`.
    public static var renderSuite: URL {
        if let env = ProcessInfo.processInfo.environment["GLMAP_RENDER_SUITE"], !env.isEmpty { return URL(fileURLWithPath: env) }
        return root.appendingPathComponent("render-suite")
    }

    /// `../shared/scenes`: real styles with their GeoJSON.
    public static var scenes: URL { root.appendingPathComponent("scenes") }

    /// `../shared/fixtures/earcut`: earcut's regression fixtures and expected.json.
    public static var earcutFixtures: URL { root.appendingPathComponent("fixtures/earcut") }

    /// `../shared/expression-tests`.
    public static var expressionTests: URL { root.appendingPathComponent("expression-tests") }

    /// The message for reference data that is not where it should be.
    public static func missing(_ what: String, at url: URL) -> String {
        "\(what) not found at \(url.path): the shared reference data must sit at ../shared next to the repository"
    }

    /// Skips the running test with the reason when `url` is absent (the reference data is not
    /// part of the repository); under `CI=true` the absence also fails it, so a green CI never
    /// hides a suite that did not run. Works in XCTest (`XCTSkip`) and Swift Testing (`Test.cancel`).
    public static func require(_ what: String, at url: URL, fileID: String = #fileID, filePath: StaticString = #filePath,
                               line: UInt = #line, column: Int = #column) throws {
        guard !FileManager.default.fileExists(atPath: url.path) else { return }
        let reason = missing(what, at: url) + "; skipped"
        if Test.current != nil {
            let sourceLocation = SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: column)
            if OutsideTool.inCI { Issue.record(Comment(rawValue: reason + " (CI=true: a failure)"), sourceLocation: sourceLocation) }
            try Test.cancel(Comment(rawValue: reason), sourceLocation: sourceLocation)
        }
        if OutsideTool.inCI { XCTFail(reason + " (CI=true: a failure)", file: filePath, line: line) }
        throw XCTSkip(reason)
    }

    /// The render-test cases, found as `glmap test` finds them (empty when the suite is absent).
    public static let renderCases: [RenderTestCase] = {
        guard FileManager.default.fileExists(atPath: renderTests.appendingPathComponent("cases").path) else { return [] }
        return (try? RenderTestCase.discover(in: [renderTests.path])) ?? []
    }()

    /// The render suite's cases, found as `glmap test` finds them (empty when the suite is absent).
    public static let renderSuiteCases: [RenderTestCase] = {
        guard FileManager.default.fileExists(atPath: renderSuite.appendingPathComponent("cases").path) else { return [] }
        return (try? RenderTestCase.discover(in: [renderSuite.path])) ?? []
    }()

    /// The scene styles (`NAME.style.json`) in `../shared/scenes`, sorted by name.
    public static var sceneNames: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: scenes.path)) ?? []
        return files.filter { $0.hasSuffix(".style.json") }.map { String($0.dropLast(".style.json".count)) }.sorted()
    }
}

extension RenderTestCase {
    /// The image size in device pixels (`width · pixelRatio` × `height · pixelRatio`).
    public var deviceSize: (width: Int, height: Int) {
        (Int((Double(width) * pixelRatio).rounded()), Int((Double(height) * pixelRatio).rounded()))
    }

    /// `expected.png` first, then the alternates (`expected-*.png`) sorted by name.
    public var expectedPNGs: [URL] {
        let images = expectedImages().map { URL(fileURLWithPath: $0) }
        return images.filter { $0.lastPathComponent == "expected.png" } + images.filter { $0.lastPathComponent != "expected.png" }
    }
}
