import GLMapCore
import GLMapStyle

/// Triangulated fills (earcut) plus the antialiasing outline: one instance per ring edge.
public struct FillBucket {
    public let layer: EvaluatedFillLayer
    public let origin: (x: Double, y: Double)
    /// Unit-world bounds of the geometry (for world-copy culling).
    public var bounds = WorldBounds.empty
    /// `VertexLayout.fill` floats per vertex.
    public var vertices: [Float] = []
    public var indices: [UInt32] = []
    /// `VertexLayout.fillOutline` floats per ring edge (drawn as an instanced quad).
    public var outlineInstances: [Float] = []
    public var outlineCount: Int { outlineInstances.count / VertexLayout.fillOutline }

    public init(_ layer: EvaluatedFillLayer, origin: (x: Double, y: Double)) {
        self.layer = layer
        self.origin = origin
        let triangulator = EarcutTriangulator()
        var vertexCount = 0
        for f in layer.features { for p in f.polygons { vertexCount += p.coords.count / 2 } }
        vertices.reserveCapacity(vertexCount * VertexLayout.fill)
        indices.reserveCapacity(vertexCount * 3)
        if layer.antialias { outlineInstances.reserveCapacity(vertexCount * VertexLayout.fillOutline) }
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
        let c = f.color
        let (cr, cg, cb, ca, op) = (Float(c.r), Float(c.g), Float(c.b), Float(c.a), Float(f.opacity))
        let ox = origin.x, oy = origin.y
        for i in 0..<n {
            vertices.append(Float(coords[2 * i] - ox))
            vertices.append(Float(coords[2 * i + 1] - oy))
            vertices.append(cr); vertices.append(cg); vertices.append(cb); vertices.append(ca)
            vertices.append(op)
        }
        _ = coords.withUnsafeBufferPointer {
            triangulator.triangulate($0, holeIndices: poly.holeIndices, dimensions: 2, appendingTo: &indices, indexOffset: base)
        }

        guard layer.antialias else { return }
        let o = f.outlineColor
        let (orr, og, ob, oa) = (Float(o.r), Float(o.g), Float(o.b), Float(o.a))
        for r in poly.ringRanges where r.count >= 2 {
            for i in r {
                let j = i + 1 < r.upperBound ? i + 1 : r.lowerBound
                let ax = coords[2 * i], ay = coords[2 * i + 1], bx = coords[2 * j], by = coords[2 * j + 1]
                if ax == bx && ay == by { continue }
                outlineInstances.append(Float(ax - ox)); outlineInstances.append(Float(ay - oy))
                outlineInstances.append(Float(bx - ox)); outlineInstances.append(Float(by - oy))
                outlineInstances.append(orr); outlineInstances.append(og); outlineInstances.append(ob); outlineInstances.append(oa)
                outlineInstances.append(op)
            }
        }
    }
}
