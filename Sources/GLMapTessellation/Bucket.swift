// Tessellation stage — contract
// Input: `EvaluatedLayer`s of one tile (features in draw order with evaluated paint, geometry in
// the tile's units, 8192 a side, Double). Output: one bucket per tile and layer: interleaved
// Float32 vertex arrays + UInt32 index arrays ready for upload, positions in tile units (small
// numbers: float32 keeps them exact whatever the zoom; the GL side maps them with the tile's
// matrix in Double).
// Camera independence: fills are triangulated in tile space, lines carry extrusion vectors
// (widths applied in the shader), circles are one instance each, so a new camera over the same
// tiles needs no new tessellation. Paint follows `PaintLayout`: only data-driven values are
// per-vertex (per-instance for circles) attributes, data-and-zoom ones as the pair at the tile
// zoom and the next; constants and zoom-only values are uniforms, set per frame.
// Invariants: every index < vertex count; no NaN in any vertex; non-finite input is dropped.
import GLMapCore
import GLMapStyle

/// The geometry part of the vertex layouts buckets produce, in Float32 components (interleaved,
/// tightly packed). Each vertex is followed by its bucket's paint block: the data-driven
/// properties of `PaintLayout` (`floatsPerVertex`), so a bucket's stride is geometry + paint.
public enum VertexLayout {
    /// fill: x, y
    public static let fill = 2
    /// fill outline (one quad per ring edge): startX, startY, endX, endY, t (0 start / 1 end), side (±1)
    public static let fillOutline = 6
    /// line: x, y, ex, ey, nx, ny, distance, direction
    public static let line = 8
    /// circle instance: cx, cy
    public static let circle = 2
    /// fill-extrusion: x, y, then a_normal_ed (MapLibre's packed normal, top flag and edge distance)
    public static let fillExtrusion = 6
    /// heatmap instance: cx, cy
    public static let heatmap = 2
    /// pattern inputs (a parallel array): pattern_from (4), pattern_to (4), pixel_ratio_from, pixel_ratio_to
    public static let pattern = 10
    /// symbol vertex: a_pos_offset (anchor x, y, offset x, y × 32), a_data (texture x, y, packed
    /// sizes), a_pixeloffset (pixel offset x, y × 16, smallest font scale x, y × 256)
    public static let symbol = 12
}

/// A layer's GPU-ready geometry over one tile.
public enum Bucket: Sendable {
    /// A background layer: nothing to tessellate, the paint alone.
    case background(EvaluatedBackground)
    /// A fill layer's triangles and outline quads.
    case fill(FillBucket)
    /// A line layer's extruded vertices.
    case line(LineBucket)
    /// A circle layer's instances.
    case circle(CircleBucket)
    /// A fill-extrusion layer's walls and roofs.
    case fillExtrusion(FillExtrusionBucket)
    /// A heatmap layer's points.
    case heatmap(HeatmapBucket)
    /// A symbol layer's laid-out glyphs and icons (built by `SymbolBucket`, not by `make`).
    case symbol(SymbolBucket)

    /// Tessellates a layer evaluated over one tile. `next`: the same layer evaluated with
    /// `compositeZoom` = tile zoom + 1 (feature for feature), whose composite paint values become
    /// the `a_<name>_next` attributes; nil when the layer has none (they then repeat the tile
    /// zoom's values).
    public static func make(_ layer: EvaluatedLayer, next: EvaluatedLayer? = nil) -> Bucket {
        switch layer {
        case .background(let b): return .background(b)
        case .fill(let f):
            if case .fill(let n)? = next { return .fill(FillBucket(f, next: n)) }
            return .fill(FillBucket(f))
        case .line(let l):
            if case .line(let n)? = next { return .line(LineBucket(l, next: n)) }
            return .line(LineBucket(l))
        case .circle(let c):
            if case .circle(let n)? = next { return .circle(CircleBucket(c, next: n)) }
            return .circle(CircleBucket(c))
        case .fillExtrusion(let x):
            if case .fillExtrusion(let n)? = next { return .fillExtrusion(FillExtrusionBucket(x, next: n)) }
            return .fillExtrusion(FillExtrusionBucket(x))
        case .heatmap(let h):
            if case .heatmap(let n)? = next { return .heatmap(HeatmapBucket(h, next: n)) }
            return .heatmap(HeatmapBucket(h))
        }
    }

    /// Whether the bucket draws nothing.
    public var isEmpty: Bool {
        switch self {
        case .background: return false
        case .fill(let f): return f.indices.isEmpty && f.outlineIndices.isEmpty
        case .line(let l): return l.indices.isEmpty
        case .circle(let c): return c.instanceCount == 0
        case .fillExtrusion(let x): return x.indices.isEmpty
        case .heatmap(let h): return h.instanceCount == 0
        case .symbol(let s): return s.layout.isEmpty
        }
    }

    /// `next`'s features when they pair one to one with `features` (else nil).
    static func aligned<F>(_ features: [F], _ next: [F]?) -> [F]? {
        guard let next, next.count == features.count else { return nil }
        return next
    }
}

extension Array where Element == Float {
    @inline(__always)
    mutating func append(color c: Color) {
        append(Float(c.r)); append(Float(c.g)); append(Float(c.b)); append(Float(c.a))
    }
}

extension EvaluatedFill {
    /// The fill properties bound to the fill programs (`GPUBinding.properties(of: .fill)`), one
    /// case each, so that `paint` names every one (a test checks the list against the table).
    enum Bound: String, BoundPaint {
        case opacity = "fill-opacity", color = "fill-color", outlineColor = "fill-outline-color"
    }

    /// The value of a bound fill property (programs fill and fill_outline).
    static func paint(_ f: EvaluatedFill, _ p: StyleProperty) -> PaintValue {
        switch Bound(p) {
        case .color: return .color(f.color)
        case .outlineColor: return .color(f.outlineColor)
        case .opacity: return .number(f.opacity)
        }
    }
}

extension EvaluatedLine {
    /// The line properties bound to the line program, one case each (see `EvaluatedFill.Bound`).
    enum Bound: String, BoundPaint {
        case opacity = "line-opacity", color = "line-color", width = "line-width", gapWidth = "line-gap-width"
        case offset = "line-offset", blur = "line-blur"
    }

    /// The value of a bound line property.
    static func paint(_ f: EvaluatedLine, _ p: StyleProperty) -> PaintValue {
        switch Bound(p) {
        case .color: return .color(f.color)
        case .opacity: return .number(f.opacity)
        case .width: return .number(f.width)
        case .gapWidth: return .number(f.gapWidth)
        case .offset: return .number(f.offset)
        case .blur: return .number(f.blur)
        }
    }
}

extension EvaluatedCircle {
    /// The circle properties bound to the circle program, one case each (see `EvaluatedFill.Bound`).
    enum Bound: String, BoundPaint {
        case radius = "circle-radius", color = "circle-color", blur = "circle-blur", opacity = "circle-opacity"
        case strokeWidth = "circle-stroke-width", strokeColor = "circle-stroke-color", strokeOpacity = "circle-stroke-opacity"
    }

    /// The value of a bound circle property.
    static func paint(_ f: EvaluatedCircle, _ p: StyleProperty) -> PaintValue {
        switch Bound(p) {
        case .radius: return .number(f.radius)
        case .color: return .color(f.color)
        case .blur: return .number(f.blur)
        case .opacity: return .number(f.opacity)
        case .strokeWidth: return .number(f.strokeWidth)
        case .strokeColor: return .color(f.strokeColor)
        case .strokeOpacity: return .number(f.strokeOpacity)
        }
    }
}

/// The bound paint properties of one layer type as cases (`EvaluatedFill.Bound` …).
protocol BoundPaint: RawRepresentable<String>, CaseIterable {}

extension BoundPaint {
    /// The case named by a bound property; a property bound in the table without a case here
    /// is a programming error (caught by the test that checks each list against the table).
    init(_ p: StyleProperty) {
        guard let b = Self(rawValue: p.name) else { preconditionFailure("\(p.name) is GPU-bound but has no paint case") }
        self = b
    }
}
