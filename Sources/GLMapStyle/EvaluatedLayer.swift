import GLMapCore
import GLMapTiles

/// Paint of a `background` layer at one zoom.
public struct EvaluatedBackground: Sendable {
    /// `background-color` at the zoom (spec default black).
    public var color: Color
    /// `background-opacity` at the zoom, 0…1 (default 1).
    public var opacity: Double
    /// Whether the layer sets `background-pattern` (then it draws `pattern`, or nothing when its
    /// images are missing).
    public var patterned = false
    /// The pattern at the zoom, when both its images exist.
    public var pattern: EvaluatedPattern? = nil
    /// The atlas the pattern is placed in (patterned layers).
    public var patternAtlas: PatternAtlas? = nil
}

/// One feature of a fill layer with its evaluated paint.
public struct EvaluatedFill: Sendable {
    /// The feature's polygons in unit-world coordinates (line features closed into rings).
    public var polygons: [FlatPolygon]
    /// `fill-color` for this feature (default black).
    public var color: Color
    /// `fill-opacity` for this feature, 0…1 (default 1).
    public var opacity: Double
    /// The antialiasing outline colour (fill-outline-color, else fill-color).
    public var outlineColor: Color
    /// The feature's index in its source or tile layer.
    public var index: Int = 0
    /// `fill-pattern`, when the layer sets one and its images exist (then `color` is not drawn).
    public var pattern: EvaluatedPattern? = nil
    /// Whether the feature is a polygon (not lines closed into rings): only a polygon's interior
    /// may be cut near its tile's square, which keeps what a valid ring covers but not what
    /// earcut makes of a line's crossing ring.
    public var isPolygon = false
}

/// A `fill` layer evaluated at one zoom: features in draw order (sort key applied).
public struct EvaluatedFillLayer: Sendable {
    /// The style layer's `id`.
    public var id: String
    /// `fill-antialias` (default true): whether the 1-pixel antialiasing outline is drawn.
    public var antialias: Bool
    /// Translation in CSS pixels.
    public var translate: (x: Double, y: Double)
    /// `fill-translate-anchor` (default map).
    public var translateAnchor: TranslateAnchor
    /// The features that passed the filter, in draw order (`fill-sort-key` ascending, stable).
    public var features: [EvaluatedFill]
    /// The bound paint's expressions and tile zoom (the GPU's uniforms and attributes follow from
    /// them). An unset fill-outline-color carries fill-color's expression.
    public var paint = PaintSource()
    /// The tile the layer was evaluated over (geometry in its units), nil for whole-world layers.
    public var tile: OverscaledTileID?
    /// Whether the layer sets `fill-pattern`: its features are drawn with their pattern (a
    /// feature whose images are missing is left out).
    public var patterned = false
    /// Whether the antialiasing outline is drawn with the pattern too (patterned, and
    /// `fill-outline-color` unset: MapLibre's fill_outline_pattern).
    public var patternOutline = false
    /// The atlas the features' patterns are placed in (patterned layers).
    public var patternAtlas: PatternAtlas?
}

extension EvaluatedFillLayer {
    /// Whether MapLibre draws the layer's interior in its opaque pass (below any 3D layer): no
    /// pattern, `fill-color` and `fill-opacity` the same for every feature (not data-driven), of
    /// alpha 1 and opacity 1 at `zoom`.
    public func drawsInOpaquePass(zoom: Double) -> Bool {
        guard !patterned else { return false }
        for p in [FillProperties.fillColor, FillProperties.fillOpacity] {
            switch paint.variation(p) {
            case .constant, .camera: continue
            case .source, .composite: return false
            }
        }
        return paint.value(FillProperties.fillColor, zoom: zoom).color?.a == 1 && paint.value(FillProperties.fillOpacity, zoom: zoom).number == 1
    }
}

extension EvaluatedBackground {
    /// Whether MapLibre draws the background in its opaque pass (below any 3D layer): no pattern,
    /// alpha 1, opacity 1.
    public var drawsInOpaquePass: Bool { !patterned && color.a == 1 && opacity == 1 }
}

/// One line (or polygon ring) with its evaluated paint.
public struct EvaluatedLine: Sendable {
    /// Parts, flat unit-world coordinates, and whether each is a closed ring (polygon outline).
    public var parts: [(coords: [Double], closed: Bool)]
    /// `line-join` for this feature, at the tile zoom (default miter).
    public var join: LineJoin
    /// `line-color` for this feature (default black).
    public var color: Color
    /// `line-opacity` for this feature, 0…1 (default 1).
    public var opacity: Double
    /// `line-width` in CSS pixels (default 1).
    public var width: Double
    /// `line-gap-width` in CSS pixels (default 0): when positive, two lines are drawn this far apart.
    public var gapWidth: Double
    /// `line-offset` in CSS pixels (default 0), positive to the right of the line's direction.
    public var offset: Double
    /// `line-blur` in CSS pixels (default 0).
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
    /// With line metrics: the share of the whole line this tile piece covers (geojson-vt's
    /// `mapbox_clip_start` / `mapbox_clip_end`), nil otherwise.
    public var clip: (start: Double, end: Double)?
    /// The feature's index in its source or tile layer.
    public var index: Int = 0
    /// `line-pattern`, when the layer sets one and its images exist (then `color` and the dash
    /// array are not drawn).
    public var pattern: EvaluatedPattern? = nil
}

/// A `line` layer evaluated at one zoom.
public struct EvaluatedLineLayer: Sendable {
    /// The style layer's `id`.
    public var id: String
    /// `line-cap` at the tile zoom (default butt).
    public var cap: LineCap
    /// `line-miter-limit` at the tile zoom (default 2): sharper miters are drawn as bevels.
    public var miterLimit: Double
    /// `line-round-limit` at the tile zoom (default 1.05): flatter round joins are drawn as miters.
    public var roundLimit: Double
    /// `line-translate` in CSS pixels (default 0, 0).
    public var translate: (x: Double, y: Double)
    /// `line-translate-anchor` (default map).
    public var translateAnchor: TranslateAnchor
    /// `line-gradient`, when set (needs the source's `lineMetrics`).
    public var gradient: PropertyValue?
    /// The features that passed the filter, in draw order (`line-sort-key` ascending, stable).
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
    /// The tile the layer was evaluated over (geometry in its units), nil for whole-world layers.
    public var tile: OverscaledTileID?

    /// Whether any feature draws dashes.
    public var hasDashes: Bool { features.contains { $0.dasharray != nil } }
    /// Whether the layer sets `line-pattern` (MapLibre then draws neither dashes nor gradient).
    public var patterned = false
    /// The atlas the features' patterns are placed in (patterned layers).
    public var patternAtlas: PatternAtlas?

}

/// One point feature (all its vertices) with its evaluated paint.
public struct EvaluatedCircle: Sendable {
    /// Centres, flat unit-world coordinates.
    public var centers: [Double]
    /// `circle-radius` in CSS pixels (default 5).
    public var radius: Double
    /// `circle-color` (default black).
    public var color: Color
    /// `circle-blur` as a fraction of the radius (default 0; 1 blurs from the centre).
    public var blur: Double
    /// `circle-opacity`, 0…1 (default 1).
    public var opacity: Double
    /// `circle-stroke-width` in CSS pixels (default 0), drawn outside the radius.
    public var strokeWidth: Double
    /// `circle-stroke-color` (default black).
    public var strokeColor: Color
    /// `circle-stroke-opacity`, 0…1 (default 1).
    public var strokeOpacity: Double
    /// The feature's index in its source or tile layer.
    public var index: Int = 0
}

/// A `circle` layer evaluated at one zoom.
public struct EvaluatedCircleLayer: Sendable {
    /// The style layer's `id`.
    public var id: String
    /// `circle-translate` in CSS pixels (default 0, 0).
    public var translate: (x: Double, y: Double)
    /// `circle-translate-anchor` (default map).
    public var translateAnchor: TranslateAnchor
    /// `circle-pitch-scale`: map (default) or viewport.
    public var pitchScale: CirclePitchScale
    /// `circle-pitch-alignment`: viewport (default) or map.
    public var pitchAlignment: CirclePitchAlignment
    /// Point groups in draw order: by `circle-sort-key`, then tile (row-major), then source order.
    public var features: [EvaluatedCircle]
    /// The bound paint's expressions and tile zoom.
    public var paint = PaintSource()
    /// The tile the layer was evaluated over (geometry in its units), nil for whole-world layers.
    public var tile: OverscaledTileID?
}

/// A layer ready to draw: the style's values evaluated for one zoom and every feature that passed
/// the filter. Both the GPU path (through tessellation) and the CPU reference renderer consume it.
public enum EvaluatedLayer: Sendable {
    /// A `background` layer: one colour over the whole frame.
    case background(EvaluatedBackground)
    /// A `fill` layer.
    case fill(EvaluatedFillLayer)
    /// A `line` layer.
    case line(EvaluatedLineLayer)
    /// A `circle` layer.
    case circle(EvaluatedCircleLayer)
    /// A `fill-extrusion` layer.
    case fillExtrusion(EvaluatedFillExtrusionLayer)
    /// A `heatmap` layer.
    case heatmap(EvaluatedHeatmapLayer)
}
