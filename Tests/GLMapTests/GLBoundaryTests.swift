import Foundation
import XCTest

/// DESIGN.md's promise: GL and EGL are imported only in GLMapGLES, and there only with
/// `internal import`, so the compiler rejects any public signature that mentions an EGL or GL
/// type. These checks read the sources and the package manifest; they fail when the rule breaks.
final class GLBoundaryTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let glModules = ["CEGL", "CGLES3"]

    /// Every Swift file under Sources/, Tests/ and Benchmarks/ with its text.
    func swiftFiles() -> [(path: String, text: String)] {
        var out: [(String, String)] = []
        for top in ["Sources", "Tests", "Benchmarks"] {
            let dir = root.appendingPathComponent(top)
            guard let e = FileManager.default.enumerator(atPath: dir.path) else { continue }
            for case let rel as String in e where rel.hasSuffix(".swift") && !rel.contains(".build/") {
                let path = "\(top)/\(rel)"
                if let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) { out.append((path, text)) }
            }
        }
        return out
    }

    /// The GL modules a file imports, with the import line.
    func glImports(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { line in
            let words = line.split(separator: " ")
            guard let i = words.firstIndex(of: "import"), i + 1 < words.count else { return false }
            return GLBoundaryTests.glModules.contains(String(words[i + 1]))
        }
    }

    func testGLAndEGLAreImportedOnlyInGLMapGLES() {
        let files = swiftFiles()
        XCTAssertGreaterThan(files.count, 50, "the sources were found")
        var offenders: [String] = []
        for f in files where !f.path.hasPrefix("Sources/GLMapGLES/") {
            for line in glImports(f.text) { offenders.append("\(f.path): \(line)") }
        }
        XCTAssertEqual(offenders, [], "GL/EGL imported outside GLMapGLES")
    }

    func testGLMapGLESImportsGLInternally() {
        var offenders: [String] = []
        var seen = 0
        for f in swiftFiles() where f.path.hasPrefix("Sources/GLMapGLES/") {
            for line in glImports(f.text) {
                seen += 1
                if !line.hasPrefix("internal import ") && !line.hasPrefix("private import ") && !line.hasPrefix("fileprivate import ") {
                    offenders.append("\(f.path): \(line)")
                }
            }
        }
        XCTAssertGreaterThan(seen, 0, "GLMapGLES imports GL")
        XCTAssertEqual(offenders, [], "a public import would let EGL/GL types into public signatures")
    }

    func testOnlyGLMapGLESDependsOnTheGLModulesInThePackage() throws {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\.(?:target|testTarget|executableTarget)\(\s*name:\s*"([^"]+)"[^\]]*?dependencies:\s*\[([^\]]*)\]"#)
        var found = 0
        for m in pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            let name = String(manifest[Range(m.range(at: 1), in: manifest)!])
            let deps = String(manifest[Range(m.range(at: 2), in: manifest)!])
            found += 1
            for gl in GLBoundaryTests.glModules where deps.contains("\"\(gl)\"") {
                XCTAssertEqual(name, "GLMapGLES", "\(name) depends on \(gl)")
            }
        }
        XCTAssertGreaterThan(found, 10, "targets were read from Package.swift")
    }
}
