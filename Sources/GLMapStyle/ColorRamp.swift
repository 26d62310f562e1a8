/// A `line-gradient` evaluated into a texture (MapLibre's `renderColorRamp`), pure data.
///
/// One row per clip: texel `i` of row `r` holds the gradient at `line-progress` =
/// start_r + (end_r − start_r) · i / (width − 1), where [start_r, end_r] is the part of the line a
/// tile's piece covers (MapLibre draws each tile's piece with its own row). Straight colour
/// channels are `floor(c · 255)`, then premultiplied by the alpha byte with truncation (what
/// WebGL's UNPACK_PREMULTIPLY_ALPHA upload does to MapLibre's straight ramp). A colour that fails
/// to evaluate leaves its texel transparent.
public struct ColorRamp: Sendable {
    /// Texels per row (a power of two, ≥ 256).
    public let width: Int
    /// Rows (one per clip).
    public let height: Int
    /// Sample with NEAREST (step gradients) rather than LINEAR.
    public let nearest: Bool
    /// Premultiplied RGBA8, `width * height * 4` bytes.
    public let pixels: [UInt8]

    /// Texels of a LINEAR ramp (MapLibre's default resolution).
    public static let defaultWidth = 256
    /// Widest ramp: the texture size limit of MapLibre's reference renderer (SwiftShader) and
    /// of common GLES 3 devices.
    public static let maxWidth = 8192

    /// Evaluates `gradient` (which reads `line-progress`) along each clip's progress range.
    public init(gradient: StyleExpression, width: Int = ColorRamp.defaultWidth, nearest: Bool = false,
                clips: [(start: Double, end: Double)] = [(0, 1)]) {
        let w = max(2, width)
        let rows = clips.isEmpty ? [(start: 0.0, end: 1.0)] : clips
        self.width = w
        self.height = rows.count
        self.nearest = nearest
        var px = [UInt8](repeating: 0, count: w * rows.count * 4)
        var ctx = EvaluationContext()
        for (r, clip) in rows.enumerated() {
            for i in 0..<w {
                let t = Double(i) / Double(w - 1)
                ctx.lineProgress = clip.start * (1 - t) + clip.end * t
                guard let c = (try? gradient.evaluate(ctx))?.color else { continue }
                let s = c.straight
                let a = Self.byte(s.a)
                let o = (r * w + i) * 4
                px[o + 0] = Self.premultiply(Self.byte(s.r), a)
                px[o + 1] = Self.premultiply(Self.byte(s.g), a)
                px[o + 2] = Self.premultiply(Self.byte(s.b), a)
                px[o + 3] = a
            }
        }
        pixels = px
    }

    /// MapLibre's ramp width for a step gradient: one texel per 1/1024 tile along the longest
    /// piece (`maxLineTiles`, in tiles), times the possible over-zoom, as a power of two in
    /// 256…`limit`.
    public static func stepWidth(maxLineTiles: Double, overzoom: Double, limit: Int = ColorRamp.maxWidth) -> Int {
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
