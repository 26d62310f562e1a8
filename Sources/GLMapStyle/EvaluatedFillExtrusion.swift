import Foundation
import GLMapCore
import GLMapTiles

/// The style's root `light` at one zoom: how `fill-extrusion` layers are shaded (MapLibre's
/// `Light`, the spec defaults when the style sets none).
public struct EvaluatedLight: Sendable, Equatable {
    /// `anchor`: `viewport` (default) turns the light with the bearing, `map` keeps it fixed to north.
    public var anchor: LightAnchor
    /// `position` as [radial, azimuthal°, polar°] (default [1.15, 210, 30]).
    public var position: [Double]
    /// `color` (premultiplied, default white).
    public var color: Color
    /// `intensity` 0…1 (default 0.5).
    public var intensity: Double

    /// A light with explicit values.
    public init(anchor: LightAnchor = .viewport, position: [Double] = [1.15, 210, 30], color: Color = .white, intensity: Double = 0.5) {
        (self.anchor, self.position, self.color, self.intensity) = (anchor, position, color, intensity)
    }

    /// The spec's default light.
    public static let `default` = EvaluatedLight()

    /// `position` as a Cartesian direction (GL JS's `sphericalToCartesian`: the azimuth turned by
    /// 90°, x east, y south, z up).
    public var cartesian: (x: Double, y: Double, z: Double) {
        guard position.count == 3, position.allSatisfy(\.isFinite) else { return EvaluatedLight.default.cartesian }
        let r = position[0], azimuthal = (position[1] + 90) * Double.pi / 180, polar = position[2] * Double.pi / 180
        return (r * cos(azimuthal) * sin(polar), r * sin(azimuthal) * sin(polar), r * cos(polar))
    }

    /// The direction the shader lights with for a view turned by `bearing` degrees (MapLibre's
    /// `u_lightpos`: a `viewport` light is rotated with the view).
    public func direction(bearing: Double) -> (x: Double, y: Double, z: Double) {
        let p = cartesian
        guard anchor == .viewport else { return p }
        // mat3.fromRotation(-transform.angle), transform.angle = -bearing in radians.
        let a = bearing * Double.pi / 180
        let c = cos(a), s = sin(a)
        return (c * p.x - s * p.y, s * p.x + c * p.y, p.z)
    }
}

/// One feature of a `fill-extrusion` layer with its evaluated paint.
public struct EvaluatedFillExtrusion: Sendable {
    /// The feature's rings grouped into polygons (tile units), as MapLibre's `classifyRings` gives them.
    public var polygons: [FlatPolygon]
    /// Whether the feature is a polygon: its roof is triangulated. Line features get walls only.
    public var hasRoof: Bool
    /// `fill-extrusion-color` (premultiplied, default black; ignored with a pattern).
    public var color: Color
    /// `fill-extrusion-height` in metres (default 0; non-finite values read as 0).
    public var height: Double
    /// `fill-extrusion-base` in metres (default 0; non-finite values read as 0).
    public var base: Double
    /// `fill-extrusion-opacity` at the frame zoom (the same for every feature of the layer).
    public var opacity: Double
    /// `fill-extrusion-pattern`, when the layer sets one and both its images exist.
    public var pattern: EvaluatedPattern?
    /// The feature's index in its source or tile layer.
    public var index: Int = 0

    /// A feature with its paint.
    public init(polygons: [FlatPolygon], hasRoof: Bool, color: Color, height: Double, base: Double, opacity: Double,
                pattern: EvaluatedPattern? = nil) {
        (self.polygons, self.hasRoof, self.color, self.height, self.base) = (polygons, hasRoof, color, height, base)
        (self.opacity, self.pattern) = (opacity, pattern)
    }
}

/// A `fill-extrusion` layer evaluated over one tile.
public struct EvaluatedFillExtrusionLayer: Sendable {
    /// The style layer's `id`.
    public var id: String
    /// `fill-extrusion-opacity` at the frame zoom (layer-wide).
    public var opacity: Double
    /// `fill-extrusion-translate` in CSS pixels.
    public var translate: (x: Double, y: Double)
    /// `fill-extrusion-translate-anchor` (default map).
    public var translateAnchor: TranslateAnchor
    /// `fill-extrusion-vertical-gradient` (default true): walls darken towards their base.
    public var verticalGradient: Bool
    /// The features that passed the filter, in source order.
    public var features: [EvaluatedFillExtrusion]
    /// The style's light at the frame zoom.
    public var light = EvaluatedLight.default
    /// Whether the layer sets `fill-extrusion-pattern` (then a feature without `pattern` is not drawn).
    public var patterned = false
    /// The atlas the features' patterns are placed in (patterned layers).
    public var patternAtlas: PatternAtlas?
    /// The bound paint's expressions and tile zoom.
    public var paint = PaintSource()
    /// The tile the layer was evaluated over (geometry in its units).
    public var tile: OverscaledTileID?

    /// A layer of evaluated features.
    public init(id: String, opacity: Double, translate: (x: Double, y: Double), translateAnchor: TranslateAnchor,
                verticalGradient: Bool, features: [EvaluatedFillExtrusion]) {
        (self.id, self.opacity, self.translate, self.translateAnchor) = (id, opacity, translate, translateAnchor)
        (self.verticalGradient, self.features) = (verticalGradient, features)
    }
}

/// The depth range extrusions are drawn into, as MapLibre's painter reserves it: below every 2D
/// layer's depth, `1 − (layers + 2) · 14 · 2⁻¹⁶` (14 sublayers per layer).
public enum ExtrusionDepth {
    /// The far end of the 3D depth range for a style of `layerCount` layers.
    public static func rangeEnd(layerCount: Int) -> Double {
        max(0.5, 1 - Double(layerCount + 2) * 14 / 65536)
    }
}

/// Pixels per metre at a latitude and world size (MapLibre's `mercatorZfromAltitude(1, lat) ·
/// worldSize`): extrusion heights in metres become world pixels with it.
public enum MercatorAltitude {
    /// The Earth's circumference at the equator, metres (MapLibre's `earthRadius` 6371008.8).
    public static let earthCircumference = 2 * Double.pi * 6371008.8

    /// World pixels per metre at `latitude` for a world `worldSize` pixels wide.
    public static func pixelsPerMeter(latitude: Double, worldSize: Double) -> Double {
        let lat = min(max(latitude, -85.051129), 85.051129)
        return worldSize / (earthCircumference * cos(lat * Double.pi / 180))
    }
}
