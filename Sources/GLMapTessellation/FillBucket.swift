import GLMapCore
import GLMapStyle

/// Triangulated fills (earcut) plus the antialiasing outline quads of every ring edge.
public struct FillBucket: Sendable {
    /// The evaluated layer the bucket was built from.
    public let layer: EvaluatedFillLayer
    /// Unit-world point that positions are relative to (keeps Float positions precise).
    public let origin: (x: Double, y: Double)
    /// Unit-world bounds of the geometry (for world-copy culling).
    public var bounds = WorldBounds.empty
    /// `stride` floats per vertex: `VertexLayout.fill`, then `paint`'s block.
    public var vertices: [Float] = []
    /// Triangle list into `vertices`, three indices a triangle.
    public var indices: [UInt32] = []
    /// `outlineStride` floats per vertex (`VertexLayout.fillOutline`, then `outlinePaint`'s
    /// block), four vertices per edge.
    public var outlineVertices: [Float] = []
    /// Triangle list into `outlineVertices`, two triangles an edge.
    public var outlineIndices: [UInt32] = []
    /// Which fill properties are attributes and which uniforms (program fill).
    public let paint: PaintLayout
    /// The same for the outline program (fill_outline).
    public let outlinePaint: PaintLayout
    /// For a layer with `fill-translate`: the index ranges of each tile's piece with the tile's
    /// square (bucket-local units), covering every index in order. MapLibre clips a tile's
    /// drawing to its square with the stencil, which `fill-translate` does not move, while the
    /// geometry moves; the translation depends on the frame (zoom, and bearing for the viewport
    /// anchor), so the triangles are cut here only to the square widened by the largest
    /// translation and the renderer clips each range to its square per fragment. Empty without
    /// a translation (the triangles are then cut to the square here).
    public var tileClips: [TileClip] = []

    /// A run of fill and outline indices drawn clipped to one square (see `tileClips`).
    public struct TileClip: Sendable {
        /// The piece's range of `indices` (fill triangles).
        public var indices: Range<Int>
        /// The piece's range of `outlineIndices` (antialiasing outline quads).
        public var outlineIndices: Range<Int>
        /// minX, minY, maxX, maxY in bucket-local units; infinite for pieces drawn unclipped.
        public var box: (Double, Double, Double, Double)
    }
    /// Floats per fill vertex.
    public var stride: Int { VertexLayout.fill + paint.floatsPerVertex }
    /// Floats per outline vertex.
    public var outlineStride: Int { VertexLayout.fillOutline + outlinePaint.floatsPerVertex }

    /// Triangulates `layer`'s fills and outlines; `next` is the layer at tile zoom + 1 for composite values.
    public init(_ layer: EvaluatedFillLayer, next: EvaluatedFillLayer? = nil, origin: (x: Double, y: Double)) {
        self.init(layer, next: next, origin: origin, emulation: [])
    }

    /// The same with MapLibre Native behaviours emulated (`NativeEmulation.earcut22`; the differential harness only).
    package init(_ layer: EvaluatedFillLayer, next: EvaluatedFillLayer? = nil, origin: (x: Double, y: Double),
                 emulation: NativeEmulation) {
        self.layer = layer
        self.origin = origin
        paint = PaintLayout(program: "fill", features: layer.features, source: layer.paint, value: EvaluatedFill.paint)
        outlinePaint = PaintLayout(program: "fill_outline", features: layer.features, source: layer.paint,
                                   value: EvaluatedFill.paint)
        let nextFeatures = Bucket.aligned(layer.features, next?.features)
        let parts = Self.parts(layer.features)
        guard parts.count > 1, !clipsPerFragment else {
            add(0..<Int.max, next: nextFeatures, EarcutTriangulator(flavor: .mapLibre, emulation: emulation))
            return
        }
        // Contiguous runs of polygons on all cores, joined in order: the same arrays as one run
        // (each polygon appends its own vertices; indices are shifted by the vertices before).
        let empty = self
        let built = concurrentMap(parts) { range -> FillBucket in
            var b = empty
            b.add(range, next: nextFeatures, EarcutTriangulator(flavor: .mapLibre, emulation: emulation))
            return b
        }
        vertices.reserveCapacity(built.reduce(0) { $0 + $1.vertices.count })
        indices.reserveCapacity(built.reduce(0) { $0 + $1.indices.count })
        outlineVertices.reserveCapacity(built.reduce(0) { $0 + $1.outlineVertices.count })
        outlineIndices.reserveCapacity(built.reduce(0) { $0 + $1.outlineIndices.count })
        for b in built {
            let shift = UInt32(vertices.count / stride), outlineShift = UInt32(outlineVertices.count / outlineStride)
            vertices.append(contentsOf: b.vertices)
            indices.append(contentsOf: b.indices.lazy.map { $0 + shift })
            outlineVertices.append(contentsOf: b.outlineVertices)
            outlineIndices.append(contentsOf: b.outlineIndices.lazy.map { $0 + outlineShift })
            bounds.add(b.bounds)
        }
    }

    /// The polygons a feature draws, in order: its own, or its tile pieces' (tile by tile).
    static func polygonCount(_ f: EvaluatedFill) -> Int {
        f.tiles.isEmpty ? f.polygons.count : f.tiles.reduce(0) { $0 + $1.polygons.count }
    }

    /// Runs of polygons (numbered through the features in drawing order, as `add` walks them)
    /// tessellated as separate jobs: one when the layer is small (waking other cores costs more
    /// than the work), else runs of about `partPositions` positions, so a few large
    /// MultiPolygons (five boroughs) spread over the cores too.
    static func parts(_ features: [EvaluatedFill]) -> [Range<Int>] {
        contiguousRuns(weights: drawnPolygons(features).lazy.map { $0.coords.count / 2 }, target: partPositions)
    }

    /// Every polygon the features draw, in the order `add` numbers them (`polygonCount` each).
    static func drawnPolygons(_ features: [EvaluatedFill]) -> some Sequence<ProjectedPolygon> {
        features.lazy.flatMap { f in f.tiles.isEmpty ? f.polygons : f.tiles.flatMap(\.polygons) }
    }

    /// Positions per tessellation job (world's 10,641 fill positions: about four jobs).
    static let partPositions = 2_500

    /// Tessellates the polygons numbered `range` (see `parts`; `0..<Int.max`: all of them) with
    /// their outlines and tile clips, appending.
    mutating func add(_ range: Range<Int>, next nextFeatures: [EvaluatedFill]?, _ triangulator: EarcutTriangulator) {
        var vertexCount = 0
        for (k, p) in Self.drawnPolygons(layer.features).enumerated() {
            guard k < range.upperBound else { break }
            if k >= range.lowerBound { vertexCount += p.coords.count / 2 }
        }
        vertices.reserveCapacity(vertexCount * stride)
        indices.reserveCapacity(vertexCount * 3)
        if layer.antialias {
            outlineVertices.reserveCapacity(vertexCount * 4 * outlineStride)
            outlineIndices.reserveCapacity(vertexCount * 6)
        }
        var k = 0
        for (i, f) in layer.features.enumerated() {
            let n = Self.polygonCount(f)
            if k + n <= range.lowerBound { k += n; continue }
            guard k < range.upperBound else { break }
            let fillPaint = paint.vertexValues(f, next: nextFeatures?[i], value: EvaluatedFill.paint)
            let edgePaint = outlinePaint.vertexValues(f, next: nextFeatures?[i], value: EvaluatedFill.paint)
            if f.tiles.isEmpty {
                for poly in f.polygons { if range.contains(k) { add(poly, fillPaint, edgePaint, triangulator) }; k += 1 }
                recordClip(nil)
                continue
            }
            for t in f.tiles {
                for poly in t.polygons { if range.contains(k) { addTiled(poly, fillPaint, edgePaint, tile: t, triangulator) }; k += 1 }
                recordClip(t.clipped ? t : nil)
            }
        }
    }

    /// Whether tile clipping is left to the renderer (`tileClips`): the layer has a translation.
    var clipsPerFragment: Bool { layer.translate.x != 0 || layer.translate.y != 0 }

    /// Ends the current run of indices with `tile`'s square (nil: unclipped).
    mutating func recordClip(_ tile: FillTile?) {
        guard clipsPerFragment else { return }
        let start = tileClips.last.map { ($0.indices.upperBound, $0.outlineIndices.upperBound) } ?? (0, 0)
        var box = (-Double.infinity, -Double.infinity, Double.infinity, Double.infinity)
        if let t = tile {
            let side = 1 / Double(1 << t.zoom)
            box = (Double(t.x) * side - origin.x, Double(t.y) * side - origin.y,
                   Double(t.x + 1) * side - origin.x, Double(t.y + 1) * side - origin.y)
        }
        if var last = tileClips.last, last.box == box {
            last.indices = last.indices.lowerBound..<indices.count
            last.outlineIndices = last.outlineIndices.lowerBound..<outlineIndices.count
            tileClips[tileClips.count - 1] = last
            return
        }
        if start.0 == indices.count && start.1 == outlineIndices.count { return }
        tileClips.append(TileClip(indices: start.0..<indices.count, outlineIndices: start.1..<outlineIndices.count, box: box))
    }

    /// Adds one tile's polygon: earcut in the tile's own units (as MapLibre's bucket runs it: exact
    /// integers, so earcut's orientation tests on degenerate or invalid rings decide as MapLibre's
    /// do), then, for a clipped tile, every triangle and outline edge cut to the tile's square
    /// (MapLibre's stencil clip).
    mutating func addTiled(_ poly: ProjectedPolygon, _ fillPaint: [Float], _ edgePaint: [Float], tile t: FillTile,
                          _ triangulator: EarcutTriangulator) {
        let coords = poly.coords
        guard coords.allSatisfy({ $0.isFinite }) else { return }
        let k = Double(1 << t.zoom) * FillTiler.extent
        let ox = Double(t.x) * FillTiler.extent, oy = Double(t.y) * FillTiler.extent
        let e = FillTiler.extent
        // Cut to the square, widened (tile units) by the largest `fill-translate` shift when the
        // renderer clips per fragment: 1 CSS px is at most extent / 512 units at the tile zoom.
        let margin = clipsPerFragment ? (abs(layer.translate.x) + abs(layer.translate.y)) * e / 512 : 0
        let lo = -margin, hi = e + margin
        // Tile units: integers after the snap.
        var local = [Double](repeating: 0, count: coords.count)
        for i in Swift.stride(from: 0, to: coords.count, by: 2) {
            local[i] = (coords[i] * k).rounded() - ox
            local[i + 1] = (coords[i + 1] * k).rounded() - oy
        }
        var tri: [UInt32] = []
        _ = local.withUnsafeBufferPointer {
            triangulator.triangulate($0, holeIndices: poly.holeIndices, dimensions: 2, appendingTo: &tri, indexOffset: 0)
        }
        func world(_ u: Double, _ v: Double) -> (Double, Double) { ((u + ox) / k, (v + oy) / k) }
        func vertex(_ u: Double, _ v: Double) {
            let (x, y) = world(u, v)
            bounds.add(x, y)
            vertices.append(Float(x - origin.x))
            vertices.append(Float(y - origin.y))
            vertices.append(contentsOf: fillPaint)
        }
        // The ring vertices once; triangles inside the square index them, a triangle crossing the
        // square's border is cut and gets vertices of its own.
        let shared = UInt32(vertices.count / stride)
        for j in Swift.stride(from: 0, to: local.count, by: 2) { vertex(local[j], local[j + 1]) }
        func inside(_ k: UInt32) -> Bool {
            let u = local[2 * Int(k)], v = local[2 * Int(k) + 1]
            return u >= lo && u <= hi && v >= lo && v <= hi
        }
        var i = 0
        while i + 2 < tri.count {
            let a = tri[i], b = tri[i + 1], c = tri[i + 2]
            i += 3
            if !t.clipped || (inside(a) && inside(b) && inside(c)) {
                indices.append(contentsOf: [shared + a, shared + b, shared + c])
                continue
            }
            let pts = Self.clipToSquare([a, b, c].map { (local[2 * Int($0)], local[2 * Int($0) + 1]) }, lo, hi)
            if pts.count < 3 { continue }
            let base = UInt32(vertices.count / stride)
            for p in pts { vertex(p.0, p.1) }
            for j in 1..<(pts.count - 1) { indices.append(contentsOf: [base, base + UInt32(j), base + UInt32(j + 1)]) }
        }
        guard layer.antialias else { return }
        for r in poly.ringRanges where r.count >= 2 {
            for a in r {
                let b = a + 1 < r.upperBound ? a + 1 : r.lowerBound
                if a == b { continue }
                let full = (local[2 * a], local[2 * a + 1], local[2 * b], local[2 * b + 1])
                guard let seg = t.clipped ? Self.clipSegment(full.0, full.1, full.2, full.3, lo, hi) : full else { continue }
                let (ax, ay) = world(seg.0, seg.1), (bx, by) = world(seg.2, seg.3)
                outlineEdge(ax, ay, bx, by, edgePaint)
            }
        }
    }

    /// Sutherland–Hodgman against the square [lo, hi]².
    static func clipToSquare(_ poly: [(Double, Double)], _ lo: Double, _ hi: Double) -> [(Double, Double)] {
        var pts = poly
        for edge in 0..<4 {
            guard !pts.isEmpty else { break }
            func inside(_ p: (Double, Double)) -> Bool {
                switch edge { case 0: return p.0 >= lo; case 1: return p.0 <= hi; case 2: return p.1 >= lo; default: return p.1 <= hi }
            }
            func cross(_ p: (Double, Double), _ q: (Double, Double)) -> (Double, Double) {
                switch edge {
                case 0, 1:
                    let x = edge == 0 ? lo : hi
                    let t = (x - p.0) / (q.0 - p.0)
                    return (x, p.1 + (q.1 - p.1) * t)
                default:
                    let y = edge == 2 ? lo : hi
                    let t = (y - p.1) / (q.1 - p.1)
                    return (p.0 + (q.0 - p.0) * t, y)
                }
            }
            var out: [(Double, Double)] = []
            var prev = pts[pts.count - 1]
            for p in pts {
                if inside(p) {
                    if !inside(prev) { out.append(cross(prev, p)) }
                    out.append(p)
                } else if inside(prev) {
                    out.append(cross(prev, p))
                }
                prev = p
            }
            pts = out
        }
        return pts
    }

    /// Liang–Barsky: the part of segment a→b inside [lo, hi]², or nil.
    static func clipSegment(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ lo: Double, _ hi: Double) -> (Double, Double, Double, Double)? {
        var t0 = 0.0, t1 = 1.0
        let dx = bx - ax, dy = by - ay
        for (p, q) in [(-dx, ax - lo), (dx, hi - ax), (-dy, ay - lo), (dy, hi - ay)] {
            if p == 0 { if q < 0 { return nil }; continue }
            let r = q / p
            if p < 0 { if r > t1 { return nil }; if r > t0 { t0 = r } } else { if r < t0 { return nil }; if r < t1 { t1 = r } }
        }
        if t1 <= t0 { return nil }
        return (ax + dx * t0, ay + dy * t0, ax + dx * t1, ay + dy * t1)
    }

    /// One 1-px outline edge (four vertices, two triangles).
    mutating func outlineEdge(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ edgePaint: [Float]) {
        if ax == bx && ay == by { return }
        let b = UInt32(outlineVertices.count / outlineStride)
        for t: Float in [0, 1] {
            for side: Float in [-1, 1] {
                outlineVertices.append(Float(ax - origin.x))
                outlineVertices.append(Float(ay - origin.y))
                outlineVertices.append(Float(bx - origin.x))
                outlineVertices.append(Float(by - origin.y))
                outlineVertices.append(t)
                outlineVertices.append(side)
                outlineVertices.append(contentsOf: edgePaint)
            }
        }
        outlineIndices.append(contentsOf: [b, b + 1, b + 3, b, b + 3, b + 2])
    }

    mutating func add(_ poly: ProjectedPolygon, _ fillPaint: [Float], _ edgePaint: [Float], _ triangulator: EarcutTriangulator) {
        let coords = poly.coords
        guard coords.allSatisfy({ $0.isFinite }) else { return }
        bounds.add(flat: coords)
        let base = UInt32(vertices.count / stride)
        let n = coords.count / 2
        vertices.reserveCapacity(vertices.count + n * stride)
        for i in 0..<n {
            vertices.append(Float(coords[2 * i] - origin.x))
            vertices.append(Float(coords[2 * i + 1] - origin.y))
            vertices.append(contentsOf: fillPaint)
        }
        _ = coords.withUnsafeBufferPointer {
            triangulator.triangulate($0, holeIndices: poly.holeIndices, dimensions: 2, appendingTo: &indices, indexOffset: base)
        }

        guard layer.antialias else { return }
        for r in poly.ringRanges where r.count >= 2 {
            for i in r {
                let j = i + 1 < r.upperBound ? i + 1 : r.lowerBound
                if j == i { continue }
                outlineEdge(coords[2 * i], coords[2 * i + 1], coords[2 * j], coords[2 * j + 1], edgePaint)
            }
        }
    }
}
