/// What symbol layout reads besides a tile's features: the style's glyphs (ranges loaded once
/// each, through the manager, before the frame that needs them is drawn), its images (the sprite
/// at the frame's scale and images added at run time) and bidi (GL JS's render harness loads the
/// RTL plugin, so glmap always shapes bidirectional text).
public struct SymbolAssets: Sendable {
    /// Glyph ranges by font stack.
    public let glyphs: GlyphManager
    /// The style's images by id.
    public let images: StyleImageStore
    /// The frame's device pixel ratio (icons of another pixel ratio are sampled linearly).
    public let pixelRatio: Double
    /// Bidirectional reordering and Arabic shaping (nil: none, GL JS without the RTL plugin).
    public let bidi: Bidi?

    /// Assets from a glyph manager, an image store and the frame's pixel ratio.
    public init(glyphs: GlyphManager, images: StyleImageStore, pixelRatio: Double, bidi: Bidi? = Bidi()) {
        (self.glyphs, self.images, self.pixelRatio, self.bidi) = (glyphs, images, pixelRatio, bidi)
    }
}
