import GLMapStyle

/// A `line-gradient` over one piece of a line, as MapLibre's fragment shader samples it: the
/// gradient evaluated at `texels` evenly spaced `line-progress` values from `start` (texel 0) to
/// `end` (the last texel), each stored as 8-bit colour, then read with LINEAR (interpolated) or
/// NEAREST (step gradients) filtering at the fragment's progress within the piece, clamped at
/// the ends.
///
/// Storage follows the GPU upload of MapLibre's straight-alpha ramp: each straight channel is
/// floor(c · 255), then premultiplied by the alpha byte with truncation. A texel whose colour
/// fails to evaluate is transparent.
struct GradientRamp {
    /// Texels across the piece.
    let texels: Int
    /// Sample the nearest texel rather than interpolating.
    let nearest: Bool
    /// Premultiplied colour per texel, 0…1.
    private var colors: [SIMD4<Float>]

    /// The ramp of `gradient` over progress `start…end`.
    init(_ gradient: StyleExpression, start: Double, end: Double, texels: Int, nearest: Bool) {
        let n = max(2, texels)
        self.texels = n
        self.nearest = nearest
        colors = [SIMD4<Float>](repeating: .zero, count: n)
        var ctx = EvaluationContext()
        for i in 0..<n {
            let t = Double(i) / Double(n - 1)
            ctx.lineProgress = start * (1 - t) + end * t
            guard let c = (try? gradient.evaluate(ctx))?.color else { continue }
            let s = c.straight
            let a = Self.byte(s.a)
            func channel(_ v: Double) -> Float { Float(Self.byte(v) * a / 255) / 255 }
            colors[i] = SIMD4(channel(s.r), channel(s.g), channel(s.b), Float(a) / 255)
        }
    }

    /// floor(v · 255) clamped to 0…255.
    @inline(__always)
    private static func byte(_ v: Double) -> Int {
        let x = (v * 255).rounded(.down)
        return x >= 255 ? 255 : (x > 0 ? Int(x) : 0)
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
    /// piece (`longestPieceTiles`, in tiles) times the over-zoom, as a power of two in 256…8192.
    static func stepTexels(longestPieceTiles: Double, overzoom: Double) -> Int {
        let wanted = longestPieceTiles * 1024 * overzoom
        var n = 256
        while Double(n) < wanted && n < 8192 { n *= 2 }
        return n
    }
}
