// GLMapTestSupport — what the test targets share (a test-only target, not in the GLMap product).
//
// SharedData: where the read-only reference data sits (`../shared` next to the repository, never
// copied into it) and how its suites are found; OutsideTool: the Python, commands and processes
// tests drive, with the rule "skip with a clear message locally, fail when CI=true";
// CommandLineRun: `glmap` run in-process with captured streams; TestFolder: a temporary folder per
// test; SplitMix64: the seeded generator of randomised tests.
import Foundation
import GLMapTesting

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

    /// The render-test cases, found as `glmap test` finds them (empty when the suite is absent).
    public static let renderCases: [RenderTestCase] = {
        guard FileManager.default.fileExists(atPath: renderTests.appendingPathComponent("cases").path) else { return [] }
        return (try? RenderTestCase.discover(in: [renderTests.path])) ?? []
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
