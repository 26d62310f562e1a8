import Foundation
import GLMapCore
import GLMapStyle

/// The colour of one extrusion vertex as MapLibre's fill_extrusion shaders light it, in Double:
/// the surface normal as the bucket packs it (x: floor(nx·8192)·2 + top flag; y, z: × 16384,
/// truncated), the light's direction for the view, its intensity and colour; walls (normal y ≠ 0)
/// darkened towards the base by the vertical gradient. Independent of the GPU code: written from
/// the shader's arithmetic, not shared with it.
struct ExtrusionShading {
    /// The light's direction in the shader's frame (`u_lightpos`).
    let light: (x: Double, y: Double, z: Double)
    /// `u_lightintensity`.
    let intensity: Double
    /// `u_lightcolor` (premultiplied components).
    let lightColor: (r: Double, g: Double, b: Double)
    /// `fill-extrusion-vertical-gradient`.
    let verticalGradient: Bool

    init(_ l: EvaluatedLight, bearing: Double, verticalGradient: Bool) {
        light = l.direction(bearing: bearing)
        intensity = l.intensity
        lightColor = (l.color.r, l.color.g, l.color.b)
        self.verticalGradient = verticalGradient
    }

    /// The packed normal of a wall with unit normal (nx, ny), or of a roof, at top flag `t`.
    static func packedNormal(nx: Double, ny: Double, roof: Bool, t: Double) -> (x: Double, y: Double, z: Double) {
        if roof { return (1, 0, 16384) }
        return ((nx * 8192).rounded(.down) * 2 + t, (ny * 16384).rounded(.towardZero), 0)
    }

    /// The wall gradient factor (1 when the normal has no y component, as the shader tests it).
    private func gradient(_ n: (x: Double, y: Double, z: Double), t: Double, base: Double, height: Double) -> Double {
        guard n.y != 0 else { return 1 }
        let vg = verticalGradient ? 1.0 : 0.0
        let lower = 0.7 + (0.98 - 0.7) * (1 - intensity)
        let g = min(max((t + base) * (height / 150).squareRoot(), lower), 1)
        return (1 - vg) + vg * g
    }

    /// The premultiplied colour of a vertex of `color` (straight from the style, premultiplied)
    /// with clamped `base`/`height`, times `opacity` (MapLibre's fill_extrusion.vertex).
    func color(_ c: Color, normal n: (x: Double, y: Double, z: Double), t: Double, base: Double, height: Double,
               opacity: Double) -> SIMD4<Double> {
        let colorvalue = c.r * 0.2126 + c.g * 0.7152 + c.b * 0.0722
        let r = c.r + 0.03, g = c.g + 0.03, b = c.b + 0.03
        var directional = min(max((n.x * light.x + n.y * light.y + n.z * light.z) / 16384, 0), 1)
        let hi = max(1 - colorvalue + intensity, 1)
        directional = (1 - intensity) + (hi - (1 - intensity)) * directional
        directional *= gradient(n, t: t, base: base, height: height)
        func channel(_ v: Double, _ lc: Double) -> Double { min(max(v * directional * lc, 0.3 * (1 - lc)), 1) }
        return SIMD4(channel(r, lightColor.r), channel(g, lightColor.g), channel(b, lightColor.b), 1) * opacity
    }

    /// The lighting a patterned vertex multiplies its pattern colour by (MapLibre's
    /// fill_extrusion_pattern.vertex: no surface colour, normal / 16383).
    func patternLighting(normal n: (x: Double, y: Double, z: Double), t: Double, base: Double, height: Double,
                         opacity: Double) -> SIMD4<Double> {
        var directional = min(max((n.x * light.x + n.y * light.y + n.z * light.z) / 16383, 0), 1)
        let hi = max(0.5 + intensity, 1)
        directional = (1 - intensity) + (hi - (1 - intensity)) * directional
        directional *= gradient(n, t: t, base: base, height: height)
        func channel(_ lc: Double) -> Double { min(max(directional * lc, 0.3 * (1 - lc)), 1) }
        return SIMD4(channel(lightColor.r), channel(lightColor.g), channel(lightColor.b), 1) * opacity
    }
}
