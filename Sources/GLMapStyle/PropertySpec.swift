import GLMapCore

/// The value type a style property (or an expression compiled for it) must produce.
public indirect enum PropertyType: Equatable, Sendable {
    case number
    case string
    case boolean
    case color
    /// One of `values` (a string at run time).
    case `enum`([String])
    /// `array<item, length?>`.
    case array(PropertyType, length: Int?)
    /// Anything (no expected type; the expression's own type is used).
    case value
}

/// How a property may vary, following the style specification's `property-type`.
public enum PropertyKind: String, Sendable {
    case dataDriven = "data-driven"
    case crossFadedDataDriven = "cross-faded-data-driven"
    case dataConstant = "data-constant"
    case crossFaded = "cross-faded"
    case colorRamp = "color-ramp"
    case constant = "constant"
}

/// A cut-down style-spec property definition: what an expression is compiled against.
public struct PropertySpec: Sendable {
    public var type: PropertyType
    public var kind: PropertyKind
    /// Whether `zoom` may be used (expression.parameters contains "zoom").
    public var zoomAllowed: Bool
    /// Whether `feature` may be used (expression.parameters contains "feature").
    public var featureAllowed: Bool
    /// Whether `interpolate` may drive a zoom curve (expression.interpolated).
    public var interpolated: Bool
    /// The spec default, used by legacy categorical functions and by layers when unset.
    public var defaultValue: JSONValue?
    /// `tokens: true` properties replace `{name}` in legacy zoom functions.
    public var tokens: Bool
    /// Inclusive numeric range (spec `minimum` / `maximum`), for validation.
    public var minimum: Double?
    public var maximum: Double?
    /// Extra parameters the expression may read (e.g. "line-progress" for line-gradient).
    public var lineProgressAllowed: Bool

    public init(type: PropertyType, kind: PropertyKind = .dataDriven, zoomAllowed: Bool = true,
                featureAllowed: Bool? = nil, interpolated: Bool = true, defaultValue: JSONValue? = nil,
                tokens: Bool = false, minimum: Double? = nil, maximum: Double? = nil,
                lineProgressAllowed: Bool = false) {
        self.type = type
        self.kind = kind
        self.zoomAllowed = zoomAllowed
        self.featureAllowed = featureAllowed ?? (kind == .dataDriven || kind == .crossFadedDataDriven)
        self.interpolated = interpolated
        self.defaultValue = defaultValue
        self.tokens = tokens
        self.minimum = minimum
        self.maximum = maximum
        self.lineProgressAllowed = lineProgressAllowed
    }
}
