/// Where a glyph's signed distance field sits relative to its pen position, in ems of 24 px
/// (MapLibre's `GlyphMetrics`): what shaping and quads read.
public struct GlyphMetrics: Equatable, Sendable {
    /// Width of the glyph's ink box (the SDF is this plus a border of 3 each side, 6 for
    /// double-resolution glyphs in texture pixels).
    public var width: Double
    /// Height of the ink box.
    public var height: Double
    /// Ink box left edge, right of the pen position.
    public var left: Double
    /// Ink box top edge relative to the PBF's origin (negative: above it; the shaper's −17
    /// baseline offset puts the em box around the line).
    public var top: Double
    /// Pen advance.
    public var advance: Double
    /// The SDF is drawn at twice the resolution (local glyphs, as GL JS's TinySDF path draws
    /// them): quads halve the texture rectangle.
    public var isDoubleResolution: Bool

    /// Metrics as a glyph PBF or a local rasterizer gives them.
    public init(width: Double, height: Double, left: Double, top: Double, advance: Double, isDoubleResolution: Bool = false) {
        (self.width, self.height, self.left, self.top, self.advance) = (width, height, left, top, advance)
        self.isDoubleResolution = isDoubleResolution
    }
}

/// One glyph of a font stack: its code point, signed distance field and metrics (MapLibre's
/// `StyleGlyph`).
public struct Glyph: Equatable, Sendable {
    /// The Unicode code point.
    public var id: UInt32
    /// The SDF, `metrics.width + 6` × `metrics.height + 6` for PBF glyphs (a 3-pixel border).
    public var bitmap: AlphaImage
    /// Layout metrics.
    public var metrics: GlyphMetrics

    /// A glyph.
    public init(id: UInt32, bitmap: AlphaImage, metrics: GlyphMetrics) {
        (self.id, self.bitmap, self.metrics) = (id, bitmap, metrics)
    }
}

/// Constants the glyph pipeline shares with MapLibre.
public enum GlyphConstants {
    /// One em in layout units (`ONE_EM`): PBF glyphs are rasterized at 24 px.
    public static let oneEm: Double = 24
    /// The SDF border around a PBF glyph's ink box (`GLYPH_PBF_BORDER`).
    public static let pbfBorder = 3
    /// Code points per glyph range.
    public static let rangeSize: UInt32 = 256
}
