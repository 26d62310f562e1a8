import GLMapCore
import GLMapStyle

/// Draws a `line` layer with `line-dasharray` and/or `line-gradient`, per pixel from the line
/// geometry, with MapLibre GL JS's semantics (those the GPU path implements):
///
/// - Tiles: MapLibre measures dashes and gradients on the pieces its GeoJSON tiler gives each
///   tile at zoom z = min(floor(zoom), source maxzoom) (`LineTiling.tileZoom`). Dashed lines and
///   line-metrics lines are cut into those pieces by the tessellator's own rule
///   (`TileLineClipper`, buffer = source buffer / 512 of a tile) and each piece is stroked on its
///   own (caps at its cut ends) but drawn only inside its own tile. Lines covering more than
///   `TileLineClipper.maxTiles` tiles are drawn whole.
/// - Distance: `linesofar` is carried by the line's vertices: it is affine in each of the two
///   triangles of a segment's quad (whose ends lie on the join's miter or inner-miter points,
///   see `StrokePiece.progress`), with MapLibre's extra vertex pair 15 px (at floor(zoom)) from
///   corners sharper than 75°; joins and round caps keep their vertex's value. Without line metrics it is the
///   distance from the piece's first point in tile units (8192 per tile side at zoom z); with
///   them it is (start + (end − start) · p) · 32767, where [start, end] is the part of the whole
///   line's progress the piece covers and p the progress within the piece. Each vertex value is
///   snapped down to even tile units and wraps at 32768 (MapLibre's 15-bit storage). Without
///   metrics it restarts at 0 at the first vertex past 16384 tile units since the last restart
///   (MapLibre's reset): bodies leaving that vertex, and its join, start from 0.
/// - Dashes: the pattern read at floor(zoom) (`EvaluatedLine.dasharray`) is `length` line widths
///   of width `floorWidth`; position in periods = linesofar · 2^(floor(camera zoom) − z) / 16 /
///   (length · floorWidth). The field (`DashPattern`, round caps → 2D round pattern read at the
///   fraction of the half width across the line) multiplies the line alpha by
///   smoothstep(½ − γ, ½ + γ, field) with γ = 1/ratio / min(fromLength · fromScale, length) / 2 /
///   floorWidth (the still frame shows the "to" pattern only).
/// - Gradient: each piece reads its own `GradientRamp` over its progress range (256 texels,
///   LINEAR; a step gradient is NEAREST with MapLibre's step resolution from the longest piece)
///   at the progress within the piece; colour = ramp × opacity × alpha. Lines without line
///   metrics use 0…1 over the whole line; polygon rings (no line metrics either) are cut into
///   tile pieces and read at `LineTiling.ringProgress` of their linesofar, as MapLibre Native
///   reads them. Above 4096 distinct ranges one
///   0…1 ramp is read at the whole-line progress (the GPU's texture-size fallback).
/// - Pattern (MapLibre's line_pattern): the image's height spans the floor width across the
///   line (its top on the side of the left normal), its width follows; x = linesofar in pattern
///   widths scaled to that height; the atlas read bilinearly over the image plus its one-pixel
///   border; colour = image × opacity × alpha (no dashes, no gradient).
/// Within one feature the pieces take, per pixel, the colour of the piece with the largest
/// alpha (no double blending where pieces overlap), blended once.
struct LineEffectsPainter {
    /// Per-pixel best alpha of the feature being drawn, and its premultiplied colour.
    private var best: [Float] = []
    private var colors: [SIMD4<Float>] = []

    /// A stroked piece of a feature: its pieces' range in `strokes` and per-vertex values.
    private struct Piece {
        var strokes: Range<Int>
        /// Stored linesofar per vertex (line metrics), or without metrics the running distance in
        /// tile units, unstored, read against `base`.
        var linesofar: [Double]
        /// Without line metrics: per vertex, the running distance where linesofar last restarted
        /// at or before it (MapLibre's reset, `LineTiling.lineSoFarResetDistance`); empty with metrics.
        var base: [Double] = []
        /// Gradient progress per vertex (line metrics: within the piece); empty for a gradient
        /// ring, whose progress is `LineTiling.ringProgress` of its linesofar.
        var progress: [Double]
        var tile: (x: Int, y: Int)?
        var ramp: Int
    }

    /// A feature's pieces and paint.
    private struct Feature {
        var pieces: [Piece]
        var color: SIMD4<Float>
        var opacity: Float
        var ramp: LineRamp
        var dash: DashPattern?
        /// Periods per unit of linesofar; the smoothstep half width γ.
        var dashScale = 0.0, gamma = 0.0
        /// `line-pattern` and the floor width its image's height spans.
        var pattern: EvaluatedPattern?
        var floorWidth = 1.0
    }

    private struct RangeKey: Hashable { var start: Double; var end: Double }

    /// The tile grid a layer's line data is measured in (MapLibre's tile zoom).
    private struct TileGrid {
        /// The tile zoom (`LineTiling.tileZoom`).
        let z: Int
        let tilesPerUnit: Double
        /// CSS px per tile unit at the frame's integer zoom (`LineTiling.tileRatio`).
        let tileRatio: Double
        /// MapLibre's sharp-corner vertices sit 15 CSS px from the corner at the integer zoom.
        let sharpCornerOffset: Double

        init(_ layer: EvaluatedLineLayer, view: ViewTransform) {
            z = layer.tile?.canonical.z ?? LineTiling.tileZoom(zoom: layer.zoom, sourceMaxzoom: layer.sourceMaxzoom)
            tilesPerUnit = Double(1 << z)
            tileRatio = LineTiling.tileRatio(cameraZoom: view.camera.zoom, tileZoom: z)
            let overscale = layer.tile?.overscaleFactor ?? 1
            sharpCornerOffset = overscale <= 16 ? 15 * view.worldSize / (512 * tilesPerUnit * overscale) : 0
        }
    }

    /// Every feature of a layer stroked once (plane px relative to `origin`), for all world
    /// copies, with the distinct gradient ranges its pieces read.
    private struct Stroked {
        let origin: (x: Double, y: Double)
        let worldSize: Double
        let grid: TileGrid
        var strokes: [StrokePiece] = []
        var features: [Feature] = []
        var ranges: [RangeKey] = []
        var rangeIndex: [RangeKey: Int] = [:]
        /// The longest gradient piece, in tiles.
        var longestTiles = 0.0
        var patterns: [String: DashPattern] = [:]
        private var local: [Double] = []

        init(origin: (x: Double, y: Double), worldSize: Double, grid: TileGrid) {
            self.origin = origin; self.worldSize = worldSize; self.grid = grid
        }

        /// Strokes one feature's parts (a feature that draws nothing is left out).
        mutating func add(_ f: EvaluatedLine, of layer: EvaluatedLineLayer, ratio: Double) {
            let ramp = LineRamp(width: f.width, gapWidth: f.gapWidth, blur: f.blur, ratio: ratio)
            var feature = Feature(pieces: [], color: Compositor.premultiplied(f.color, opacity: f.opacity),
                                  opacity: Float(f.opacity), ramp: ramp)
            guard ramp.draws else { return }
            if layer.patterned {
                guard let p = f.pattern, f.floorWidth > 0 else { return }
                feature.pattern = p
                feature.floorWidth = f.floorWidth
            } else if let to = f.dasharray {
                guard setDash(to, from: f.dasharrayFrom, of: f, layer, ratio: ratio, on: &feature) else { return }
            }
            var geometry = StrokeGeometry(join: f.join, cap: layer.cap, miterLimit: layer.miterLimit,
                                          roundLimit: layer.roundLimit, offset: f.offset, outset: ramp.outset)
            geometry.sharpCornerOffset = grid.sharpCornerOffset
            geometry.foldedQuads = true
            let gradient = layer.gradient != nil
            // Each part is one tile's piece of a line: linesofar starts at its first point; with line
            // metrics the piece covers `clip` of the whole line's progress (lines only, not rings).
            for part in f.parts {
                let range = part.closed ? nil : f.clip.map { RangeKey(start: $0.start, end: $0.end) }
                if let piece = stroke(part.coords, closed: part.closed, geometry: &geometry, range: range, gradient: gradient) {
                    feature.pieces.append(piece)
                }
            }
            features.append(feature)
        }

        /// The dash pattern `to` read with dash-from length `from` (false: the dashes draw nothing).
        private mutating func setDash(_ to: [Double], from: [Double]?, of f: EvaluatedLine, _ layer: EvaluatedLineLayer,
                                      ratio: Double, on feature: inout Feature) -> Bool {
            let round = layer.cap == .round
            let key = "\(round):\(to)"
            let pattern = patterns[key] ?? DashPattern(to, round: round)
            patterns[key] = pattern
            let fromLength = DashPattern.totalLength(from ?? to) * layer.dashFromScale
            let shortest = [fromLength, pattern.length].filter { $0 > 0 }.min() ?? 0
            guard pattern.length > 0, f.floorWidth > 0, shortest > 0 else { return false }
            feature.dash = pattern
            feature.dashScale = grid.tileRatio / pattern.length / f.floorWidth
            feature.gamma = 1 / ratio / shortest / 2 / f.floorWidth
            return true
        }

        /// Strokes one tile piece (nil when it has no pieces) with its per-vertex values.
        /// `range`: the part of the whole line's progress it covers (line metrics), else nil.
        private mutating func stroke(_ coords: [Double], closed: Bool, geometry: inout StrokeGeometry,
                                     range: RangeKey?, gradient: Bool) -> Piece? {
            LinePainter.plane(coords, origin: origin, worldSize: worldSize, into: &local)
            let first = strokes.count
            geometry.append(local, closed: closed, to: &strokes)
            guard strokes.count > first else { return nil }
            // Per-vertex values, from distances along the piece (plane px → unit world).
            let d = geometry.vertexDistances
            let length = geometry.lineLength
            var linesofar = [Double](repeating: 0, count: d.count)
            // Rings have no line metrics: their gradient progress follows linesofar (Shader).
            var progress = [Double](repeating: 0, count: closed && gradient ? 0 : d.count)
            for k in 0..<d.count {
                let p = length > 0 && !closed ? min(1, max(0, d[k] / length)) : 0
                if !progress.isEmpty { progress[k] = p }
                if let r = range {
                    linesofar[k] = LineTiling.storedLineSoFar((r.start + (r.end - r.start) * p) * LineTiling.metricsLineDistance)
                } else {
                    linesofar[k] = d[k] / worldSize * LineTiling.tileExtent * grid.tilesPerUnit
                }
            }
            // MapLibre walks the vertex pairs in distance order and restarts linesofar at 0 after
            // the first one past the reset distance (counted from the last restart).
            var base: [Double] = []
            if range == nil {
                base = [Double](repeating: 0, count: d.count)
                var last = 0.0
                for k in linesofar.indices.sorted(by: { linesofar[$0] < linesofar[$1] }) {
                    if linesofar[k] - last > LineTiling.lineSoFarResetDistance { last = linesofar[k] }
                    base[k] = last
                }
            }
            var ramp = 0
            if gradient {
                if !closed { longestTiles = max(longestTiles, length / worldSize * grid.tilesPerUnit) }
                ramp = rampIndex(range ?? RangeKey(start: 0, end: 1))
            }
            return Piece(strokes: first..<strokes.count, linesofar: linesofar, base: base, progress: progress, tile: nil, ramp: ramp)
        }

        /// The index of the gradient ramp of a progress range, adding it on first use.
        private mutating func rampIndex(_ key: RangeKey) -> Int {
            if let r = rangeIndex[key] { return r }
            rangeIndex[key] = ranges.count
            ranges.append(key)
            return ranges.count - 1
        }

        /// Gradient ramps, one per distinct progress range (or one 0…1 ramp past the limit).
        func ramps(_ layer: EvaluatedLineLayer) -> Ramps {
            let whole = ranges.count > LineTiling.maxRampRanges
            guard let g = layer.gradient else { return Ramps(ramps: [], ranges: ranges, wholeLine: whole) }
            let texels: Int
            if layer.gradientIsStep {
                let overzoom = LineTiling.stepRampOverzoom(tileZoom: grid.z, sourceMaxzoom: layer.sourceMaxzoom)
                texels = GradientRamp.stepTexels(longestPieceTiles: longestTiles, overzoom: overzoom)
            } else {
                texels = 256
            }
            let ramps = (whole ? [RangeKey(start: 0, end: 1)] : ranges).map {
                GradientRamp(g.expression, start: $0.start, end: $0.end, texels: texels, nearest: layer.gradientIsStep)
            }
            return Ramps(ramps: ramps, ranges: ranges, wholeLine: whole)
        }
    }

    /// A layer's gradient ramps and how a piece picks its own.
    private struct Ramps {
        let ramps: [GradientRamp]
        let ranges: [RangeKey]
        /// Past `LineTiling.maxRampRanges`: one 0…1 ramp read at the whole-line progress.
        let wholeLine: Bool

        /// The ramp a piece reads and the progress range it maps the piece's 0…1 onto.
        func ramp(for piece: Piece) -> (ramp: GradientRamp?, range: RangeKey) {
            let ramp: GradientRamp? = ramps.isEmpty ? nil : ramps[wholeLine ? 0 : piece.ramp]
            return (ramp, wholeLine ? ranges[piece.ramp] : RangeKey(start: 0, end: 1))
        }
    }

    /// Paints the layer's lines (unit-world coordinates, each part one tile's piece) in every
    /// world copy that may show them, or only in `copies`.
    mutating func paint(_ layer: EvaluatedLineLayer, view: ViewTransform, ratio: Double, copies: [Int]? = nil,
                        into canvas: inout Compositor) {
        var bounds = WorldBounds.empty
        for f in layer.features { for p in f.parts { bounds.add(flat: p.coords) } }
        let grid = TileGrid(layer, view: view)
        var stroked = Stroked(origin: bounds.center, worldSize: view.worldSize, grid: grid)
        for f in layer.features { stroked.add(f, of: layer, ratio: ratio) }
        let ramps = stroked.ramps(layer)
        if best.count != canvas.width * canvas.height {
            best = [Float](repeating: 0, count: canvas.width * canvas.height)
            colors = [SIMD4<Float>](repeating: .zero, count: canvas.width * canvas.height)
        }
        // MapLibre clips tile pieces with the tile's own matrix and draws them translated, so a
        // translated piece is cut to its untranslated square.
        let shift = WorldCopies.translation(view, layer.translate, inViewport: layer.translateAnchor == .viewport)
        var tiles = TileFrame(origin: stroked.origin, worldSize: stroked.worldSize, perUnit: grid.tilesPerUnit, shift: shift)
        tiles.patternRatio = layer.tile.map { PatternSampler.tileRatio($0, zoom: view.camera.zoom) } ?? grid.tileRatio
        let sampler = layer.patterned ? layer.patternAtlas.map { PatternSampler(atlas: $0.image) } : nil
        for copy in copies ?? WorldCopies.offsets(view, bounds: bounds) {
            let proj = PlaneProjection(view: view, ratio: ratio, origin: stroked.origin, copy: copy,
                                       translate: layer.translate, anchor: layer.translateAnchor)
            for feature in stroked.features {
                draw(feature, strokes: stroked.strokes, ramps: ramps, tiles: tiles, proj: proj, sampler: sampler, into: &canvas)
            }
        }
    }

    /// Plane px → position in the tile grid, moved by the layer's translation (`shift`, CSS px).
    private struct TileFrame {
        let scale: Double, ox: Double, oy: Double
        /// Pattern pixels per tile unit at the frame's tile zoom (line patterns).
        var patternRatio = 1.0

        init(origin: (x: Double, y: Double), worldSize: Double, perUnit: Double, shift: (x: Double, y: Double)) {
            scale = perUnit / worldSize
            ox = origin.x * perUnit + shift.x * scale; oy = origin.y * perUnit + shift.y * scale
        }

        /// Whether plane point (x, y), drawn translated, lies in tile t.
        @inline(__always)
        func contains(_ x: Double, _ y: Double, tile t: (x: Int, y: Int)) -> Bool {
            let fx = ox + x * scale - Double(t.x), fy = oy + y * scale - Double(t.y)
            return fx >= 0 && fx < 1 && fy >= 0 && fy < 1
        }
    }

    /// Shades the pixels of one stroke piece of one tile piece of a feature.
    private struct Shader {
        let stroke: StrokePiece
        let line: LineRamp
        let dash: DashPattern?
        let dashScale: Double, gamma: Double
        /// linesofar and progress at the stroke piece's two vertices.
        let l0: Double, l1: Double, p0: Double, p1: Double
        let tile: (x: Int, y: Int)?
        let tiles: TileFrame
        let proj: PlaneProjection

        init(_ sp: StrokePiece, of piece: Piece, _ f: Feature, tiles: TileFrame, proj: PlaneProjection) {
            stroke = sp; line = f.ramp; dash = f.dash; dashScale = f.dashScale; gamma = f.gamma
            if piece.base.isEmpty {
                l0 = piece.linesofar[sp.v0]; l1 = piece.linesofar[sp.v1]
            } else {
                // Both ends against the start's restart: a body leaving a reset vertex starts at 0.
                let b = piece.base[sp.v0]
                l0 = LineTiling.storedLineSoFar(piece.linesofar[sp.v0] - b)
                l1 = LineTiling.storedLineSoFar(piece.linesofar[sp.v1] - b)
            }
            if piece.progress.isEmpty {
                p0 = LineTiling.ringProgress(linesofar: l0); p1 = LineTiling.ringProgress(linesofar: l1)
            } else {
                p0 = piece.progress[sp.v0]; p1 = piece.progress[sp.v1]
            }
            tile = piece.tile
            self.tiles = tiles; self.proj = proj
        }

        /// The alpha at screen point (sx, sy), the progress along the stroke piece it was taken
        /// at and the signed position across the line (−1…1 outset, positive on the left
        /// normal's side), or nil where the piece draws nothing.
        @inline(__always)
        func shade(_ sx: Double, _ sy: Double) -> (alpha: Float, t: Double, across: Double)? {
            let outset = line.outset
            guard let p = proj.toPlane(sx, sy), let h = stroke.distance(p.x, p.y), h.d < outset else { return nil }
            if let t = tile { guard tiles.contains(p.x, p.y, tile: t) else { return nil } }
            let b = line.blur(atX: p.x, y: p.y, gx: h.gx, gy: h.gy, proj)
            var a = line.alpha(h.d, blur: b)
            guard a > 0 else { return nil }
            // Where two triangles of a folded quad both cover the pixel, the brighter dash wins
            // (both are drawn on the GPU).
            let ts = stroke.progress(p.x, p.y, outset: outset)
            var t = ts.first
            if let dash {
                let across = stroke.across(p.x, p.y, distance: h.d) / outset
                var m = dashAlpha(dash, t, across: across)
                if let t2 = ts.second {
                    let m2 = dashAlpha(dash, t2, across: across)
                    if m2 > m { m = m2; t = t2 }
                }
                a *= m
            }
            return (Float(a), t, stroke.signedAcross(p.x, p.y, distance: h.d) / outset)
        }

        /// The dash's smoothstepped field at progress t along the stroke piece.
        @inline(__always)
        private func dashAlpha(_ dash: DashPattern, _ t: Double, across: Double) -> Double {
            let field = dash.field((l0 + (l1 - l0) * t) * dashScale, across: across)
            return LineEffectsPainter.smoothstep(0.5 - gamma, 0.5 + gamma, field)
        }
    }

    /// The line pattern's colour at `linesofar` (tile units) and `across` (−1…1, left normal
    /// positive) for a line whose image height spans `floorWidth` (MapLibre's line_pattern).
    static func patternColor(_ p: EvaluatedPattern, _ sampler: PatternSampler, linesofar: Double, across: Double,
                             floorWidth: Double, tileRatio: Double) -> SIMD4<Float> {
        let size = p.to.displaySize
        let x = PatternSampler.mod(linesofar / (size.width / tileRatio) * (size.height / floorWidth), 1)
        let y = 0.5 * -across + 0.5   // MapLibre's normal.y: −1 on the left normal's side
        let u = (p.to.x0 - 1) + (p.to.x1 - p.to.x0 + 2) * x, v = (p.to.y0 - 1) + (p.to.y1 - p.to.y0 + 2) * y
        return SIMD4<Float>(sampler.sample(u, v))
    }

    /// Rasterises one feature's pieces into `best`/`colors` and blends the result.
    private mutating func draw(_ f: Feature, strokes: [StrokePiece], ramps: Ramps, tiles: TileFrame,
                               proj: PlaneProjection, sampler: PatternSampler?, into canvas: inout Compositor) {
        let width = canvas.width, height = canvas.height
        var ux0 = width, uy0 = height, ux1 = 0, uy1 = 0
        best.withUnsafeMutableBufferPointer { key in
            colors.withUnsafeMutableBufferPointer { col in
                for piece in f.pieces {
                    let (ramp, range) = ramps.ramp(for: piece)
                    for s in piece.strokes {
                        let shader = Shader(strokes[s], of: piece, f, tiles: tiles, proj: proj)
                        guard let box = proj.screenBox(shader.stroke.bounds(f.ramp.outset), margin: 1,
                                                       width: width, height: height) else { continue }
                        ux0 = min(ux0, box.x0); uy0 = min(uy0, box.y0); ux1 = max(ux1, box.x1); uy1 = max(uy1, box.y1)
                        for y in box.y0..<box.y1 {
                            let sy = Double(y) + 0.5
                            for x in box.x0..<box.x1 {
                                guard let (af, t, across) = shader.shade(Double(x) + 0.5, sy) else { continue }
                                let k = y * width + x
                                guard af > key[k] else { continue }
                                key[k] = af
                                if let pattern = f.pattern, let sampler {
                                    let linesofar = shader.l0 + (shader.l1 - shader.l0) * t
                                    col[k] = LineEffectsPainter.patternColor(pattern, sampler, linesofar: linesofar, across: across,
                                                                             floorWidth: f.floorWidth, tileRatio: tiles.patternRatio) * (f.opacity * af)
                                } else if let ramp {
                                    let u = shader.p0 + (shader.p1 - shader.p0) * t
                                    col[k] = ramp.color(at: range.start + (range.end - range.start) * u) * (f.opacity * af)
                                } else {
                                    col[k] = f.color * af
                                }
                            }
                        }
                    }
                }
            }
        }
        guard ux0 < ux1, uy0 < uy1 else { return }
        blendAndClear(x: ux0..<ux1, y: uy0..<uy1, width: width, into: &canvas)
    }

    /// Blends the feature's colours over the touched box and clears `best`/`colors` there.
    private mutating func blendAndClear(x xs: Range<Int>, y ys: Range<Int>, width: Int, into canvas: inout Compositor) {
        let q = canvas.quantizeEachDraw, clip = canvas.clip
        canvas.pixels.withUnsafeMutableBufferPointer { px in
            best.withUnsafeMutableBufferPointer { key in
                colors.withUnsafeMutableBufferPointer { col in
                    for y in ys {
                        for x in xs {
                            let k = y * width + x
                            guard key[k] > 0 else { continue }
                            if clip?.contains(x, y) ?? true { Compositor.blend(px.baseAddress! + k, col[k], quantize: q) }
                            key[k] = 0
                            col[k] = .zero
                        }
                    }
                }
            }
        }
    }

    /// GLSL's smoothstep.
    @inline(__always)
    static func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
        let t = min(max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }
}
