import Foundation
import GLMapCore
import GLMapGeoJSON

/// A tile of the index (geojson-vt's `createTile`): the box of the features it was made from,
/// those features until the tile is first asked for (`pending`), and them again while it has
/// not been cut (`source`). geojson-vt simplifies every tile it creates; glmap simplifies a tile
/// when it is first transformed — the same features by the same rules — so the tiles a drill-down
/// passes through and never draws cost no simplified copy of every feature (a 100,000-point
/// source drilled to z15 made 15 of them).
/// The index's lock guards `source`, `halves` and the box; the tile's own lock guards `pending` and the
/// transformed tile, so tiles transform in parallel.
final class VTTile {
    let z: Int, x: Int, y: Int
    private let lock = NSLock()
    private var pending: [VTFeature]
    var source: [VTFeature]?
    /// The western (0) and eastern (1) halves of `source` cut so far by drill-downs (nil inside:
    /// nothing there), so siblings share the cut on x as when geojson-vt cuts all four children.
    var halves: [Int: [VTFeature]?] = [:]
    var minX = 2.0, minY = 1.0, maxX = -1.0, maxY = 0.0
    private var done: GeoJSONTile?

    init(_ features: [VTFeature], z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
        pending = features
        for f in features {
            minX = min(minX, f.minX)
            minY = min(minY, f.minY)
            maxX = max(maxX, f.maxX)
            maxY = max(maxY, f.maxY)
        }
    }

    /// geojson-vt's `numPoints`: every position of every feature, kept by simplification or not.
    var numPoints: Int {
        var n = 0
        for f in pending {
            switch f.geometry {
            case .point: n += 1
            case .multiPoint(let c): n += c.count / 3
            case .lineString(let l): n += l.c.count / 3
            case .multiLineString(let ls), .polygon(let ls): for l in ls { n += l.c.count / 3 }
            case .multiPolygon(let ps): for p in ps { for l in p { n += l.c.count / 3 } }
            }
        }
        return n
    }

    /// The tile in integer tile units: made on the first call (under the tile's lock), then kept.
    func transformed(options: GeoJSONTileOptions) -> GeoJSONTile {
        lock.lock()
        defer { lock.unlock() }
        if let done { return done }
        var out: [GeoJSONTile.Feature] = []
        out.reserveCapacity(pending.count)
        transform(pending, options: options, pointsApart: false, GeoJSONTile.Point.init) { type, geometry, feature, tags in
            out.append(GeoJSONTile.Feature(type: type, geometry: geometry, id: feature.id, tags: tags))
        }
        let tile = GeoJSONTile(id: CanonicalTileID(z, x, y), features: out)
        done = tile
        pending = []
        return tile
    }

    /// The tile as GL JS's GeoJSON wrapper hands it to buckets (`GeoJSONTile.vectorTileData`), made
    /// from the features in one pass, without the geojson-vt tile in between, and not kept: the
    /// caller caches it (a scene's tile cache evicts it; the tile keeps only its feature list).
    func vectorTileData(options: GeoJSONTileOptions) -> VectorTileData {
        lock.lock()
        if let done {
            lock.unlock()
            return done.vectorTileData()
        }
        let features = pending
        lock.unlock()
        var out: [TileFeature] = []
        out.reserveCapacity(features.count)
        transform(features, options: options, pointsApart: true, { TilePoint(clamping: $0, $1) }) { type, geometry, feature, tags in
            out.append(TileFeature(type: type, geometry: geometry, id: GeoJSONTile.wrapperID(feature.id),
                                   properties: tags, index: out.count))
        }
        return VectorTileData(geoJSONFeatures: out)
    }

    /// geojson-vt's `addFeature` and `transform` for every feature: each simplified for this
    /// zoom (tolerance 0 at `maxZoom`), kept when anything is left, every position then in integer
    /// tile units, `Math.round(extent · (x · 2^z − tileX))`, made into `P` by `point`; `emit`
    /// gets each kept feature's type, geometry, source feature and tags (line-metrics clip
    /// values added). `pointsApart`: a point feature's points one array each (GL JS's wrapper)
    /// rather than one array for all (geojson-vt).
    private func transform<P>(_ features: [VTFeature], options: GeoJSONTileOptions, pointsApart: Bool,
                              _ point: (Int, Int) -> P,
                              emit: (FeatureGeometryType, [[P]], VTFeature, JSONObject) -> Void) {
        let tolerance = z == options.maxZoom ? 0 : options.tolerance / (Double(1 << z) * Double(options.extent))
        let toTile = TileTransform(z2: Double(1 << z), tx: Double(x), ty: Double(y), extent: Double(options.extent))
        var scratch: [Double] = []
        for f in features {
            guard let (type, geometry) = VTTile.simplified(f, tolerance: tolerance, toTile, pointsApart: pointsApart, point, &scratch) else { continue }
            var tags = f.tags
            if options.lineMetrics, case .lineString(let l) = f.geometry {
                tags["mapbox_clip_start"] = .number(l.start / l.size)
                tags["mapbox_clip_end"] = .number(l.end / l.size)
            }
            emit(type, geometry, f, tags)
        }
    }

    /// World units to the tile's integer units.
    private struct TileTransform {
        let z2: Double, tx: Double, ty: Double, extent: Double
        @inline(__always)
        func callAsFunction<P>(_ x: Double, _ y: Double, _ point: (Int, Int) -> P) -> P {
            point(jsRound(extent * (x * z2 - tx)), jsRound(extent * (y * z2 - ty)))
        }
    }

    /// One feature's geometry simplified and transformed, or nil when nothing is left; `scratch`
    /// holds a ring while it is rewound (kept between calls for its capacity).
    private static func simplified<P>(_ feature: VTFeature, tolerance: Double, _ toTile: TileTransform, pointsApart: Bool,
                                      _ point: (Int, Int) -> P, _ scratch: inout [Double]) -> (FeatureGeometryType, [[P]])? {
        var geometry: [[P]] = []
        let type: FeatureGeometryType
        switch feature.geometry {
        case .point(let x, let y):
            type = .point
            geometry = [[toTile(x, y, point)]]
        case .multiPoint(let c):
            type = .point
            var i = 0
            if pointsApart {
                geometry.reserveCapacity(c.count / 3)
                while i < c.count {
                    geometry.append([toTile(c[i], c[i + 1], point)])
                    i += 3
                }
            } else {
                var points: [P] = []
                points.reserveCapacity(c.count / 3)
                while i < c.count {
                    points.append(toTile(c[i], c[i + 1], point))
                    i += 3
                }
                if !points.isEmpty { geometry.append(points) }
            }
        case .lineString(let l):
            type = .lineString
            addLine(&geometry, l, tolerance: tolerance, isPolygon: false, isOuter: false, toTile, point, &scratch)
        case .multiLineString(let ls):
            type = .lineString
            for l in ls { addLine(&geometry, l, tolerance: tolerance, isPolygon: false, isOuter: false, toTile, point, &scratch) }
        case .polygon(let rings):
            type = .polygon
            for (i, r) in rings.enumerated() { addLine(&geometry, r, tolerance: tolerance, isPolygon: true, isOuter: i == 0, toTile, point, &scratch) }
        case .multiPolygon(let polygons):
            type = .polygon
            for polygon in polygons {
                for (i, r) in polygon.enumerated() { addLine(&geometry, r, tolerance: tolerance, isPolygon: true, isOuter: i == 0, toTile, point, &scratch) }
            }
        }
        return geometry.isEmpty ? nil : (type, geometry)
    }

    /// geojson-vt's `addLine`: below maxZoom (tolerance > 0) a line shorter than the tolerance or
    /// a ring of smaller area than its square is dropped, and a position is kept when its
    /// importance exceeds the squared tolerance; rings are rewound (outer clockwise in tile
    /// space, y down) in world units, as geojson-vt does before `transform`.
    private static func addLine<P>(_ result: inout [[P]], _ line: VTLine, tolerance: Double, isPolygon: Bool, isOuter: Bool,
                                   _ toTile: TileTransform, _ point: (Int, Int) -> P, _ scratch: inout [Double]) {
        let sqTolerance = tolerance * tolerance
        let c = line.c
        if tolerance > 0 && line.size < (isPolygon ? sqTolerance : tolerance) { return }
        scratch.removeAll(keepingCapacity: true)
        var i = 0
        while i < c.count {
            if tolerance == 0 || c[i + 2] > sqTolerance {
                scratch.append(c[i])
                scratch.append(c[i + 1])
            }
            i += 3
        }
        if isPolygon { VTTile.rewind(&scratch, clockwise: isOuter) }
        var ring: [P] = []
        ring.reserveCapacity(scratch.count / 2)
        i = 0
        while i < scratch.count {
            ring.append(toTile(scratch[i], scratch[i + 1], point))
            i += 2
        }
        result.append(ring)
    }

    /// geojson-vt's per-tile `rewind`: reverses the ring when the sign of its shoelace sum says it
    /// winds the other way.
    static func rewind(_ ring: inout [Double], clockwise: Bool) {
        let len = ring.count
        var area = 0.0
        var i = 0, j = len - 2
        while i < len {
            area += (ring[i] - ring[j]) * (ring[i + 1] + ring[j + 1])
            j = i
            i += 2
        }
        guard (area > 0) == clockwise else { return }
        var lo = 0, hi = len - 2
        while lo < hi {
            ring.swapAt(lo, hi)
            ring.swapAt(lo + 1, hi + 1)
            lo += 2
            hi -= 2
        }
    }

}

/// JavaScript's `Math.round` to an integer: halves round up (towards +∞), so −2.5 gives −2.
@inline(__always)
func jsRound(_ v: Double) -> Int {
    let f = v.rounded(.down)
    let r = v - f >= 0.5 ? f + 1 : f
    guard r.isFinite, abs(r) < 9.0e18 else { return r.isNaN ? 0 : (r > 0 ? Int.max : Int.min) }
    return Int(r)
}
