import GLMapCore

extension GeoJSONTileIndex {
    /// geojson-vt's `clip`: the parts of `features` between k1/scale (inclusive) and k2/scale on
    /// `axis` (0: x, 1: y), or nil when none. Features whose box lies inside are kept as they are
    /// (`max < k2`); points are kept up to k2 inclusive; lines are cut into pieces (each its own
    /// LineString feature with `lineMetrics`, its start/end moved to where it enters and leaves),
    /// rings into closed rings. `minAll`/`maxAll` bound all features (accept or reject at once).
    static func clip(_ features: [VTFeature], scale: Double, _ k1: Double, _ k2: Double, axis: Int,
                     minAll: Double, maxAll: Double, lineMetrics: Bool) -> [VTFeature]? {
        let k1 = k1 / scale, k2 = k2 / scale
        if minAll >= k1 && maxAll < k2 { return features }
        if maxAll < k1 || minAll >= k2 { return nil }

        var clipped: [VTFeature] = []
        var reaching = 0   // the features whose box meets the band: room for all of them up front
        for feature in features {
            let min = axis == 0 ? feature.minX : feature.minY
            let max = axis == 0 ? feature.maxX : feature.maxY
            if max >= k1 && min < k2 { reaching += 1 }
        }
        clipped.reserveCapacity(reaching)
        for feature in features {
            let min = axis == 0 ? feature.minX : feature.minY
            let max = axis == 0 ? feature.maxX : feature.maxY
            if min >= k1 && max < k2 {
                clipped.append(feature)
                continue
            }
            if max < k1 || min >= k2 { continue }

            switch feature.geometry {
            case .point:
                break   // a point's box is the point: kept or dropped whole above
            case .multiPoint(let c):
                let kept = clipPoints(c, k1, k2, axis: axis)
                if !kept.isEmpty {
                    clipped.append(VTFeature(id: feature.id, geometry: kept.count == 3 ? .point(kept[0], kept[1]) : .multiPoint(kept), tags: feature.tags))
                }
            case .lineString(let line):
                var pieces: [VTLine] = []
                clipLine(line, into: &pieces, k1, k2, axis: axis, isPolygon: false, trackMetrics: lineMetrics)
                if lineMetrics {
                    for p in pieces { clipped.append(VTFeature(id: feature.id, geometry: .lineString(p), tags: feature.tags)) }
                } else {
                    appendLines(pieces, of: feature, to: &clipped)
                }
            case .multiLineString(let lines):
                var pieces: [VTLine] = []
                for l in lines { clipLine(l, into: &pieces, k1, k2, axis: axis, isPolygon: false, trackMetrics: false) }
                appendLines(pieces, of: feature, to: &clipped)
            case .polygon(let rings):
                var kept: [VTLine] = []
                for r in rings { clipLine(r, into: &kept, k1, k2, axis: axis, isPolygon: true, trackMetrics: false) }
                if !kept.isEmpty { clipped.append(VTFeature(id: feature.id, geometry: .polygon(kept), tags: feature.tags)) }
            case .multiPolygon(let polygons):
                var kept: [[VTLine]] = []
                for polygon in polygons {
                    var rings: [VTLine] = []
                    for r in polygon { clipLine(r, into: &rings, k1, k2, axis: axis, isPolygon: true, trackMetrics: false) }
                    if !rings.isEmpty { kept.append(rings) }
                }
                if !kept.isEmpty { clipped.append(VTFeature(id: feature.id, geometry: .multiPolygon(kept), tags: feature.tags)) }
            }
        }
        return clipped.isEmpty ? nil : clipped
    }

    /// Line pieces as one LineString feature (one piece) or a MultiLineString.
    private static func appendLines(_ pieces: [VTLine], of feature: VTFeature, to out: inout [VTFeature]) {
        guard !pieces.isEmpty else { return }
        let g: VTGeometry = pieces.count == 1 ? .lineString(pieces[0]) : .multiLineString(pieces)
        out.append(VTFeature(id: feature.id, geometry: g, tags: feature.tags))
    }

    /// The points with k1 ≤ coordinate ≤ k2.
    static func clipPoints(_ c: [Double], _ k1: Double, _ k2: Double, axis: Int) -> [Double] {
        var out: [Double] = []
        var i = 0
        while i < c.count {
            let a = c[i + axis]
            if a >= k1 && a <= k2 {
                out.append(c[i])
                out.append(c[i + 1])
                out.append(c[i + 2])
            }
            i += 3
        }
        return out
    }

    /// geojson-vt's `clipLine`: appends the pieces of `line` between k1 and k2 to `out`. A line
    /// leaving the band ends its piece (its `end` set where it left, with `trackMetrics`); a ring
    /// stays one piece, closed again when its ends differ; crossing points get importance 1.
    static func clipLine(_ line: VTLine, into out: inout [VTLine], _ k1: Double, _ k2: Double, axis: Int,
                         isPolygon: Bool, trackMetrics: Bool) {
        let c = line.c
        guard !c.isEmpty else { return }
        // A line wholly on one side of the band comes out as geojson-vt's loop would leave it:
        // nothing when all of it is below k1 or above k2; the line itself (same positions, same
        // start and end, no copy) when all of it is inside and, for a ring, closed already.
        var lo = Double.infinity, hi = -Double.infinity
        c.withUnsafeBufferPointer { p in
            var i = axis
            while i < p.count {
                lo = Swift.min(lo, p[i])
                hi = Swift.max(hi, p[i])
                i += 3
            }
        }
        if hi < k1 || lo > k2 { return }
        let last = c.count - 3
        if lo >= k1 && hi <= k2 && (!isPolygon || last < 3 || (c[last] == c[0] && c[last + 1] == c[1])) {
            out.append(line)
            return
        }
        var slice = VTLine(sliceOf: line)
        var len = line.start
        var segLen = 0.0, t = 0.0
        var i = 0
        while i < c.count - 3 {
            let ax = c[i], ay = c[i + 1], az = c[i + 2]
            let bx = c[i + 3], by = c[i + 4]
            let a = axis == 0 ? ax : ay
            let b = axis == 0 ? bx : by
            var exited = false
            if trackMetrics {
                let dx = ax - bx, dy = ay - by
                segLen = (dx * dx + dy * dy).squareRoot()
            }
            if a < k1 {
                if b > k1 {   // enters from below k1
                    t = intersect(&slice.c, ax, ay, bx, by, k1, axis: axis)
                    if trackMetrics { slice.start = len + segLen * t }
                }
            } else if a > k2 {
                if b < k2 {   // enters from above k2
                    t = intersect(&slice.c, ax, ay, bx, by, k2, axis: axis)
                    if trackMetrics { slice.start = len + segLen * t }
                }
            } else {
                slice.c.append(ax)
                slice.c.append(ay)
                slice.c.append(az)
            }
            if b < k1 && a >= k1 {   // leaves below k1
                t = intersect(&slice.c, ax, ay, bx, by, k1, axis: axis)
                exited = true
            }
            if b > k2 && a <= k2 {   // leaves above k2
                t = intersect(&slice.c, ax, ay, bx, by, k2, axis: axis)
                exited = true
            }
            if !isPolygon && exited {
                if trackMetrics { slice.end = len + segLen * t }
                out.append(slice)
                slice = VTLine(sliceOf: line)
            }
            if trackMetrics { len += segLen }
            i += 3
        }

        let a = axis == 0 ? c[last] : c[last + 1]
        if a >= k1 && a <= k2 {
            slice.c.append(c[last])
            slice.c.append(c[last + 1])
            slice.c.append(c[last + 2])
        }
        let end = slice.c.count - 3
        if isPolygon && end >= 3 && (slice.c[end] != slice.c[0] || slice.c[end + 1] != slice.c[1]) {
            slice.c.append(slice.c[0])
            slice.c.append(slice.c[1])
            slice.c.append(slice.c[2])
        }
        if !slice.c.isEmpty { out.append(slice) }
    }

    /// Appends where a–b crosses the line coordinate `k` on `axis` (importance 1); returns the
    /// crossing's fraction t along a–b.
    @inline(__always)
    private static func intersect(_ out: inout [Double], _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                  _ k: Double, axis: Int) -> Double {
        if axis == 0 {
            let t = (k - ax) / (bx - ax)
            out.append(k)
            out.append(ay + (by - ay) * t)
            out.append(1)
            return t
        }
        let t = (k - ay) / (by - ay)
        out.append(ax + (bx - ax) * t)
        out.append(k)
        out.append(1)
        return t
    }

    // MARK: wrap

    /// geojson-vt's `wrap`: when features reach within the buffer of the world's east or west edge,
    /// the world is cut to −buffer…1+buffer and the parts beyond each edge (within the buffer of
    /// the neighbouring copy) are moved one world over: west parts first, then the centre, then
    /// east parts.
    static func wrap(_ features: [VTFeature], options: GeoJSONTileOptions) -> [VTFeature] {
        let buffer = options.buffer / Double(options.extent)
        let lm = options.lineMetrics
        let left = clip(features, scale: 1, -1 - buffer, buffer, axis: 0, minAll: -1, maxAll: 2, lineMetrics: lm)
        let right = clip(features, scale: 1, 1 - buffer, 2 + buffer, axis: 0, minAll: -1, maxAll: 2, lineMetrics: lm)
        guard left != nil || right != nil else { return features }
        var merged = clip(features, scale: 1, -buffer, 1 + buffer, axis: 0, minAll: -1, maxAll: 2, lineMetrics: lm) ?? []
        if let left { merged = shifted(left, by: 1) + merged }
        if let right { merged += shifted(right, by: -1) }
        return merged
    }

    /// The features moved `offset` worlds along x (boxes recomputed).
    static func shifted(_ features: [VTFeature], by offset: Double) -> [VTFeature] {
        func shift(_ c: [Double]) -> [Double] {
            var out = c
            var i = 0
            while i < out.count { out[i] = c[i] + offset; i += 3 }
            return out
        }
        func shift(_ l: VTLine) -> VTLine { VTLine(c: shift(l.c), size: l.size, start: l.start, end: l.end) }
        return features.map { f in
            let g: VTGeometry
            switch f.geometry {
            case .point(let x, let y): g = .point(x + offset, y)
            case .multiPoint(let c): g = .multiPoint(shift(c))
            case .lineString(let l): g = .lineString(shift(l))
            case .multiLineString(let ls): g = .multiLineString(ls.map(shift))
            case .polygon(let rs): g = .polygon(rs.map(shift))
            case .multiPolygon(let ps): g = .multiPolygon(ps.map { $0.map(shift) })
            }
            return VTFeature(id: f.id, geometry: g, tags: f.tags)
        }
    }
}
