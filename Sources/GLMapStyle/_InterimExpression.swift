// INTERIM: literal-only stand-in for the expression engine being built on the `expressions`
// branch; replaced by it at merge. Same public API.
import GLMapCore
import GLMapGeoJSON

public struct FeatureContext: Sendable {
    public var id: JSONValue?
    public var properties: JSONObject
    public var geometryType: String?
    public var geometry: Geometry?
    public init(id: JSONValue?, properties: JSONObject, geometryType: String?, geometry: Geometry?) {
        self.id = id; self.properties = properties; self.geometryType = geometryType; self.geometry = geometry
    }
}

public struct EvaluationContext {
    public var zoom: Double?
    public var feature: FeatureContext?
    public var globalState: JSONObject
    public var lineProgress: Double?
    public init(zoom: Double? = nil, feature: FeatureContext? = nil, globalState: JSONObject = JSONObject(), lineProgress: Double? = nil) {
        self.zoom = zoom; self.feature = feature; self.globalState = globalState; self.lineProgress = lineProgress
    }
}

public struct ExpressionErrors: Error {
    public var errors: [(key: String, message: String)]
}

public final class StyleExpression {
    public let constantValue: Value?
    public var isFeatureConstant: Bool { true }
    public var isZoomConstant: Bool { true }
    init(_ v: Value) { constantValue = v }

    public static func compile(_ json: JSONValue, spec: PropertySpec?) -> Result<StyleExpression, ExpressionErrors> {
        let v = Value(json: json)
        switch spec?.type {
        case .color?:
            if case .string(let s) = v, let c = Color(css: s) { return .success(StyleExpression(.color(c))) }
            return .failure(ExpressionErrors(errors: [("", "expected color")]))
        default:
            return .success(StyleExpression(v))
        }
    }

    public func evaluate(_ context: EvaluationContext) throws -> Value { constantValue! }
}

public struct FeatureFilter {
    let json: JSONValue
    public static func compile(_ json: JSONValue) -> Result<FeatureFilter, ExpressionErrors> { .success(FeatureFilter(json: json)) }
    public func evaluate(_ context: EvaluationContext) -> Bool {
        guard let a = json.arrayValue, a.count == 3, a[0] == "==", a[1] == "$type" else { return true }
        return context.feature?.geometryType == a[2].stringValue
    }
}
