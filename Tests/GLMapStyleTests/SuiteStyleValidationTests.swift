import Foundation
import XCTest
import GLMapCore
import GLMapTestSupport
@testable import GLMapStyle

/// Validation is not stricter than MapLibre: every style of GL JS's render suite (all layer and
/// source types) parses, except the few listed with their reason in
/// SuiteStyleValidation-known-errors.txt; and the layers of every type are compiled.
final class SuiteStyleValidationTests: XCTestCase {
    static var cases: URL { SharedData.root.appendingPathComponent("render-suite/cases") }

    static func known() throws -> [String: String] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("SuiteStyleValidation-known-errors.txt")
        var out: [String: String] = [:]
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            if parts.count == 2 { out[String(parts[0])] = String(parts[1]) }
        }
        return out
    }

    func testEveryRenderSuiteStyleParses() throws {
        try SharedData.require("MapLibre's render suite", at: Self.cases)
        let known = try Self.known()
        var styles: [String] = []
        let walker = FileManager.default.enumerator(atPath: Self.cases.path)
        while let p = walker?.nextObject() as? String {
            if p.hasSuffix("/style.json") { styles.append(String(p.dropLast("/style.json".count))) }
        }
        XCTAssertGreaterThan(styles.count, 1000)
        var rejected: [String: String] = [:]
        var layersByType: [LayerType: Int] = [:], drawn = 0
        for name in styles.sorted() {
            let bytes = [UInt8](try Data(contentsOf: Self.cases.appendingPathComponent(name).appendingPathComponent("style.json")))
            do {
                let doc = try StyleDocument.parse(bytes)
                for l in doc.allLayers { layersByType[l.type, default: 0] += 1 }
                drawn += doc.layers.count
            } catch let e as StyleError {
                rejected[name] = e.issues.map(\.description).joined(separator: " | ")
            }
        }
        for (name, issues) in rejected.sorted(by: { $0.key < $1.key }) where known[name] == nil {
            XCTFail("\(name)/style.json: rejected, but GL JS loads it: \(issues)")
        }
        for name in known.keys.sorted() where rejected[name] == nil {
            XCTFail("\(name): listed in SuiteStyleValidation-known-errors.txt but parses now; remove it from the list")
        }
        for type in LayerType.allCases { XCTAssertGreaterThan(layersByType[type] ?? 0, 0, "no \(type.rawValue) layer compiled") }
        print("render suite: \(styles.count) styles, \(styles.count - rejected.count) parse, \(rejected.count) rejected (\(known.count) known); "
              + "\(layersByType.values.reduce(0, +)) layers compiled, \(drawn) drawn; "
              + LayerType.allCases.map { "\($0.rawValue) \(layersByType[$0] ?? 0)" }.joined(separator: ", "))
    }
}
