import GLMapCore

/// A colour value for a style property, kept as the CSS colour string it encodes to.
public struct StyleColor: Equatable, Hashable, Sendable {
    /// The CSS colour string (`"rgba(68, 105, 247, 1)"`, `"#f6f3ee"`, `"red"`, `"hsl(…)"`).
    public let rawValue: String
    /// Straight (unpremultiplied) components: red, green, blue in 0…255, alpha in 0…1.
    /// Straight components in 0…1.
    public let red: Double, green: Double, blue: Double, alpha: Double

    /// A colour from red, green, blue in 0…255 and alpha in 0…1; nil when a component is out of range.
    public init?(red: Double, green: Double, blue: Double, alpha: Double) {
        for c in [red, green, blue] where !(c >= 0 && c <= 255) { return nil }
        guard alpha >= 0, alpha <= 1 else { return nil }
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        rawValue = StyleColor.rgbaText(red, green, blue, alpha)
    }

    /// A colour from a CSS colour string (what MapLibre accepts: names, `#rgb[a]`, `#rrggbb[aa]`,
    /// `rgb[a](…)`, `hsl[a](…)`); nil when the string is not a colour.
    public init?(rawValue: String) {
        guard let c = CSSColorParser.parse(rawValue) else { return nil }
        self.rawValue = rawValue
        if c.a > 0 {
            red = c.r / c.a * 255; green = c.g / c.a * 255; blue = c.b / c.a * 255
        } else {
            red = 0; green = 0; blue = 0
        }
        alpha = c.a
    }

    /// A colour from a CSS colour string; nil when the string is not a colour.
    public init?(_ css: String) { self.init(rawValue: css) }

    /// A named colour: `StyleColor(.red)`, `StyleColor(.black)`.
    public init(_ color: NamedColor) {
        // NamedColor components are clamped to 0…1, so these are always in range.
        red = color.red * 255; green = color.green * 255; blue = color.blue * 255; alpha = color.alpha
        rawValue = StyleColor.rgbaText(red, green, blue, alpha)
    }

    static func rgbaText(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> String {
        let f = JSONValue.formatNumber
        return "rgba(\(f(r)), \(f(g)), \(f(b)), \(f(a)))"
    }
}

/// A small set of named colours with 0…1 components (UIKit's system colour names for the basic
/// hues), so `StyleColor(.red)` reads as on iOS where UIColor is not available.
public struct NamedColor: Equatable, Sendable {
    /// Straight (unpremultiplied) components in 0…1.
    public let red: Double, green: Double, blue: Double, alpha: Double

    /// A colour from straight components in 0…1 (clamped).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        func c(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        self.red = c(red); self.green = c(green); self.blue = c(blue); self.alpha = c(alpha)
    }
    /// A grey of `white` brightness (0 black … 1 white).
    public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }

    /// Opaque black.
    public static let black = NamedColor(white: 0)
    /// Opaque dark grey, brightness 1/3.
    public static let darkGray = NamedColor(white: 1.0 / 3)
    /// Opaque light grey, brightness 2/3.
    public static let lightGray = NamedColor(white: 2.0 / 3)
    /// Opaque white.
    public static let white = NamedColor(white: 1)
    /// Opaque mid grey, brightness 0.5.
    public static let gray = NamedColor(white: 0.5)
    /// Opaque red: red 1, green 0, blue 0.
    public static let red = NamedColor(red: 1, green: 0, blue: 0)
    /// Opaque green: red 0, green 1, blue 0.
    public static let green = NamedColor(red: 0, green: 1, blue: 0)
    /// Opaque blue: red 0, green 0, blue 1.
    public static let blue = NamedColor(red: 0, green: 0, blue: 1)
    /// Opaque cyan: red 0, green 1, blue 1.
    public static let cyan = NamedColor(red: 0, green: 1, blue: 1)
    /// Opaque yellow: red 1, green 1, blue 0.
    public static let yellow = NamedColor(red: 1, green: 1, blue: 0)
    /// Opaque magenta: red 1, green 0, blue 1.
    public static let magenta = NamedColor(red: 1, green: 0, blue: 1)
    /// Opaque orange: red 1, green 0.5, blue 0.
    public static let orange = NamedColor(red: 1, green: 0.5, blue: 0)
    /// Opaque purple: red 0.5, green 0, blue 0.5.
    public static let purple = NamedColor(red: 0.5, green: 0, blue: 0.5)
    /// Opaque brown: red 0.6, green 0.4, blue 0.2.
    public static let brown = NamedColor(red: 0.6, green: 0.4, blue: 0.2)
    /// Fully transparent black (alpha 0).
    public static let clear = NamedColor(white: 0, alpha: 0)
}
