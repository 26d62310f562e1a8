import Foundation
import GLMapCore
import GLMapTiles

/// One point feature of a `heatmap` layer (all its points inside the tile) with its paint.
public struct EvaluatedHeatmapPoint: Sendable {
    /// Centres, flat tile units.
    public var centers: [Double]
    /// `heatmap-weight` (default 1); points of weight ≤ 0 or not finite are left out (their
    /// kernel is empty in MapLibre's shader).
    public var weight: Double
    /// `heatmap-radius` in CSS pixels (default 30).
    public var radius: Double
    /// `heatmap-intensity` at the frame zoom (layer-wide).
    public var intensity: Double
    /// The feature's index in its source or tile layer.
    public var index: Int = 0

    /// A point group with its paint.
    public init(centers: [Double], weight: Double, radius: Double, intensity: Double) {
        (self.centers, self.weight, self.radius, self.intensity) = (centers, weight, radius, intensity)
    }
}

/// A `heatmap` layer evaluated over one tile.
public struct EvaluatedHeatmapLayer: Sendable {
    /// The style layer's `id`.
    public var id: String
    /// `heatmap-intensity` at the frame zoom.
    public var intensity: Double
    /// `heatmap-opacity` at the frame zoom.
    public var opacity: Double
    /// `heatmap-color` as a ramp over the density 0…1.
    public var ramp: ColorRamp
    /// The points inside the tile square, in source order.
    public var features: [EvaluatedHeatmapPoint]
    /// The bound paint's expressions and tile zoom.
    public var paint = PaintSource()
    /// The tile the layer was evaluated over (geometry in its units).
    public var tile: OverscaledTileID?

    /// A layer of evaluated points.
    public init(id: String, intensity: Double, opacity: Double, ramp: ColorRamp, features: [EvaluatedHeatmapPoint]) {
        (self.id, self.intensity, self.opacity, self.ramp, self.features) = (id, intensity, opacity, ramp, features)
    }
}

/// MapLibre's heatmap kernel: a Gaussian of standard deviation radius / 3, cut where it falls
/// below `zero` (one 16th of an 8-bit step) — the square it is drawn over is `extent` radii wide
/// each side.
public enum HeatmapKernel {
    /// 1 / √(2π).
    public static let gaussCoefficient = 0.3989422804014327
    /// The kernel's effective zero.
    public static let zero = 1.0 / 255.0 / 16.0

    /// Half the side of the kernel's square in radii (MapLibre's `S`); not finite when the
    /// kernel has no value above zero.
    public static func extent(weight: Double, intensity: Double) -> Double {
        (-2 * log(zero / weight / intensity / gaussCoefficient)).squareRoot() / 3
    }

    /// The kernel at `v` radii from the centre (each axis within `extent`).
    public static func value(weight: Double, intensity: Double, vx: Double, vy: Double) -> Double {
        weight * intensity * gaussCoefficient * exp(-0.5 * 3 * 3 * (vx * vx + vy * vy))
    }
}
