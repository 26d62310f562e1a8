/// `text-variable-anchor`, `text-variable-anchor-offset` and `text-radial-offset` arithmetic
/// (GL JS's `variable_text_anchor.ts`).
public enum VariableAnchor {
    /// The assumed distance from a text box's top edge to its glyphs' baseline region (layout
    /// units): radial offsets and top/bottom anchors are corrected by it.
    public static let baselineOffset: Double = 7

    /// How an offset is given: `text-offset` (x, y in layout units) or `text-radial-offset`
    /// (a distance in layout units).
    public enum Offset: Sendable {
        /// `text-offset` × 24.
        case text(x: Double, y: Double)
        /// `text-radial-offset` × 24.
        case radial(Double)
    }

    /// GL JS's `evaluateVariableOffset`: the offset moving the text away from the anchor point
    /// for `anchor` (absolute `text-offset` values; negative radial offsets count as 0).
    public static func offset(anchor: SymbolAnchor, _ offset: Offset) -> (x: Double, y: Double) {
        var x = 0.0, y = 0.0
        switch offset {
        case .radial(var r):
            if r < 0 { r = 0 }
            let h = r / 2.0.squareRoot()
            switch anchor {
            case .topRight, .topLeft: y = h - baselineOffset
            case .bottomRight, .bottomLeft: y = -h + baselineOffset
            case .bottom: y = -r + baselineOffset
            case .top: y = r - baselineOffset
            case .center, .left, .right: break
            }
            switch anchor {
            case .topRight, .bottomRight: x = -h
            case .topLeft, .bottomLeft: x = h
            case .left: x = r
            case .right: x = -r
            case .center, .top, .bottom: break
            }
        case .text(let ox, let oy):
            let ax = abs(ox), ay = abs(oy)
            switch anchor {
            case .topRight, .topLeft, .top: y = ay - baselineOffset
            case .bottomRight, .bottomLeft, .bottom: y = -ay + baselineOffset
            case .center, .left, .right: break
            }
            switch anchor {
            case .topRight, .bottomRight, .right: x = -ax
            case .topLeft, .bottomLeft, .left: x = ax
            case .center, .top, .bottom: break
            }
        }
        return (x, y)
    }

    /// GL JS's `getTextVariableAnchorOffset`: (anchor, offset in layout units) pairs from
    /// `text-variable-anchor-offset` (ems; top anchors −7, bottom anchors +7) when given, else
    /// from `text-variable-anchor` with the radial offset (when `text-radial-offset` is set in the
    /// style) or `text-offset`; nil when neither property is set.
    public static func anchorOffsets(variableAnchorOffset: [(SymbolAnchor, (x: Double, y: Double))]?,
                                     variableAnchor: [SymbolAnchor]?, radialOffset: Double?,
                                     textOffset: (x: Double, y: Double)) -> [(anchor: SymbolAnchor, offset: (x: Double, y: Double))]? {
        let em = GlyphConstants.oneEm
        if let pairs = variableAnchorOffset {
            return pairs.map { anchor, o in
                var y = o.y * em
                if anchor.rawValue.hasPrefix("top") { y -= baselineOffset } else if anchor.rawValue.hasPrefix("bottom") { y += baselineOffset }
                return (anchor, (o.x * em, y))
            }
        }
        guard let anchors = variableAnchor else { return nil }
        let given: Offset = radialOffset.map { .radial($0 * em) } ?? .text(x: textOffset.x * em, y: textOffset.y * em)
        return anchors.map { ($0, offset(anchor: $0, given)) }
    }

    /// The text offset for a layer without variable anchors (GL JS's symbol layout): the radial
    /// offset through `offset(anchor:)` when it is non-zero, else `text-offset` × 24.
    public static func staticTextOffset(anchor: SymbolAnchor, radialOffset: Double, textOffset: (x: Double, y: Double)) -> (x: Double, y: Double) {
        if radialOffset != 0 { return offset(anchor: anchor, .radial(radialOffset * GlyphConstants.oneEm)) }
        return (textOffset.x * GlyphConstants.oneEm, textOffset.y * GlyphConstants.oneEm)
    }
}
