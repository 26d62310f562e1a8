/// MapLibre's alpha ramp across a line (line.frag), in plane px: halfwidth = width/2,
/// gap = gapwidth/2, AA = 1/ratio/2, outset = gap + halfwidth·(gap > 0 ? 2 : 1) + (halfwidth == 0 ?
/// 0 : AA), inset = gap + (gap > 0 ? AA : 0), blur2 = (blur + 1/ratio)·γ, alpha = clamp(min(d −
/// (inset − blur2), outset − d) / blur2, 0, 1) at distance d from the centre line, where γ (plane
/// px per screen CSS px across the line) is 1 without pitch — line.vert's `v_gamma_scale`.
struct LineRamp {
    /// Half the drawn width, antialiasing band included.
    let outset: Double
    /// Where the ramp starts rising (the inner edge of a gap line).
    let inset: Double
    /// The blur before the pitch correction.
    let blur2: Double

    init(width: Double, gapWidth: Double, blur: Double, ratio: Double) {
        let aa = 1 / ratio / 2
        let halfwidth = width / 2, gap = gapWidth / 2
        outset = gap + halfwidth * (gap > 0 ? 2 : 1) + (halfwidth == 0 ? 0 : aa)
        inset = gap + (gap > 0 ? aa : 0)
        blur2 = blur + 1 / ratio
    }

    /// Whether the line covers anything.
    var draws: Bool { outset > 0 && blur2 > 0 }

    /// The blur at plane point (x, y) for a distance growing in (gx, gy): `blur2` stretched by
    /// the view's scale across the line there when the view is pitched.
    @inline(__always)
    func blur(atX x: Double, y: Double, gx: Double, gy: Double, _ proj: PlaneProjection) -> Double {
        var b = blur2
        if proj.pitched {
            let s = proj.screenScale(atX: x, y: y, dx: gx, dy: gy)
            if s > 0 { b *= proj.ratio / s }
        }
        return b
    }

    /// The coverage at distance d from the centre line with blur b.
    @inline(__always)
    func alpha(_ d: Double, blur b: Double) -> Double {
        min(max(min(d - (inset - b), outset - d) / b, 0), 1)
    }
}
