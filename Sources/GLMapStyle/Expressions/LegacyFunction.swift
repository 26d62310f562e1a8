import GLMapCore

/// Converts a legacy style function (`{"type", "property", "stops", "base", "default", "colorSpace"}`)
/// to the equivalent expression JSON, with the same rules as maplibre-style-spec's `convertFunction`,
/// so that conversion results (and error paths) match upstream.
enum LegacyFunction {
    /// The expression for `function` as used by a property described by `spec`.
    static func convert(_ function: JSONObject, spec: PropertySpec) -> Result<JSONValue, ExpressionErrors> {
        do {
            return .success(try convertFunction(function, spec))
        } catch let e as ExpressionErrors {
            return .failure(e)
        } catch {
            return .failure(ExpressionErrors("\(error)"))
        }
    }

    private static func fail(_ message: String) -> ExpressionErrors { ExpressionErrors(message) }

    /// Arrays, objects and null become `["literal", v]`; scalars stay as they are.
    static func literal(_ v: JSONValue) -> JSONValue {
        switch v {
        case .array, .object, .null: return ["literal", v]
        default: return v
        }
    }

    private static func convertFunction(_ f: JSONObject, _ spec: PropertySpec) throws -> JSONValue {
        guard let stopsJSON = f["stops"], !stopsJSON.isNull else {
            return try identity(f, spec)
        }
        guard let rawStops = stopsJSON.arrayValue, let first = rawStops.first?.arrayValue, !first.isEmpty else {
            throw fail("A function's \"stops\" must be a non-empty array of [input, output] pairs.")
        }
        let zoomAndFeature: Bool
        if case .object = first[0] { zoomAndFeature = true } else { zoomAndFeature = false }
        let featureDependent = zoomAndFeature || f["property"] != nil
        let zoomDependent = zoomAndFeature || !featureDependent

        var stops: [(JSONValue, JSONValue)] = []
        for s in rawStops {
            guard let pair = s.arrayValue, pair.count >= 2 else {
                throw fail("Each function stop must be an [input, output] pair.")
            }
            if !featureDependent && spec.tokens, case .string(let text) = pair[1] {
                stops.append((pair[0], tokenString(text)))
            } else {
                stops.append((pair[0], literal(pair[1])))
            }
        }
        if zoomAndFeature { return try zoomAndProperty(f, spec, stops) }
        if zoomDependent { return try zoomFunction(f, spec, stops) }
        return try propertyFunction(f, spec, stops)
    }

    private static func identity(_ f: JSONObject, _ spec: PropertySpec) throws -> JSONValue {
        let get: JSONValue = ["get", f["property"] ?? .null]
        guard let defaultValue = f["default"] else {
            // String properties would be coerced; legacy semantics want an assertion instead.
            return spec.type == .string ? ["string", get] : get
        }
        switch spec.type {
        case .enum(let values):
            return ["match", get, .array(values.map(JSONValue.string)), get, defaultValue]
        case .color:
            return ["to-color", get, literal(defaultValue)]
        case .number:
            return ["number", get, literal(defaultValue)]
        case .string, .formatted, .resolvedImage:
            return ["string", get, literal(defaultValue)]
        case .boolean:
            return ["boolean", get, literal(defaultValue)]
        case .array(let item, let length):
            let itemName: String
            switch item {
            case .number: itemName = "number"
            case .string: itemName = "string"
            case .boolean: itemName = "boolean"
            default: throw fail("An identity function with a default needs an array property of numbers, strings or booleans.")
            }
            return ["array", .string(itemName), length.map { .number(Double($0)) } ?? .null, get, literal(defaultValue)]
        case .value, .padding, .numberArray, .colorArray, .variableAnchorOffsetCollection:
            throw fail("An identity function with a default needs a property type.")
        }
    }

    private static func functionType(_ f: JSONObject, _ spec: PropertySpec) -> String {
        if let t = f["type"]?.stringValue, !t.isEmpty { return t }
        return spec.interpolated ? "exponential" : "interval"
    }

    private static func interpolateOperator(_ f: JSONObject) -> JSONValue {
        switch f["colorSpace"]?.stringValue {
        case "hcl": return "interpolate-hcl"
        case "lab": return "interpolate-lab"
        default: return "interpolate"
        }
    }

    private static func interpolationType(_ f: JSONObject) -> JSONValue {
        let base = f["base"] ?? 1
        if base == 1 { return ["linear"] }
        return ["exponential", base]
    }

    /// Appends a stop, skipping one whose input equals the previous input (steps drop the first input).
    private static func appendStop(_ curve: inout [JSONValue], _ input: JSONValue, _ output: JSONValue, isStep: Bool) {
        if curve.count > 3 && input == curve[curve.count - 2] { return }
        if !(isStep && curve.count == 2) { curve.append(input) }
        curve.append(output)
    }

    /// A step with only its base output gets a no-op stop (a constant function).
    private static func fixDegenerateStep(_ curve: inout [JSONValue]) {
        if curve.first == "step" && curve.count == 3 {
            curve.append(0)
            curve.append(curve[2])
        }
    }

    private static func zoomFunction(_ f: JSONObject, _ spec: PropertySpec, _ stops: [(JSONValue, JSONValue)]) throws -> JSONValue {
        let type = functionType(f, spec)
        var curve: [JSONValue]
        let isStep: Bool
        switch type {
        case "interval":
            curve = ["step", ["zoom"]]
            isStep = true
        case "exponential":
            curve = [interpolateOperator(f), interpolationType(f), ["zoom"]]
            isStep = false
        default:
            throw fail("Unknown zoom function type \"\(type)\"")
        }
        for (input, output) in stops { appendStop(&curve, input, output, isStep: isStep) }
        fixDegenerateStep(&curve)
        return .array(curve)
    }

    private static func propertyFunction(_ f: JSONObject, _ spec: PropertySpec, _ stops: [(JSONValue, JSONValue)]) throws -> JSONValue {
        let type = functionType(f, spec)
        let get: JSONValue = ["get", f["property"] ?? .null]
        let typeCheck: JSONValue = ["==", ["typeof", get], "number"]
        switch type {
        case "categorical":
            if case .bool = stops[0].0 {
                var curve: [JSONValue] = ["case"]
                for (input, output) in stops {
                    curve.append(["==", get, input])
                    curve.append(output)
                }
                curve.append(try fallback(f, spec))
                return .array(curve)
            }
            var curve: [JSONValue] = ["match", get]
            for (input, output) in stops { appendStop(&curve, input, output, isStep: false) }
            curve.append(try fallback(f, spec))
            return .array(curve)
        case "interval":
            var curve: [JSONValue] = ["step", ["number", get]]
            for (input, output) in stops { appendStop(&curve, input, output, isStep: true) }
            fixDegenerateStep(&curve)
            guard let d = f["default"] else { return .array(curve) }
            return ["case", typeCheck, .array(curve), literal(d)]
        case "exponential":
            var curve: [JSONValue] = [interpolateOperator(f), interpolationType(f), ["number", get]]
            for (input, output) in stops { appendStop(&curve, input, output, isStep: false) }
            guard let d = f["default"] else { return .array(curve) }
            return ["case", typeCheck, .array(curve), literal(d)]
        default:
            throw fail("Unknown property function type \(type)")
        }
    }

    /// The categorical fallback: the function's default, else the property's.
    private static func fallback(_ f: JSONObject, _ spec: PropertySpec) throws -> JSONValue {
        guard let d = f["default"] ?? spec.defaultValue else {
            throw fail("'undefined' value invalid. Use null instead.")
        }
        return literal(d)
    }

    private static func zoomAndProperty(_ f: JSONObject, _ spec: PropertySpec, _ stops: [(JSONValue, JSONValue)]) throws -> JSONValue {
        var zooms: [JSONValue] = []
        var perZoom: [[(JSONValue, JSONValue)]] = []
        for (input, output) in stops {
            guard case .object(let o) = input, let zoom = o["zoom"] else {
                throw fail("Zoom-and-property function stops need {\"zoom\", \"value\"} inputs.")
            }
            if let i = zooms.firstIndex(of: zoom) {
                perZoom[i].append((o["value"] ?? .null, output))
            } else {
                zooms.append(zoom)
                perZoom.append([(o["value"] ?? .null, output)])
            }
        }
        // The zoom dimension: linear for interpolated properties, stepped otherwise.
        // Upstream's per-zoom property functions carry only type, property and default (no base or
        // colorSpace).
        var inner = JSONObject()
        inner["type"] = f["type"]
        inner["property"] = f["property"]
        inner["default"] = f["default"]
        let interpolates = functionType(JSONObject(), spec) == "exponential"
        var curve: [JSONValue] = interpolates ? [interpolateOperator(f), ["linear"], ["zoom"]] : ["step", ["zoom"]]
        for (i, z) in zooms.enumerated() {
            let output = try propertyFunction(inner, spec, perZoom[i])
            appendStop(&curve, z, output, isStep: !interpolates)
        }
        if !interpolates { fixDegenerateStep(&curve) }
        return .array(curve)
    }

    /// `"a {name} b"` → `["concat", "a ", ["get", "name"], " b"]` (a lone token → `["to-string", …]`).
    static func tokenString(_ s: String) -> JSONValue {
        var parts: [JSONValue] = ["concat"]
        var literalStart = s.startIndex
        var i = s.startIndex
        var end = s.startIndex
        while i < s.endIndex {
            if s[i] == "{", let close = s[s.index(after: i)...].firstIndex(where: { $0 == "}" || $0 == "{" }),
               s[close] == "}", close > s.index(after: i) {
                let before = String(s[literalStart..<i])
                if !before.isEmpty { parts.append(.string(before)) }
                parts.append(["get", .string(String(s[s.index(after: i)..<close]))])
                i = s.index(after: close)
                literalStart = i
                end = i
                continue
            }
            i = s.index(after: i)
        }
        if parts.count == 1 { return .string(s) }
        if end < s.endIndex {
            parts.append(.string(String(s[end...])))
        } else if parts.count == 2 {
            return ["to-string", parts[1]]
        }
        return .array(parts)
    }
}
