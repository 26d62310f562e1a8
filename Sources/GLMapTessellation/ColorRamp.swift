import GLMapStyle

/// A `line-gradient` evaluated into a texture (MapLibre's `renderColorRamp`), pure data.
///
/// Texel `i` of `count` holds the gradient at `line-progress` = i / (count − 1): straight colour
/// channels are `floor(c · 255)`, then premultiplied by the alpha byte with truncation (what
/// WebGL's UNPACK_PREMULTIPLY_ALPHA upload does to MapLibre's straight ramp). A colour that fails
/// to evaluate leaves the texel transparent. Texels are stored row-major in rows of `width`, so
/// ramps longer than one texture row (step gradients on long lines) wrap into more rows; the
/// shader then fetches texel `floor(u · count)` directly.
public struct ColorRamp: Sendable {
    /// Texels in the ramp (a power of two, ≥ 256).
    public let count: Int
    /// Texels per texture row.
    public let width: Int
    /// Texture rows (`count / width`, at least 1).
    public var height: Int { (count + width - 1) / width }
    /// Sample with NEAREST (step gradients) rather than LINEAR.
    public let nearest: Bool
    /// Premultiplied RGBA8, `width * height * 4` bytes.
    public let pixels: [UInt8]

    /// Texels of a LINEAR ramp (MapLibre's default resolution).
    public static let defaultCount = 256
    /// Widest texture row used for long ramps.
    public static let maxRowWidth = 4096
    /// Most texels a step ramp may have (16 MiB of RGBA).
    public static let maxCount = 1 << 22

    /// Evaluates `gradient` (which reads `line-progress`) at `count` evenly spaced progress values.
    public init(gradient: StyleExpression, count: Int = ColorRamp.defaultCount, nearest: Bool = false) {
        let n = max(2, count)
        self.count = n
        self.nearest = nearest
        width = min(n, Self.maxRowWidth)
        let rows = (n + width - 1) / width
        var px = [UInt8](repeating: 0, count: width * rows * 4)
        var ctx = EvaluationContext()
        for i in 0..<n {
            ctx.lineProgress = Double(i) / Double(n - 1)
            guard let c = (try? gradient.evaluate(ctx))?.color else { continue }
            let s = c.straight
            let a = Self.byte(s.a)
            px[i * 4 + 0] = Self.premultiply(Self.byte(s.r), a)
            px[i * 4 + 1] = Self.premultiply(Self.byte(s.g), a)
            px[i * 4 + 2] = Self.premultiply(Self.byte(s.b), a)
            px[i * 4 + 3] = a
        }
        pixels = px
    }

    /// MapLibre's texel count for a step gradient: enough for one texel per 1/1024 tile along
    /// the longest line (`maxLineTiles`, in tiles of the zoom the data is tiled at), times the
    /// possible over-zoom, as a power of two in 256…`limit`.
    public static func stepCount(maxLineTiles: Double, overzoom: Double, limit: Int = ColorRamp.maxCount) -> Int {
        let coverage = maxLineTiles * 1024 * overzoom
        var p = 256
        while Double(p) < coverage && p < limit { p <<= 1 }
        return min(p, max(256, limit))
    }

    @inline(__always)
    static func byte(_ v: Double) -> UInt8 {
        let x = (v * 255).rounded(.down)
        return x >= 255 ? 255 : (x > 0 ? UInt8(x) : 0)
    }

    @inline(__always)
    static func premultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
        UInt8(UInt32(c) * UInt32(a) / 255)
    }
}
