import Foundation
import XCTest
import GLMapCore
@testable import GLMapStyle

/// Evaluation throughput on a typical per-feature workload; prints CPU ns per evaluation (best of 3).
/// (Run with `swift test -c release -Xswiftc -enable-testing --filter ExpressionPerformance` for
/// meaningful figures; debug builds are several times slower.)
final class ExpressionPerformanceTests: XCTestCase {
    /// CPU time of this thread (robust against a loaded machine, unlike wall time).
    static func cpuNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    func testEvaluationThroughput() throws {
        let classes = ["motorway", "primary", "secondary", "residential", "path"]
        let count = Int(ProcessInfo.processInfo.environment["GLMAP_PERF_FEATURES"] ?? "") ?? 20_000
        let features: [FeatureContext] = (0..<count).map { i in
            FeatureContext(id: .number(Double(i)),
                           properties: JSONObject([("class", .string(classes[i % classes.count])),
                                                   ("width", .number(Double(i % 7))), ("name", .string("Road \(i)"))]),
                           geometryType: i % 3 == 0 ? "Polygon" : "LineString")
        }
        let cases: [(String, String, PropertySpec?)] = [
            ("match colour", #"["match", ["get", "class"], "motorway", "red", ["primary", "secondary"], "orange", "gray"]"#,
             PropertySpec(type: .color)),
            ("zoom × data width", #"["interpolate", ["exponential", 1.5], ["zoom"], 5, ["*", ["get", "width"], 0.5], 15, ["*", ["get", "width"], 2]]"#,
             PropertySpec(type: .number)),
            ("concat text", #"["concat", ["get", "name"], " (", ["to-string", ["get", "width"]], ")"]"#, PropertySpec(type: .string)),
            ("data colour ramp", ##"["interpolate-hcl", ["linear"], ["get", "width"], 0, "#fee", 6, "#900"]"##, PropertySpec(type: .color)),
        ]
        let only = ProcessInfo.processInfo.environment["GLMAP_PERF_ONLY"] ?? ""
        // Baseline for context: building the evaluation context and one property lookup.
        var baseline = Double.infinity
        var found = 0
        for _ in 0..<3 {
            found = 0
            let start = Self.cpuNanoseconds()
            for f in features {
                let ctx = EvaluationContext(zoom: 12.5, feature: f)
                if ctx.feature?.properties.values["class"] != nil { found += 1 }
            }
            baseline = min(baseline, Double(Self.cpuNanoseconds() - start) / Double(features.count))
        }
        XCTAssertEqual(found, features.count)
        print("baseline [context + one property lookup]: \(String(format: "%.0f", baseline)) ns/feature")
        for (label, text, spec) in cases where only.isEmpty || label.contains(only) {
            let e = try StyleExpression.compile(JSONParser.parse(text), spec: spec).get()
            var checksum = 0
            var best = Double.infinity
            for _ in 0..<3 {
                checksum = 0
                let start = Self.cpuNanoseconds()
                for f in features {
                    let v = try e.evaluate(EvaluationContext(zoom: 12.5, feature: f))
                    if case .null = v {} else { checksum += 1 }
                }
                best = min(best, Double(Self.cpuNanoseconds() - start) / Double(features.count))
            }
            let ns = best
            XCTAssertEqual(checksum, features.count, label)
            print("expression evaluate [\(label)]: \(String(format: "%.0f", ns)) ns/feature")
        }
        let filters: [(String, String)] = [
            ("expression filter", #"["all", ["==", ["geometry-type"], "LineString"], [">", ["get", "width"], 2]]"#),
            ("legacy filter", #"["all", ["==", "$type", "LineString"], ["in", "class", "motorway", "primary"]]"#),
        ]
        for (label, text) in filters where only.isEmpty || label.contains(only) {
            let filter = try FeatureFilter.compile(JSONParser.parse(text)).get()
            var passed = 0
            var best = Double.infinity
            for _ in 0..<3 {
                passed = 0
                let start = Self.cpuNanoseconds()
                for f in features where filter.evaluate(EvaluationContext(zoom: 12.5, feature: f)) { passed += 1 }
                best = min(best, Double(Self.cpuNanoseconds() - start) / Double(features.count))
            }
            let ns = best
            XCTAssertGreaterThan(passed, 0, label)
            XCTAssertLessThan(passed, features.count, label)
            print("filter evaluate [\(label)]: \(String(format: "%.0f", ns)) ns/feature, \(passed) pass")
        }
    }
}
