extension Exp {
    /// Every operator glmap evaluates, plus the interpolation types and the legacy filter operators
    /// (a test checks this list against the expression parser's own).
    public enum Operator: String, CaseIterable, Sendable {
        // Types
        /// `literal`: the argument as a value, not an expression.
        case literal
        case array, boolean, number, string, object
        case toBoolean = "to-boolean", toColor = "to-color", toNumber = "to-number", toString = "to-string"
        case typeofExpression = "typeof"
        // Lookup
        case at
        case inExpression = "in"
        case indexOf = "index-of"
        case slice, length, get, has, properties, id
        case geometryType = "geometry-type"
        case globalState = "global-state"
        case within
        // Decision
        /// `case`: the first branch whose condition is true.
        case switchCase = "case"
        case match, coalesce
        case eq = "==", neq = "!=", lt = "<", lte = "<=", gt = ">", gte = ">="
        case all, any
        case not = "!"
        // Ramps, scales, curves
        case step, interpolate
        case interpolateHcl = "interpolate-hcl", interpolateLab = "interpolate-lab"
        /// Interpolation types (first argument of `interpolate`).
        case linear, exponential
        case cubicBezier = "cubic-bezier"
        // Variable binding
        case letExpression = "let", varExpression = "var"
        // String
        case concat, upcase, downcase
        // Color
        case rgb, rgba
        case toRgba = "to-rgba"
        // Math
        case sum = "+", product = "*", subtract = "-", division = "/", mod = "%", pow = "^"
        case sqrt, log10, ln, log2, sin, cos, tan, asin, acos, atan, min, max, abs, round, floor, ceil
        case ln2, pi, e
        // Zoom and feature state
        case zoom
        case lineProgress = "line-progress"
        case error
        // Legacy filter syntax only
        case notIn = "!in", notHas = "!has"
        /// `none` (legacy filters): no child filter matches.
        case noneOf = "none"
    }
}
