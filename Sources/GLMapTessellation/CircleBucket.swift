import GLMapCore
import GLMapStyle

/// One instance per circle centre (MultiPoint and line/polygon vertices: one per position),
/// with per-instance attributes for every data-driven value.
public struct CircleBucket {
    public let layer: EvaluatedCircleLayer
    public let origin: (x: Double, y: Double)
    /// Unit-world bounds of the geometry (for world-copy culling).
    public var bounds = WorldBounds.empty
    /// `VertexLayout.circle` floats per instance.
    public var instances: [Float] = []
    public var instanceCount: Int { instances.count / VertexLayout.circle }

    public init(_ layer: EvaluatedCircleLayer, origin: (x: Double, y: Double)) {
        self.layer = layer
        self.origin = origin
        let total = layer.features.reduce(0) { $0 + $1.centers.count / 2 }
        instances.reserveCapacity(total * VertexLayout.circle)
        for f in layer.features {
            var i = 0
            while i + 1 < f.centers.count {
                let x = f.centers[i], y = f.centers[i + 1]
                i += 2
                guard x.isFinite && y.isFinite else { continue }
                bounds.add(x, y)
                instances.append(Float(x - origin.x))
                instances.append(Float(y - origin.y))
                instances.append(Float(f.radius))
                instances.append(color: f.color)
                instances.append(Float(f.opacity))
                instances.append(Float(f.blur))
                instances.append(Float(f.strokeWidth))
                instances.append(color: f.strokeColor)
                instances.append(Float(f.strokeOpacity))
            }
        }
    }
}
