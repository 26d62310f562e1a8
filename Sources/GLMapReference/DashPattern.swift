import GLMapStyle

/// A `line-dasharray` pattern as MapLibre's fragment shader sees it: the pattern's rows of
/// `LineAtlas` (GLMapStyle's one declaration of MapLibre's signed-distance dash texels, which the
/// GPU path uploads), read with bilinear filtering and wrapping as the GPU's LINEAR sampler does.
///
/// A period of `length` line widths is stretched over 256 texels, each 128 + the signed distance
/// (in texels) to the nearest dash edge, positive in dashes, clamped to 0…255 and truncated.
/// Butt and square caps use one row; round caps use 2·7 + 1 rows across the line, row offset
/// y ∈ −7…7 at a fraction y/7 of the half width (a dash becomes a stadium, a gap the complement
/// of such discs). The distance read from a pattern is 0…1 (texel / 255); 0.5 is the dash edge.
struct DashPattern {
    /// Texels per period.
    static let texels = LineAtlas.width
    /// Rows on each side of the centre row of a round pattern.
    static let roundRows = LineAtlas.roundRows

    /// Pattern length in line widths (sum of the entries); 0 draws nothing.
    let length: Double
    let round: Bool
    /// Texel values 0…255, row-major; 1 row (butt) or 15 rows (round, row 7 is the centre line).
    private let values: [UInt8]

    /// Sum of a pattern's entries, negative or non-finite ones counting as 0.
    static func totalLength(_ entries: [Double]) -> Double {
        LineAtlas.length(entries)
    }

    /// The pattern for `entries` (line widths; negative or non-finite entries count as 0).
    init(_ entries: [Double], round: Bool) {
        var atlas = LineAtlas()
        length = atlas.dash(entries, round: round).width
        self.round = round
        values = atlas.pixels
    }

    /// The field (0…1) at `position` periods along the line (wrapping) and `across` ∈ −1…1 half
    /// widths from the centre line (read only by round patterns), filtered bilinearly between the
    /// nearest texel centres as the GPU's LINEAR sampler does.
    func field(_ position: Double, across: Double) -> Double {
        let n = Self.texels
        let u = position * Double(n) - 0.5
        let fu = u.rounded(.down)
        let tu = u - fu
        var i0 = Int(fu.truncatingRemainder(dividingBy: Double(n)))
        if i0 < 0 { i0 += n }
        let i1 = i0 + 1 == n ? 0 : i0 + 1
        func row(_ r: Int) -> Double {
            let base = r * n
            return Double(values[base + i0]) * (1 - tu) + Double(values[base + i1]) * tu
        }
        guard round else { return row(0) / 255 }
        let rows = 2 * Self.roundRows
        let v = min(max(Double(Self.roundRows) - across * Double(Self.roundRows), 0), Double(rows))
        let r0 = min(Int(v), rows - 1)
        let tv = v - Double(r0)
        return (row(r0) * (1 - tv) + row(r0 + 1) * tv) / 255
    }
}
