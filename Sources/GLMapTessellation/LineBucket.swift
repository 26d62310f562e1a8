import GLMapCore
import GLMapStyle

/// Extruded line geometry (see `LineVertex`) with per-vertex paint attributes.
public struct LineBucket {
    public let layer: EvaluatedLineLayer
    public let origin: (x: Double, y: Double)
    /// Unit-world bounds of the geometry (for world-copy culling).
    public var bounds = WorldBounds.empty
    /// `VertexLayout.line` floats per vertex.
    public var vertices: [Float] = []
    public var indices: [UInt32] = []

    public init(_ layer: EvaluatedLineLayer, origin: (x: Double, y: Double)) {
        self.layer = layer
        self.origin = origin
        let cap: LineCap = { switch layer.cap { case .butt: return .butt; case .round: return .round; case .square: return .square } }()
        var geometry = LineGeometry()
        var local: [Double] = []
        for f in layer.features {
            let join: LineJoin = { switch f.join { case .miter: return .miter; case .bevel: return .bevel; case .round: return .round } }()
            var tess = LineTessellator(join: join, cap: cap, miterLimit: layer.miterLimit, roundLimit: layer.roundLimit)
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
                local.withUnsafeBufferPointer { tess.append($0, closed: part.closed, into: &geometry) }
                let base = UInt32(vertices.count / VertexLayout.line)
                for v in geometry.vertices {
                    vertices.append(v.x); vertices.append(v.y)
                    vertices.append(v.ex); vertices.append(v.ey)
                    vertices.append(v.nx); vertices.append(v.ny)
                    vertices.append(v.distance); vertices.append(v.direction)
                    vertices.append(color: f.color)
                    vertices.append(Float(f.opacity))
                    vertices.append(Float(f.width))
                    vertices.append(Float(f.gapWidth))
                    vertices.append(Float(f.offset))
                    vertices.append(Float(f.blur))
                }
                for idx in geometry.indices { indices.append(base + idx) }
            }
        }
    }
}
