import GLMapCore
import GLMapStyle

/// A symbol layer's layer-wide layout and paint values at one zoom, with GL JS's `auto` rules
/// resolved (`SymbolStyleLayer.recalculate`): rotation alignment `auto` is `map` for line
/// placement and `viewport` for points; pitch alignment `auto` follows the rotation alignment
/// (text: `map` only for `map`); point placement's writing modes lose duplicates and default to
/// horizontal. Layout reads these at the tile zoom, placement and drawing at the frame zoom.
public struct SymbolLayerValues: Sendable {
    /// `symbol-placement`.
    public var placement: GLMapStyle.SymbolPlacement
    /// `text-rotation-alignment` resolved.
    public var textRotationAlignment: TextRotationAlignment
    /// `icon-rotation-alignment` resolved.
    public var iconRotationAlignment: IconRotationAlignment
    /// `text-pitch-alignment` resolved.
    public var textPitchAlignment: TextPitchAlignment
    /// `icon-pitch-alignment` resolved.
    public var iconPitchAlignment: IconPitchAlignment
    /// `text-keep-upright`.
    public var textKeepUpright: Bool
    /// `icon-keep-upright`.
    public var iconKeepUpright: Bool
    /// `text-overlap`, else `always` for `text-allow-overlap`, else `never`.
    public var textOverlap: OverlapMode
    /// `icon-overlap`, else `always` for `icon-allow-overlap`, else `never`.
    public var iconOverlap: OverlapMode
    /// `text-allow-overlap` as written.
    public var textAllowOverlap: Bool
    /// `icon-allow-overlap` as written.
    public var iconAllowOverlap: Bool
    /// `text-ignore-placement`.
    public var textIgnorePlacement: Bool
    /// `icon-ignore-placement`.
    public var iconIgnorePlacement: Bool
    /// `text-optional`.
    public var textOptional: Bool
    /// `icon-optional`.
    public var iconOptional: Bool
    /// `icon-text-fit`.
    public var iconTextFit: GLMapStyle.IconTextFit
    /// `symbol-z-order`.
    public var zOrder: SymbolZOrder
    /// `text-padding` in CSS px.
    public var textPadding: Double
    /// `symbol-avoid-edges`.
    public var avoidEdges: Bool
    /// `text-writing-mode` (point placement; others: none).
    public var writingModes: [WritingMode]
    /// Whether `text-variable-anchor` or `text-variable-anchor-offset` is set.
    public var hasVariablePlacement: Bool
    /// Whether `symbol-sort-key` is set and not a constant.
    public var hasSortKey: Bool
    /// `text-translate` (CSS px) and its anchor.
    public var textTranslate: (x: Double, y: Double)
    /// `text-translate-anchor`.
    public var textTranslateAnchor: TranslateAnchor
    /// `icon-translate` (CSS px).
    public var iconTranslate: (x: Double, y: Double)
    /// `icon-translate-anchor`.
    public var iconTranslateAnchor: TranslateAnchor
    /// Whether `text-halo-width` is not the constant 0 (GL JS's `constantOr(1) !== 0`).
    public var textHasHalo: Bool
    /// Whether `icon-halo-width` is not the constant 0.
    public var iconHasHalo: Bool
    /// Whether `text-opacity` is not the constant 0.
    public var drawsText: Bool
    /// Whether `icon-opacity` is not the constant 0.
    public var drawsIcons: Bool
    /// Whether `icon-size` is not the constant 1 (icons then sample linearly).
    public var iconScaled: Bool

    /// The values of `layer` at `evaluator`'s zoom.
    public init(layer: Layer, evaluator e: StyleEvaluator) {
        typealias P = SymbolProperties
        placement = e.value(P.symbolPlacement, layer)
        let pointPlacement = placement == .point
        var textRotation = e.value(P.textRotationAlignment, layer)
        if textRotation == .auto { textRotation = pointPlacement ? .viewport : .map }
        textRotationAlignment = textRotation
        var iconRotation = e.value(P.iconRotationAlignment, layer)
        if iconRotation == .auto { iconRotation = pointPlacement ? .viewport : .map }
        iconRotationAlignment = iconRotation
        var textPitch = e.value(P.textPitchAlignment, layer)
        if textPitch == .auto { textPitch = textRotation == .map ? .map : .viewport }
        textPitchAlignment = textPitch
        var iconPitch = e.value(P.iconPitchAlignment, layer)
        if iconPitch == .auto { iconPitch = iconRotation == .map ? .map : .viewport }
        iconPitchAlignment = iconPitch
        textKeepUpright = e.value(P.textKeepUpright, layer)
        iconKeepUpright = e.value(P.iconKeepUpright, layer)
        textAllowOverlap = e.value(P.textAllowOverlap, layer)
        iconAllowOverlap = e.value(P.iconAllowOverlap, layer)
        if let o = e.value(P.textOverlap, layer) { textOverlap = OverlapMode(rawValue: o.rawValue) ?? .never } else {
            textOverlap = textAllowOverlap ? .always : .never
        }
        if let o = e.value(P.iconOverlap, layer) { iconOverlap = OverlapMode(rawValue: o.rawValue) ?? .never } else {
            iconOverlap = iconAllowOverlap ? .always : .never
        }
        textIgnorePlacement = e.value(P.textIgnorePlacement, layer)
        iconIgnorePlacement = e.value(P.iconIgnorePlacement, layer)
        textOptional = e.value(P.textOptional, layer)
        iconOptional = e.value(P.iconOptional, layer)
        iconTextFit = e.value(P.iconTextFit, layer)
        zOrder = e.value(P.symbolZOrder, layer)
        textPadding = e.value(P.textPadding, layer)
        avoidEdges = e.value(P.symbolAvoidEdges, layer)
        if pointPlacement {
            var modes: [WritingMode] = []
            for m in e.value(P.textWritingMode, layer) ?? [] {
                let w: WritingMode = m == .vertical ? .vertical : .horizontal
                if !modes.contains(w) { modes.append(w) }
            }
            writingModes = modes.isEmpty ? [.horizontal] : modes
        } else {
            writingModes = []
        }
        hasVariablePlacement = layer.values[P.textVariableAnchor.name] != nil || layer.values[P.textVariableAnchorOffset.name] != nil
        if let s = layer.values[P.symbolSortKey.name]?.expression { hasSortKey = s.constantValue == nil } else { hasSortKey = false }
        func pair(_ a: [Double]) -> (x: Double, y: Double) { a.count == 2 ? (a[0], a[1]) : (0, 0) }
        textTranslate = pair(e.value(P.textTranslate, layer))
        textTranslateAnchor = e.value(P.textTranslateAnchor, layer)
        iconTranslate = pair(e.value(P.iconTranslate, layer))
        iconTranslateAnchor = e.value(P.iconTranslateAnchor, layer)
        func notConstant(_ p: StyleProperty, equalTo v: Double, defaultIs d: Double) -> Bool {
            guard let pv = layer.values[p.name] else { return d != v }
            guard pv.expression.isFeatureConstant else { return true }
            return (e.value(p, in: layer).number ?? d) != v
        }
        textHasHalo = notConstant(P.textHaloWidth, equalTo: 0, defaultIs: 0)
        iconHasHalo = notConstant(P.iconHaloWidth, equalTo: 0, defaultIs: 0)
        drawsText = notConstant(P.textOpacity, equalTo: 0, defaultIs: 1)
        drawsIcons = notConstant(P.iconOpacity, equalTo: 0, defaultIs: 1)
        iconScaled = notConstant(P.iconSize, equalTo: 1, defaultIs: 1)
    }

    /// Text follows lines: placement along lines and rotation alignment not `viewport`.
    public var textAlongLine: Bool { textRotationAlignment != .viewport && placement != .point }
    /// Icons follow lines: rotation alignment `map` and placement along lines.
    public var iconAlongLine: Bool { iconRotationAlignment == .map && placement != .point }
    /// Whether symbols may overlap (GL JS's `canOverlap`).
    public var canOverlap: Bool { textOverlap != .never || iconOverlap != .never || textIgnorePlacement || iconIgnorePlacement }
    /// Whether features are sorted by `symbol-sort-key` (not with `viewport-y` z-order).
    public var sortFeaturesByKey: Bool { zOrder != .viewportY && hasSortKey }
    /// Whether overlapping symbols are drawn by viewport y.
    public var sortFeaturesByY: Bool {
        (zOrder == .viewportY || (zOrder == .auto && !sortFeaturesByKey)) && canOverlap
    }
}

extension SymbolLayerValues {
    /// What GL JS's `groupByLayout` groups layers by: type, source, source layer, zoom range,
    /// filter and layout (JSON with sorted keys). Layers with the same key share one bucket in GL
    /// JS, placed by the first of them and drawn by each with its own paint.
    public static func layoutKey(_ layer: Layer) -> String {
        func canonical(_ v: JSONValue) -> String {
            switch v {
            case .object(let o): return "{" + o.keys.sorted().map { "\(JSONValue.string($0).jsonText):\(canonical(o[$0]!))" }.joined(separator: ",") + "}"
            case .array(let a): return "[" + a.map(canonical).joined(separator: ",") + "]"
            default: return v.jsonText
            }
        }
        let layoutNames = Set(layer.type.properties.filter(\.isLayout).map(\.name))
        let layout = layer.values.keys.filter { layoutNames.contains($0) }.sorted().map { "\($0)=\(canonical(layer.values[$0]!.json))" }
        return [layer.type.rawValue, layer.source ?? "", layer.sourceLayer ?? "", "\(layer.minzoom)", "\(layer.maxzoom)",
                layer.filterJSON.map(canonical) ?? "", layer.isVisible ? "visible" : "none", layout.joined(separator: ";")].joined(separator: "/")
    }
}
