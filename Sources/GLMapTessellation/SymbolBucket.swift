import GLMapCore
import GLMapStyle
import GLMapText

/// A symbol layer over one tile, ready to upload: its layout (GLMapText's `SymbolTileLayout`:
/// camera independent) and, for text and icons, the static vertex arrays GL JS's symbol programs
/// read — four vertices per glyph or icon quad (`VertexLayout.symbol` floats: `a_pos_offset`,
/// `a_data`, `a_pixeloffset`, in the quantized values the layout holds), each followed by the
/// quad's data-driven paint (`PaintLayout` of the text or icon program). Per-frame values
/// (positions along lines, variable anchors, opacity) come from the frame's placement, not from
/// here.
public struct SymbolBucket: Sendable {
    /// The layout the vertices were made from.
    public let layout: SymbolTileLayout
    /// Text paint: uniforms and attributes of the text programs.
    public let textPaint: PaintLayout
    /// Icon paint: uniforms and attributes of the icon program (SDF or raster).
    public let iconPaint: PaintLayout
    /// Text vertices, `textStride` floats each, four per quad.
    public var textVertices: [Float] = []
    /// Icon vertices, `iconStride` floats each.
    public var iconVertices: [Float] = []

    /// Floats per text vertex.
    public var textStride: Int { VertexLayout.symbol + textPaint.floatsPerVertex }
    /// Floats per icon vertex.
    public var iconStride: Int { VertexLayout.symbol + iconPaint.floatsPerVertex }

    /// The program names of text and icons (`ShaderSource.Program.name`).
    public static func programs(_ layout: SymbolTileLayout) -> (text: String, icon: String) {
        (layout.iconsInText ? "symbol_text_and_icon" : "symbol_text", layout.sdfIcons ? "symbol_icon_sdf" : "symbol_icon")
    }

    /// The bucket of `layout`, with the layer's bound paint expressions (`paint`).
    public init(_ layout: SymbolTileLayout, paint: PaintSource) {
        self.layout = layout
        let programs = SymbolBucket.programs(layout)
        func value(_ list: [StyleProperty]) -> (SymbolPaintFeature, StyleProperty) -> PaintValue {
            { f, p in
                guard let i = list.firstIndex(of: p) else { return PaintValue(StyleEvaluator.defaultValue(p), p) }
                return PaintValue(f.next ? f.paint.next[i] : f.paint.values[i], p)
            }
        }
        let textValue = value(SymbolLayout.textPaintProperties), iconValue = value(SymbolLayout.iconPaintProperties)
        let textFeatures = layout.text.paint.map { SymbolPaintFeature(paint: $0, next: false) }
        let iconFeatures = layout.icon.paint.map { SymbolPaintFeature(paint: $0, next: false) }
        textPaint = PaintLayout(program: programs.text, features: textFeatures, source: paint, value: textValue)
        iconPaint = PaintLayout(program: programs.icon, features: iconFeatures, source: paint, value: iconValue)
        textVertices = SymbolBucket.vertices(layout.text, paint: textPaint, value: textValue)
        iconVertices = SymbolBucket.vertices(layout.icon, paint: iconPaint, value: iconValue)
    }

    /// One buffer's interleaved vertices.
    static func vertices(_ buffer: SymbolQuadBuffer, paint: PaintLayout,
                         value: (SymbolPaintFeature, StyleProperty) -> PaintValue) -> [Float] {
        var blocks: [[Float]] = buffer.paint.map { p in
            paint.vertexValues(SymbolPaintFeature(paint: p, next: false), next: SymbolPaintFeature(paint: p, next: true), value: value)
        }
        if blocks.isEmpty { blocks = [[]] }
        let stride = VertexLayout.symbol + paint.floatsPerVertex
        var out: [Float] = []
        out.reserveCapacity(buffer.quads.count * 4 * stride)
        for q in buffer.quads {
            let block = blocks[Int(q.paint) < blocks.count ? Int(q.paint) : 0]
            let o = q.offsets, p = q.pixelOffsets
            let corners: [(Float, Float, Float, Float, Float, Float)] = [
                (o.0, o.1, q.tex.x0, q.tex.y0, p.0, p.1),
                (o.2, o.3, q.tex.x1, q.tex.y0, p.2, p.1),
                (o.4, o.5, q.tex.x0, q.tex.y1, p.0, p.3),
                (o.6, o.7, q.tex.x1, q.tex.y1, p.2, p.3),
            ]
            for c in corners {
                out.append(q.anchorX); out.append(q.anchorY); out.append(c.0); out.append(c.1)
                out.append(c.2); out.append(c.3); out.append(q.sizeA); out.append(q.sizeB)
                out.append(c.4); out.append(c.5); out.append(q.minFontScale.0); out.append(q.minFontScale.1)
                out.append(contentsOf: block)
            }
        }
        return out
    }
}

/// A symbol paint table entry as `PaintLayout` reads it: the values at the tile zoom, or at the
/// next zoom (`next`).
public struct SymbolPaintFeature: Sendable {
    /// The entry.
    public var paint: SymbolPaint
    /// Whether the values at the tile zoom + 1 are read.
    public var next: Bool
}
