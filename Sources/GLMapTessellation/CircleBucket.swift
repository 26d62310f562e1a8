import GLMapCore
import GLMapStyle

/// A circle layer over one tile: one instance per circle centre (every position of the points,
/// lines and polygons inside the tile), in tile units, with per-instance attributes for every
/// data-driven value.
public struct CircleBucket: Sendable {
    /// The evaluated layer the bucket was built from.
    public let layer: EvaluatedCircleLayer
    /// `stride` floats per instance: `VertexLayout.circle`, then `paint`'s block.
    public var instances: [Float] = []
    /// Number of circle instances.
    public var instanceCount: Int { instances.count / stride }
    /// Which circle properties are instance attributes and which uniforms.
    public let paint: PaintLayout
    /// Floats per instance.
    public var stride: Int { VertexLayout.circle + paint.floatsPerVertex }

    /// Builds the instances of `layer`; `next` is the layer at tile zoom + 1 for composite values.
    public init(_ layer: EvaluatedCircleLayer, next: EvaluatedCircleLayer? = nil) {
        self.layer = layer
        paint = PaintLayout(program: "circle", features: layer.features, source: layer.paint, value: EvaluatedCircle.paint)
        let nextFeatures = Bucket.aligned(layer.features, next?.features)
        let total = layer.features.reduce(0) { $0 + $1.centers.count / 2 }
        instances.reserveCapacity(total * (VertexLayout.circle + paint.floatsPerVertex))
        for (n, f) in layer.features.enumerated() {
            let values = paint.vertexValues(f, next: nextFeatures?[n], value: EvaluatedCircle.paint)
            Bucket.appendInstances(f.centers, values, to: &instances)
        }
    }
}

extension Bucket {
    /// Appends one instance per finite centre of `centers` (x0, y0, x1, y1, …): x, y, then
    /// `values` (circles and heatmap kernels).
    static func appendInstances(_ centers: [Double], _ values: [Float], to instances: inout [Float]) {
        var i = 0
        while i + 1 < centers.count {
            let x = centers[i], y = centers[i + 1]
            i += 2
            guard x.isFinite && y.isFinite else { continue }
            instances.append(Float(x))
            instances.append(Float(y))
            instances.append(contentsOf: values)
        }
    }
}
