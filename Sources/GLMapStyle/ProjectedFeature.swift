import GLMapCore
import GLMapGeoJSON

/// A feature whose geometry cannot be projected (non-finite or out-of-range positions).
public struct InvalidGeometryError: GLMapError {
    /// Index of the offending feature in its collection.
    public var featureIndex: Int
    /// What is wrong, naming the feature and the position.
    public var message: String
    /// Always `.invalidInput`.
    public var kind: FailureKind { .invalidInput }
    /// The message.
    public var description: String { message }
}

/// A polygon in unit-world coordinates: rings flattened (x0,y0,x1,y1,…), the first ring outer.
public struct ProjectedPolygon: Sendable {
    /// Every ring's vertices flattened (x0, y0, x1, y1, …), outer ring first.
    public var coords: [Double]
    /// Vertex index where each hole starts (earcut's `holeIndices`).
    public var holeIndices: [Int]
    /// Simplification ranks per ring (empty until ranked; see Simplification.swift).
    public var ringRanks: [SimplificationRanks] = []

    /// Creates a polygon from flat coordinates and the vertex index where each hole starts.
    public init(coords: [Double], holeIndices: [Int]) {
        self.coords = coords
        self.holeIndices = holeIndices
    }

    /// The rings as slices of `coords` (vertex ranges).
    public var ringRanges: [Range<Int>] {
        var starts = [0] + holeIndices
        starts.append(coords.count / 2)
        return (0..<(starts.count - 1)).map { starts[$0]..<starts[$0 + 1] }
    }
}

/// A feature's geometry projected once to Web Mercator unit-world coordinates (x, y in 0…1 for
/// the primary world copy, y down), with what filters and expressions read from the feature.
/// GeometryCollections become one `ProjectedFeature` per member (as MapLibre's GeoJSON source does).
public struct ProjectedFeature: Sendable {
    /// Index of the feature in its source (stable ordering for sort keys).
    public var index: Int
    /// What filters and expressions read from the feature (id, properties, geometry type).
    public var context: FeatureContext
    /// Point, line or polygon (Multi* and collection members fold into these).
    public var type: FeatureGeometryType
    /// Point / MultiPoint positions, flat.
    public var points: [Double] = []
    /// LineString / MultiLineString parts, each flat.
    public var lines: [[Double]] = []
    /// Polygon / MultiPolygon parts.
    public var polygons: [ProjectedPolygon] = []
    /// Simplification ranks per line part (empty until ranked; see Simplification.swift).
    public var lineRanks: [SimplificationRanks] = []
    /// Whole worlds each line part was moved by when projected (its GeoJSON position is x +
    /// shift); empty when no part moved. MapLibre's source keeps every part where the GeoJSON puts
    /// it, which decides what each tile holds near the antimeridian (`FillTiler` reads this).
    public var lineShifts: [Double] = []
    /// The same for each polygon (empty when none moved).
    public var polygonShifts: [Double] = []

    /// Every vertex of the geometry (circle layers draw one circle per vertex), flat.
    public var allVertices: [Double] {
        switch type {
        case .point: return points
        case .lineString: return lines.flatMap { $0 }
        case .polygon: return polygons.flatMap { $0.coords }
        }
    }

    /// Largest |longitude| accepted (degrees). Beyond it a Double no longer holds the position
    /// within a world to better than a millionth of a degree, so the feature is rejected.
    public static let maxLongitude = 1.0e6

    /// Projects a decoded collection. Latitudes are clamped to ±85.0511°. Longitudes past ±180
    /// wrap as MapLibre's GeoJSON source wraps them: each point, line part and polygon (with its
    /// holes) moves by whole worlds so it starts in the primary copy (x in 0…1); a part crossing
    /// the antimeridian stays in one piece and runs past x = 1, where the next world copy shows it
    /// (the renderers draw every copy a part's bounds reach), which is where MapLibre draws the
    /// piece it cuts off and shifts. Positions that are not finite (NaN, ±Infinity — possible when
    /// the model is built in code rather than decoded) or absurdly far out are rejected before
    /// tessellation with an error naming the feature.
    /// Runs of features are projected on all cores (a large source: `runs`) and joined in order;
    /// the error is the first invalid feature's, as one run in order finds it.
    public static func project(_ collection: FeatureCollection) throws -> [ProjectedFeature] {
        let features = collection.features
        let parts = concurrentMap(runs(features)) { range -> Result<[ProjectedFeature], InvalidGeometryError> in
            var out: [ProjectedFeature] = []
            out.reserveCapacity(range.count)
            for i in range {
                let f = features[i]
                guard let g = f.geometry else { continue }
                if let bad = firstInvalidPosition(g) {
                    let id = f.id.map { " (id \($0.jsonText))" } ?? ""
                    return .failure(InvalidGeometryError(featureIndex: i, message: "feature \(i)\(id): position [\(bad.lon), \(bad.lat)] is not a usable coordinate (longitude and latitude must be finite numbers, |longitude| ≤ \(Int(maxLongitude)))"))
                }
                append(g, feature: f, index: i, into: &out)
            }
            return .success(out)
        }
        var out: [ProjectedFeature] = []
        out.reserveCapacity(features.count)
        for part in parts { out += try part.get() }   // runs in order: the first failure is the first invalid feature
        return out
    }

    /// Runs of consecutive features of about `runPositions` positions each (one run for a small
    /// collection), in order.
    static func runs(_ features: [Feature]) -> [Range<Int>] {
        contiguousRuns(weights: features.lazy.map { $0.geometry?.vertexCount ?? 0 }, target: runPositions)
    }

    /// Positions per projection job (below it, waking the other cores costs more than the work).
    static let runPositions = 20_000

    static func firstInvalidPosition(_ g: Geometry) -> Position? {
        func bad(_ p: Position) -> Bool { !p.lon.isFinite || !p.lat.isFinite || abs(p.lon) > maxLongitude }
        switch g {
        case .point(let p): return bad(p) ? p : nil
        case .multiPoint(let ps), .lineString(let ps): return ps.first(where: bad)
        case .multiLineString(let ls), .polygon(let ls): return ls.lazy.compactMap { $0.first(where: bad) }.first
        case .multiPolygon(let pss): return pss.lazy.flatMap { $0 }.compactMap { $0.first(where: bad) }.first
        case .geometryCollection(let gs): return gs.lazy.compactMap(firstInvalidPosition).first
        }
    }

    static func append(_ g: Geometry, feature f: Feature, index: Int, into out: inout [ProjectedFeature]) {
        // Rendered features come from tiles, whose geometry type is a number (1 point, 2 line,
        // 3 polygon), so `["geometry-type"]` reads the singular name for Multi* geometries too
        // (maplibre-style-spec's EvaluationContext.geometryType on a tile feature).
        func ctx(_ g: Geometry) -> FeatureContext {
            FeatureContext(id: f.id, properties: f.properties, geometryType: tileTypeName(g), geometry: g)
        }
        func flat(_ ps: [Position]) -> [Double] {
            var a: [Double] = []
            a.reserveCapacity(ps.count * 2)
            for p in ps {
                let u = WebMercator.project(lon: p.lon, lat: p.lat)
                a.append(u.x); a.append(u.y)
            }
            return a
        }
        func points(_ ps: [Position]) -> [Double] {
            var a = flat(ps)
            for i in stride(from: 0, to: a.count, by: 2) { a[i] -= a[i].rounded(.down) }
            return a
        }
        var shifts: [Double] = []
        func line(_ ps: [Position]) -> [Double] {
            var a = flat(ps)
            shifts.append(wrap(&a))
            return a
        }
        func polygon(_ rings: [[Position]]) -> ProjectedPolygon {
            var coords: [Double] = []
            var holes: [Int] = []
            for (i, r) in rings.enumerated() {
                if i > 0 { holes.append(coords.count / 2) }
                coords.append(contentsOf: flat(r))
            }
            shifts.append(wrap(&coords))
            return ProjectedPolygon(coords: coords, holeIndices: holes)
        }
        func moved() -> [Double] { shifts.allSatisfy { $0 == 0 } ? [] : shifts }
        switch g {
        case .point(let p):
            out.append(ProjectedFeature(index: index, context: ctx(g), type: .point, points: points([p])))
        case .multiPoint(let ps):
            out.append(ProjectedFeature(index: index, context: ctx(g), type: .point, points: points(ps)))
        case .lineString(let ps):
            let l = [line(ps)]
            out.append(ProjectedFeature(index: index, context: ctx(g), type: .lineString, lines: l, lineShifts: moved()))
        case .multiLineString(let ls):
            let l = ls.map(line)
            out.append(ProjectedFeature(index: index, context: ctx(g), type: .lineString, lines: l, lineShifts: moved()))
        case .polygon(let rings):
            guard !rings.isEmpty else { return }
            let p = [polygon(rings)]
            out.append(ProjectedFeature(index: index, context: ctx(g), type: .polygon, polygons: p, polygonShifts: moved()))
        case .multiPolygon(let polys):
            let ps = polys.filter { !$0.isEmpty }.map(polygon)
            out.append(ProjectedFeature(index: index, context: ctx(g), type: .polygon, polygons: ps, polygonShifts: moved()))
        case .geometryCollection(let gs):
            for m in gs { append(m, feature: f, index: index, into: &out) }
        }
    }

    /// The type name a tile feature made from `g` reports: Point, LineString or Polygon.
    static func tileTypeName(_ g: Geometry) -> String {
        switch g {
        case .point, .multiPoint: return "Point"
        case .lineString, .multiLineString: return "LineString"
        case .polygon, .multiPolygon: return "Polygon"
        case .geometryCollection: return g.typeName
        }
    }

    /// Moves flat x,y coordinates by whole worlds so the smallest x lies in 0 ..< 1; returns the
    /// worlds moved by (the original x is x + shift).
    @discardableResult
    static func wrap(_ a: inout [Double]) -> Double {
        var minX = Double.infinity
        for i in stride(from: 0, to: a.count, by: 2) where a[i] < minX { minX = a[i] }
        guard minX.isFinite, minX < 0 || minX >= 1 else { return 0 }
        let shift = minX.rounded(.down)
        for i in stride(from: 0, to: a.count, by: 2) { a[i] -= shift }
        return shift
    }
}
