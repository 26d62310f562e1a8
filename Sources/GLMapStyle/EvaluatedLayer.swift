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
}

/// A `fill` layer evaluated at one zoom: features in draw order (sort key applied).
public struct EvaluatedFillLayer: Sendable {
    public var id: String
    public var antialias: Bool
    /// Translation in CSS pixels.
    public var translate: (x: Double, y: Double)
    public var translateAnchor: TranslateAnchor
    public var features: [EvaluatedFill]
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
    /// `line-dasharray` in line widths, if set.
    public var dasharray: [Double]?
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
}

/// A layer ready to draw: the style's values evaluated for one zoom and every feature that passed
/// the filter. Both the GPU path (through tessellation) and the CPU reference renderer consume it.
public enum EvaluatedLayer: Sendable {
    case background(EvaluatedBackground)
    case fill(EvaluatedFillLayer)
    case line(EvaluatedLineLayer)
    case circle(EvaluatedCircleLayer)
}
