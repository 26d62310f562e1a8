import Foundation

/// An RGBA colour with **premultiplied** components in 0…1, as MapLibre evaluates colours.
///
/// Interpolation and `to-rgba` work on straight (unpremultiplied) values; use `straight` for those.
/// A colour made from straight components with alpha 0 (`#0000ff00`) remembers its r, g, b so that
/// interpolating towards it keeps the hue (MapLibre does the same); its premultiplied components
/// are still all zero, and equality/hashing look at the premultiplied components only.
public struct Color: Equatable, Hashable, Sendable {
    /// Red, premultiplied, 0…1.
    public var r: Double
    /// Green, premultiplied, 0…1.
    public var g: Double
    /// Blue, premultiplied, 0…1.
    public var b: Double
    /// Alpha, 0…1.
    public var a: Double
    /// Straight r, g, b of a colour created fully transparent from straight components.
    private var transparentRGB: SIMD3<Double>?

    /// Creates a colour from premultiplied components.
    public init(premultipliedR r: Double, g: Double, b: Double, a: Double) {
        self.r = r; self.g = g; self.b = b; self.a = a
        self.transparentRGB = nil
    }

    /// Creates a colour from straight (unpremultiplied) components in 0…1.
    public init(r: Double, g: Double, b: Double, a: Double = 1) {
        self.r = r * a; self.g = g * a; self.b = b * a; self.a = a
        self.transparentRGB = a == 0 ? SIMD3(r, g, b) : nil
    }

    /// Equal when the premultiplied components are (the remembered hue of a transparent colour is ignored).
    public static func == (x: Color, y: Color) -> Bool {
        x.r == y.r && x.g == y.g && x.b == y.b && x.a == y.a
    }

    /// Hashes the premultiplied components, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(r); hasher.combine(g); hasher.combine(b); hasher.combine(a)
    }

    /// Opaque black (the spec default of the colour properties that have one).
    public static let black = Color(r: 0, g: 0, b: 0, a: 1)
    /// Opaque white.
    public static let white = Color(r: 1, g: 1, b: 1, a: 1)
    /// Fully transparent (all components 0).
    public static let transparent = Color(r: 0, g: 0, b: 0, a: 0)

    /// Straight-alpha components (r, g, b in 0…1). A fully transparent colour returns zeros,
    /// unless it was created from straight components (then those r, g, b are kept).
    public var straight: (r: Double, g: Double, b: Double, a: Double) {
        if a == 0 {
            if let t = transparentRGB, r == 0, g == 0, b == 0 { return (t.x, t.y, t.z, 0) }
            return (0, 0, 0, 0)
        }
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
