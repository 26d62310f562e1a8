import GLMapCore

/// Which frame a translation is expressed in (`*-translate-anchor`).
public enum TranslateAnchor: String, Sendable {
    case map, viewport
}

/// Line caps and joins as the style names them (`line-cap`, `line-join`).
public enum LineCapStyle: String, Sendable { case butt, round, square }
public enum LineJoinStyle: String, Sendable { case bevel, round, miter }

/// Paint of a `background` layer at one zoom.
public struct EvaluatedBackground: Sendable {
    public var color: Color
    public var opacity: Double
}

/// One feature of a fill layer with its evaluated paint.
public struct EvaluatedFill: Sendable {
    public var polygons: [ProjectedPolygon]
    public var color: Color
    public var opacity: Double
    /// The antialiasing outline colour (fill-outline-color, else fill-color).
    public var outlineColor: Color
    /// What each tile draws (`FillTiler`): the geometry cut, snapped and, for lines, grouped into
    /// rings as MapLibre's tiles hold it. Empty: draw `polygons` as they are.
    public var tiles: [FillTile] = []
}

/// A `fill` layer evaluated at one zoom: features in draw order (sort key applied).
public struct EvaluatedFillLayer: Sendable {
    public var id: String
    public var antialias: Bool
    /// Translation in CSS pixels.
    public var translate: (x: Double, y: Double)
    public var translateAnchor: TranslateAnchor
    public var features: [EvaluatedFill]
    /// The bound paint's expressions and tile zoom (the GPU's uniforms and attributes follow from
    /// them). An unset fill-outline-color carries fill-color's expression.
    public var paint = PaintSource()
}

/// One line (or polygon ring) with its evaluated paint.
public struct EvaluatedLine: Sendable {
    /// Parts, flat unit-world coordinates, and whether each is a closed ring (polygon outline).
    public var parts: [(coords: [Double], closed: Bool)]
    public var join: LineJoinStyle
    public var color: Color
    public var opacity: Double
    public var width: Double
    public var gapWidth: Double
    public var offset: Double
    public var blur: Double
    /// `line-dasharray` in line widths, if set: the pattern MapLibre cross-fades *to*, i.e. the
    /// value at the integer zoom `floor(zoom)` (negative entries clamped to 0).
    public var dasharray: [Double]?
    /// The pattern cross-faded *from* (at `floor(zoom) - 1` between integer zooms, at
    /// `floor(zoom) + 1` on them); nil when `dasharray` is nil.
    public var dasharrayFrom: [Double]? = nil
    /// `line-width` at the integer zoom `floor(zoom)` (MapLibre's `floorwidth`): dash lengths
    /// are in units of this width.
    public var floorWidth: Double = 1
}

/// A `line` layer evaluated at one zoom.
public struct EvaluatedLineLayer: Sendable {
    public var id: String
    public var cap: LineCapStyle
    public var miterLimit: Double
    public var roundLimit: Double
    public var translate: (x: Double, y: Double)
    public var translateAnchor: TranslateAnchor
    /// `line-gradient`, when set (needs the source's `lineMetrics`).
    public var gradient: PropertyValue?
    public var features: [EvaluatedLine]
    /// The zoom the layer was evaluated at (dash scale and tile grid derive from it).
    public var zoom: Double = 0
    /// The source keeps line metrics (`lineMetrics: true`): dashes then run along the line's
    /// progress, as MapLibre measures them, instead of its length.
    public var lineMetrics: Bool = false
    /// The source's `maxzoom` (tiles deeper than this are over-scaled).
    public var sourceMaxzoom: Double = 18
    /// The source's tile buffer in tile pixels (of 512).
    public var sourceBuffer: Double = 128
    /// The gradient's top-level operator is `step`: its colour ramp is sampled with NEAREST at
    /// a resolution that follows the line length (MapLibre's `stepInterpolant`).
    public var gradientIsStep: Bool = false
    /// Scale of the cross-faded-from dash pattern (2 between integer zooms, 0.5 on them); the
    /// *to* pattern has scale 1. A still frame shows the *to* pattern only (mix = 1).
    public var dashFromScale: Double = 0.5
    /// The bound paint's expressions and tile zoom.
    public var paint = PaintSource()

    /// Whether any feature draws dashes.
    public var hasDashes: Bool { features.contains { $0.dasharray != nil } }

    /// CSS px per unit-world unit at floor(zoom), the scale of MapLibre's extra vertex pair 15 px
    /// on each side of a corner sharper than 75° (line_bucket's SHARP_CORNER_OFFSET); nil where
    /// MapLibre places none: tiles over-scaled more than 16× (floor(zoom) − source maxzoom > 4).
    public var sharpCornerPixelsPerUnit: Double? {
        let floorZoom = max(0, zoom.rounded(.down))
        let tileZoom = min(floorZoom, max(0, sourceMaxzoom.rounded(.down)))
        guard floorZoom - tileZoom <= 4 else { return nil }
        return 512 * Double(1 << Int(min(floorZoom, 30)))
    }
}

/// One point feature (all its vertices) with its evaluated paint.
public struct EvaluatedCircle: Sendable {
    /// Centres, flat unit-world coordinates.
    public var centers: [Double]
    public var radius: Double
    public var color: Color
    public var blur: Double
    public var opacity: Double
    public var strokeWidth: Double
    public var strokeColor: Color
    public var strokeOpacity: Double
}

/// A `circle` layer evaluated at one zoom.
public struct EvaluatedCircleLayer: Sendable {
    public var id: String
    public var translate: (x: Double, y: Double)
    public var translateAnchor: TranslateAnchor
    /// `circle-pitch-scale`: map (default) or viewport.
    public var pitchScale: TranslateAnchor
    /// `circle-pitch-alignment`: viewport (default) or map.
    public var pitchAlignment: TranslateAnchor
    public var features: [EvaluatedCircle]
    /// The bound paint's expressions and tile zoom.
    public var paint = PaintSource()
}

/// A layer ready to draw: the style's values evaluated for one zoom and every feature that passed
/// the filter. Both the GPU path (through tessellation) and the CPU reference renderer consume it.
public enum EvaluatedLayer: Sendable {
    case background(EvaluatedBackground)
    case fill(EvaluatedFillLayer)
    case line(EvaluatedLineLayer)
    case circle(EvaluatedCircleLayer)
}
