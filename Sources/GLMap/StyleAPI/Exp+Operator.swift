extension Exp {
    /// Every operator glmap evaluates, plus the interpolation types and the legacy filter operators
    /// (a test checks this list against the expression parser's own).
    public enum Operator: String, CaseIterable, Sendable {
        // Types
        /// `literal`: the argument as a value, not an expression.
        case literal
        /// Type assertions.
        case array, boolean, number, string, object
        /// Type conversions.
        case toBoolean = "to-boolean", toColor = "to-color", toNumber = "to-number", toString = "to-string"
        /// `typeof`: the type name of the argument.
        case typeofExpression = "typeof"
        // Lookup
        /// `at`: an array element.
        case at
        /// `in`: whether a value is in an array or string.
        case inExpression = "in"
        /// `index-of`.
        case indexOf = "index-of"
        /// Lookup of arrays, strings and the feature.
        case slice, length, get, has, properties, id
        /// `geometry-type`: the feature's geometry type.
        case geometryType = "geometry-type"
        /// `global-state`: a value of the style's `state`.
        case globalState = "global-state"
        /// `["feature-state", key]`: the feature's runtime state (`Snapshotter.setFeatureState`).
        case featureState = "feature-state"
        /// `["accumulated"]`: a cluster property's value so far, in `clusterProperties` reduce expressions.
        case accumulated
        /// `within`: whether the feature lies in a polygon.
        case within
        // Decision
        /// `case`: the first branch whose condition is true.
        case switchCase = "case"
        /// `match` (a label lookup with a fallback), `coalesce` (the first non-null argument).
        case match, coalesce
        /// Comparisons (`==`, `!=`, `<`, `<=`, `>`, `>=`).
        case eq = "==", neq = "!=", lt = "<", lte = "<=", gt = ">", gte = ">="
        /// `all` (every argument true), `any` (one argument true).
        case all, any
        /// `!`: logical negation.
        case not = "!"
        // Ramps, scales, curves
        /// `step` (piecewise constant), `interpolate` (interpolated in RGB for colours).
        case step, interpolate
        /// `interpolate` in the HCL and CIELAB colour spaces.
        case interpolateHcl = "interpolate-hcl", interpolateLab = "interpolate-lab"
        /// Interpolation types (first argument of `interpolate`).
        case linear, exponential
        /// `cubic-bezier` interpolation type, with two control points.
        case cubicBezier = "cubic-bezier"
        // Variable binding
        /// `let` binds names; `var` reads them.
        case letExpression = "let", varExpression = "var"
        // String
        /// String operators.
        case concat, upcase, downcase
        /// `is-supported-script`: whether glmap can draw a string's script.
        case isSupportedScript = "is-supported-script"
        // Formatted text and images
        /// `format`: text in sections of their own font, scale and colour.
        case format
        /// `image`: an image of the sprite (or one added at run time) by name.
        case image
        // Color
        /// Colours from components.
        case rgb, rgba
        /// `to-rgba`: a colour's components.
        case toRgba = "to-rgba"
        // Math
        /// Arithmetic.
        case sum = "+", product = "*", subtract = "-", division = "/", mod = "%", pow = "^"
        /// Math functions.
        case sqrt, log10, ln, log2, sin, cos, tan, asin, acos, atan, min, max, abs, round, floor, ceil
        /// Math constants.
        case ln2, pi, e
        // Zoom and feature state
        /// `zoom`: the zoom level being drawn.
        case zoom
        /// `line-progress`: position along the line in 0…1 (`line-gradient` only).
        case lineProgress = "line-progress"
        /// `heatmap-density`: the heatmap's kernel density (`heatmap-color` only).
        case heatmapDensity = "heatmap-density"
        /// `elevation`: a DEM pixel's elevation in metres (`color-relief-color` only).
        case elevation
        /// `error`: fails evaluation with a message.
        case error
        // Legacy filter syntax only
        /// `!in`, `!has` (legacy filters): the negations of `in` and `has`.
        case notIn = "!in", notHas = "!has"
        /// `none` (legacy filters): no child filter matches.
        case noneOf = "none"
    }
}
