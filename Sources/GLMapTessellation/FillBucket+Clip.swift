import GLMapStyle
import GLMapTiles

// Fill interiors cut near the tile square — contract
// Input: one polygon of a Polygon feature (tile units, 8192 a side) of a tile's fill layer drawn
// through the stencil's tile clip with no `fill-translate`. Not lines closed into rings: their
// rings cross themselves, and what earcut covers of a crossing ring depends on the whole ring.
// Output: the polygon cut (Sutherland–Hodgman, one half-plane at a time, as geojson-vt clips) to
// the square grown by `FillBucket.clipMargin` on every side; nil when it already lies inside that
// square (the common case: the polygon is triangulated as it is).
// Why: a tile's data reaches past its square by the source's buffer (GeoJSON's default 128 px of
// 512, a quarter each way), and the stencil throws away every fragment drawn there. llvmpipe still
// rasterizes and tests them: a fill covering the view shaded 2.25 × its area. The stencil keeps the
// picture exact (every pixel inside the square is covered by the cut polygon exactly when it is
// covered by the whole one: the kept edges are the original segments, and the cuts lie outside the
// square); earcut triangulates fewer, shorter rings.
// The antialiasing outline is not cut (its quads straddle the edges, 1 px either side), but its
// edges lying wholly beyond `outlineCullMargin` past one side of the square are left out: 64 px of
// a 512-px tile at its own zoom, so a 1-px quad there reaches the square only in a tile drawn
// smaller than 1/32 of its size. Nothing is cut or left out of layers moved by `fill-translate`
// (the stencil does not move with them, so their buffer shows).
extension FillBucket {
    /// Tile units kept outside the square on every side (16 px of a 512-px tile at its own zoom).
    static let clipMargin = 256.0
    /// Tile units past the square beyond which an outline edge is left out.
    static let outlineCullMargin = 1024.0

    /// `poly` cut to the square grown by `clipMargin`, or nil when nothing of it lies outside.
    static func clippedToTile(_ poly: FlatPolygon) -> FlatPolygon? {
        let lo = -clipMargin, hi = Double(TileExtent.extent) + clipMargin
        let c = poly.coords
        guard c.leavesSquare(lo, hi) else { return nil }
        var coords: [Double] = []
        coords.reserveCapacity(c.count)
        var holes: [Int] = []
        for (n, r) in poly.ringRanges.enumerated() {
            var ring = Array(c[(2 * r.lowerBound)..<(2 * r.upperBound)])
            for axis in 0..<2 {
                ring = clipRing(ring, axis: axis, min: lo, max: hi)
            }
            if ring.count < 6 {
                if n == 0 { return FlatPolygon(coords: [], holeIndices: []) }   // the outer ring is gone
                continue
            }
            if n > 0 { holes.append(coords.count / 2) }
            coords.append(contentsOf: ring)
        }
        return FlatPolygon(coords: coords, holeIndices: holes)
    }

    /// A closed ring (flat x, y pairs, last vertex joined to the first) cut to min ≤ coordinate
    /// `axis` ≤ max.
    static func clipRing(_ ring: [Double], axis: Int, min lo: Double, max hi: Double) -> [Double] {
        var out = ring
        for (bound, keepAbove) in [(lo, true), (hi, false)] {
            let input = out
            let m = input.count / 2
            guard m > 0 else { return [] }
            out = []
            out.reserveCapacity(input.count + 4)
            func inside(_ k: Int) -> Bool { keepAbove ? input[2 * k + axis] >= bound : input[2 * k + axis] <= bound }
            for k in 0..<m {
                let j = k == 0 ? m - 1 : k - 1   // the edge j → k
                let kin = inside(k), jin = inside(j)
                if kin != jin {
                    let ja = input[2 * j + axis], ka = input[2 * k + axis]
                    let jo = input[2 * j + 1 - axis], ko = input[2 * k + 1 - axis]
                    let other = jo + (ko - jo) * ((bound - ja) / (ka - ja))
                    if axis == 0 { out.append(bound); out.append(other) } else { out.append(other); out.append(bound) }
                }
                if kin { out.append(input[2 * k]); out.append(input[2 * k + 1]) }
            }
        }
        return out
    }
}

extension Array where Element == Double {
    /// Whether a flat (x, y, x, y, …) list has a point outside [lo, hi]² (the tile square grown by
    /// a margin): only then is there anything to cut.
    func leavesSquare(_ lo: Double, _ hi: Double) -> Bool {
        var i = 0
        while i + 1 < count {
            if self[i] < lo || self[i] > hi || self[i + 1] < lo || self[i + 1] > hi { return true }
            i += 2
        }
        return false
    }
}
