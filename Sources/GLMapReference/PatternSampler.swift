import Foundation
import GLMapCore
import GLMapStyle
import GLMapTiles

/// Pattern images read from the pattern atlas as MapLibre's pattern shaders read them: the
/// pattern position of a point (`get_pattern_pos`: tile units → pattern repeats, anchored at the
/// tile's origin in pattern pixels at the frame's tile zoom), wrapped into one repeat, mapped into
/// the image's rectangle and sampled bilinearly (LINEAR, CLAMP_TO_EDGE). Written for the CPU
/// reference from the shaders' arithmetic.
struct PatternSampler {
    /// The atlas (premultiplied).
    let atlas: PremultipliedImage

    /// MapLibre's `tile.tileSize`: 512 × the tile's over-scale factor.
    static func tileSize(_ tile: OverscaledTileID) -> Double { 512 * tile.overscaleFactor }

    /// Pattern pixels per tile unit at the frame's tile zoom (`u_scale.x`).
    static func tileRatio(_ tile: OverscaledTileID, zoom: Double) -> Double {
        tileSize(tile) * exp2(max(0, zoom).rounded(.down) - Double(tile.overscaledZ)) / Double(TileExtent.extent)
    }

    /// The tile's origin in pattern pixels at the tile zoom, as the upper and lower 16-bit halves
    /// the shaders receive (`u_pixel_coord_upper`, `u_pixel_coord_lower`).
    static func pixelCoord(_ tile: OverscaledTileID, zoom: Double) -> (upper: (Double, Double), lower: (Double, Double)) {
        let numTiles = exp2(Double(tile.overscaledZ))
        let size = tileSize(tile) * exp2(max(0, zoom).rounded(.down)) / numTiles
        func split(_ v: Double) -> (Double, Double) {
            let i = Int32(truncatingIfNeeded: Int64(v.isFinite ? v.rounded(.towardZero) : 0))
            return (Double(i >> 16), Double(i & 0xFFFF))
        }
        let x = split(size * (Double(tile.canonical.x) + Double(tile.wrap) * numTiles)), y = split(size * Double(tile.canonical.y))
        return ((x.0, y.0), (x.1, y.1))
    }

    /// GLSL `mod`.
    @inline(__always)
    static func mod(_ x: Double, _ y: Double) -> Double { x - y * (x / y).rounded(.down) }

    /// `get_pattern_pos`: the pattern position (in repeats) of `pos` for a repeat of `size` pattern pixels.
    static func patternPos(_ c: (upper: (Double, Double), lower: (Double, Double)), size: (Double, Double), tileRatio: Double,
                           pos: (Double, Double)) -> (Double, Double) {
        func axis(_ upper: Double, _ lower: Double, _ s: Double, _ p: Double) -> Double {
            let offset = mod(mod(mod(upper, s) * 256, s) * 256 + lower, s)
            return (tileRatio * p + offset) / s
        }
        return (axis(c.upper.0, c.lower.0, size.0, pos.0), axis(c.upper.1, c.lower.1, size.1, pos.1))
    }

    /// The colour of `image` at pattern position `vpos` (wrapped into one repeat), premultiplied 0…1.
    func color(_ image: PatternImage, at vpos: (Double, Double)) -> SIMD4<Double> {
        let fx = PatternSampler.mod(vpos.0, 1), fy = PatternSampler.mod(vpos.1, 1)
        let u = image.x0 + (image.x1 - image.x0) * fx, v = image.y0 + (image.y1 - image.y0) * fy
        return sample(u, v)
    }

    /// A bilinear sample at atlas pixel coordinates (texel centres at +0.5), edges clamped.
    func sample(_ u: Double, _ v: Double) -> SIMD4<Double> {
        let w = atlas.width, h = atlas.height
        guard w > 0, h > 0, u.isFinite, v.isFinite else { return .zero }
        let x = u - 0.5, y = v - 0.5
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let ax = x - Double(x0), ay = y - Double(y0)
        func texel(_ i: Int, _ j: Int) -> SIMD4<Double> {
            let ci = min(max(i, 0), w - 1), cj = min(max(j, 0), h - 1)
            let o = (cj * w + ci) * 4
            let p = atlas.pixels
            return SIMD4(Double(p[o]), Double(p[o + 1]), Double(p[o + 2]), Double(p[o + 3])) / 255
        }
        let top = texel(x0, y0) * (1 - ax) + texel(x0 + 1, y0) * ax
        let bottom = texel(x0, y0 + 1) * (1 - ax) + texel(x0 + 1, y0 + 1) * ax
        return top * (1 - ay) + bottom * ay
    }
}
