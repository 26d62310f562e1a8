import GLMapCore
import GLMapStyle

/// Extruded line geometry (see `LineVertex`) with per-vertex paint attributes.
///
/// Dashed (`line-dasharray`) and gradient (`line-gradient`) layers also get `fxVertices`, a
/// second vertex array parallel to `vertices` (`LineBucket.fxLayout` floats per vertex), the dash
/// patterns' signed-distance `atlas` and the gradient's `ramp`. Dash positions are measured as
/// MapLibre measures them: `linesofar` in tile units (8192 per tile) of the tile zoom `tileZoom` =
/// min(floor(zoom), source maxzoom), shown on screen through `u_tileratio` =
/// 2^(floor(camera zoom) − tileZoom) / 16. So dashes have their nominal length (pattern × line
/// width at floor(zoom)) in CSS pixels at the integer zoom floor(zoom) and grow with the map up to
/// the next integer zoom; over-scaling cancels out, so the source maxzoom only sets the tile grid.
/// glmap draws untiled data, but MapLibre's dash phase and gradient sampling depend on its tiles:
/// - without line metrics, `linesofar` restarts at 0 where a line enters each tile's buffered
///   square (geojson-vt clipping); with line metrics (`lineMetrics: true`) it is the progress
///   along the whole line × 32767; both are snapped to even tile units (MapLibre's storage);
/// - a gradient is sampled from one ramp row per tile piece, the row spanning the progress range
///   that piece covers (MapLibre's line clips), with the piece's own 0…1 progress.
/// So dashed lines and line-metrics lines are cut into the same per-tile pieces
/// (`TileLineClipper`), each tessellated on its own, and the fragment shader keeps each piece's
/// fragments inside its tile (the fx tile position). Lines spanning more than
/// `TileLineClipper.maxTiles` tiles are drawn whole. Polygon rings have no line metrics: a
/// gradient reads them at `LineTiling.ringProgress` of their linesofar (cut per tile like dashes).
/// Without line metrics `linesofar` restarts at 0 past 16384 tile units within a piece, as
/// MapLibre's does (`LineTessellator.distanceResetLimit`). Not reproduced: geojson-vt's
/// simplification and integer rounding of tile coordinates.
public struct LineBucket: Sendable {
    /// The evaluated layer the bucket was built from.
    public let layer: EvaluatedLineLayer
    /// Unit-world point that positions are relative to (keeps Float positions precise).
    public let origin: (x: Double, y: Double)
    /// Unit-world bounds of the geometry (for world-copy culling).
    public var bounds = WorldBounds.empty
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
    /// Zoom of the tile grid dash distances are measured in (see the type's summary).
    public var tileZoom: Int = 0
    /// Dashes drawn with MapLibre Native's two-row dash texture (`NativeEmulation.dashRows`;
    /// the differential harness only, false everywhere else).
    package private(set) var nativeDashRows = false

    /// fx vertex: linesofar (tile units), floorwidth, progress within the piece, gradient ramp
    /// row, dash-to (atlas row, rows, length), dash-from (same), clip-to-tile flag (0/1), position
    /// in its tile (fractions of the tile side; used when the flag is 1).
    public static let fxLayout = 13

    /// `next`'s features (the layer at the tile zoom + 1) give composite values their second zoom.
    let nextFeatures: [EvaluatedLine]?

    /// Extrudes `layer`'s lines; `next` is the layer at tile zoom + 1 for composite values.
    public init(_ layer: EvaluatedLineLayer, next: EvaluatedLineLayer? = nil, origin: (x: Double, y: Double)) {
        self.init(layer, next: next, origin: origin, emulation: [])
    }

    /// The same with MapLibre Native behaviours emulated (`NativeEmulation.int8Direction`,
    /// `.miterClamp`, `.ringStart`, `.dashRows`; the differential harness only).
    package init(_ layer: EvaluatedLineLayer, next: EvaluatedLineLayer? = nil, origin: (x: Double, y: Double),
                 emulation: NativeEmulation) {
        self.layer = layer
        self.origin = origin
        paint = PaintLayout(program: "line", features: layer.features, source: layer.paint, value: EvaluatedLine.paint)
        nextFeatures = Bucket.aligned(layer.features, next?.features)
        let dashed = layer.hasDashes
        nativeDashRows = dashed && emulation.contains(.dashRows)
        if dashed || layer.gradient != nil {
            buildEffects(dashed: dashed, emulation: emulation)
            return
        }
        let cap: LineCap = { switch layer.cap { case .butt: return .butt; case .round: return .round; case .square: return .square } }()
        var geometry = LineGeometry()
        var local: [Double] = []
        // MapLibre's extra vertex pairs near sharp corners (15 px away at floor(zoom)) also bound
        // the quads that end on a flip-bevel join's chord.
        let pixelsPerUnit = LineTiling.sharpCornerPixelsPerUnit(zoom: layer.zoom, sourceMaxzoom: layer.sourceMaxzoom)
        for (n, f) in layer.features.enumerated() {
            let join: LineJoin = { switch f.join { case .miter: return .miter; case .bevel: return .bevel; case .round: return .round } }()
            var tess = LineTessellator(join: join, cap: cap, miterLimit: layer.miterLimit, roundLimit: layer.roundLimit,
                                       pixelsPerUnit: pixelsPerUnit)
            tess.nativeEmulation = emulation
            let values = paint.vertexValues(f, next: nextFeatures?[n], value: EvaluatedLine.paint)
            for part in f.parts {
                bounds.add(flat: part.coords)
                local.removeAll(keepingCapacity: true)
                var i = 0
                while i + 1 < part.coords.count {
                    local.append(part.coords[i] - origin.x)
                    local.append(part.coords[i + 1] - origin.y)
                    i += 2
                }
                geometry.vertices.removeAll(keepingCapacity: true)
                geometry.indices.removeAll(keepingCapacity: true)
                _ = local.withUnsafeBufferPointer { tess.append($0, closed: part.closed, into: &geometry) }
                appendPaint(geometry, values)
            }
        }
    }

    /// Appends a tessellated part's vertices with the feature's paint, and its triangles; each
    /// extrusion component rounded to MapLibre's vertex byte (`LineTiling.storedExtrusion`).
    private mutating func appendPaint(_ geometry: LineGeometry, _ values: [Float], shift: (x: Float, y: Float) = (0, 0)) {
        let base = UInt32(vertices.count / stride)
        for v in geometry.vertices {
            vertices.append(v.x + shift.x); vertices.append(v.y + shift.y)
            vertices.append(Float(LineTiling.storedExtrusion(Double(v.ex)))); vertices.append(Float(LineTiling.storedExtrusion(Double(v.ey))))
            vertices.append(v.nx); vertices.append(v.ny)
            vertices.append(v.distance); vertices.append(v.direction)
            vertices.append(contentsOf: values)
        }
        for idx in geometry.indices { indices.append(base + idx) }
    }

    /// Tessellates a dashed and/or gradient layer with its fx vertices, atlas and ramp.
    private mutating func buildEffects(dashed: Bool, emulation: NativeEmulation) {
        let layer = self.layer
        let z = LineTiling.tileZoom(zoom: layer.zoom, sourceMaxzoom: layer.sourceMaxzoom)
        tileZoom = z
        let tilesPerUnit = Double(1 << z)
        let tileUnitsPerUnit = LineTiling.tileExtent * tilesPerUnit
        let round = layer.cap == .round
        let cap: LineCap = { switch layer.cap { case .butt: return .butt; case .round: return .round; case .square: return .square } }()
        // MapLibre's extra vertices near sharp corners sit 15 px away at floor(zoom).
        let pixelsPerUnit = LineTiling.sharpCornerPixelsPerUnit(zoom: layer.zoom, sourceMaxzoom: layer.sourceMaxzoom)
        let clipper = TileLineClipper(zoom: z, buffer: layer.sourceBuffer / 512)
        let ringStart = emulation.contains(.ringStart)
        var atlas = LineAtlas()
        var geometry = LineGeometry()
        var local: [Double] = []
        var maxLineTiles = 0.0
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
            tess.nativeEmulation = emulation
            let values = paint.vertexValues(f, next: nextFeatures?[n], value: EvaluatedLine.paint)
            var dash: (to: DashEntry, from: DashEntry)?
            if let to = f.dasharray {
                dash = (atlas.dash(to, round: round), atlas.dash(f.dasharrayFrom ?? to, round: round))
            }
            let to = dash?.to ?? DashEntry(y: 0, height: 0, width: 1)
            let from = dash?.from ?? to
            // Tessellates one piece. `tile`: the tile it is clipped to (nil: drawn whole);
            // `clip`: the line progress range it covers (metrics) or nil (distances in tile units).
            func emit(_ piece: [Double], closed: Bool, tile: (x: Int, y: Int)?, clip: (start: Double, end: Double)?) {
                // Native's polygon fix-up restarts each tile's clipped ring at its top (NativeEmulation.ringStart).
                let coords = closed && ringStart ? NativeEmulation.startingAtTop(piece) : piece
                let ox = tile.map { Double($0.x) / tilesPerUnit } ?? origin.x
                let oy = tile.map { Double($0.y) / tilesPerUnit } ?? origin.y
                local.removeAll(keepingCapacity: true)
                var i = 0
                while i + 1 < coords.count {
                    local.append(coords[i] - ox)
                    local.append(coords[i + 1] - oy)
                    i += 2
                }
                geometry.vertices.removeAll(keepingCapacity: true)
                geometry.indices.removeAll(keepingCapacity: true)
                // Without line metrics (dashes, gradient rings): MapLibre's linesofar reset (tile units → input units).
                let ringProgress = layer.gradient != nil && closed
                tess.distanceResetLimit = (dash != nil || ringProgress) && clip == nil
                    ? LineTiling.lineSoFarResetDistance / tileUnitsPerUnit : nil
                let length = local.withUnsafeBufferPointer { tess.append($0, closed: closed, into: &geometry) }
                guard !geometry.vertices.isEmpty else { return }
                let range = clip ?? (0, 1)
                // MapLibre's longest line (step ramp resolution) counts lines with metrics only.
                if layer.gradient != nil && !closed { maxLineTiles = max(maxLineTiles, length * tilesPerUnit) }
                let rampRow = layer.gradient != nil ? row(range.start, range.end) : 0
                appendPaint(geometry, values, shift: tile == nil ? (0, 0) : (Float(ox - origin.x), Float(oy - origin.y)))
                appendFx(geometry, length: closed ? 0 : length, metrics: clip, rampRow: rampRow, floorWidth: f.floorWidth,
                         dash: (to, from), tile: tile != nil, tileUnitsPerUnit: tileUnitsPerUnit, tilesPerUnit: tilesPerUnit,
                         ringProgress: ringProgress)
            }
            for part in f.parts {
                bounds.add(flat: part.coords)
                // Line metrics exist for lines, not polygon rings (geojson-vt tracks them for lines only);
                // a gradient ring's progress comes from its linesofar, which restarts in each tile piece.
                let metrics = layer.lineMetrics && !part.closed
                if dash != nil || metrics || (layer.gradient != nil && part.closed) {
                    let total = LineTiling.length(part.coords)
                    let clipped = clipper.clip(part.coords, closed: part.closed) { piece in
                        let range = metrics && total > 0 ? (piece.start / total, piece.end / total) : nil
                        emit(piece.coords, closed: part.closed, tile: (piece.x, piece.y), clip: range)
                    }
                    if clipped { continue }
                    emit(part.coords, closed: part.closed, tile: nil, clip: metrics ? (0, 1) : nil)
                } else {
                    emit(part.coords, closed: part.closed, tile: nil, clip: nil)
                }
            }
        }
        if dashed { self.atlas = atlas }
        if let g = layer.gradient { finishRamp(g, clips: clips, maxLineTiles: maxLineTiles, tileZoom: z) }
    }

    /// Appends the fx block of each vertex of one tessellated piece (see `fxLayout`). `metrics`:
    /// the line progress range the piece covers (linesofar from progress) or nil (linesofar in
    /// tile units); `tile`: the piece is clipped to its tile (positions in tiles follow).
    /// `ringProgress`: a polygon ring of a gradient layer, which has no line metrics: its
    /// progress is its stored linesofar / 32767 (MapLibre Native's `v_lineprogress`; see
    /// `LineTiling.ringProgress`).
    private mutating func appendFx(_ geometry: LineGeometry, length: Double, metrics: (start: Double, end: Double)?,
                                   rampRow: Int, floorWidth: Double, dash: (to: DashEntry, from: DashEntry), tile: Bool,
                                   tileUnitsPerUnit: Double, tilesPerUnit: Double, ringProgress: Bool) {
        let range = metrics ?? (0, 1)
        let (to, from) = dash
        let invLength = length > 0 ? 1 / length : 0
        for v in geometry.vertices {
            let d = Double(v.distance)
            let uvx = ringProgress ? LineTiling.ringProgress(linesofar: d * tileUnitsPerUnit) : min(1, max(0, d * invLength))
            let linesofar = metrics != nil
                ? (range.start + (range.end - range.start) * uvx) * LineTiling.metricsLineDistance
                : d * tileUnitsPerUnit
            fxVertices.append(Float(LineTiling.storedLineSoFar(linesofar)))
            fxVertices.append(Float(floorWidth))
            fxVertices.append(Float(uvx))
            fxVertices.append(Float(rampRow))
            fxVertices.append(Float(to.y)); fxVertices.append(Float(to.height)); fxVertices.append(Float(to.width))
            fxVertices.append(Float(from.y)); fxVertices.append(Float(from.height)); fxVertices.append(Float(from.width))
            if tile {
                fxVertices.append(1)
                fxVertices.append(Float(Double(v.x) * tilesPerUnit)); fxVertices.append(Float(Double(v.y) * tilesPerUnit))
            } else {
                fxVertices.append(0); fxVertices.append(0); fxVertices.append(0)
            }
        }
    }

    /// The gradient's ramp: one row per distinct progress range (`clips`), or past
    /// `LineTiling.maxRampRanges` one [0, 1] row with each vertex's progress mapped onto it;
    /// step gradients at MapLibre's step resolution.
    private mutating func finishRamp(_ g: PropertyValue, clips: [(start: Double, end: Double)], maxLineTiles: Double,
                                     tileZoom z: Int) {
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
            let overzoom = LineTiling.stepRampOverzoom(tileZoom: z, sourceMaxzoom: layer.sourceMaxzoom)
            ramp = ColorRamp(gradient: g.expression,
                             width: ColorRamp.stepWidth(maxLineTiles: maxLineTiles, overzoom: overzoom),
                             nearest: true, clips: clips)
        } else {
            ramp = ColorRamp(gradient: g.expression, clips: clips)
        }
    }

    private struct Key2: Hashable { var a: Double; var b: Double }
}
