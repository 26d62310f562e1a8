import GLMapCore
import GLMapGeoJSON

/// The polygon area of a `within` expression, projected once to Web Mercator unit coordinates.
///
/// Semantics follow MapLibre: a point feature is within when every point lies strictly inside
/// (not on an edge of) one polygon; a line feature when every line lies inside one polygon and
/// crosses none of its edges. Other geometry types are never within. Unlike MapLibre, which works in
/// tile coordinates rounded to 1/8192 of the tile at the current zoom, this tests unrounded positions
/// and does not wrap across the antimeridian.
struct WithinRegion {
    typealias Point = SIMD2<Double>
    /// Polygons, each a list of rings (outer first).
    let polygons: [[[Point]]]
    /// minX, minY, maxX, maxY of all polygons.
    let bounds: (Double, Double, Double, Double)

    /// Reads a Polygon, MultiPolygon, Feature or FeatureCollection GeoJSON object; nil without polygons.
    init?(geoJSON: JSONValue) {
        var polygons: [[[Point]]] = []
        func addGeometry(_ g: JSONValue?) -> Bool {
            guard let g, let type = g["type"]?.stringValue, let coords = g["coordinates"] else { return false }
            switch type {
            case "Polygon":
                guard let p = WithinRegion.polygon(coords) else { return false }
                polygons.append(p)
            case "MultiPolygon":
                guard let list = coords.arrayValue else { return false }
                for c in list {
                    guard let p = WithinRegion.polygon(c) else { return false }
                    polygons.append(p)
                }
            default:
                return false
            }
            return true
        }
        switch geoJSON["type"]?.stringValue {
        case "FeatureCollection":
            for f in geoJSON["features"]?.arrayValue ?? [] { _ = addGeometry(f["geometry"]) }
        case "Feature":
            guard addGeometry(geoJSON["geometry"]) else { return nil }
        case "Polygon", "MultiPolygon":
            guard addGeometry(geoJSON) else { return nil }
        default:
            return nil
        }
        guard !polygons.isEmpty else { return nil }
        self.polygons = polygons
        var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for p in polygons { for ring in p { for q in ring { WithinRegion.extend(&b, q) } } }
        self.bounds = b
    }

    private static func polygon(_ json: JSONValue) -> [[Point]]? {
        guard let rings = json.arrayValue else { return nil }
        var out: [[Point]] = []
        for ring in rings {
            guard let positions = ring.arrayValue else { return nil }
            var pts: [Point] = []
            for p in positions {
                guard let c = p.arrayValue, c.count >= 2, let lon = c[0].numberValue, let lat = c[1].numberValue else { return nil }
                pts.append(project(Position(lon, lat)))
            }
            out.append(pts)
        }
        return out
    }

    static func project(_ p: Position) -> Point {
        let w = WebMercator.project(lon: p.lon, lat: p.lat)
        return Point(w.x, w.y)
    }

    private static func extend(_ b: inout (Double, Double, Double, Double), _ p: Point) {
        b.0 = Swift.min(b.0, p.x); b.1 = Swift.min(b.1, p.y)
        b.2 = Swift.max(b.2, p.x); b.3 = Swift.max(b.3, p.y)
    }

    /// Whether the feature lies within the region (false without a point or line geometry).
    func contains(_ feature: FeatureContext) -> Bool {
        guard let geometry = feature.geometry else { return false }
        switch geometry {
        case .point(let p):
            return pointsWithin([WithinRegion.project(p)])
        case .multiPoint(let ps):
            return pointsWithin(ps.map(WithinRegion.project))
        case .lineString(let l):
            return linesWithin([l.map(WithinRegion.project)])
        case .multiLineString(let ls):
            return linesWithin(ls.map { $0.map(WithinRegion.project) })
        default:
            return false
        }
    }

    private func boxWithin(_ inner: (Double, Double, Double, Double)) -> Bool {
        inner.0 > bounds.0 && inner.2 < bounds.2 && inner.1 > bounds.1 && inner.3 < bounds.3
    }

    private func pointsWithin(_ points: [Point]) -> Bool {
        var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for p in points { WithinRegion.extend(&b, p) }
        guard boxWithin(b) else { return false }
        for p in points where !polygons.contains(where: { WithinRegion.pointInPolygon(p, $0) }) { return false }
        return true
    }

    private func linesWithin(_ lines: [[Point]]) -> Bool {
        var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for l in lines { for p in l { WithinRegion.extend(&b, p) } }
        guard boxWithin(b) else { return false }
        for line in lines where !polygons.contains(where: { WithinRegion.lineInPolygon(line, $0) }) { return false }
        return true
    }

    /// Ray casting; a point on an edge is outside.
    static func pointInPolygon(_ p: Point, _ rings: [[Point]]) -> Bool {
        var inside = false
        for ring in rings where ring.count > 1 {
            for j in 0..<(ring.count - 1) {
                let a = ring[j], b = ring[j + 1]
                if onSegment(p, a, b) { return false }
                if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
                    inside.toggle()
                }
            }
        }
        return inside
    }

    private static func onSegment(_ p: Point, _ a: Point, _ b: Point) -> Bool {
        let x1 = p.x - a.x, y1 = p.y - a.y, x2 = p.x - b.x, y2 = p.y - b.y
        return x1 * y2 - x2 * y1 == 0 && x1 * x2 <= 0 && y1 * y2 <= 0
    }

    static func lineInPolygon(_ line: [Point], _ rings: [[Point]]) -> Bool {
        for p in line where !pointInPolygon(p, rings) { return false }
        guard line.count > 1 else { return true }
        for i in 0..<(line.count - 1) {
            for ring in rings where ring.count > 1 {
                for j in 0..<(ring.count - 1) where segmentsCross(line[i], line[i + 1], ring[j], ring[j + 1]) {
                    return false
                }
            }
        }
        return true
    }

    /// Proper crossing of segments a–b and c–d (parallel segments never cross).
    private static func segmentsCross(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
        let p = b - a, q = d - c
        if q.x * p.y - q.y * p.x == 0 { return false }
        return twoSided(a, b, c, d) && twoSided(c, d, a, b)
    }

    private static func twoSided(_ p1: Point, _ p2: Point, _ q1: Point, _ q2: Point) -> Bool {
        let d1 = (p1.x - q1.x) * (q2.y - q1.y) - (q2.x - q1.x) * (p1.y - q1.y)
        let d2 = (p2.x - q1.x) * (q2.y - q1.y) - (q2.x - q1.x) * (p2.y - q1.y)
        return (d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)
    }
}
