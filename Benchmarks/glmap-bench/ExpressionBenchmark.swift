import Foundation
import GLMapCore
import GLMapStyle

/// `glmap-bench expressions [--features N] [--only LABEL]`: expression and filter evaluation on a
/// typical per-feature workload (road classes, widths, names), in CPU ns per feature, best of 3
/// runs. The peer in the same process is the baseline: building the evaluation context and one
/// property lookup, the least any evaluation does. (Moved here from the test suite, where it ran
/// as a timed unit test.)
func runExpressionBenchmark(_ args: [String]) throws {
    var count = 20_000
    var only = ""
    var i = 0
    while i < args.count {
        switch args[i] {
        case "--features" where i + 1 < args.count:
            guard let n = Int(args[i + 1]), n > 0 else { throw InputFailure("--features needs a positive integer, got '\(args[i + 1])'") }
            count = n
            i += 2
        case "--only" where i + 1 < args.count:
            only = args[i + 1]
            i += 2
        default:
            throw InputFailure("unknown or incomplete argument '\(args[i])'; usage: glmap-bench expressions [--features N] [--only LABEL]")
        }
    }
    let classes = ["motorway", "primary", "secondary", "residential", "path"]
    let features: [FeatureContext] = (0..<count).map { i in
        FeatureContext(id: .number(Double(i)),
                       properties: JSONObject([("class", .string(classes[i % classes.count])),
                                               ("width", .number(Double(i % 7))), ("name", .string("Road \(i)"))]),
                       geometryType: i % 3 == 0 ? "Polygon" : "LineString")
    }
    /// Best of 3 runs of `body` over every feature, in CPU ns per feature, and what the last run counted.
    func best(_ body: (FeatureContext) throws -> Bool) rethrows -> (ns: Double, counted: Int) {
        var ns = Double.infinity, counted = 0
        for _ in 0..<3 {
            counted = 0
            let start = threadCPUSeconds()   // thread CPU: robust against a loaded machine
            for f in features where try body(f) { counted += 1 }
            ns = min(ns, (threadCPUSeconds() - start) * 1e9 / Double(features.count))
        }
        return (ns, counted)
    }
    func check(_ ok: Bool, _ what: String) throws { if !ok { throw InputFailure("expression benchmark: \(what)") } }

    let baseline = best { EvaluationContext(zoom: 12.5, feature: $0).feature?.properties.values["class"] != nil }
    try check(baseline.counted == features.count, "the baseline lookup missed features")
    print("baseline [context + one property lookup]: \(String(format: "%.0f", baseline.ns)) ns/feature")

    let expressions: [(String, String, PropertySpec?)] = [
        ("match colour", #"["match", ["get", "class"], "motorway", "red", ["primary", "secondary"], "orange", "gray"]"#,
         PropertySpec(type: .color)),
        ("zoom × data width", #"["interpolate", ["exponential", 1.5], ["zoom"], 5, ["*", ["get", "width"], 0.5], 15, ["*", ["get", "width"], 2]]"#,
         PropertySpec(type: .number)),
        ("concat text", #"["concat", ["get", "name"], " (", ["to-string", ["get", "width"]], ")"]"#, PropertySpec(type: .string)),
        ("data colour ramp", ##"["interpolate-hcl", ["linear"], ["get", "width"], 0, "#fee", 6, "#900"]"##, PropertySpec(type: .color)),
    ]
    for (label, text, spec) in expressions where only.isEmpty || label.contains(only) {
        let e = try StyleExpression.compile(JSONParser.parse(text), spec: spec).get()
        let r = try best { f in
            if case .null = try e.evaluate(EvaluationContext(zoom: 12.5, feature: f)) { return false }
            return true
        }
        try check(r.counted == features.count, "\(label) gave null")
        print("expression evaluate [\(label)]: \(String(format: "%.0f", r.ns)) ns/feature (\(String(format: "%.1f", r.ns / baseline.ns))x the baseline)")
    }
    let filters: [(String, String)] = [
        ("expression filter", #"["all", ["==", ["geometry-type"], "LineString"], [">", ["get", "width"], 2]]"#),
        ("legacy filter", #"["all", ["==", "$type", "LineString"], ["in", "class", "motorway", "primary"]]"#),
    ]
    for (label, text) in filters where only.isEmpty || label.contains(only) {
        let filter = try FeatureFilter.compile(JSONParser.parse(text)).get()
        let r = best { filter.evaluate(EvaluationContext(zoom: 12.5, feature: $0)) }
        try check(r.counted > 0 && r.counted < features.count, "\(label) passed \(r.counted) of \(features.count)")
        print("filter evaluate [\(label)]: \(String(format: "%.0f", r.ns)) ns/feature (\(String(format: "%.1f", r.ns / baseline.ns))x the baseline), \(r.counted) pass")
    }
}

