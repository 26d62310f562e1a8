import GLMapCore
import GLMapStyle

/// A heatmap layer over one tile: one instance per point (as MapLibre's heatmap bucket, a circle
/// bucket, keeps them: inside the tile square), in tile units, with per-instance attributes for
/// data-driven weight and radius; the kernel's square is sized in the shader. The layer's colour
/// ramp and the composite pass's paint (`texturePaint`, program `heatmap_texture`) travel with it.
public struct HeatmapBucket: Sendable {
    /// The evaluated layer the bucket was built from.
    public let layer: EvaluatedHeatmapLayer
    /// `stride` floats per instance: `VertexLayout.heatmap`, then `paint`'s block.
    public var instances: [Float] = []
    /// Number of point instances.
    public var instanceCount: Int { instances.count / stride }
    /// Which heatmap properties are instance attributes and which uniforms (program `heatmap`).
    public let paint: PaintLayout
    /// The composite pass's uniforms (program `heatmap_texture`: the opacity).
    public let texturePaint: PaintLayout
    /// Floats per instance.
    public var stride: Int { VertexLayout.heatmap + paint.floatsPerVertex }

    /// Builds the instances of `layer`; `next` is the layer at tile zoom + 1 for composite values.
    public init(_ layer: EvaluatedHeatmapLayer, next: EvaluatedHeatmapLayer? = nil) {
        self.layer = layer
        paint = PaintLayout(program: "heatmap", features: layer.features, source: layer.paint, value: EvaluatedHeatmapPoint.paint)
        texturePaint = PaintLayout(program: "heatmap_texture", features: [layer], source: layer.paint) { l, _ in .number(l.opacity) }
        let nextFeatures = Bucket.aligned(layer.features, next?.features)
        for (n, f) in layer.features.enumerated() {
            let values = paint.vertexValues(f, next: nextFeatures?[n], value: EvaluatedHeatmapPoint.paint)
            Bucket.appendInstances(f.centers, values, to: &instances)
        }
    }
}

extension EvaluatedHeatmapPoint: PaintColumns {
    /// The heatmap properties bound to the heatmap program.
    static let columns: [PaintColumn<Self>] = [
        .number("heatmap-radius") { $0.radius }, .number("heatmap-weight") { $0.weight }, .number("heatmap-intensity") { $0.intensity },
    ]
}
