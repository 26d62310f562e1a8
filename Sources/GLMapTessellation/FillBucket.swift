import GLMapCore
import GLMapStyle

/// Triangulated fills (earcut) plus the antialiasing outline quads of every ring edge.
public struct FillBucket {
    public let layer: EvaluatedFillLayer
    public let origin: (x: Double, y: Double)
    /// Unit-world bounds of the geometry (for world-copy culling).
    public var bounds = WorldBounds.empty
    /// `stride` floats per vertex: `VertexLayout.fill`, then `paint`'s block.
    public var vertices: [Float] = []
    public var indices: [UInt32] = []
    /// `outlineStride` floats per vertex (`VertexLayout.fillOutline`, then `outlinePaint`'s
    /// block), four vertices per edge.
    public var outlineVertices: [Float] = []
    public var outlineIndices: [UInt32] = []
    /// Which fill properties are attributes and which uniforms (program fill).
    public let paint: PaintLayout
    /// The same for the outline program (fill_outline).
    public let outlinePaint: PaintLayout
    /// Floats per fill vertex.
    public var stride: Int { VertexLayout.fill + paint.floatsPerVertex }
    /// Floats per outline vertex.
    public var outlineStride: Int { VertexLayout.fillOutline + outlinePaint.floatsPerVertex }

    public init(_ layer: EvaluatedFillLayer, next: EvaluatedFillLayer? = nil, origin: (x: Double, y: Double)) {
        self.layer = layer
        self.origin = origin
        paint = PaintLayout(program: "fill", features: layer.features, source: layer.paint, value: EvaluatedFill.paint)
        outlinePaint = PaintLayout(program: "fill_outline", features: layer.features, source: layer.paint,
                                   value: EvaluatedFill.paint)
        let nextFeatures = Bucket.aligned(layer.features, next?.features)
        let stride = VertexLayout.fill + paint.floatsPerVertex
        let outlineStride = VertexLayout.fillOutline + outlinePaint.floatsPerVertex
        let triangulator = EarcutTriangulator()
        var vertexCount = 0
        for f in layer.features { for p in f.polygons { vertexCount += p.coords.count / 2 } }
        vertices.reserveCapacity(vertexCount * stride)
        indices.reserveCapacity(vertexCount * 3)
        if layer.antialias {
            outlineVertices.reserveCapacity(vertexCount * 4 * outlineStride)
            outlineIndices.reserveCapacity(vertexCount * 6)
        }
        for (i, f) in layer.features.enumerated() {
            let fillPaint = paint.vertexValues(f, next: nextFeatures?[i], value: EvaluatedFill.paint)
            let edgePaint = outlinePaint.vertexValues(f, next: nextFeatures?[i], value: EvaluatedFill.paint)
            for poly in f.polygons {
                add(poly, fillPaint, edgePaint, triangulator)
            }
        }
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
                let ax = coords[2 * i], ay = coords[2 * i + 1], bx = coords[2 * j], by = coords[2 * j + 1]
                if ax == bx && ay == by { continue }
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
                // Corners (t, side): 0 (0,-1), 1 (0,+1), 2 (1,-1), 3 (1,+1).
                outlineIndices.append(contentsOf: [b, b + 1, b + 3, b, b + 3, b + 2])
            }
        }
    }
}
