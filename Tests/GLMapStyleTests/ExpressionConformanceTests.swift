import Foundation
import Testing
import GLMapCore
@testable import GLMapStyle
import GLMapTestSupport

/// Runs maplibre-style-spec's expression fixtures (`../shared/expression-tests/cases`, or
/// `$GLMAP_EXPRESSION_TESTS/cases`) with the rules of that folder's README: compile result, feature/zoom
/// constancy, the compiled type, and every output (numbers truncated to 6 significant digits) must
/// match. One test case per fixture; `casesArePresent` skips (fails under CI=true) when the folder is
/// missing, and fails when it holds no fixture.
@Suite struct ExpressionConformanceCases {
    static var casesFolder: URL {
        if let env = ProcessInfo.processInfo.environment["GLMAP_EXPRESSION_TESTS"], !env.isEmpty {
            return URL(fileURLWithPath: env).appendingPathComponent("cases")
        }
        return SharedData.expressionTests.appendingPathComponent("cases")
    }

    /// Every fixture's name (its folder under cases/), sorted; empty when the folder is absent.
    static let names: [String] = {
        var files: [String] = []
        if let walker = FileManager.default.enumerator(atPath: casesFolder.path) {
            for case let path as String in walker where path.hasSuffix("test.json") { files.append(path) }
        }
        return files.sorted().map { String($0.dropLast("/test.json".count)) }
    }()

    /// Reads and runs one fixture.
    static func outcome(_ name: String) -> CaseOutcome {
        do {
            let data = try Data(contentsOf: casesFolder.appendingPathComponent("\(name)/test.json"))
            return ConformanceCase.run(try JSONParser.parse([UInt8](data)))
        } catch {
            return .fail("cannot read: \(error)")
        }
    }

    @Test func casesArePresent() throws {
        try SharedData.require("expression conformance cases", at: Self.casesFolder)
        #expect(!Self.names.isEmpty, "Expression conformance cases not found at \(Self.casesFolder.path). Put maplibre-style-spec's expression fixtures there (see ../shared/expression-tests/README.md) or set GLMAP_EXPRESSION_TESTS to the folder that holds cases/.")
        print("expression conformance: \(Self.names.count) cases, one test case each")
    }

    @Test(arguments: ExpressionConformanceCases.names)
    func fixture(_ name: String) {
        switch Self.outcome(name) {
        case .pass: break
        case .lenientPass: print("expression conformance: \(name) passed only by the lenient 1e-5 relative number rule")
        case .fail(let reason): Issue.record("\(name): \(reason)")
        }
    }
}

enum CaseOutcome {
    case pass
    case lenientPass
    case fail(String)
}

/// One fixture: compile, evaluate, compare.
enum ConformanceCase {
    static func run(_ fixture: JSONValue) -> CaseOutcome {
        guard let expression = fixture["expression"], let expected = fixture["expected"],
              let expectedCompiled = expected["compiled"] else {
            return .fail("fixture lacks expression/expected")
        }
        let spec = propertySpec(fixture["propertySpec"])
        let compiled = StyleExpression.compile(expression, spec: spec)
        let expectSuccess = expectedCompiled["result"]?.stringValue == "success"
        switch compiled {
        case .failure(let errors):
            return expectSuccess ? .fail("compile error: \(errors)") : .pass
        case .success(let compiledExpression):
            guard expectSuccess else {
                return .fail("compiled (type \(compiledExpression.type)) but expected errors \(expectedCompiled["errors"]?.jsonText ?? "")")
            }
            var problems: [String] = []
            if expectedCompiled["isFeatureConstant"]?.boolValue != compiledExpression.isFeatureConstant {
                problems.append("isFeatureConstant \(compiledExpression.isFeatureConstant)")
            }
            if expectedCompiled["isZoomConstant"]?.boolValue != compiledExpression.isZoomConstant {
                problems.append("isZoomConstant \(compiledExpression.isZoomConstant)")
            }
            if expectedCompiled["type"]?.stringValue != compiledExpression.type.description {
                problems.append("type \(compiledExpression.type) (expected \(expectedCompiled["type"]?.stringValue ?? "?"))")
            }
            if !problems.isEmpty { return .fail(problems.joined(separator: ", ")) }

            let inputs = fixture["inputs"]?.arrayValue ?? []
            let expectedOutputs = expected["outputs"]?.arrayValue ?? []
            guard inputs.count == expectedOutputs.count else {
                return .fail("\(inputs.count) inputs but \(expectedOutputs.count) expected outputs")
            }
            var usedLenient = false
            for (i, input) in inputs.enumerated() {
                let actual = evaluate(compiledExpression, input)
                let want = expectedOutputs[i]
                let wantError = want.objectValue.map { $0.count == 1 && $0["error"] != nil } ?? false
                switch actual {
                case .failure(let e):
                    if !wantError { return .fail("input \(i): error \"\(e.message)\", expected \(want.jsonText)") }
                case .success(let value):
                    if wantError { return .fail("input \(i): got \(value.jsonText), expected an error \(want.jsonText)") }
                    if !NumberRule.equal(value, want, lenient: false) {
                        if NumberRule.equal(value, want, lenient: true) {
                            usedLenient = true
                        } else {
                            return .fail("input \(i): got \(value.jsonText), expected \(want.jsonText)")
                        }
                    }
                }
            }
            return usedLenient ? .lenientPass : .pass
        }
    }

    static func evaluate(_ expression: StyleExpression, _ input: JSONValue) -> Result<JSONValue, ExpressionEvaluationError> {
        let globals = input.arrayValue?.first ?? .object(JSONObject())
        let featureJSON = (input.arrayValue?.count ?? 0) > 1 ? input.arrayValue![1] : .object(JSONObject())
        var feature = FeatureContext(properties: featureJSON["properties"]?.objectValue ?? JSONObject())
        feature.id = featureJSON["id"]
        feature.geometryType = featureJSON["geometry"]?["type"]?.stringValue
        feature.state = featureJSON["featureState"]?.objectValue ?? JSONObject()
        let context = EvaluationContext(zoom: globals["zoom"]?.numberValue, feature: feature)
        do {
            let value = try expression.evaluate(context)
            if expression.type == .color, case .color(let c) = value {
                return .success([.number(c.r), .number(c.g), .number(c.b), .number(c.a)])
            }
            return .success(value.jsonValue)
        } catch {
            return .failure(error)
        }
    }

    /// The fixture's cut-down property spec, completed as the reference harness does; nil when absent.
    static func propertySpec(_ json: JSONValue?) -> PropertySpec? {
        guard let o = json?.objectValue else { return nil }
        func scalarType(_ name: String?) -> PropertyType {
            switch name {
            case "number": return .number
            case "string": return .string
            case "boolean": return .boolean
            default: return .value
            }
        }
        let type: PropertyType
        switch o["type"]?.stringValue {
        case "number": type = .number
        case "string": type = .string
        case "boolean": type = .boolean
        case "color": type = .color
        case "enum": type = .enum(o["values"]?.objectValue?.keys ?? o["values"]?.arrayValue?.compactMap { $0.stringValue } ?? [])
        case "array": type = .array(scalarType(o["value"]?.stringValue), length: o["length"]?.numberValue.map { Int($0) })
        default: type = .value
        }
        let kind = PropertyKind(rawValue: o["property-type"]?.stringValue ?? "data-driven") ?? .dataDriven
        let expressionInfo = o["expression"]
        let parameters = expressionInfo == nil ? ["zoom", "feature"] : (expressionInfo?["parameters"]?.arrayValue?.compactMap { $0.stringValue } ?? [])
        let interpolated = expressionInfo == nil ? true : (expressionInfo?["interpolated"]?.boolValue ?? false)
        // The reference harness does not restrict line-progress, so neither does this one.
        return PropertySpec(type: type, kind: kind, zoomAllowed: parameters.contains("zoom"), interpolated: interpolated,
                            defaultValue: o["default"], tokens: o["tokens"]?.boolValue ?? false,
                            lineProgressAllowed: true)
    }
}

/// The reference harness's equality: same JSON kinds, numbers truncated to 6 significant digits.
enum NumberRule {
    /// Truncation to 6 significant digits, floor-based, applied twice as upstream does.
    static func strip(_ x: Double) -> Double {
        if x == 0 { return 0 }
        let m = pow(10.0, max(0, 6 - ceil(log10(abs(x)))))
        let y = floor(x * m) / m
        return floor(y * m) / m
    }

    static func equal(_ a: JSONValue, _ b: JSONValue, lenient: Bool) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.number(let x), .number(let y)):
            if strip(x) == strip(y) { return true }
            return lenient && abs(x - y) <= 1e-5 * max(abs(x), abs(y))
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1, lenient: lenient) }
        case (.object(let x), .object(let y)):
            return Set(x.keys) == Set(y.keys) && x.keys.allSatisfy { equal(x[$0]!, y[$0]!, lenient: lenient) }
        default:
            return false
        }
    }
}
