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

extension EvaluatedFill: PaintColumns {
    /// The fill properties bound to the fill programs (`GPUBinding.properties(of: .fill)`).
    static let columns: [PaintColumn<Self>] = [
        .number("fill-opacity") { $0.opacity }, .color("fill-color") { $0.color }, .color("fill-outline-color") { $0.outlineColor },
    ]
}

extension EvaluatedLine: PaintColumns {
    /// The line properties bound to the line program.
    static let columns: [PaintColumn<Self>] = [
        .number("line-opacity") { $0.opacity }, .color("line-color") { $0.color }, .number("line-width") { $0.width },
        .number("line-gap-width") { $0.gapWidth }, .number("line-offset") { $0.offset }, .number("line-blur") { $0.blur },
    ]
}

extension EvaluatedCircle: PaintColumns {
    /// The circle properties bound to the circle program.
    static let columns: [PaintColumn<Self>] = [
        .number("circle-radius") { $0.radius }, .color("circle-color") { $0.color }, .number("circle-blur") { $0.blur },
        .number("circle-opacity") { $0.opacity }, .number("circle-stroke-width") { $0.strokeWidth },
        .color("circle-stroke-color") { $0.strokeColor }, .number("circle-stroke-opacity") { $0.strokeOpacity },
    ]
}

/// One GPU-bound paint property of a layer type: its spec name and how an evaluated feature
/// gives its value.
struct PaintColumn<F>: Sendable {
    let name: String
    let read: @Sendable (F) -> PaintValue

    static func number(_ name: String, _ get: @escaping @Sendable (F) -> Double) -> Self { Self(name: name) { .number(get($0)) } }
    static func color(_ name: String, _ get: @escaping @Sendable (F) -> Color) -> Self { Self(name: name) { .color(get($0)) } }
}

/// An evaluated feature type whose GPU-bound properties are read through its columns, one per
/// property the table binds to its programs (a test checks each list against the table).
protocol PaintColumns {
    static var columns: [PaintColumn<Self>] { get }
}

extension PaintColumns {
    /// The value of a bound property for `f`; a property bound in the table without a column is
    /// a programming error.
    static func paint(_ f: Self, _ p: StyleProperty) -> PaintValue {
        columns.withUnsafeBufferPointer { columns in   // read in place: no retain of each column passed
            for i in columns.indices where columns[i].name == p.name { return columns[i].read(f) }
            preconditionFailure("\(p.name) is GPU-bound but has no paint column")
        }
    }
}
