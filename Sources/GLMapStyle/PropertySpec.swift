import GLMapCore

/// The value type a style property (or an expression compiled for it) must produce.
public indirect enum PropertyType: Equatable, Sendable {
    /// A number.
    case number
    /// A string.
    case string
    /// A boolean.
    case boolean
    /// A colour.
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
    /// Expressions may read the feature and the zoom.
    case dataDriven = "data-driven"
    /// Data-driven and cross-faded between integer zooms (`line-dasharray`).
    case crossFadedDataDriven = "cross-faded-data-driven"
    /// May read the zoom but not the feature.
    case dataConstant = "data-constant"
    /// Zoom only, cross-faded between integer zooms (patterns).
    case crossFaded = "cross-faded"
    /// A colour ramp over a parameter other than zoom (`line-progress`).
    case colorRamp = "color-ramp"
    /// A literal only: no expressions (`visibility`).
    case constant = "constant"
}

/// A cut-down style-spec property definition: what an expression is compiled against.
public struct PropertySpec: Sendable {
    /// The type the value must have.
    public var type: PropertyType
    /// How the value may vary (the spec's `property-type`).
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
    /// Inclusive upper bound (spec `maximum`), for validation.
    public var maximum: Double?
    /// Extra parameters the expression may read (e.g. "line-progress" for line-gradient).
    public var lineProgressAllowed: Bool

    /// Creates a definition; `featureAllowed` defaults to true exactly for the data-driven kinds.
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
