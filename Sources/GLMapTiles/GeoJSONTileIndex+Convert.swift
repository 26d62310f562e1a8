import Foundation
import GLMapCore
import GLMapGeoJSON

/// geojson-vt's projected line or ring: x, y (0…1 world units) and importance, three doubles a
/// position; `size` is the whole line's length or ring's absolute area (kept through clipping),
/// `start`/`end` the piece's distance range along the whole line (line metrics).
struct VTLine: Sendable {
    var c: [Double]
    var size: Double
    var start: Double
    var end: Double

    /// An empty piece of `line` (same size, start and end), as geojson-vt's `newSlice`.
    init(sliceOf line: VTLine) {
        c = []
        size = line.size
        start = line.start
        end = line.end
    }

    init(c: [Double], size: Double, start: Double, end: Double) {
        (self.c, self.size, self.start, self.end) = (c, size, start, end)
    }
}

/// A projected geometry by geojson-vt's type names; a Point is its x and y (geojson-vt's triple
/// without the importance, always 0 for points: no array for each point of a point source),
/// MultiPoints flat x, y, importance triples.
enum VTGeometry: Sendable {
    case point(Double, Double)
    case multiPoint([Double])
    case lineString(VTLine)
    case multiLineString([VTLine])
    case polygon([VTLine])
    case multiPolygon([[VTLine]])
}

/// A projected feature with its bounding box (geojson-vt's `createFeature`: polygons by their
/// outer rings only).
final class VTFeature: Sendable {
    // A class: tiles share the features they keep whole (every point feature, every feature
    // inside a split), and an array of references copies with one retain each.
    let id: JSONValue?
    let geometry: VTGeometry
    let tags: JSONObject
    let minX, minY, maxX, maxY: Double

    init(id: JSONValue?, geometry: VTGeometry, tags: JSONObject) {
        self.id = id
        self.geometry = geometry
        self.tags = tags
        var b = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        func extend(_ c: [Double]) {
            var i = 0
            while i < c.count {
                b.minX = Swift.min(b.minX, c[i])
                b.minY = Swift.min(b.minY, c[i + 1])
                b.maxX = Swift.max(b.maxX, c[i])
                b.maxY = Swift.max(b.maxY, c[i + 1])
                i += 3
            }
        }
        switch geometry {
        case .point(let x, let y): (b.minX, b.minY, b.maxX, b.maxY) = (x, y, x, y)
        case .multiPoint(let c): extend(c)
        case .lineString(let l): extend(l.c)
        case .multiLineString(let lines): for l in lines { extend(l.c) }
        case .polygon(let rings): if let outer = rings.first { extend(outer.c) }
        case .multiPolygon(let polygons): for p in polygons { if let outer = p.first { extend(outer.c) } }
        }
        (minX, minY, maxX, maxY) = b
    }
}

extension GeoJSONTileIndex {
    // MARK: GL JS's rewind (geojson-rewind), read into convert

    /// geojson-rewind's test: the shoelace sum (x_i − x_j)(y_j + y_i) with a compensated sum of its
    /// rounding errors, reversed when its sign (≥ 0 counting as clockwise) is not the wanted one.
    static func needsReversal(_ ring: [Position], clockwise: Bool) -> Bool {
        var area = 0.0, err = 0.0
        var j = ring.count - 1
        for i in ring.indices {
            let k = (ring[i].lon - ring[j].lon) * (ring[j].lat + ring[i].lat)
            let m = area + k
            err += abs(area) >= abs(k) ? area - m + k : k - m + area
            area = m
            j = i
        }
        return (area + err >= 0) != clockwise
    }

    // MARK: geojson-vt's convert

    /// Projects every feature (geojson-vt's `convert`), in order, in runs of about 8,192 positions
    /// on all cores (runs of 50,000 left a 76,000-position source two runs of 61,000 and 15,000).
    static func convert(_ features: [Feature], options: GeoJSONTileOptions) throws -> [VTFeature] {
        let t = options.tolerance / (Double(1 << options.maxZoom) * Double(options.extent))
        let sqTolerance = t * t
        let runs = contiguousRuns(weights: features.lazy.map { ($0.geometry?.vertexCount ?? 0) + 1 }, target: 8_192)
        let parts = concurrentMap(runs) { run -> Result<[VTFeature], GeoJSONTilingError> in
            var out: [VTFeature] = []
            for i in run {
                do {
                    try convertFeature(features[i], index: i, options: options, sqTolerance: sqTolerance, into: &out)
                } catch let e as GeoJSONTilingError {
                    return .failure(e)
                } catch {
                    return .failure(GeoJSONTilingError("\(error)"))
                }
            }
            return .success(out)
        }
        var out: [VTFeature] = []
        out.reserveCapacity(features.count)
        for p in parts { out += try p.get() }
        return out
    }

    /// One feature's projected features (several for a GeometryCollection, or a MultiLineString
    /// with line metrics; none without geometry or with empty coordinates).
    static func convertFeature(_ feature: Feature, index: Int, options: GeoJSONTileOptions,
                               sqTolerance: Double, into out: inout [VTFeature]) throws {
        guard let geometry = feature.geometry else { return }
        var id = feature.id
        if let key = options.promoteId {
            id = feature.properties[key]
        } else if options.generateId {
            id = .number(Double(index))
        }
        if id == .null { id = nil }
        try convertGeometry(geometry, id: id, tags: feature.properties, index: index, options: options,
                            sqTolerance: sqTolerance, into: &out)
    }

    private static func convertGeometry(_ geometry: Geometry, id: JSONValue?, tags: JSONObject, index: Int,
                                        options: GeoJSONTileOptions, sqTolerance: Double,
                                        into out: inout [VTFeature]) throws {
        func add(_ g: VTGeometry) { out.append(VTFeature(id: id, geometry: g, tags: tags)) }
        switch geometry {
        case .point(let p):
            add(.point(projectX(p.lon), projectY(p.lat)))
        case .multiPoint(let ps):
            guard !ps.isEmpty else { return }
            var c: [Double] = []
            c.reserveCapacity(ps.count * 3)
            for p in ps { c.append(projectX(p.lon)); c.append(projectY(p.lat)); c.append(0) }
            add(.multiPoint(c))
        case .lineString(let ps):
            guard let line = convertLine(ps, sqTolerance: sqTolerance, isPolygon: false) else { return }
            add(.lineString(line))
        case .multiLineString(let lines):
            guard !lines.isEmpty else { return }
            let converted = lines.compactMap { convertLine($0, sqTolerance: sqTolerance, isPolygon: false) }
            if options.lineMetrics {
                for l in converted { add(.lineString(l)) }   // one feature per line, to keep its metrics
            } else if !converted.isEmpty {
                add(.multiLineString(converted))
            }
        case .polygon(let rings):
            guard !rings.isEmpty else { return }
            let converted = convertRings(rings, rewind: options.rewind, sqTolerance: sqTolerance)
            if !converted.isEmpty { add(.polygon(converted)) }
        case .multiPolygon(let polygons):
            guard !polygons.isEmpty else { return }
            var converted: [[VTLine]] = []
            for (k, polygon) in polygons.enumerated() {
                guard !polygon.isEmpty else {
                    throw GeoJSONTilingError("feature \(index): MultiPolygon member \(k) has no rings (geojson-vt throws on it, so GL JS fails the whole source)")
                }
                let rings = convertRings(polygon, rewind: options.rewind, sqTolerance: sqTolerance)
                if !rings.isEmpty { converted.append(rings) }
            }
            if !converted.isEmpty { add(.multiPolygon(converted)) }
        case .geometryCollection(let members):
            for g in members {
                try convertGeometry(g, id: id, tags: tags, index: index, options: options,
                                    sqTolerance: sqTolerance, into: &out)
            }
        }
    }

    /// A polygon's projected rings, empty ones dropped; with `rewind` each read in the order
    /// geojson-rewind leaves it (the outer ring clockwise, holes counter-clockwise, as GL JS's
    /// worker rewinds before geojson-vt), so no rewound copy of the input is made.
    static func convertRings(_ rings: [[Position]], rewind: Bool, sqTolerance: Double) -> [VTLine] {
        var out: [VTLine] = []
        out.reserveCapacity(rings.count)
        for (k, ring) in rings.enumerated() {
            let backwards = rewind && needsReversal(ring, clockwise: k == 0)
            if let line = convertLine(ring, sqTolerance: sqTolerance, isPolygon: true, backwards: backwards) { out.append(line) }
        }
        return out
    }

    /// A projected line or ring (read last position first with `backwards`) with Douglas–Peucker
    /// importances and its size (length, or absolute shoelace area for rings); nil for no positions.
    static func convertLine(_ ring: [Position], sqTolerance: Double, isPolygon: Bool, backwards: Bool = false) -> VTLine? {
        guard !ring.isEmpty else { return nil }
        var c = [Double]()
        c.reserveCapacity(ring.count * 3)
        var x0 = 0.0, y0 = 0.0, size = 0.0
        for j in 0..<ring.count {
            let p = ring[backwards ? ring.count - 1 - j : j]
            let x = projectX(p.lon), y = projectY(p.lat)
            c.append(x)
            c.append(y)
            c.append(0)
            if j > 0 {
                if isPolygon {
                    size += (x0 * y - x * y0) / 2
                } else {
                    let dx = x - x0, dy = y - y0
                    size += (dx * dx + dy * dy).squareRoot()
                }
            }
            x0 = x
            y0 = y
        }
        let last = c.count - 3
        c[2] = 1
        simplify(&c, first: 0, last: last, sqTolerance: sqTolerance)
        c[last + 2] = 1
        let s = abs(size)
        return VTLine(c: c, size: s, start: 0, end: s)
    }

    /// geojson-vt's Douglas–Peucker pass: each position that would be a pivot gets its squared
    /// distance as importance (ties go to the pivot nearest the middle). An explicit stack stands
    /// for the recursion; the ranges it visits are disjoint, so the order does not matter.
    static func simplify(_ c: inout [Double], first: Int, last: Int, sqTolerance: Double) {
        precondition(first >= 0 && first <= last && last + 2 < c.count, "simplify: range \(first)…\(last) outside \(c.count) values")
        c.withUnsafeMutableBufferPointer { c in   // indices stay in first…last + 2, checked above
            var stack = [(first, last)]
            while let (first, last) = stack.popLast() {
                var maxSqDist = sqTolerance
                let mid = first + ((last - first) >> 1)
                var minPosToMid = last - first
                var index = -1
                let ax = c[first], ay = c[first + 1], bx = c[last], by = c[last + 1]
                var i = first + 3
                while i < last {
                    let d = sqSegDist(c[i], c[i + 1], ax, ay, bx, by)
                    if d > maxSqDist {
                        index = i
                        maxSqDist = d
                    } else if d == maxSqDist {
                        let posToMid = abs(i - mid)
                        if posToMid < minPosToMid {
                            index = i
                            minPosToMid = posToMid
                        }
                    }
                    i += 3
                }
                if maxSqDist > sqTolerance {
                    if index - first > 3 { stack.append((first, index)) }
                    c[index + 2] = maxSqDist
                    if last - index > 3 { stack.append((index, last)) }
                }
            }
        }
    }

    /// Squared distance from p to the segment a–b (geojson-vt's arithmetic, operation for operation).
    @inline(__always)
    static func sqSegDist(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        var x = ax, y = ay
        var dx = bx - x, dy = by - y
        if dx != 0 || dy != 0 {
            let t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy)
            if t > 1 {
                x = bx
                y = by
            } else if t > 0 {
                x += dx * t
                y += dy * t
            }
        }
        dx = px - x
        dy = py - y
        return dx * dx + dy * dy
    }

    /// Longitude to world x (0…1 on the primary world; past ±180° it lies on a neighbour).
    @inline(__always)
    static func projectX(_ lon: Double) -> Double { lon / 360 + 0.5 }

    /// Latitude to world y (0 north … 1 south), clamped to the Web Mercator square; `Math.sin` and
    /// `Math.log` as V8 computes them.
    @inline(__always)
    static func projectY(_ lat: Double) -> Double {
        let s = JavaScriptMath.sin(lat * Double.pi / 180)
        let y = 0.5 - 0.25 * JavaScriptMath.log((1 + s) / (1 - s)) / Double.pi
        return y < 0 ? 0 : y > 1 ? 1 : y
    }
}
