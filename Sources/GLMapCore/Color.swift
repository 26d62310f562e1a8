import Foundation

/// An RGBA colour with **premultiplied** components in 0…1, as MapLibre evaluates colours.
///
/// Interpolation and `to-rgba` work on straight (unpremultiplied) values; use `straight` for those.
public struct Color: Equatable, Hashable, Sendable {
    public var r: Double
    public var g: Double
    public var b: Double
    public var a: Double

    /// Creates a colour from premultiplied components.
    public init(premultipliedR r: Double, g: Double, b: Double, a: Double) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// Creates a colour from straight (unpremultiplied) components in 0…1.
    public init(r: Double, g: Double, b: Double, a: Double = 1) {
        self.r = r * a; self.g = g * a; self.b = b * a; self.a = a
    }

    public static let black = Color(r: 0, g: 0, b: 0, a: 1)
    public static let white = Color(r: 1, g: 1, b: 1, a: 1)
    public static let transparent = Color(r: 0, g: 0, b: 0, a: 0)

    /// Straight-alpha components (r, g, b in 0…1). A fully transparent colour returns zeros.
    public var straight: (r: Double, g: Double, b: Double, a: Double) {
        if a == 0 { return (0, 0, 0, 0) }
        return (r / a, g / a, b / a, a)
    }

    /// Multiplies every premultiplied component by `opacity` (the way layer opacity applies).
    public func scaled(by opacity: Double) -> Color {
        Color(premultipliedR: r * opacity, g: g * opacity, b: b * opacity, a: a * opacity)
    }

    /// Parses a CSS colour string (named, #rgb[a], #rrggbb[aa], rgb[a](), hsl[a]()); nil if invalid.
    public init?(css: String) {
        guard let c = CSSColorParser.parse(css) else { return nil }
        self = c
    }

    /// `rgba(R,G,B,A)` with rounded 0…255 channels, as MapLibre's `Color.toString()` writes it.
    public var cssString: String {
        let s = straight
        func ch(_ v: Double) -> String { String(Int((v * 255).rounded())) }
        return "rgba(\(ch(s.r)),\(ch(s.g)),\(ch(s.b)),\(JSONValue.formatNumber(s.a)))"
    }
}
