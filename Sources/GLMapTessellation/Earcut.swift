// Earcut: polygon triangulation by ear clipping, a port of mapbox/earcut 3.2.2 (earcut.hpp at
// f25bc76), producing the same triangles as the reference on its test fixtures.
//
// Contract
// - Input: flat coordinates x0, y0, [z0, …,] x1, y1, … with `dimensions` (≥ 2) numbers per
//   vertex (only the first two are read); `holeIndices` are the vertex indices where hole rings
//   start (non-decreasing, ≤ vertex count). The first ring is the outer ring. Rings may be
//   open or closed (a closing copy of the first point is dropped) and of either winding.
// - Output: vertex indices into the input, three per triangle; only input vertices are used
//   (no new points). Ears are emitted counter-clockwise in a y-up frame (clockwise with screen
//   y down); the self-intersection cure can emit either winding, so draw without face culling.
// - Valid polygons (simple rings, holes inside the outer ring, not overlapping each other):
//   the triangles cover exactly the polygon (area deviation 0 up to float rounding), n + 2h − 2
//   of them for n vertices and h holes once duplicate and collinear points are dropped.
// - Holes touching each other or the outer ring at vertices, and rings touching themselves,
//   are handled: bridges go through the shared vertex.
// - Self-intersecting rings: best effort. Small local crossings are cured; otherwise the ring
//   is split along valid diagonals. Parts may stay uncovered or overlap (as with upstream).
// - Holes outside the outer ring: bridged if a leftward ray from the hole meets the outer ring,
//   otherwise dropped; the result is unspecified (it may cover area outside the polygon).
// - Zero-area rings: an outer ring without area gives no triangles; zero-area holes vanish
//   when their collinear points are filtered. A one-point hole is a Steiner point: it becomes
//   a vertex of the triangulation.
// - Never crashes or loops: non-finite coordinates (NaN, ±Infinity), dimensions < 2, invalid
//   hole indices, fewer than 3 vertices or ≥ 2^30 vertices give an empty result. Rejecting
//   non-finite coordinates with a named error is the GeoJSON decoding stage's job, before
//   tessellation; huge finite coordinates (|v| > 1e150, where products overflow) terminate
//   with an unspecified, possibly empty, result.
// - Cost: O(n log n) typical; above 80 vertices in total, ear checks use z-order hashing.
//   Hole bridging scans an index of 16-edge blocks per hole. Splitting a ring that has no
//   ears left is O(n³) in the worst case (only degenerate or self-intersecting input).
// - Threading: the static functions are thread-safe; an `EarcutTriangulator` instance (which
//   keeps its buffers between calls) must be used by one thread at a time.
// - Fidelity: same algorithm and floating-point predicates as upstream 3.2 (ear order, filter,
//   cure, split, hole order and bridge search with its 16-edge block index), so the output is
//   index-for-index that of earcut.hpp on 235 of the 236 fixture rotations; the other one
//   (water-huge2 at 90°) has two holes whose hole-order key ties (NaN slope), where earcut.hpp's
//   unstable std::sort and our stable order (earcut.js's) bridge different but coincident
//   vertices, giving geometrically identical triangles.
// - Flavours: `.current` is earcut 3.2 (above); `.mapLibre` clips ears in earcut 3.0's order,
//   what MapLibre triangulates fills with (Earcut+MapLibre.swift): the same triangles as
//   earcut.hpp 3.0.2 index for index on the seeded cases of EarcutMapLibreFlavorTests, the same
//   covered area as `.current` for valid polygons, a different one for self-intersecting rings.
// - Implementation differences (speed only, never the result): nodes are structs in one
//   buffer linked by Int32 ids; the z-order index is a sorted array scanned outward from the
//   ear with BIGMIN/LITMAX jumps instead of a linked list; a node that blocked an ear is
//   remembered and re-tested first; the block index has a second level (16 blocks); splits
//   use an explicit stack instead of recursion.

/// Polygon triangulation (ear clipping with holes), compatible with mapbox/earcut 3.2.
public enum Earcut {
    /// Which earcut release's clipping order to follow. Valid polygons get the same covered
    /// area either way; self-intersecting rings do not.
    public enum Flavor: Sendable {
        /// earcut 3.2 (the fixtures in ../shared/fixtures/earcut).
        case current
        /// earcut 3.0, what MapLibre GL JS 5 and MapLibre Native triangulate fills with
        /// (Earcut+MapLibre.swift).
        case mapLibre
    }

    /// Triangulates a polygon given as flat coordinates (x0,y0,x1,y1,…) with hole start indices
    /// (in vertices); returns vertex indices, three per triangle.
    public static func triangulate(_ coords: UnsafeBufferPointer<Double>, holeIndices: [Int], dimensions: Int = 2) -> [UInt32] {
        EarcutTriangulator().triangulate(coords, holeIndices: holeIndices, dimensions: dimensions)
    }

    /// Triangulates a polygon given as a flat coordinate array (see the buffer variant).
    public static func triangulate(_ coords: [Double], holeIndices: [Int] = [], dimensions: Int = 2) -> [UInt32] {
        coords.withUnsafeBufferPointer { triangulate($0, holeIndices: holeIndices, dimensions: dimensions) }
    }

    /// Area deviation as upstream defines it (for tests and the benchmark).
    ///
    /// |area of triangles − area of polygon| / area of polygon, where the polygon's area is
    /// |outer ring| − Σ |hole| (shoelace) and 0 when both areas are 0.
    public static func deviation(_ coords: [Double], holeIndices: [Int], dimensions: Int, triangles: [UInt32]) -> Double {
        let dim = dimensions
        let outerLen = holeIndices.isEmpty ? coords.count : holeIndices[0] * dim
        var polygonArea = abs(signedArea(coords, 0, outerLen, dim))
        for k in 0..<holeIndices.count {
            let start = holeIndices[k] * dim
            let end = k + 1 < holeIndices.count ? holeIndices[k + 1] * dim : coords.count
            polygonArea -= abs(signedArea(coords, start, end, dim))
        }

        var trianglesArea = 0.0
        var t = 0
        while t + 2 < triangles.count {
            let a = Int(triangles[t]) * dim, b = Int(triangles[t + 1]) * dim, c = Int(triangles[t + 2]) * dim
            trianglesArea += abs((coords[a] - coords[c]) * (coords[b + 1] - coords[a + 1]) -
                (coords[a] - coords[b]) * (coords[c + 1] - coords[a + 1]))
            t += 3
        }
        return polygonArea == 0 && trianglesArea == 0 ? 0 : abs((trianglesArea - polygonArea) / polygonArea)
    }

    /// Twice the signed area of the ring in coordinates start..<end (shoelace).
    static func signedArea(_ data: [Double], _ start: Int, _ end: Int, _ dim: Int) -> Double {
        var sum = 0.0
        var i = start, j = end - dim
        while i < end {
            sum += (data[j] - data[i]) * (data[i + 1] + data[j + 1])
            j = i
            i += dim
        }
        return sum
    }
}
