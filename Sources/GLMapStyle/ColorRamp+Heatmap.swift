extension ColorRamp {
    /// A `heatmap-color` evaluated into a 256-texel ramp (MapLibre's `renderColorRamp` with the
    /// key `heatmapDensity`): texel `i` holds the colour at density i / 255, straight channels
    /// floored to bytes and premultiplied on upload as `init(gradient:)` describes. A colour that
    /// fails to evaluate leaves its texel transparent.
    public init(heatmapColor: StyleExpression, width: Int = ColorRamp.defaultWidth) {
        let w = max(2, width)
        self.width = w
        height = 1
        nearest = false
        var px = [UInt8](repeating: 0, count: w * 4)
        var ctx = EvaluationContext()
        for i in 0..<w {
            ctx.heatmapDensity = Double(i) / Double(w - 1)
            guard let c = (try? heatmapColor.evaluate(ctx))?.color else { continue }
            let s = c.straight
            let a = Self.byte(s.a)
            px[4 * i] = Self.premultiply(Self.byte(s.r), a)
            px[4 * i + 1] = Self.premultiply(Self.byte(s.g), a)
            px[4 * i + 2] = Self.premultiply(Self.byte(s.b), a)
            px[4 * i + 3] = a
        }
        pixels = px
    }

    /// A ramp of transparent texels.
    public init(transparentWidth width: Int) {
        self.width = max(2, width)
        height = 1
        nearest = false
        pixels = [UInt8](repeating: 0, count: self.width * 4)
    }

    /// The ramp sampled as GL's LINEAR filter with CLAMP_TO_EDGE reads row 0 at `t` (0…1 spans
    /// the ramp's width), premultiplied 0…1.
    public func sample(_ t: Double) -> SIMD4<Double> {
        guard t.isFinite else { return .zero }
        let x = t * Double(width) - 0.5
        let i0 = Int(x.rounded(.down)), a = x - Double(i0)
        func texel(_ i: Int) -> SIMD4<Double> {
            let o = 4 * min(max(i, 0), width - 1)
            return SIMD4(Double(pixels[o]), Double(pixels[o + 1]), Double(pixels[o + 2]), Double(pixels[o + 3])) / 255
        }
        return texel(i0) * (1 - a) + texel(i0 + 1) * a
    }
}
