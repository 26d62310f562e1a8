import GLMapCore
import GLMapStyle
import GLMapTiles

/// Draws a `fill` layer: exact area coverage of each feature's polygons (colour × opacity ×
/// coverage), then, with `fill-antialias`, every ring edge as a 1-device-pixel line (one pixel per
/// row or column, as GL line rasterisation picks it) with alpha `1 − smoothstep(0, 1, d)` in the
/// outline colour, as the GPU's fill_outline program and MapLibre's 1-px GL lines do; d is the
/// distance to the edge point a GL line interpolates for that pixel, perspective-correctly under
/// pitch (so it lags behind the pixel along the edge).
///
/// Rings are oriented the way geojson-vt rewinds them (each polygon's first ring outer, the
/// others holes, whatever their winding in the file); coverage is the winding integral clamped
/// to 0…1, which is the nonzero rule for valid polygons and lets overlapping parts of a
/// MultiPolygon union instead of cancelling.
struct FillPainter {
    var rasterizer = CoverageRasterizer()
    /// Scratch: one projected ring, device pixels (x, y pairs).
    private var ring: [Double] = []
    private var rings: [(start: Int, end: Int, weight: Double, open: Bool)] = []
    private var points: [Double] = []
    /// Scratch: each projected point's clip w (one per x, y pair of `points`).
    private var depths: [Double] = []
    /// When set, the pixels the interiors cover (coverage ≥ ½, inside the clip: where the GPU's
    /// aliased triangles cover the pixel centre) are marked in it.
    var interiorMask: [Bool]?

    /// Paints the layer's features (unit-world coordinates) in every world copy that may show
    /// them, or only in `copies`.
    mutating func paint(_ layer: EvaluatedFillLayer, view: ViewTransform, ratio: Double, copies: [Int]? = nil,
                        into canvas: inout Compositor) {
        var bounds = WorldBounds.empty
        for f in layer.features { for p in f.polygons { bounds.add(flat: p.coords) } }
        let origin = bounds.center
        let projections = (copies ?? WorldCopies.offsets(view, bounds: bounds)).map {
            PlaneProjection(view: view, ratio: ratio, origin: origin, copy: $0,
                            translate: layer.translate, anchor: layer.translateAnchor)
        }
        let ws = view.worldSize
        let patterns = FillPainter.patternShader(layer, view: view, origin: origin)
        for proj in projections {
            for f in layer.features {
                let shade = patterns.flatMap { s in f.pattern.map { p in { (x: Int, y: Int) in s(p, f.opacity, proj, x, y) } } }
                let color = shade == nil ? Compositor.premultiplied(f.color, opacity: f.opacity) : SIMD4<Float>(repeating: 1)
                if color == .zero || (layer.patterned && shade == nil) { continue }
                project(f.polygons, open: false, proj, origin: origin, worldSize: ws)
                fill(color, shade: shade, into: &canvas)
            }
        }
        guard layer.antialias else { return }
        for proj in projections {
            for f in layer.features {
                let shade = layer.patternOutline ? patterns.flatMap { s in f.pattern.map { p in { (x: Int, y: Int) in s(p, f.opacity, proj, x, y) } } } : nil
                let color = shade == nil ? Compositor.premultiplied(f.outlineColor, opacity: f.opacity) : SIMD4<Float>(repeating: 1)
                if color == .zero || (layer.patternOutline && shade == nil) { continue }
                project(f.polygons, open: false, proj, origin: origin, worldSize: ws)
                outline(color, shade: shade, into: &canvas)
            }
        }
    }

    /// For a patterned layer, the colour of a feature's pattern (× opacity) at a device pixel:
    /// the pixel centre's point on the map plane in the layer's tile units, through MapLibre's
    /// pattern position (`PatternSampler`).
    static func patternShader(_ layer: EvaluatedFillLayer, view: ViewTransform, origin: (x: Double, y: Double))
        -> ((EvaluatedPattern, Double, PlaneProjection, Int, Int) -> SIMD4<Float>)? {
        guard layer.patterned, let atlas = layer.patternAtlas, let tile = layer.tile else { return nil }
        let sampler = PatternSampler(atlas: atlas.image)
        let ws = view.worldSize, zoom = view.camera.zoom
        let coord = PatternSampler.pixelCoord(tile, zoom: zoom), tileRatio = PatternSampler.tileRatio(tile, zoom: zoom)
        let units = Double(TileExtent.extent) * Double(tile.canonical.tilesPerSide)
        let tx0 = Double(tile.unwrappedX) * Double(TileExtent.extent), ty0 = Double(tile.canonical.y) * Double(TileExtent.extent)
        return { pattern, opacity, proj, x, y in
            guard let p = proj.toPlane(Double(x) + 0.5, Double(y) + 0.5) else { return .zero }
            let ux = origin.x + p.x / ws, uy = origin.y + p.y / ws
            let pos = (ux * units - tx0, uy * units - ty0)
            let vpos = PatternSampler.patternPos(coord, size: pattern.to.displaySize, tileRatio: tileRatio, pos: pos)
            return SIMD4<Float>(sampler.color(pattern.to, at: vpos) * opacity)
        }
    }

    /// Projects every ring of a feature to device pixels into `points`/`rings`, clipping rings
    /// against the camera plane, with each ring's winding weight (outer +1, hole −1).
    private mutating func project(_ polygons: [FlatPolygon], open: Bool, _ proj: PlaneProjection,
                                  origin: (x: Double, y: Double), worldSize ws: Double) {
        points.removeAll(keepingCapacity: true)
        depths.removeAll(keepingCapacity: true)
        rings.removeAll(keepingCapacity: true)
        for poly in polygons {
            let c = poly.coords
            for (k, r) in poly.ringRanges.enumerated() where r.count >= 2 {
                let start = points.count
                var prev: (x: Double, y: Double, w: Double)? = nil
                var first: (x: Double, y: Double, w: Double)? = nil
                let minW = 1e-9
                func emit(_ p: (x: Double, y: Double, w: Double)) { points.append(p.x / p.w); points.append(p.y / p.w); depths.append(p.w) }
                func visit(_ p: (x: Double, y: Double, w: Double)) {
                    if let q = prev {
                        if (q.w >= minW) != (p.w >= minW) {   // crosses the camera plane: cut there
                            let t = (minW - q.w) / (p.w - q.w)
                            emit((q.x + (p.x - q.x) * t, q.y + (p.y - q.y) * t, minW))
                        }
                    }
                    if p.w >= minW { emit(p) }
                    prev = p
                }
                for i in r {
                    let x = c[2 * i], y = c[2 * i + 1]
                    guard x.isFinite, y.isFinite else { continue }
                    let p = proj.toScreenHomogeneous((x - origin.x) * ws, (y - origin.y) * ws)
                    if first == nil { first = p }
                    visit(p)
                }
                if let f = first {                                   // close: the cut back in front, if any
                    visit(f)
                    if f.w >= minW { points.removeLast(2); depths.removeLast() }   // the first point repeated
                }
                let end = points.count
                // Two points still draw their outline (there and back), as the GPU's ring edges do.
                guard end - start >= 4 else {
                    points.removeSubrange(start..<end); depths.removeSubrange(start / 2..<end / 2); continue
                }
                // Signed area (shoelace); with this rasteriser a negative area counts +1 inside.
                var area = 0.0
                var j = end - 2
                var i = start
                while i < end {
                    area += points[j] * points[i + 1] - points[i] * points[j + 1]
                    j = i; i += 2
                }
                let positive: Double = area < 0 ? 1 : -1
                rings.append((start, end, k == 0 ? positive : -positive, open))
            }
        }
    }

    /// Scanline coverage of the projected rings, composited in `color` (or per pixel `shade`).
    private mutating func fill(_ color: SIMD4<Float>, shade: ((Int, Int) -> SIMD4<Float>)? = nil, into canvas: inout Compositor) {
        guard !rings.isEmpty else { return }
        var lx = Double.infinity, ly = Double.infinity, hx = -Double.infinity, hy = -Double.infinity
        var i = 0
        while i < points.count {
            lx = min(lx, points[i]); hx = max(hx, points[i]); ly = min(ly, points[i + 1]); hy = max(hy, points[i + 1])
            i += 2
        }
        // Everything left of the frame still covers pixels to its right, so the box starts at
        // the frame's left edge when the shape does.
        // Clamped as doubles first: a point just in front of the camera plane projects far off.
        guard lx.isFinite, ly.isFinite, hx.isFinite, hy.isFinite else { return }
        let wd = Double(canvas.width), hd = Double(canvas.height)
        let x0 = Int(min(max(0, lx.rounded(.down)), wd)), y0 = Int(min(max(0, ly.rounded(.down)), hd))
        let x1 = Int(min(max(0, hx.rounded(.up)), wd)), y1 = Int(min(max(0, hy.rounded(.up)), hd))
        guard x0 < x1, y0 < y1 else { return }
        rasterizer.reset(x0: x0, y0: y0, width: x1 - x0, height: y1 - y0)
        for r in rings {
            var j = r.end - 2
            var k = r.start
            while k < r.end {
                rasterizer.addEdge(points[j], points[j + 1], points[k], points[k + 1], weight: r.weight)
                j = k; k += 2
            }
        }
        if let shade {
            rasterizer.sweep { y, x, cov in canvas.blendRow(y: y, x0: x, coverage: cov, shade: shade) }
        } else if var mask = interiorMask {
            interiorMask = nil   // one owner while it is written (no copy)
            let width = canvas.width
            rasterizer.sweep { y, x, cov in
                canvas.blendRow(y: y, x0: x, coverage: cov, color: color)
                for i in 0..<cov.count where cov[i] >= 0.5 && canvas.allows(x + i, y) { mask[y * width + x + i] = true }
            }
            interiorMask = mask
        } else {
            rasterizer.sweep { y, x, cov in canvas.blendRow(y: y, x0: x, coverage: cov, color: color) }
        }
    }

    /// A whole pixel coordinate as an index, clamped to −1…limit (a point just in front of the
    /// camera plane projects arbitrarily far off the frame).
    private static func index(_ v: Double, _ limit: Int) -> Int {
        v.isNaN ? -1 : Int(min(max(v, -1), Double(limit)))
    }

    /// The antialiasing outline: each ring edge drawn the way a 1-device-pixel GL line is
    /// rasterised (one pixel per column for x-major edges, per row for y-major edges: the pixel
    /// whose centre is within half a pixel of the edge along the minor axis), fading with the
    /// distance d as `1 − smoothstep(0, 1, d)` — MapLibre's fill outline. d is measured from the
    /// pixel centre to the point MapLibre's `v_pos` varying holds there: the centre projected onto
    /// the edge (parameter t), moved along it by perspective-correct interpolation (t weighted by
    /// 1/w of the end points), so without pitch it is the perpendicular distance.
    private func outline(_ color: SIMD4<Float>, shade: ((Int, Int) -> SIMD4<Float>)? = nil, into canvas: inout Compositor) {
        let width = canvas.width, height = canvas.height, q = canvas.quantizeEachDraw, clip = canvas.clip
        canvas.pixels.withUnsafeMutableBufferPointer { buf in
            // The edge being drawn: its ends and their clip w.
            var ax = 0.0, ay = 0.0, bx = 0.0, by = 0.0, wa = 1.0, wb = 1.0
            func plot(_ x: Int, _ y: Int) {
                guard x >= 0, y >= 0, x < width, y < height, clip?.contains(x, y) ?? true else { return }
                let fx = Double(x) + 0.5 - ax, fy = Double(y) + 0.5 - ay
                let ex = bx - ax, ey = by - ay
                let t = (fx * ex + fy * ey) / (ex * ex + ey * ey)
                let denom = (1 - t) / wa + t / wb
                let tp = denom != 0 ? t / wb / denom : t
                let d = ((fx - tp * ex) * (fx - tp * ex) + (fy - tp * ey) * (fy - tp * ey)).squareRoot()
                let s = min(max(d, 0), 1)
                let alpha = 1 - s * s * (3 - 2 * s)
                Compositor.blend(buf.baseAddress! + (y * width + x), (shade?(x, y) ?? color) * Float(alpha), quantize: q)
            }
            // A GL line along its major axis u (minor axis v): the pixels u whose centres lie within
            // the edge's extent from au to bu, each at the minor pixel whose centre is in
            // [v − ½, v + ½) (as the GPU's top-left rule picks).
            func line(_ au: Double, _ av: Double, _ bu: Double, _ du: Double, _ dv: Double,
                      steps: Int, minorSteps: Int, _ plot: (Int, Int) -> Void) {
                let lo = min(au, bu), hi = max(au, bu)
                let c0 = max(0, Self.index((lo - 0.5).rounded(.up), steps))
                let c1 = min(steps - 1, Self.index((hi - 0.5).rounded(.up), steps) - 1)
                guard c0 <= c1 else { return }
                for u in c0...c1 {
                    let cu = Double(u) + 0.5
                    let lv = av + (cu - au) * dv / du
                    plot(u, Self.index((lv - 1).rounded(.up), minorSteps))
                }
            }
            for r in rings {
                var j = r.end - 2
                var k = r.start
                if r.open { j = r.start; k = r.start + 2 }   // an open segment: no closing edge
                while k < r.end {
                    ax = points[j]; ay = points[j + 1]; bx = points[k]; by = points[k + 1]
                    wa = depths[j / 2]; wb = depths[k / 2]
                    j = k; k += 2
                    let dx = bx - ax, dy = by - ay
                    let len = (dx * dx + dy * dy).squareRoot()
                    guard len > 0, len.isFinite else { continue }
                    if abs(dx) >= abs(dy) {
                        // x-major: one pixel per column.
                        line(ax, ay, bx, dx, dy, steps: width, minorSteps: height) { x, y in plot(x, y) }
                    } else {
                        line(ay, ax, by, dy, dx, steps: height, minorSteps: width) { y, x in plot(x, y) }
                    }
                }
            }
        }
    }
}
