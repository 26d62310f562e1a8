/// How a `fill` layer reads a line feature: MapLibre's fill bucket never looks at the geometry
/// type, so every part of a LineString or MultiLineString is a ring, grouped into polygons by
/// winding the way vector-tile rings are (mapbox's `classifyRings`): rings without area are
/// skipped, the first ring with area fixes the outer winding, each later ring of that winding
/// starts a new polygon and a ring of the other winding is a hole of the polygon before it (a
/// hole before any outer ring is dropped). A feature with one part is one polygon whatever its
/// area. Each ring is closed for filling and for its antialiasing outline (fill_bucket adds the
/// edge from the last vertex back to the first for every ring).
public enum RingClassification {
    /// Signed area term as the vector-tile code sums it (y down); only its sign and zero-ness matter.
    static func signedArea(_ ring: [Double]) -> Double {
        let n = ring.count / 2
        guard n > 0 else { return 0 }
        var sum = 0.0
        var j = n - 1
        for i in 0..<n {
            sum += (ring[2 * j] - ring[2 * i]) * (ring[2 * i + 1] + ring[2 * j + 1])
            j = i
        }
        return sum
    }

    /// Groups line parts (flat unit-world coordinates) into polygons as described above.
    public static func polygons(fromLines parts: [[Double]]) -> [FlatPolygon] {
        func polygon(_ rings: [[Double]]) -> FlatPolygon {
            var coords: [Double] = []
            var holes: [Int] = []
            for (i, r) in rings.enumerated() {
                if i > 0 { holes.append(coords.count / 2) }
                coords.append(contentsOf: r)
            }
            return FlatPolygon(coords: coords, holeIndices: holes)
        }
        if parts.count <= 1 { return parts.isEmpty ? [] : [polygon(parts)] }
        var out: [FlatPolygon] = []
        var current: [[Double]] = []
        var outerIsNegative: Bool? = nil
        for r in parts {
            let area = signedArea(r)
            if area == 0 { continue }
            if outerIsNegative == nil { outerIsNegative = area < 0 }
            if (area < 0) == outerIsNegative {
                if !current.isEmpty { out.append(polygon(current)) }
                current = [r]
            } else if !current.isEmpty {
                current.append(r)
            }
        }
        if !current.isEmpty { out.append(polygon(current)) }
        return out
    }
}
