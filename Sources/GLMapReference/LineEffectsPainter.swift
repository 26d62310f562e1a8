import GLMapCore
import GLMapStyle

/// Draws a `line` layer with `line-dasharray` and/or `line-gradient`, per pixel from the line
/// geometry, with MapLibre GL JS's semantics (those the GPU path implements):
///
/// - Tiles: MapLibre measures dashes and gradients on the pieces its GeoJSON tiler gives each
///   tile at zoom z = min(floor(zoom), source maxzoom). Dashed lines and line-metrics lines are
///   cut into those pieces (`TilePieceSplitter`, buffer = source buffer / 512 of a tile) and each
///   piece is stroked on its own (caps at its cut ends) but drawn only inside its own tile.
///   Lines covering more than `TilePieceSplitter.maxTiles` tiles are drawn whole.
/// - Distance: `linesofar` is carried by the line's vertices: it is affine in each of the two
///   triangles of a segment's quad (whose ends lie on the join's miter or inner-miter points,
///   see `StrokePiece.progress`), with MapLibre's extra vertex pair 15 px (at floor(zoom)) from
///   corners sharper than 75°; joins and round caps keep their vertex's value. Without line metrics it is the
///   distance from the piece's first point in tile units (8192 per tile side at zoom z); with
///   them it is (start + (end − start) · p) · 32767, where [start, end] is the part of the whole
///   line's progress the piece covers and p the progress within the piece. Each vertex value is
///   snapped down to even tile units and wraps at 32768 (MapLibre's 15-bit storage).
/// - Dashes: the pattern read at floor(zoom) (`EvaluatedLine.dasharray`) is `length` line widths
///   of width `floorWidth`; position in periods = linesofar · 2^(floor(camera zoom) − z) / 16 /
///   (length · floorWidth). The field (`DashPattern`, round caps → 2D round pattern read at the
///   fraction of the half width across the line) multiplies the line alpha by
///   smoothstep(½ − γ, ½ + γ, field) with γ = 1/ratio / min(fromLength · fromScale, length) / 2 /
///   floorWidth (the still frame shows the "to" pattern only).
/// - Gradient: each piece reads its own `GradientRamp` over its progress range (256 texels,
///   LINEAR; a step gradient is NEAREST with MapLibre's step resolution from the longest piece)
///   at the progress within the piece; colour = ramp × opacity × alpha. Polygon rings and lines
///   without line metrics use 0…1 over the whole ring or line. Above 4096 distinct ranges one
///   0…1 ramp is read at the whole-line progress (the GPU's texture-size fallback).
/// Within one feature the pieces take, per pixel, the colour of the piece with the largest
/// alpha (no double blending where pieces overlap), blended once.
struct LineEffectsPainter {
    /// Per-pixel best alpha of the feature being drawn, and its premultiplied colour.
    private var best: [Float] = []
    private var colors: [SIMD4<Float>] = []

    /// A stroked piece of a feature: its pieces' range in `strokes` and per-vertex values.
    private struct Piece {
        var strokes: Range<Int>
        var linesofar: [Double]
        var progress: [Double]
        var tile: (x: Int, y: Int)?
        var ramp: Int
    }

    /// A feature's pieces and paint.
    private struct Feature {
        var pieces: [Piece]
        var color: SIMD4<Float>
        var opacity: Float
        var outset, inset, blur2: Double
        var dash: DashPattern?
        /// Periods per unit of linesofar; the smoothstep half width γ.
        var dashScale = 0.0, gamma = 0.0
    }

    private struct RangeKey: Hashable { var start: Double; var end: Double }

    /// MapLibre's storage of `linesofar`: snapped down to even tile units, wrapping at 32768.
    @inline(__always)
    static func snap(_ linesofar: Double) -> Double {
        guard linesofar.isFinite, linesofar > 0 else { return 0 }
        return ((linesofar / 2).rounded(.down).truncatingRemainder(dividingBy: 16384)) * 2
    }

    /// Tile units per tile side.
    static let tileExtent = 8192.0
    /// linesofar at the end of a line with line metrics.
    static let metricsLineDistance = 32767.0
    /// Most distinct gradient ranges before the single-ramp fallback.
    static let maxRampRanges = 4096

    mutating func paint(_ layer: EvaluatedLineLayer, view: ViewTransform, ratio: Double, into canvas: inout Compositor) {
        var bounds = WorldBounds.empty
        for f in layer.features { for p in f.parts { bounds.add(flat: p.coords) } }
        let origin = bounds.center
        let ws = view.worldSize
        let floorZoom = max(0, layer.zoom.rounded(.down))
        let maxzoom = max(0, layer.sourceMaxzoom.rounded(.down))
        let z = Int(min(floorZoom, maxzoom, 30))
        let tilesPerUnit = Double(1 << z)
        let splitter = TilePieceSplitter(zoom: z, buffer: layer.sourceBuffer / 512)
        let round = layer.cap == .round
        let frameZoom = Int(min(max(0, view.camera.zoom), 60).rounded(.down))
        let tileRatio = Double(sign: .plus, exponent: frameZoom - z, significand: 1) * 512 / Self.tileExtent
        // MapLibre's sharp-corner vertices sit 15 CSS px from the corner at the integer zoom.
        let sharpCornerOffset = layer.sharpCornerPixelsPerUnit.map { 15 * ws / $0 } ?? 0

        // Stroke every feature's pieces once (plane px relative to `origin`), for all world copies.
        var strokes: [StrokePiece] = []
        var features: [Feature] = []
        var ranges: [RangeKey] = []
        var rangeIndex: [RangeKey: Int] = [:]
        var longestTiles = 0.0
        var patterns: [String: DashPattern] = [:]
        var local: [Double] = []
        for f in layer.features {
            let aa = 1 / ratio / 2
            let halfwidth = f.width / 2, gap = f.gapWidth / 2
            let outset = gap + halfwidth * (gap > 0 ? 2 : 1) + (halfwidth == 0 ? 0 : aa)
            var feature = Feature(pieces: [], color: Compositor.premultiplied(f.color, opacity: f.opacity),
                                  opacity: Float(f.opacity), outset: outset,
                                  inset: gap + (gap > 0 ? aa : 0), blur2: f.blur + 1 / ratio)
            guard outset > 0, feature.blur2 > 0 else { continue }
            if let to = f.dasharray {
                let key = "\(round):\(to)"
                let pattern = patterns[key] ?? DashPattern(to, round: round)
                patterns[key] = pattern
                let fromLength = DashPattern.totalLength(f.dasharrayFrom ?? to) * layer.dashFromScale
                let shortest = [fromLength, pattern.length].filter { $0 > 0 }.min() ?? 0
                guard pattern.length > 0, f.floorWidth > 0, shortest > 0 else { continue }
                feature.dash = pattern
                feature.dashScale = tileRatio / pattern.length / f.floorWidth
                feature.gamma = 1 / ratio / shortest / 2 / f.floorWidth
            }
            var geometry = StrokeGeometry(join: f.join, cap: layer.cap, miterLimit: layer.miterLimit,
                                          roundLimit: layer.roundLimit, offset: f.offset, outset: outset)
            geometry.sharpCornerOffset = sharpCornerOffset
            geometry.foldedQuads = true
            for part in f.parts {
                let metrics = layer.lineMetrics && !part.closed
                let total = metrics ? Self.length(part.coords) : 0
                var tilePieces: [TilePiece]?
                if f.dasharray != nil || metrics { tilePieces = splitter.split(part.coords, closed: part.closed) }
                let list = tilePieces ?? [TilePiece(tileX: 0, tileY: 0, coords: part.coords, start: 0, end: total)]
                for tp in list {
                    LinePainter.plane(tp.coords, origin: origin, worldSize: ws, into: &local)
                    let first = strokes.count
                    geometry.append(local, closed: part.closed, to: &strokes)
                    guard strokes.count > first else { continue }
                    // Per-vertex values, from distances along the piece (plane px → unit world).
                    let d = geometry.vertexDistances
                    let length = geometry.lineLength
                    let range: RangeKey? = metrics ? (total > 0 ? RangeKey(start: tp.start / total, end: tp.end / total)
                                                                : RangeKey(start: 0, end: 1)) : nil
                    var linesofar = [Double](repeating: 0, count: d.count)
                    var progress = [Double](repeating: 0, count: d.count)
                    for k in 0..<d.count {
                        let p = length > 0 ? min(1, max(0, d[k] / length)) : 0
                        progress[k] = p
                        if let r = range {
                            linesofar[k] = Self.snap((r.start + (r.end - r.start) * p) * Self.metricsLineDistance)
                        } else {
                            linesofar[k] = Self.snap(d[k] / ws * Self.tileExtent * tilesPerUnit)
                        }
                    }
                    var ramp = 0
                    if layer.gradient != nil {
                        longestTiles = max(longestTiles, length / ws * tilesPerUnit)
                        let key = range ?? RangeKey(start: 0, end: 1)
                        if let r = rangeIndex[key] { ramp = r } else {
                            ramp = ranges.count
                            rangeIndex[key] = ramp
                            ranges.append(key)
                        }
                    }
                    feature.pieces.append(Piece(strokes: first..<strokes.count, linesofar: linesofar, progress: progress,
                                                tile: tilePieces == nil ? nil : (tp.tileX, tp.tileY), ramp: ramp))
                }
            }
            features.append(feature)
        }

        // Gradient ramps, one per distinct progress range (or one 0…1 ramp past the limit).
        var ramps: [GradientRamp] = []
        let wholeLineRamp = ranges.count > Self.maxRampRanges
        if let g = layer.gradient {
            let texels: Int
            if layer.gradientIsStep {
                let overzoom = Double(z) == maxzoom ? Double(1 << Int(max(0, min(30, 22 - maxzoom)))) : 1
                texels = GradientRamp.stepTexels(longestPieceTiles: longestTiles, overzoom: overzoom)
            } else {
                texels = 256
            }
            for r in (wholeLineRamp ? [RangeKey(start: 0, end: 1)] : ranges) {
                ramps.append(GradientRamp(g.expression, start: r.start, end: r.end, texels: texels,
                                          nearest: layer.gradientIsStep))
            }
        }

        if best.count != canvas.width * canvas.height {
            best = [Float](repeating: 0, count: canvas.width * canvas.height)
            colors = [SIMD4<Float>](repeating: .zero, count: canvas.width * canvas.height)
        }
        for copy in WorldCopies.offsets(view, bounds: bounds) {
            let proj = PlaneProjection(view: view, ratio: ratio, origin: origin, copy: copy,
                                       translate: layer.translate, anchor: layer.translateAnchor)
            for feature in features {
                draw(feature, strokes: strokes, ramps: ramps, rangeOf: { ranges[$0] }, wholeLineRamp: wholeLineRamp,
                     tiles: (origin, ws, tilesPerUnit), proj: proj, into: &canvas)
            }
        }
    }

    /// Rasterises one feature's pieces into `best`/`colors` and blends the result.
    private mutating func draw(_ f: Feature, strokes: [StrokePiece], ramps: [GradientRamp],
                               rangeOf: (Int) -> RangeKey, wholeLineRamp: Bool,
                               tiles: (origin: (x: Double, y: Double), worldSize: Double, perUnit: Double),
                               proj: PlaneProjection, into canvas: inout Compositor) {
        let width = canvas.width, height = canvas.height
        var ux0 = width, uy0 = height, ux1 = 0, uy1 = 0
        let pitched = proj.pitched, ratio = proj.ratio
        let outset = f.outset, inset = f.inset
        let tileScale = tiles.perUnit / tiles.worldSize
        let tox = tiles.origin.x * tiles.perUnit, toy = tiles.origin.y * tiles.perUnit
        best.withUnsafeMutableBufferPointer { key in
            colors.withUnsafeMutableBufferPointer { col in
                for piece in f.pieces {
                    let ramp: GradientRamp? = ramps.isEmpty ? nil : ramps[wholeLineRamp ? 0 : piece.ramp]
                    let range = wholeLineRamp ? rangeOf(piece.ramp) : RangeKey(start: 0, end: 1)
                    for s in piece.strokes {
                        let sp = strokes[s]
                        guard let box = proj.screenBox(sp.bounds(outset), margin: 1, width: width, height: height) else { continue }
                        ux0 = min(ux0, box.x0); uy0 = min(uy0, box.y0); ux1 = max(ux1, box.x1); uy1 = max(uy1, box.y1)
                        let l0 = piece.linesofar[sp.v0], l1 = piece.linesofar[sp.v1]
                        let p0 = piece.progress[sp.v0], p1 = piece.progress[sp.v1]
                        for y in box.y0..<box.y1 {
                            let sy = Double(y) + 0.5
                            for x in box.x0..<box.x1 {
                                guard let p = proj.toPlane(Double(x) + 0.5, sy), let h = sp.distance(p.x, p.y),
                                      h.d < outset else { continue }
                                if let t = piece.tile {
                                    let fx = tox + p.x * tileScale - Double(t.x), fy = toy + p.y * tileScale - Double(t.y)
                                    guard fx >= 0, fx < 1, fy >= 0, fy < 1 else { continue }
                                }
                                var b = f.blur2
                                if pitched {
                                    let scale = proj.screenScale(atX: p.x, y: p.y, dx: h.gx, dy: h.gy)
                                    if scale > 0 { b *= ratio / scale }
                                }
                                var a = min(max(min(h.d - (inset - b), outset - h.d) / b, 0), 1)
                                guard a > 0 else { continue }
                                // Where two triangles of a folded quad both cover the pixel, the
                                // brighter dash wins (both are drawn on the GPU).
                                let ts = sp.progress(p.x, p.y, outset: outset)
                                var t = ts.first
                                if let dash = f.dash {
                                    let across = sp.across(p.x, p.y, distance: h.d) / outset
                                    func dashAlpha(_ t: Double) -> Double {
                                        let field = dash.field((l0 + (l1 - l0) * t) * f.dashScale, across: across)
                                        return Self.smoothstep(0.5 - f.gamma, 0.5 + f.gamma, field)
                                    }
                                    var m = dashAlpha(t)
                                    if let t2 = ts.second {
                                        let m2 = dashAlpha(t2)
                                        if m2 > m { m = m2; t = t2 }
                                    }
                                    a *= m
                                }
                                let k = y * width + x
                                let af = Float(a)
                                guard af > key[k] else { continue }
                                key[k] = af
                                if let ramp {
                                    let u = p0 + (p1 - p0) * t
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
        let q = canvas.quantizeEachDraw
        canvas.pixels.withUnsafeMutableBufferPointer { px in
            best.withUnsafeMutableBufferPointer { key in
                colors.withUnsafeMutableBufferPointer { col in
                    for y in uy0..<uy1 {
                        for x in ux0..<ux1 {
                            let k = y * width + x
                            guard key[k] > 0 else { continue }
                            Compositor.blend(px.baseAddress! + k, col[k], quantize: q)
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

    /// Length of a flat polyline (unit world), skipping non-finite steps.
    static func length(_ c: [Double]) -> Double {
        var total = 0.0
        var i = 2
        while i + 1 < c.count {
            let dx = c[i] - c[i - 2], dy = c[i + 1] - c[i - 1]
            let l = (dx * dx + dy * dy).squareRoot()
            if l.isFinite { total += l }
            i += 2
        }
        return total
    }
}
