// Per-zoom geometry simplification — contract
// MapLibre's GeoJSON source (geojson-vt) simplifies lines and polygon rings per tile zoom with a
// tolerance of `source.tolerance` tile pixels (default 0.375 px of a 512-px tile), and draws every
// position only from the source's maxzoom on. glmap does the same so it draws what MapLibre draws,
// and so low zooms don't pay for vertices smaller than a pixel fraction:
// - once, when a source is projected: each line/ring gets a rank per position (the squared
//   distance at which a Douglas–Peucker pass over it would keep that position, 0 when it never
//   would at maxzoom's tolerance; 1 for the endpoints) and its size (a line's length, a ring's
//   area), computed exactly as geojson-vt's convert/simplify do, in unit-world coordinates;
// - per frame zoom: tile zoom z = floor(zoom) clamped to 0…maxzoom; below maxzoom a position is
//   kept when its rank > t², t = tolerance / (512 · 2^z), and a line shorter than t or a ring of
//   area below t² is dropped (a polygon whose outer ring is dropped is dropped whole); at maxzoom
//   nothing changes. Points are never simplified.
// Invariants: endpoints (and so closing positions) are always kept; the order of positions never
// changes; the ranks don't depend on the zoom, so filtering is linear and allocation-light.
import Foundation
import GLMapCore

/// Douglas–Peucker ranks of one line or ring, and its size, for per-zoom filtering.
public struct SimplificationRanks: Sendable, Equatable {
    /// One rank per position (squared unit-world distance; endpoints 1).
    public var ranks: [Double]
    /// Length (lines) or absolute area (rings) in unit-world units.
    public var size: Double
}

/// Per-zoom simplification of projected features (geojson-vt's scheme).
public enum Simplification {
    /// World-unit tolerance at tile zoom `z` for a tolerance in tile pixels; 0 at or past maxzoom.
    public static func tolerance(pixels: Double, zoom: Double, maxzoom: Double) -> Double {
        let z = max(0, min(zoom.rounded(.down), maxzoom))
        if z >= maxzoom || pixels <= 0 { return 0 }
        return pixels / (WebMercator.tileSize * exp2(z))
    }

    /// Ranks every line and ring of a source's features for `tolerance` tile pixels and the
    /// source's `maxzoom` (nothing to rank when the tolerance is 0), spread over the cores: one
    /// job per line or ring, the longest first, so one large feature (a state with thousands of
    /// islands) does not leave the other cores idle; small sources on the calling thread.
    public static func rank(_ features: inout [ProjectedFeature], tolerance pixels: Double, maxzoom: Double) {
        guard pixels > 0, !features.isEmpty else { return }
        let t = pixels / (WebMercator.tileSize * exp2(maxzoom))   // the tolerance at maxzoom
        let jobs = RankJob.all(features)
        let positions = jobs.reduce(0) { $0 + $1.count }
        var results = [SimplificationRanks](repeating: SimplificationRanks(ranks: [], size: 0), count: jobs.count)
        features.withUnsafeBufferPointer { input in
            results.withUnsafeMutableBufferPointer { output in
                // Each job reads its own line or ring and writes its own result slot.
                let input = UnsafeSendable(input), output = UnsafeSendable(output.baseAddress!)
                guard positions >= Simplification.parallelPositions else {
                    for j in jobs.indices { output.value[j] = jobs[j].ranks(input.value, sqTolerance: t * t) }
                    return
                }
                let order = jobs.indices.sorted { jobs[$0].count > jobs[$1].count }
                DispatchQueue.concurrentPerform(iterations: order.count) { k in
                    let j = order[k]
                    output.value[j] = jobs[j].ranks(input.value, sqTolerance: t * t)
                }
            }
        }
        var next = 0
        for f in features.indices {
            let lines = features[f].lines.count
            features[f].lineRanks = Array(results[next..<(next + lines)])
            next += lines
            for p in features[f].polygons.indices {
                let rings = features[f].polygons[p].ringRanges.count
                features[f].polygons[p].ringRanks = Array(results[next..<(next + rings)])
                next += rings
            }
        }
    }

    /// Below this many positions a source is ranked on the calling thread (waking the other
    /// cores costs more than the work). World's 10,641 positions gain from the cores: its parse
    /// stage 2.3–3.1 → 2.0–2.2 ms at 8,000 instead of 50,000 (four interleaved runs).
    static let parallelPositions = 8_000

    /// One line or ring to rank (in the order `rank` stores the results: each feature's lines,
    /// then each polygon's rings).
    struct RankJob {
        var feature: Int
        /// Polygon index, or -1 for a line part.
        var polygon: Int
        var part: Int
        var count: Int

        static func all(_ features: [ProjectedFeature]) -> [RankJob] {
            var jobs: [RankJob] = []
            for (f, feature) in features.enumerated() {
                for (k, line) in feature.lines.enumerated() {
                    jobs.append(RankJob(feature: f, polygon: -1, part: k, count: line.count / 2))
                }
                for (p, poly) in feature.polygons.enumerated() {
                    for (r, range) in poly.ringRanges.enumerated() {
                        jobs.append(RankJob(feature: f, polygon: p, part: r, count: range.count))
                    }
                }
            }
            return jobs
        }

        func ranks(_ features: UnsafeBufferPointer<ProjectedFeature>, sqTolerance: Double) -> SimplificationRanks {
            let f = features[feature]
            if polygon < 0 {
                let line = f.lines[part]
                return Simplification.ranks(line, positions: 0..<(line.count / 2), isRing: false, sqTolerance: sqTolerance)
            }
            let poly = f.polygons[polygon]
            return Simplification.ranks(poly.coords, positions: poly.ringRanges[part], isRing: true, sqTolerance: sqTolerance)
        }
    }

    /// Ranks of the flat x,y line or ring at positions `range` of `coords`, recording positions
    /// that matter above `sqTolerance`.
    public static func ranks(_ coords: [Double], positions range: Range<Int>, isRing: Bool,
                             sqTolerance: Double) -> SimplificationRanks {
        let n = range.count, b = 2 * range.lowerBound
        guard n > 0 else { return SimplificationRanks(ranks: [], size: 0) }
        var size = 0.0
        for i in stride(from: 1, to: n, by: 1) {
            let x0 = coords[b + 2 * i - 2], y0 = coords[b + 2 * i - 1], x = coords[b + 2 * i], y = coords[b + 2 * i + 1]
            if isRing {
                size += (x0 * y - x * y0) / 2
            } else {
                size += ((x - x0) * (x - x0) + (y - y0) * (y - y0)).squareRoot()
            }
        }
        var ranks = [Double](repeating: 0, count: n)
        ranks[0] = 1
        if n > 2 { rank(coords, base: b, n - 1, sqTolerance, &ranks) }
        ranks[n - 1] = 1
        return SimplificationRanks(ranks: ranks, size: abs(size))
    }

    /// Douglas–Peucker over positions 0…last (coordinates from `coords[base]` on), with
    /// geojson-vt's pivot choice (ties toward the middle) and an explicit stack so hostile inputs
    /// cannot exhaust the call stack.
    static func rank(_ coords: [Double], base b: Int, _ last: Int, _ sqTolerance: Double, _ ranks: inout [Double]) {
        coords.withUnsafeBufferPointer { all in
            ranks.withUnsafeMutableBufferPointer { ranks in
                let c = UnsafeBufferPointer(rebasing: all[b..<(b + 2 * (last + 1))])
                var stack = [(0, last)]
                while let (first, last) = stack.popLast() {
                    var maxSqDist = sqTolerance
                    let mid = first &+ (last &- first) / 2
                    var minPosToMid = last &- first
                    var index = -1
                    let ax = c[2 &* first], ay = c[2 &* first &+ 1], bx = c[2 &* last], by = c[2 &* last &+ 1]
                    var i = first &+ 1
                    while i < last {
                        let d = sqSegmentDistance(c[2 &* i], c[2 &* i &+ 1], ax, ay, bx, by)
                        if d > maxSqDist {
                            index = i
                            maxSqDist = d
                        } else if d == maxSqDist {
                            let posToMid = abs(i &- mid)
                            if posToMid < minPosToMid { index = i; minPosToMid = posToMid }
                        }
                        i &+= 1
                    }
                    if maxSqDist > sqTolerance, index >= 0 {
                        ranks[index] = maxSqDist
                        if last - index > 1 { stack.append((index, last)) }
                        if index - first > 1 { stack.append((first, index)) }
                    }
                }
            }
        }
    }

    /// Squared distance from p to the segment a–b.
    @inline(__always)
    static func sqSegmentDistance(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        var x = ax, y = ay
        var dx = bx - x, dy = by - y
        if dx != 0 || dy != 0 {
            let t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy)
            if t > 1 { x = bx; y = by } else if t > 0 { x += dx * t; y += dy * t }
        }
        dx = px - x
        dy = py - y
        return dx * dx + dy * dy
    }

    /// Appends the positions of `coords` from position `start` on whose rank exceeds `sqTolerance`.
    static func filter(_ coords: [Double], from start: Int, _ r: SimplificationRanks, sqTolerance: Double,
                       into out: inout [Double]) {
        for (i, rank) in r.ranks.enumerated() where rank > sqTolerance {
            out.append(coords[2 * (start + i)]); out.append(coords[2 * (start + i) + 1])
        }
    }
}

extension ProjectedFeature {
    /// Records simplification ranks for every line and ring (points have none).
    public mutating func rankForSimplification(sqTolerance: Double) {
        lineRanks = lines.map {
            Simplification.ranks($0, positions: 0..<($0.count / 2), isRing: false, sqTolerance: sqTolerance)
        }
        for p in polygons.indices {
            let c = polygons[p].coords
            polygons[p].ringRanks = polygons[p].ringRanges.map {
                Simplification.ranks(c, positions: $0, isRing: true, sqTolerance: sqTolerance)
            }
        }
    }

    /// The feature simplified for world-unit tolerance `t` (itself when t is 0 or it has no ranks).
    /// Nil when nothing drawable is left (every line too short, every outer ring too small).
    public func simplified(tolerance t: Double) -> ProjectedFeature? {
        guard t > 0 else { return self }
        let sq = t * t
        var out = self
        out.lineRanks = []
        switch type {
        case .point:
            return self
        case .lineString:
            guard lineRanks.count == lines.count else { return self }
            out.lines = []
            out.lineShifts = []
            for (k, (line, r)) in zip(lines, lineRanks).enumerated() where r.size >= t {
                var kept: [Double] = []
                kept.reserveCapacity(line.count)
                Simplification.filter(line, from: 0, r, sqTolerance: sq, into: &kept)
                out.lines.append(kept)
                if !lineShifts.isEmpty { out.lineShifts.append(lineShifts[k]) }
            }
            return out.lines.isEmpty ? nil : out
        case .polygon:
            out.polygons = []
            out.polygonShifts = []
            for (k, poly) in polygons.enumerated() {
                let shift = polygonShifts.isEmpty ? nil : polygonShifts[k]
                guard poly.ringRanks.count == poly.holeIndices.count + 1 else {
                    out.polygons.append(poly)
                    if let shift { out.polygonShifts.append(shift) }
                    continue
                }
                var kept = ProjectedPolygon(coords: [], holeIndices: [])
                kept.coords.reserveCapacity(poly.coords.count)
                for (i, (range, r)) in zip(poly.ringRanges, poly.ringRanks).enumerated() {
                    guard r.size >= sq else {
                        if i == 0 { break } else { continue }
                    }
                    if i > 0 { kept.holeIndices.append(kept.coords.count / 2) }
                    Simplification.filter(poly.coords, from: range.lowerBound, r, sqTolerance: sq, into: &kept.coords)
                }
                if !kept.coords.isEmpty {
                    out.polygons.append(kept)
                    if let shift { out.polygonShifts.append(shift) }
                }
            }
            return out.polygons.isEmpty ? nil : out
        }
    }
}
