import GLMapCore
import GLMapStyle
import GLMapTiles

/// One glyph (or icon cell) quad as the symbol vertex stage reads it: GL JS's four layout vertices
/// (tl, tr, bl, br) with their attribute values quantized exactly as GL JS's typed arrays store
/// them (Int16 anchors and offsets × 32, UInt16 texture positions and packed sizes, Int16 pixel
/// offsets × 16 and smallest font scales × 256), so both renderers read the same numbers.
public struct SymbolVertexQuad: Sendable {
    /// The label's anchor in tile units (Int16).
    public var anchorX: Float
    /// The label's anchor in tile units (Int16).
    public var anchorY: Float
    /// Corner offsets from the anchor, layout units × 32 rounded (Int16): tl, tr, bl, br as x, y.
    public var offsets: (Float, Float, Float, Float, Float, Float, Float, Float)
    /// Texture corners in atlas pixels (UInt16): left, top, right, bottom.
    public var tex: (x0: Float, y0: Float, x1: Float, y1: Float)
    /// `(size at the first stop × 128 rounded) << 1 | sdf` (UInt16), the vertex's `a_size[0]`.
    public var sizeA: Float
    /// The size at the second stop × 128 rounded (UInt16), `a_size[1]`.
    public var sizeB: Float
    /// Fixed pixel offsets × 16 (Int16): top-left x, y, bottom-right x, y.
    public var pixelOffsets: (Float, Float, Float, Float)
    /// Smallest font scales × 256 (Int16): x, y.
    public var minFontScale: (Float, Float)
    /// Index of the quad's paint in the layout's paint table (text or icon).
    public var paint: Int32
}

/// One text shaping or icon of a symbol instance as placement and drawing read it (GL JS's
/// `PlacedSymbol`): its anchor, its quads, its line, its sizes and offsets.
public struct PlacedSymbolRecord: Sendable {
    /// Anchor in tile units (Int16).
    public var anchorX: Double
    /// Anchor in tile units (Int16).
    public var anchorY: Double
    /// First glyph's index in `glyphOffsets`.
    public var glyphStart: Int
    /// Number of glyphs (quads).
    public var numGlyphs: Int
    /// First quad's index in the buffer's quads.
    public var quadStart: Int
    /// First vertex of the label's line in `lineVertices`.
    public var lineStart: Int
    /// Number of line vertices.
    public var lineLength: Int
    /// Segment of the line the anchor lies on (0 when none).
    public var segment: Int
    /// Size at the first stop × 128 (UInt16).
    public var lowerSize: Double
    /// Size at the second stop × 128 (UInt16).
    public var upperSize: Double
    /// Text offset (layout units) or icon offset (CSS px), Float32.
    public var lineOffsetX: Double
    /// Text offset (layout units) or icon offset (CSS px), Float32.
    public var lineOffsetY: Double
    /// Writing mode of the shaping (`none` for icons).
    public var writingMode: WritingMode
    /// For text: the index of the instance's icon in the icon buffer (−1: none).
    public var associatedIconIndex: Int
}

/// The quads and placed symbols of one kind (text or icons) of a tile's symbol layer.
public struct SymbolQuadBuffer: Sendable {
    /// Every quad, in the order GL JS adds them.
    public var quads: [SymbolVertexQuad] = []
    /// Every shaping or icon, in the order added.
    public var placed: [PlacedSymbolRecord] = []
    /// Paint values per feature and `format` section (text) or feature (icons).
    public var paint: [SymbolPaint] = []
    /// Sort key per quad run: GL JS's segments when the layer may overlap and has a sort key
    /// (the quad index where each starts and its key), else empty.
    public var segments: [(start: Int, sortKey: Double)] = []

    /// Whether nothing was added.
    public var isEmpty: Bool { quads.isEmpty }
}

/// Paint values of one feature (one `format` section, for text), at the tile zoom and the next.
public struct SymbolPaint: Sendable {
    /// Values (GLMapStyle `Value`s) in `SymbolLayout.textPaintProperties` / `iconPaintProperties` order at the tile zoom.
    public var values: [Value]
    /// The same at the tile zoom + 1 (composite paint; else equal to `values`).
    public var next: [Value]
}

/// A collision box relative to its anchor (GL JS's `CollisionBox`): Float32 edges in tile units.
public struct SymbolCollisionBox: Sendable {
    /// The anchor (Int16).
    public var anchorX: Double
    /// The anchor (Int16).
    public var anchorY: Double
    /// Left edge, relative to the anchor.
    public var x1: Double
    /// Top edge.
    public var y1: Double
    /// Right edge.
    public var x2: Double
    /// Bottom edge.
    public var y2: Double
    /// The feature's index.
    public var featureIndex: Int
}

/// One possible placement of a feature's label at one anchor (GL JS's `SymbolInstance`).
public struct SymbolInstanceRecord: Sendable {
    /// Anchor in tile units (Int16).
    public var anchorX: Double
    /// Anchor in tile units (Int16).
    public var anchorY: Double
    /// Index in the text buffer's placed symbols of the right-justified shaping (−1: none).
    public var rightText: Int
    /// Centre-justified shaping (−1: none).
    public var centerText: Int
    /// Left-justified shaping (−1: none).
    public var leftText: Int
    /// Vertical shaping (−1: none).
    public var verticalText: Int
    /// Index in the icon buffer's placed symbols (−1: none).
    public var icon: Int
    /// The icon fitted to the vertical text (−1: none).
    public var verticalIcon: Int
    /// What the cross-tile index matches labels by (the shaped text).
    public var key: String
    /// Collision boxes (nil: none).
    public var textBox: SymbolCollisionBox?
    /// Vertical text's box.
    public var verticalTextBox: SymbolCollisionBox?
    /// Icon's box.
    public var iconBox: SymbolCollisionBox?
    /// Vertical icon's box.
    public var verticalIconBox: SymbolCollisionBox?
    /// The feature's index in its tile.
    public var featureIndex: Int
    /// Vertices (4 per quad) of the horizontal shapings.
    public var numHorizontalGlyphVertices: Int
    /// Vertices of the vertical shaping.
    public var numVerticalGlyphVertices: Int
    /// Vertices of the icon.
    public var numIconVertices: Int
    /// Vertices of the vertical icon.
    public var numVerticalIconVertices: Int
    /// Whether the text collides as circles along its line.
    public var useRuntimeCollisionCircles: Bool
    /// Tile units per layout unit of the text at the tile zoom + 1 (Float32).
    public var textBoxScale: Double
    /// Diameter of the collision circles in CSS px (Float32).
    public var collisionCircleDiameter: Double
    /// Range of this instance's variable anchors in `textAnchorOffsets`.
    public var textAnchorOffsets: Range<Int>
    /// The feature's sort key (nil: the layer has none that varies).
    public var sortKey: Double?
}

/// A line vertex of a line label, with its distance along the line from the label's anchor.
public struct SymbolLineVertex: Sendable {
    /// x in tile units (Int16).
    public var x: Double
    /// y in tile units (Int16).
    public var y: Double
    /// Distance from the anchor along the line, tile units (Float32).
    public var distanceFromAnchor: Double
}

/// One symbol layer laid out over one tile (GL JS's `SymbolBucket` after `performSymbolLayout`):
/// camera independent; placement and drawing per frame read it. Positions are in the tile's
/// units, quads in layout units (text: 24 per em) or CSS px (icons).
public struct SymbolTileLayout: Sendable {
    /// The tile laid out (its world copy is irrelevant: every copy draws the same layout).
    public var tile: OverscaledTileID
    /// The style layer's id.
    public var layerID: String
    /// The layer's source id.
    public var sourceID: String
    /// Text quads and shapings.
    public var text = SymbolQuadBuffer()
    /// Icon quads.
    public var icon = SymbolQuadBuffer()
    /// Glyph offsets along the line (layout units, Float32), per glyph of every text and icon quad.
    public var glyphOffsets: [Double] = []
    /// Line vertices of line labels.
    public var lineVertices: [SymbolLineVertex] = []
    /// Symbol instances in layout order.
    public var instances: [SymbolInstanceRecord] = []
    /// Variable anchors with their offsets (layout units, Float32), ranges per instance.
    public var textAnchorOffsets: [(anchor: SymbolAnchor, x: Double, y: Double)] = []
    /// Instance ranges sharing a sort key (layers whose symbol-sort-key varies).
    public var sortKeyRanges: [(sortKey: Double, range: Range<Int>)] = []
    /// `text-size` as the vertices carry it.
    public var textSizeData: SymbolSizeData = .constant(layoutSize: 16)
    /// `icon-size` as the vertices carry it.
    public var iconSizeData: SymbolSizeData = .constant(layoutSize: 1)
    /// Whether the icons are distance fields (the first icon decides, as in GL JS).
    public var sdfIcons = false
    /// Whether icons need linear sampling (another pixel ratio than the frame's, or rotated).
    public var iconsNeedLinear = false
    /// Whether the (last) shaped text holds images (drawn with the text-and-icon program).
    public var iconsInText = false
    /// Whether vertical writing is allowed (point placement with `text-writing-mode` vertical).
    public var allowVerticalPlacement = false
    /// The writing modes to try, in order (point placement).
    public var writingModes: [WritingMode] = [.horizontal]
    /// Whether features were sorted by `symbol-sort-key`.
    public var sortFeaturesByKey = false
    /// Whether symbols may overlap (any overlap mode other than never, or ignore-placement).
    public var canOverlap = false
    /// Whether quads are drawn by viewport y (overlapping symbols sorted per frame).
    public var sortFeaturesByY = false
    /// Tile units per CSS px at the tile's zoom: 8192 / (512 · overscaling).
    public var tilePixelRatio: Double = 16
    /// The glyph atlas (one alpha channel).
    public var glyphAtlas: AlphaImage = AlphaImage(width: 1, height: 1)
    /// The icon atlas, premultiplied as uploaded.
    public var iconAtlas: PremultipliedImage = PremultipliedImage(width: 1, height: 1, pixels: [0, 0, 0, 0])
    /// Whether the layout has any text quads / icon quads.
    public var hasTextData: Bool { !text.quads.isEmpty }
    /// Whether the layout has icon quads.
    public var hasIconData: Bool { !icon.quads.isEmpty }
    /// Whether nothing was laid out.
    public var isEmpty: Bool { instances.isEmpty }
}
