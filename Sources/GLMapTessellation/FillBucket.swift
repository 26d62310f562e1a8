import GLMapCore
import GLMapStyle
import GLMapTiles

/// A fill layer over one tile: earcut triangles of every polygon (in the tile's units, as
/// MapLibre's fill bucket triangulates them: exact integers, so earcut's orientation tests on
/// degenerate or invalid rings decide as MapLibre's do) plus the antialiasing outline quads of
/// every ring edge, including the edge from the last vertex back to the first.
public struct FillBucket: Sendable {
    /// The evaluated layer the bucket was built from.
    public let layer: EvaluatedFillLayer
    /// `stride` floats per vertex: `VertexLayout.fill`, then `paint`'s block.
    public var vertices: [Float] = []
    /// Triangle list into `vertices`, three indices a triangle.
    public var indices: [UInt32] = []
    /// `outlineStride` floats per vertex (`VertexLayout.fillOutline`, then `outlinePaint`'s
    /// block), four vertices per edge.
    public var outlineVertices: [Float] = []
    /// Triangle list into `outlineVertices`, two triangles an edge.
    public var outlineIndices: [UInt32] = []
    /// A patterned layer's pattern inputs (`VertexLayout.pattern` floats per vertex), parallel to
    /// `vertices` and to `outlineVertices` (empty otherwise).
    public var patternVertices: [Float] = []
    /// The same for the outline's vertices.
    public var outlinePatternVertices: [Float] = []
    /// Which fill properties are attributes and which uniforms (program fill).
    public let paint: PaintLayout
    /// The same for the outline program (fill_outline).
    public let outlinePaint: PaintLayout
    /// Floats per fill vertex.
    public var stride: Int { VertexLayout.fill + paint.floatsPerVertex }
    /// Floats per outline vertex.
    public var outlineStride: Int { VertexLayout.fillOutline + outlinePaint.floatsPerVertex }

    /// Triangulates `layer`'s fills and outlines; `next` is the layer at tile zoom + 1 for composite values.
    public init(_ layer: EvaluatedFillLayer, next: EvaluatedFillLayer? = nil) {
        self.layer = layer
        paint = PaintLayout(program: layer.patterned ? "fill_pattern" : "fill", features: layer.features, source: layer.paint,
                            value: EvaluatedFill.paint)
        outlinePaint = PaintLayout(program: layer.patternOutline ? "fill_outline_pattern" : "fill_outline", features: layer.features,
                                   source: layer.paint, value: EvaluatedFill.paint)
        let nextFeatures = Bucket.aligned(layer.features, next?.features)
        let parts = Self.parts(layer.features)
        guard parts.count > 1 else {
            add(layer.features.indices, next: nextFeatures, EarcutTriangulator(flavor: .mapLibre))
            return
        }
        // Runs of features on all cores, joined in order: the same arrays as one run.
        let empty = self
        let built = concurrentMap(parts) { range -> FillBucket in
            var b = empty
            b.add(range, next: nextFeatures, EarcutTriangulator(flavor: .mapLibre))
            return b
        }
        vertices.reserveCapacity(built.reduce(0) { $0 + $1.vertices.count })
        indices.reserveCapacity(built.reduce(0) { $0 + $1.indices.count })
        outlineVertices.reserveCapacity(built.reduce(0) { $0 + $1.outlineVertices.count })
        outlineIndices.reserveCapacity(built.reduce(0) { $0 + $1.outlineIndices.count })
        for b in built {
            patternVertices.append(contentsOf: b.patternVertices)
            outlinePatternVertices.append(contentsOf: b.outlinePatternVertices)
            let shift = UInt32(vertices.count / stride), outlineShift = UInt32(outlineVertices.count / outlineStride)
            vertices.append(contentsOf: b.vertices)
            indices.append(contentsOf: b.indices.lazy.map { $0 + shift })
            outlineVertices.append(contentsOf: b.outlineVertices)
            outlineIndices.append(contentsOf: b.outlineIndices.lazy.map { $0 + outlineShift })
        }
    }

    /// Runs of features tessellated as separate jobs: one when the tile is small (waking other
    /// cores costs more than the work), else runs of about `partPositions` positions.
    static func parts(_ features: [EvaluatedFill]) -> [Range<Int>] {
        contiguousRuns(weights: features.lazy.map { f in f.polygons.reduce(0) { $0 + $1.coords.count / 2 } }, target: partPositions)
    }

    /// Positions per tessellation job.
    static let partPositions = 2_500

    /// Tessellates the features in `range` with their outlines, appending.
    mutating func add(_ range: Range<Int>, next nextFeatures: [EvaluatedFill]?, _ triangulator: EarcutTriangulator) {
        for i in range {
            let f = layer.features[i]
            let fillPaint = paint.vertexValues(f, next: nextFeatures?[i], value: EvaluatedFill.paint)
            let edgePaint = outlinePaint.vertexValues(f, next: nextFeatures?[i], value: EvaluatedFill.paint)
            let pattern = f.pattern.map(PatternVertex.floats) ?? []
            if layer.patterned && pattern.isEmpty { continue }
            for poly in f.polygons { add(poly, cut: f.isPolygon && cutsToTile, fillPaint, edgePaint, pattern, triangulator) }
        }
    }

    /// One 1-px outline edge (four vertices, two triangles).
    mutating func outlineEdge(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ edgePaint: [Float], _ pattern: [Float]) {
        if ax == bx && ay == by { return }
        let b = UInt32(outlineVertices.count / outlineStride)
        for t: Float in [0, 1] {
            for side: Float in [-1, 1] {
                outlineVertices.append(Float(ax))
                outlineVertices.append(Float(ay))
                outlineVertices.append(Float(bx))
                outlineVertices.append(Float(by))
                outlineVertices.append(t)
                outlineVertices.append(side)
                outlineVertices.append(contentsOf: edgePaint)
                outlinePatternVertices.append(contentsOf: pattern)
            }
        }
        outlineIndices.append(contentsOf: [b, b + 1, b + 3, b, b + 3, b + 2])
    }

    mutating func add(_ poly: FlatPolygon, cut: Bool, _ fillPaint: [Float], _ edgePaint: [Float], _ pattern: [Float], _ triangulator: EarcutTriangulator) {
        let coords = poly.coords
        guard coords.allSatisfy({ $0.isFinite }) else { return }
        let interior = cut ? Self.clippedToTile(poly) ?? poly : poly
        addInterior(interior, fillPaint, pattern, triangulator)
        guard layer.antialias else { return }
        let cull = cutsToTile ? Self.outlineCullMargin : .infinity
        let lo = -cull, hi = Double(TileExtent.extent) + cull
        for r in poly.ringRanges where r.count >= 2 {
            for i in r {
                let j = i + 1 < r.upperBound ? i + 1 : r.lowerBound
                if j == i { continue }
                let ax = coords[2 * i], ay = coords[2 * i + 1], bx = coords[2 * j], by = coords[2 * j + 1]
                if (ax < lo && bx < lo) || (ax > hi && bx > hi) || (ay < lo && by < lo) || (ay > hi && by > hi) { continue }
                outlineEdge(ax, ay, bx, by, edgePaint, pattern)
            }
        }
    }

    /// Whether interiors are cut near the tile's square (`clippedToTile`): a tile's layer drawn
    /// through the stencil's clip, not moved by `fill-translate`.
    var cutsToTile: Bool { layer.tile != nil && layer.translate == (0, 0) }

    /// A polygon's vertices and earcut triangles.
    mutating func addInterior(_ poly: FlatPolygon, _ fillPaint: [Float], _ pattern: [Float], _ triangulator: EarcutTriangulator) {
        let coords = poly.coords
        guard coords.count >= 6 else { return }
        let base = UInt32(vertices.count / stride)
        let n = coords.count / 2
        vertices.reserveCapacity(vertices.count + n * stride)
        for i in 0..<n {
            vertices.append(Float(coords[2 * i]))
            vertices.append(Float(coords[2 * i + 1]))
            vertices.append(contentsOf: fillPaint)
            patternVertices.append(contentsOf: pattern)
        }
        _ = coords.withUnsafeBufferPointer {
            triangulator.triangulate($0, holeIndices: poly.holeIndices, dimensions: 2, appendingTo: &indices, indexOffset: base)
        }
    }
}
