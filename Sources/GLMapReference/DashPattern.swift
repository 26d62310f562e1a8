/// A `line-dasharray` pattern as MapLibre's fragment shader sees it: one period sampled as a
/// signed distance field of `texels` values, read with bilinear filtering and wrapping.
///
/// A period of `length` line widths is stretched over 256 texels. A texel at position x stores
/// 128 + the signed distance (in texels) from x to the nearest edge of the dash or gap it lies
/// in (positive in dashes), clamped to 0…255 and truncated to an integer — the 8-bit atlas row
/// the GPU samples, so dash ends land on the same sub-pixel positions. The walk over the
/// pattern's parts is MapLibre's: a texel moves on to the next part once it is past the current
/// part's right end (x / right > 1).
///
/// Butt and square caps use one row: zero-length parts are dropped, neighbours of one kind
/// merged, and the first and last parts joined when alike (so odd-length arrays repeat without a
/// seam). Round caps use 2·7 + 1 rows across the line, row offset y ∈ −7…7 at a fraction y/7 of
/// the half width: a dash becomes a stadium (its ends half discs of half the line width), a gap
/// the complement of such discs; zero-length dashes stay as dots.
/// The distance read from a pattern is 0…1 (texel / 255); 0.5 is the dash edge.
struct DashPattern {
    /// Texels per period.
    static let texels = 256
    /// Rows on each side of the centre row of a round pattern.
    static let roundRows = 7

    /// Pattern length in line widths (sum of the entries); 0 draws nothing.
    let length: Double
    let round: Bool
    /// Texel values 0…255, row-major; 1 row (butt) or 15 rows (round, row 7 is the centre line).
    private(set) var values: [Float]

    /// Sum of a pattern's entries, negative or non-finite ones counting as 0.
    static func totalLength(_ entries: [Double]) -> Double {
        entries.reduce(0) { $0 + ($1.isFinite && $1 > 0 ? $1 : 0) }
    }

    private struct Part { var left: Double; var right: Double; var dash: Bool; var empty: Bool }

    /// The pattern for `entries` (line widths; negative or non-finite entries count as 0).
    init(_ entries: [Double], round: Bool) {
        let e = entries.map { $0.isFinite && $0 > 0 ? $0 : 0 }
        length = Self.totalLength(e)
        self.round = round
        let n = Self.texels
        let rowCount = round ? 2 * Self.roundRows + 1 : 1
        values = [Float](repeating: 0, count: n * rowCount)
        guard length > 0, !e.isEmpty else { return }
        let stretch = Double(n) / length
        // The parts in texels; an odd-length array's first dash starts where the last entry would
        // (so it lines up with the last dash of the previous period).
        var parts: [Part] = []
        var edge = 0.0
        for (k, v) in e.enumerated() {
            let left = k == 0 && e.count % 2 == 1 ? -e[e.count - 1] * stretch : edge * stretch
            edge += v
            parts.append(Part(left: left, right: edge * stretch, dash: k % 2 == 0, empty: v == 0))
        }
        if round {
            let half = stretch / 2
            for r in 0..<rowCount {
                let y = Double(r - Self.roundRows)
                let middle = y / Double(Self.roundRows) * (half + 1)
                fillRow(r, parts) { distance, dash in
                    if dash {
                        let edgeDistance = half - abs(middle)
                        return (distance * distance + edgeDistance * edgeDistance).squareRoot()
                    }
                    return half - (distance * distance + middle * middle).squareRoot()
                }
            }
        } else {
            var merged: [Part] = []
            for p in parts.reversed() where !p.empty {
                if let next = merged.last, next.dash == p.dash {
                    merged[merged.count - 1].left = p.left
                } else {
                    merged.append(p)
                }
            }
            merged.reverse()
            guard let first = merged.first, let last = merged.last else { return }
            if first.dash == last.dash {
                merged[0].left = last.left - Double(n)
                merged[merged.count - 1].right = first.right + Double(n)
            }
            fillRow(0, merged) { distance, dash in dash ? distance : -distance }
        }
    }

    /// Fills one row from the parts: `signed(distance to the nearer edge, in a dash)`.
    private mutating func fillRow(_ row: Int, _ parts: [Part], _ signed: (Double, Bool) -> Double) {
        guard !parts.isEmpty else { return }
        var k = 0
        for x in 0..<Self.texels {
            let fx = Double(x)
            if fx / parts[k].right > 1 && k + 1 < parts.count { k += 1 }
            let p = parts[k]
            let d = min(abs(fx - p.left), abs(fx - p.right))
            let v = min(255, max(0, signed(d, p.dash) + 128))
            values[row * Self.texels + x] = Float(v.rounded(.towardZero))
        }
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
