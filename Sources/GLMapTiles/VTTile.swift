import Foundation
import GLMapCore
import GLMapGeoJSON

/// One simplified feature of a tile in world units (geojson-vt's tile feature before `transform`):
/// points as one flat x, y list; lines and rings one x, y list each.
struct VTTileFeature {
    var type: FeatureGeometryType
    var geometry: [[Double]]
    var tags: JSONObject
    var id: JSONValue?
}

/// A tile of the index (geojson-vt's `createTile`): the box of the features it was made from,
/// those features until the tile is first asked for (`pending`), and them again while it has
/// not been cut (`source`). geojson-vt simplifies every tile it creates; glmap simplifies a tile
/// when it is first transformed — the same features by the same rules — so the tiles a drill-down
/// passes through and never draws cost no simplified copy of every feature (a 100,000-point
/// source drilled to z15 made 15 of them).
final class VTTile {
    let z: Int, x: Int, y: Int
    var pending: [VTFeature]
    var source: [VTFeature]?
    var minX = 2.0, minY = 1.0, maxX = -1.0, maxY = 0.0
    var transformed: GeoJSONTile?

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
            case .point(let c), .multiPoint(let c): n += c.count / 3
            case .lineString(let l): n += l.c.count / 3
            case .multiLineString(let ls), .polygon(let ls): for l in ls { n += l.c.count / 3 }
            case .multiPolygon(let ps): for p in ps { for l in p { n += l.c.count / 3 } }
            }
        }
        return n
    }

    /// geojson-vt's `addFeature` for every pending feature: each simplified for this zoom
    /// (tolerance 0 at `maxZoom`), kept when anything is left.
    private func simplifiedFeatures(options: GeoJSONTileOptions) -> [VTTileFeature] {
        let tolerance = z == options.maxZoom ? 0 : options.tolerance / (Double(1 << z) * Double(options.extent))
        var out: [VTTileFeature] = []
        out.reserveCapacity(pending.count)
        for f in pending {
            if let s = VTTile.simplified(f, tolerance: tolerance, lineMetrics: options.lineMetrics) { out.append(s) }
        }
        return out
    }

    /// One feature simplified for the tile, or nil when nothing is left.
    private static func simplified(_ feature: VTFeature, tolerance: Double, lineMetrics: Bool) -> VTTileFeature? {
        var simplified: [[Double]] = []
        let type: FeatureGeometryType
        switch feature.geometry {
        case .point(let c), .multiPoint(let c):
            type = .point
            var flat: [Double] = []
            flat.reserveCapacity(c.count / 3 * 2)
            var i = 0
            while i < c.count {
                flat.append(c[i])
                flat.append(c[i + 1])
                i += 3
            }
            if !flat.isEmpty { simplified.append(flat) }
        case .lineString(let l):
            type = .lineString
            addLine(&simplified, l, tolerance: tolerance, isPolygon: false, isOuter: false)
        case .multiLineString(let ls):
            type = .lineString
            for l in ls { addLine(&simplified, l, tolerance: tolerance, isPolygon: false, isOuter: false) }
        case .polygon(let rings):
            type = .polygon
            for (i, r) in rings.enumerated() { addLine(&simplified, r, tolerance: tolerance, isPolygon: true, isOuter: i == 0) }
        case .multiPolygon(let polygons):
            type = .polygon
            for polygon in polygons {
                for (i, r) in polygon.enumerated() { addLine(&simplified, r, tolerance: tolerance, isPolygon: true, isOuter: i == 0) }
            }
        }
        guard !simplified.isEmpty else { return nil }

        var tags = feature.tags
        if lineMetrics, case .lineString(let l) = feature.geometry {
            tags["mapbox_clip_start"] = .number(l.start / l.size)
            tags["mapbox_clip_end"] = .number(l.end / l.size)
        }
        return VTTileFeature(type: type, geometry: simplified, tags: tags, id: feature.id)
    }

    /// geojson-vt's `addLine`: below maxZoom (tolerance > 0) a line shorter than the tolerance or
    /// a ring of smaller area than its square is dropped, and a position is kept when its
    /// importance exceeds the squared tolerance; rings are rewound (outer clockwise in tile
    /// space, y down).
    private static func addLine(_ result: inout [[Double]], _ line: VTLine, tolerance: Double, isPolygon: Bool, isOuter: Bool) {
        let sqTolerance = tolerance * tolerance
        let c = line.c
        if tolerance > 0 && line.size < (isPolygon ? sqTolerance : tolerance) { return }
        var ring: [Double] = []
        ring.reserveCapacity(c.count / 3 * 2)
        var i = 0
        while i < c.count {
            if tolerance == 0 || c[i + 2] > sqTolerance {
                ring.append(c[i])
                ring.append(c[i + 1])
            }
            i += 3
        }
        if isPolygon { VTTile.rewind(&ring, clockwise: isOuter) }
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

    /// The pending features simplified, then geojson-vt's `transform`: every position to integer
    /// tile units, `Math.round(extent · (x · 2^z − tileX))`. The pending features are let go.
    func transformedTile(options: GeoJSONTileOptions) -> GeoJSONTile {
        let features = simplifiedFeatures(options: options)
        pending = []
        let z2 = Double(1 << z), tx = Double(x), ty = Double(y), e = Double(options.extent)
        var out: [GeoJSONTile.Feature] = []
        out.reserveCapacity(features.count)
        for f in features {
            let rings = f.geometry.map { flat -> [GeoJSONTile.Point] in
                var ring: [GeoJSONTile.Point] = []
                ring.reserveCapacity(flat.count / 2)
                var i = 0
                while i < flat.count {
                    ring.append(GeoJSONTile.Point(x: jsRound(e * (flat[i] * z2 - tx)), y: jsRound(e * (flat[i + 1] * z2 - ty))))
                    i += 2
                }
                return ring
            }
            out.append(GeoJSONTile.Feature(type: f.type, geometry: rings, id: f.id, tags: f.tags))
        }
        return GeoJSONTile(id: CanonicalTileID(z, x, y), features: out)
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
