import Foundation
import GLMap
import GLMapFuzzing
import GLMapCore
import XCTest

/// Runs every input in Tests/FuzzRegressions/<target>/ (crashes found by fuzzing, and hand-made
/// nasty inputs) through the matching `FuzzEntryPoints` function: each must return or throw a
/// typed error. A trap fails the whole run, which is the point.
final class FuzzRegressionTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("FuzzRegressions")

    func testGeoJSONRegressions() throws { try run("geojson", FuzzEntryPoints.geojson) }
    func testStyleRegressions() throws { try run("style", FuzzEntryPoints.style) }
    func testExpressionRegressions() throws { try run("expression", FuzzEntryPoints.expression) }
    func testTessellateRegressions() throws { try run("tessellate", FuzzEntryPoints.tessellate) }
    func testCommandLineRegressions() throws { try run("cli", FuzzEntryPoints.commandLine) }
    func testGlyphPBFRegressions() throws { try run("glyphs", FuzzEntryPoints.glyphPBF) }
    func testVectorTileRegressions() throws { try run("mvt", FuzzEntryPoints.vectorTile) }

    func run(_ target: String, _ entry: ([UInt8]) throws -> Void) throws {
        let dir = Self.folder.appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?
            .filter { !$0.hasPrefix(".") }.sorted() ?? []
        guard !names.isEmpty else {
            return XCTFail("\(dir.path) is missing or empty; it is part of the repository and holds the fuzz regression inputs")
        }
        var returned = 0, typedErrors = 0
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: dir.appendingPathComponent(name)))
            let start = Date()
            do {
                try entry(bytes)
                returned += 1
            } catch let error as GLMapError {
                _ = error.description
                typedErrors += 1
            } catch let error as JSONSyntaxError {
                _ = error.description
                typedErrors += 1
            } catch {
                XCTFail("\(target)/\(name): untyped error \(type(of: error)): \(error)")
            }
            let seconds = Date().timeIntervalSince(start)
            XCTAssertLessThan(seconds, 30, "\(target)/\(name) took \(Int(seconds)) s (a hang?)")
        }
        print("FuzzRegressions/\(target): \(names.count) inputs, \(returned) returned, \(typedErrors) typed errors")
    }
}
