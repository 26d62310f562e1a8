import GLMapCore

/// The value type a style property (or an expression compiled for it) must produce: the spec's
/// `type` (with `value` and `length` for arrays and `values` for enums).
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
    /// Anything (no expected type; the expression's own type is used): the spec's `*`,
    /// `promoteId`, `projectionDefinition`.
    case value
    /// `formatted` (`text-field`): text with per-section fonts, scales and colours; strings coerce to it.
    case formatted
    /// `resolvedImage` (`icon-image`, `*-pattern`): an image name; strings coerce to it.
    case resolvedImage
    /// `padding` (`icon-padding`): a number or 1–4 numbers, CSS order.
    case padding
    /// `numberArray` (`hillshade-illumination-direction`): a number or an array of numbers.
    case numberArray
    /// `colorArray` (`hillshade-shadow-color`): a colour or an array of colours.
    case colorArray
    /// `variableAnchorOffsetCollection` (`text-variable-anchor-offset`): anchors paired with offsets.
    case variableAnchorOffsetCollection
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
    /// A colour ramp over a parameter other than zoom (`line-progress`, `heatmap-density`, `elevation`).
    case colorRamp = "color-ramp"
    /// A literal only: no expressions (`visibility`, the keys of sources).
    case constant = "constant"
}

/// What an expression compiled for a property may read: the spec's `expression.parameters`.
public struct ExpressionParameters: OptionSet, Hashable, Sendable {
    /// The bits.
    public let rawValue: Int
    /// Creates the set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `["zoom"]`.
    public static let zoom = ExpressionParameters(rawValue: 1 << 0)
    /// `["get", …]` and the other feature accessors.
    public static let feature = ExpressionParameters(rawValue: 1 << 1)
    /// `["feature-state", …]`.
    public static let featureState = ExpressionParameters(rawValue: 1 << 2)
    /// `["line-progress"]` (`line-gradient`).
    public static let lineProgress = ExpressionParameters(rawValue: 1 << 3)
    /// `["heatmap-density"]` (`heatmap-color`).
    public static let heatmapDensity = ExpressionParameters(rawValue: 1 << 4)
    /// `["elevation"]` (`color-relief-color`).
    public static let elevation = ExpressionParameters(rawValue: 1 << 5)

    /// The spec's names of the parameters, by operator name (`feature-state` → `.featureState`).
    public static let byOperator: [String: ExpressionParameters] = [
        "zoom": .zoom, "feature-state": .featureState, "line-progress": .lineProgress,
        "heatmap-density": .heatmapDensity, "elevation": .elevation,
    ]
}

/// A condition under which a property has an effect (the spec's `requires`).
public enum PropertyRequirement: Equatable, Sendable {
    /// The other property must be set (`"icon-image"`).
    case present(String)
    /// The other property must not be set (`{"!": "line-pattern"}`).
    case absent(String)
    /// The other property must have one of these values (`{"line-join": "miter"}`).
    case oneOf(String, [JSONValue])
    /// The layer's source must be of this type and have these keys (`{"source": "geojson", "has": {"lineMetrics": true}}`).
    case source(String, has: [String: JSONValue])
}

/// A style-spec property definition, as the generated tables state it: type, default, range,
/// units, how it may vary and what its expressions may read.
public struct PropertySpec: Sendable {
    /// The type the value must have.
    public var type: PropertyType
    /// How the value may vary (the spec's `property-type`).
    public var kind: PropertyKind
    /// What expressions may read (`expression.parameters`).
    public var parameters: ExpressionParameters
    /// Whether `feature` may be used: the data-driven kinds (as MapLibre's
    /// `supportsPropertyExpression` decides it).
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
    /// The unit of the value (`pixels`, `degrees`, `ems`, `line widths`, …), as the spec names it.
    public var units: String? = nil
    /// The period of an angle (`360` for `icon-rotate`): values wrap around it.
    public var period: Double? = nil
    /// When the property has an effect (the spec's `requires`).
    public var requires: [PropertyRequirement] = []
    /// Whether a `format` section may override the value (`text-color`).
    public var overridable: Bool = false
    /// Whether changes animate (the spec's `transition`; glmap draws still frames).
    public var transition: Bool = false
    /// Whether the key must be present (keys of sources and root objects).
    public var required: Bool = false

    /// Whether `zoom` may be used (`parameters` contains `.zoom`).
    public var zoomAllowed: Bool {
        get { parameters.contains(.zoom) }
        set { if newValue { parameters.insert(.zoom) } else { parameters.remove(.zoom) } }
    }

    /// Whether `line-progress` may be used (`parameters` contains `.lineProgress`).
    public var lineProgressAllowed: Bool {
        get { parameters.contains(.lineProgress) }
        set { if newValue { parameters.insert(.lineProgress) } else { parameters.remove(.lineProgress) } }
    }

    /// Creates a definition by its main traits; `featureAllowed` defaults to true exactly for the
    /// data-driven kinds, which may also read `feature-state`.
    public init(type: PropertyType, kind: PropertyKind = .dataDriven, zoomAllowed: Bool = true,
                featureAllowed: Bool? = nil, interpolated: Bool = true, defaultValue: JSONValue? = nil,
                tokens: Bool = false, minimum: Double? = nil, maximum: Double? = nil,
                lineProgressAllowed: Bool = false) {
        self.type = type
        self.kind = kind
        self.featureAllowed = featureAllowed ?? (kind == .dataDriven || kind == .crossFadedDataDriven)
        var p: ExpressionParameters = []
        if zoomAllowed { p.insert(.zoom) }
        if self.featureAllowed { p.insert(.feature) }
        if kind == .dataDriven && self.featureAllowed { p.insert(.featureState) }
        if lineProgressAllowed { p.insert(.lineProgress) }
        (self.parameters, self.interpolated, self.defaultValue, self.tokens) = (p, interpolated, defaultValue, tokens)
        (self.minimum, self.maximum) = (minimum, maximum)
    }

    /// Creates the full definition, as the generated tables write it (every trait of the spec).
    public init(type: PropertyType, kind: PropertyKind, parameters: ExpressionParameters, interpolated: Bool = false,
                defaultValue: JSONValue? = nil, minimum: Double? = nil, maximum: Double? = nil, units: String? = nil,
                period: Double? = nil, requires: [PropertyRequirement] = [], tokens: Bool = false,
                overridable: Bool = false, transition: Bool = false, required: Bool = false) {
        self.type = type
        self.kind = kind
        self.parameters = parameters
        self.featureAllowed = kind == .dataDriven || kind == .crossFadedDataDriven
        (self.interpolated, self.defaultValue, self.minimum) = (interpolated, defaultValue, minimum)
        (self.maximum, self.units, self.period, self.requires, self.tokens) = (maximum, units, period, requires, tokens)
        (self.overridable, self.transition, self.required) = (overridable, transition, required)
    }
}
