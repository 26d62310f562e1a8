import GLMapCore
import GLMapStyle

/// How a `text-size` or `icon-size` reaches the vertex stage (GL JS's `SizeData`): one value for
/// the layer, one per feature, or the values at the two zoom stops that cover the tile's zoom
/// (per layer for zoom-only values, per feature for data-and-zoom values), mixed per frame.
public enum SymbolSizeData: Sendable, Equatable {
    /// A constant: its value at the tile zoom + 1.
    case constant(layoutSize: Double)
    /// Per feature (its value at the tile zoom, ×128 in the vertices).
    case source
    /// Zoom only: the values at the covering stops, mixed by the zoom curve.
    case camera(minZoom: Double, maxZoom: Double, minSize: Double, maxSize: Double, interpolates: Bool)
    /// Feature and zoom: per feature the values at the covering stops (×128 in the vertices).
    case composite(minZoom: Double, maxZoom: Double, interpolates: Bool)

    /// GL JS's `getSizeData` for the property `key` of `layer` at the tile zoom `tileZoom`.
    static func make(_ key: PropertyKey<Double>, layer: Layer, evaluator: StyleEvaluator, tileZoom: Double) -> SymbolSizeData {
        guard let e = layer.values[key.name]?.expression, !(e.isFeatureConstant && e.isZoomConstant) else {
            var at = evaluator
            at.zoom = tileZoom + 1
            return .constant(layoutSize: at.value(key, layer))
        }
        if e.isZoomConstant { return .source }
        let stops = e.zoomStops
        var lower = 0
        while lower < stops.count && stops[lower] <= tileZoom { lower += 1 }
        lower = max(0, lower - 1)
        var upper = lower
        while upper < stops.count && stops[upper] < tileZoom + 1 { upper += 1 }
        upper = min(stops.count - 1, upper)
        let minZoom = stops.isEmpty ? tileZoom : stops[lower], maxZoom = stops.isEmpty ? tileZoom : stops[upper]
        if !e.isFeatureConstant { return .composite(minZoom: minZoom, maxZoom: maxZoom, interpolates: e.zoomCurveInterpolates) }
        var a = evaluator, b = evaluator
        a.zoom = minZoom
        b.zoom = maxZoom
        return .camera(minZoom: minZoom, maxZoom: maxZoom, minSize: a.value(key, layer), maxSize: b.value(key, layer),
                       interpolates: e.zoomCurveInterpolates)
    }

    /// Whether the size reads no feature (the vertex stage uses `u_size`/`u_size_t`).
    public var isFeatureConstant: Bool {
        switch self {
        case .constant, .camera: return true
        case .source, .composite: return false
        }
    }

    /// Whether the size reads no zoom.
    public var isZoomConstant: Bool {
        switch self {
        case .constant, .source: return true
        case .camera, .composite: return false
        }
    }
}

/// A size's per-frame values (GL JS's `evaluateSizeForZoom`): `uSize` for constant and zoom-only
/// sizes, `uSizeT` (the mix factor between the covering stops) for zoom-dependent ones.
public struct SymbolSizeUniforms: Sendable, Equatable {
    /// The size when it reads no feature.
    public var uSize: Double
    /// The mix factor between the two stops (0 when the size does not read the zoom).
    public var uSizeT: Double

    /// The values at `zoom` for `data`; `interpolation` gives the zoom curve's factor between two
    /// stops (nil: a `step` curve, factor 0).
    public init(_ data: SymbolSizeData, zoom: Double, factor: (Double, Double, Double) -> Double) {
        switch data {
        case .constant(let s): uSize = s; uSizeT = 0
        case .source: uSize = 0; uSizeT = 0
        case .camera(let z0, let z1, let s0, let s1, let interpolates):
            let t = interpolates ? min(max(factor(zoom, z0, z1), 0), 1) : 0
            uSize = s0 + (s1 - s0) * t
            uSizeT = 0
        case .composite(let z0, let z1, let interpolates):
            uSize = 0
            uSizeT = interpolates ? min(max(factor(zoom, z0, z1), 0), 1) : 0
        }
    }

    /// GL JS's `evaluateSizeForFeature`: the size of one placed symbol (its packed sizes ×128).
    public func size(_ data: SymbolSizeData, lowerSize: Double, upperSize: Double) -> Double {
        switch data {
        case .source: return lowerSize / 128
        case .composite: return lowerSize / 128 + (upperSize / 128 - lowerSize / 128) * uSizeT
        case .constant, .camera: return uSize
        }
    }
}
