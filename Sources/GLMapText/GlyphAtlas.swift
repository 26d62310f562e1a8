// GlyphAtlas — contract
// Input: a `GlyphMap` (stacks in request order, glyphs by code point).
// Output: one alpha image holding every glyph SDF with a 1-pixel empty padding, and each glyph's
// padded bin and metrics, packed as GL JS's GlyphAtlas packs them: stacks in map order, code
// points ascending (JavaScript's integer-key order), glyphs with an empty bitmap skipped, bins
// (bitmap + 2) packed with potpack, the image at least 1×1.
// Invariants: bins do not overlap and lie inside the image; the bitmap sits at bin + (1, 1).

/// Where a glyph sits in a glyph atlas: its padded bin and its metrics (MapLibre's `GlyphPosition`).
public struct GlyphPosition: Equatable, Sendable {
    /// The padded bin (bitmap size + 2).
    public var rect: AtlasRect
    /// The glyph's metrics.
    public var metrics: GlyphMetrics
    /// A position.
    public init(rect: AtlasRect, metrics: GlyphMetrics) { self.rect = rect; self.metrics = metrics }
}

/// A tile's glyph texture (see the contract above).
public struct GlyphAtlas: Sendable {
    /// The padding around each glyph bitmap.
    public static let padding = 1
    /// The atlas image (`GL_ALPHA`/`R8` texture).
    public var image: AlphaImage
    /// Glyph positions by font stack and code point.
    public var positions: [String: [UInt32: GlyphPosition]]

    /// Packs the glyphs of `glyphs`.
    public init(glyphs: GlyphMap) {
        var entries: [(stack: String, id: UInt32, glyph: Glyph)] = []
        for stack in glyphs.fontStacks {
            guard let stackGlyphs = glyphs.glyphs[stack] else { continue }
            for id in stackGlyphs.keys.sorted() {
                let g = stackGlyphs[id]!
                if g.bitmap.width == 0 || g.bitmap.height == 0 { continue }
                entries.append((stack, id, g))
            }
        }
        let pad = Self.padding
        let packed = Potpack.pack(entries.map { ($0.glyph.bitmap.width + 2 * pad, $0.glyph.bitmap.height + 2 * pad) })
        var image = AlphaImage(width: max(packed.width, 1), height: max(packed.height, 1))
        var positions: [String: [UInt32: GlyphPosition]] = [:]
        for stack in glyphs.fontStacks { positions[stack] = [:] }
        for (i, e) in entries.enumerated() {
            let bin = packed.positions[i]
            positions[e.stack]![e.id] = GlyphPosition(rect: bin, metrics: e.glyph.metrics)
            image.copy(from: e.glyph.bitmap, source: (0, 0), destination: (bin.x + pad, bin.y + pad),
                       width: e.glyph.bitmap.width, height: e.glyph.bitmap.height)
        }
        self.image = image
        self.positions = positions
    }

    /// The position of `codePoint` in `fontStack`.
    public func position(fontStack: String, codePoint: UInt32) -> GlyphPosition? { positions[fontStack]?[codePoint] }
}
