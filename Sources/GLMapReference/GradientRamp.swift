import GLMapStyle

/// A `line-gradient` over one piece of a line, as MapLibre's fragment shader samples it: a
/// one-row `ColorRamp` (GLMapStyle's one declaration of the ramp texels the GPU path uploads:
/// the gradient at `texels` evenly spaced `line-progress` values from `start` to `end`, 8-bit,
/// premultiplied with truncation, transparent where the colour fails to evaluate), read with
/// LINEAR (interpolated) or NEAREST (step gradients) filtering at the fragment's progress within
/// the piece, clamped at the ends.
struct GradientRamp {
    /// Texels across the piece.
    let texels: Int
    /// Sample the nearest texel rather than interpolating.
    let nearest: Bool
    /// Premultiplied colour per texel, 0…1.
    private var colors: [SIMD4<Float>]

    /// The ramp of `gradient` over progress `start…end`.
    init(_ gradient: StyleExpression, start: Double, end: Double, texels: Int, nearest: Bool) {
        let ramp = ColorRamp(gradient: gradient, width: texels, nearest: nearest, clips: [(start, end)])
        self.texels = ramp.width
        self.nearest = nearest
        let px = ramp.pixels
        colors = (0..<ramp.width).map { i in
            SIMD4(Float(px[4 * i]) / 255, Float(px[4 * i + 1]) / 255, Float(px[4 * i + 2]) / 255, Float(px[4 * i + 3]) / 255)
        }
    }

    /// The premultiplied colour at progress `u` (0…1) within the piece.
    @inline(__always)
    func color(at u: Double) -> SIMD4<Float> {
        let n = Double(texels)
        if nearest {
            let i = Int(min(max((u * n).rounded(.down), 0), n - 1))
            return colors[i]
        }
        let x = min(max(u * n - 0.5, 0), n - 1)
        let i0 = min(Int(x), texels - 2)
        let t = Float(x - Double(i0))
        return colors[i0] * (1 - t) + colors[i0 + 1] * t
    }

    /// MapLibre's ramp size for a step gradient: one texel per 1/1024 tile along the longest
    /// piece (`longestPieceTiles`, in tiles) times the over-zoom, as a power of two in 256…8192
    /// (`ColorRamp.stepWidth`).
    static func stepTexels(longestPieceTiles: Double, overzoom: Double) -> Int {
        ColorRamp.stepWidth(maxLineTiles: longestPieceTiles, overzoom: overzoom)
    }
}
