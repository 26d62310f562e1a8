import GLMapCore
import GLMapStyle

/// A line layer over one tile: extruded line geometry (see `LineVertex`) in tile units with
/// per-vertex paint attributes.
///
/// Dashed (`line-dasharray`) and gradient (`line-gradient`) layers also get `fxVertices`, a
/// second vertex array parallel to `vertices` (`LineBucket.fxLayout` floats per vertex), the dash
/// patterns' signed-distance `atlas` and the gradient's `ramp`. Dash positions are measured as
/// MapLibre measures them: `linesofar` in tile units from the start of each line of the tile
/// (where geojson-vt or the vector tile cut it), shown on screen through `u_tileratio` =
/// 2^(floor(camera zoom) − tile zoom) · 512 / 8192; without line metrics `linesofar` restarts at
/// 0 past 16384 tile units (`LineTessellator.distanceResetLimit`); with line metrics (a GeoJSON
/// source's `lineMetrics`: the piece's `clip` range of the whole line) it is the progress along
/// the whole line × 32767. A gradient is sampled from one ramp row per distinct clip range, with
/// the piece's own 0…1 progress; polygon rings have no line metrics and read
/// `LineTiling.ringProgress` of their linesofar.
public struct LineBucket: Sendable {
    /// The evaluated layer the bucket was built from.
    public let layer: EvaluatedLineLayer
    /// `stride` floats per vertex: `VertexLayout.line`, then `paint`'s block.
    public var vertices: [Float] = []
    /// Which line properties are attributes and which uniforms.
    public let paint: PaintLayout
    /// Floats per vertex.
    public var stride: Int { VertexLayout.line + paint.floatsPerVertex }
    /// Triangle list into `vertices`, three indices a triangle.
    public var indices: [UInt32] = []
    /// Dash/gradient data, `LineBucket.fxLayout` floats per vertex (empty for plain lines).
    public var fxVertices: [Float] = []
    /// Dash patterns of the layer (nil when nothing is dashed).
    public var atlas: LineAtlas?
    /// The evaluated `line-gradient` (nil without one).
    public var ramp: ColorRamp?
    /// A patterned layer's pattern inputs, `VertexLayout.pattern` floats per vertex (parallel
    /// to `vertices` and `fxVertices`, which then carry linesofar and the floor width).
    public var patternVertices: [Float] = []

    /// fx vertex: linesofar (tile units), floorwidth, progress within the piece, gradient ramp
    /// row, dash-to (atlas row, rows, length), dash-from (same).
    public static let fxLayout = 10

    /// `next`'s features (the layer at the tile zoom + 1) give composite values their second zoom.
    let nextFeatures: [EvaluatedLine]?

    /// Extrudes `layer`'s lines; `next` is the layer at tile zoom + 1 for composite values.
    public init(_ layer: EvaluatedLineLayer, next: EvaluatedLineLayer? = nil) {
        self.layer = layer
        paint = PaintLayout(program: "line", features: layer.features, source: layer.paint, value: EvaluatedLine.paint)
        nextFeatures = Bucket.aligned(layer.features, next?.features)
        let effects = layer.hasDashes || layer.gradient != nil || layer.patterned
        let cap: LineCap = { switch layer.cap { case .butt: return .butt; case .round: return .round; case .square: return .square } }()
        let round = layer.cap == .round
        // MapLibre's extra vertex pairs 15 px from sharp corners (in tiles over-scaled up to 16×).
        let overscale = layer.tile?.overscaleFactor ?? 1
        let pixelsPerUnit: Double? = overscale <= 16 ? 512 * overscale / LineTiling.tileExtent : nil
        let margin = Self.cutMargin(layer, next: nextFeatures, pixelsPerUnit: pixelsPerUnit)
        var atlas = LineAtlas()
        var geometry = LineGeometry()
        var maxLineLength = 0.0
        // Gradient ramp rows: one per distinct progress range of a piece.
        var clips: [(start: Double, end: Double)] = []
        var clipRows: [Key2: Int] = [:]
        func row(_ start: Double, _ end: Double) -> Int {
            let key = Key2(a: start, b: end)
            if let r = clipRows[key] { return r }
            clips.append((start, end))
            clipRows[key] = clips.count - 1
            return clips.count - 1
        }
        for (n, f) in layer.features.enumerated() {
            let join: LineJoin = { switch f.join { case .miter: return .miter; case .bevel: return .bevel; case .round: return .round } }()
            var tess = LineTessellator(join: join, cap: cap, miterLimit: layer.miterLimit, roundLimit: layer.roundLimit,
                                       pixelsPerUnit: pixelsPerUnit)
            let values = paint.vertexValues(f, next: nextFeatures?[n], value: EvaluatedLine.paint)
            let pattern = f.pattern.map(PatternVertex.floats)
            if layer.patterned && pattern == nil { continue }
            var dash: (to: DashEntry, from: DashEntry)?
            if let to = f.dasharray {
                dash = (atlas.dash(to, round: round), atlas.dash(f.dasharrayFrom ?? to, round: round))
            }
            for part in f.parts {
                geometry.vertices.removeAll(keepingCapacity: true)
                geometry.indices.removeAll(keepingCapacity: true)
                guard effects else {
                    if let margin, let pieces = Self.pieces(part.coords, closed: part.closed, margin: margin) {
                        for piece in pieces { tess.append(piece, closed: false, into: &geometry) }
                    } else {
                        _ = part.coords.withUnsafeBufferPointer { tess.append($0, closed: part.closed, into: &geometry) }
                    }
                    appendPaint(geometry, values)
                    continue
                }
                // Line metrics exist for lines, not polygon rings (geojson-vt tracks them for lines only).
                let clip = part.closed ? nil : f.clip
                let ringProgress = layer.gradient != nil && part.closed
                tess.distanceResetLimit = clip == nil ? LineTiling.lineSoFarResetDistance : nil
                let length = part.coords.withUnsafeBufferPointer { tess.append($0, closed: part.closed, into: &geometry) }
                guard !geometry.vertices.isEmpty else { continue }
                let range = clip ?? (0, 1)
                // MapLibre's longest line (step ramp resolution) counts lines with metrics only.
                if layer.gradient != nil && !part.closed { maxLineLength = max(maxLineLength, length) }
                let rampRow = layer.gradient != nil ? row(range.start, range.end) : 0
                appendPaint(geometry, values)
                let to = dash?.to ?? DashEntry(y: 0, height: 0, width: 1)
                appendFx(geometry, length: part.closed ? 0 : length, metrics: clip, rampRow: rampRow, floorWidth: f.floorWidth,
                         dash: (to, dash?.from ?? to), ringProgress: ringProgress)
                if let pattern { for _ in geometry.vertices { patternVertices.append(contentsOf: pattern) } }
            }
        }
        if layer.hasDashes { self.atlas = atlas }
        if let g = layer.gradient { finishRamp(g, clips: clips, maxLineTiles: maxLineLength / LineTiling.tileExtent) }
    }

    /// Appends a tessellated part's vertices with the feature's paint, and its triangles; each
    /// extrusion component rounded to MapLibre's vertex byte (`LineTiling.storedExtrusion`).
    private mutating func appendPaint(_ geometry: LineGeometry, _ values: [Float]) {
        let base = UInt32(vertices.count / stride)
        for v in geometry.vertices {
            vertices.append(v.x); vertices.append(v.y)
            vertices.append(Float(LineTiling.storedExtrusion(Double(v.ex)))); vertices.append(Float(LineTiling.storedExtrusion(Double(v.ey))))
            vertices.append(v.nx); vertices.append(v.ny)
            vertices.append(v.distance); vertices.append(v.direction)
            vertices.append(contentsOf: values)
        }
        for idx in geometry.indices { indices.append(base + idx) }
    }

    /// Appends the fx block of each vertex of one tessellated piece (see `fxLayout`). `metrics`:
    /// the line progress range the piece covers (linesofar from progress) or nil (linesofar in
    /// tile units). `ringProgress`: a polygon ring of a gradient layer, which has no line
    /// metrics: its progress is its stored linesofar / 32767 (`LineTiling.ringProgress`).
    private mutating func appendFx(_ geometry: LineGeometry, length: Double, metrics: (start: Double, end: Double)?,
                                   rampRow: Int, floorWidth: Double, dash: (to: DashEntry, from: DashEntry), ringProgress: Bool) {
        let range = metrics ?? (0, 1)
        let (to, from) = dash
        let invLength = length > 0 ? 1 / length : 0
        for v in geometry.vertices {
            let d = Double(v.distance)
            let uvx = ringProgress ? LineTiling.ringProgress(linesofar: d) : min(1, max(0, d * invLength))
            let linesofar = metrics != nil
                ? (range.start + (range.end - range.start) * uvx) * LineTiling.metricsLineDistance
                : d
            fxVertices.append(Float(LineTiling.storedLineSoFar(linesofar)))
            fxVertices.append(Float(floorWidth))
            fxVertices.append(Float(uvx))
            fxVertices.append(Float(rampRow))
            fxVertices.append(Float(to.y)); fxVertices.append(Float(to.height)); fxVertices.append(Float(to.width))
            fxVertices.append(Float(from.y)); fxVertices.append(Float(from.height)); fxVertices.append(Float(from.width))
        }
    }

    /// The gradient's ramp: one row per distinct progress range (`clips`), or past
    /// `LineTiling.maxRampRanges` one [0, 1] row with each vertex's progress mapped onto it;
    /// step gradients at MapLibre's step resolution.
    private mutating func finishRamp(_ g: PropertyValue, clips: [(start: Double, end: Double)], maxLineTiles: Double) {
        var clips = clips
        if clips.count > LineTiling.maxRampRanges {
            // Too many rows for one texture: fall back to one [0, 1] row (progress per vertex).
            var i = 0
            while i < fxVertices.count {
                let c = clips[Int(fxVertices[i + 3])]
                fxVertices[i + 2] = Float(c.start + (c.end - c.start) * Double(fxVertices[i + 2]))
                fxVertices[i + 3] = 0
                i += Self.fxLayout
            }
            clips = [(0, 1)]
        }
        if layer.gradientIsStep {
            let overzoom = LineTiling.stepRampOverzoom(tileZoom: layer.tile?.canonical.z ?? 0, sourceMaxzoom: layer.sourceMaxzoom)
            ramp = ColorRamp(gradient: g.expression,
                             width: ColorRamp.stepWidth(maxLineTiles: maxLineTiles, overzoom: overzoom),
                             nearest: true, clips: clips)
        } else {
            ramp = ColorRamp(gradient: g.expression, clips: clips)
        }
    }

    private struct Key2: Hashable { var a: Double; var b: Double }
}
