import GLMapCore
import GLMapStyle

/// Triangulated fills (earcut) plus the antialiasing outline quads of every ring edge.
public struct FillBucket {
    public let layer: EvaluatedFillLayer
    public let origin: (x: Double, y: Double)
    /// Unit-world bounds of the geometry (for world-copy culling).
    public var bounds = WorldBounds.empty
    /// `VertexLayout.fill` floats per vertex.
    public var vertices: [Float] = []
    public var indices: [UInt32] = []
    /// `VertexLayout.fillOutline` floats per vertex, four vertices per edge.
    public var outlineVertices: [Float] = []
    public var outlineIndices: [UInt32] = []

    public init(_ layer: EvaluatedFillLayer, origin: (x: Double, y: Double)) {
        self.layer = layer
        self.origin = origin
        let triangulator = EarcutTriangulator()
        var vertexCount = 0
        for f in layer.features { for p in f.polygons { vertexCount += p.coords.count / 2 } }
        vertices.reserveCapacity(vertexCount * VertexLayout.fill)
        indices.reserveCapacity(vertexCount * 3)
        if layer.antialias {
            outlineVertices.reserveCapacity(vertexCount * 4 * VertexLayout.fillOutline)
            outlineIndices.reserveCapacity(vertexCount * 6)
        }
        for f in layer.features {
            for poly in f.polygons {
                add(poly, f, triangulator)
            }
        }
    }

    mutating func add(_ poly: ProjectedPolygon, _ f: EvaluatedFill, _ triangulator: EarcutTriangulator) {
        let coords = poly.coords
        guard coords.allSatisfy({ $0.isFinite }) else { return }
        bounds.add(flat: coords)
        let base = UInt32(vertices.count / VertexLayout.fill)
        let n = coords.count / 2
        vertices.reserveCapacity(vertices.count + n * VertexLayout.fill)
        for i in 0..<n {
            vertices.append(Float(coords[2 * i] - origin.x))
            vertices.append(Float(coords[2 * i + 1] - origin.y))
            vertices.append(color: f.color)
            vertices.append(Float(f.opacity))
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
                let b = UInt32(outlineVertices.count / VertexLayout.fillOutline)
                for t: Float in [0, 1] {
                    for side: Float in [-1, 1] {
                        outlineVertices.append(Float(ax - origin.x))
                        outlineVertices.append(Float(ay - origin.y))
                        outlineVertices.append(Float(bx - origin.x))
                        outlineVertices.append(Float(by - origin.y))
                        outlineVertices.append(t)
                        outlineVertices.append(side)
                        outlineVertices.append(color: f.outlineColor)
                        outlineVertices.append(Float(f.opacity))
                    }
                }
                // Corners (t, side): 0 (0,-1), 1 (0,+1), 2 (1,-1), 3 (1,+1).
                outlineIndices.append(contentsOf: [b, b + 1, b + 3, b, b + 3, b + 2])
            }
        }
    }
}
