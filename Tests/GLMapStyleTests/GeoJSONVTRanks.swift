@testable import GLMapStyle

/// geojson-vt's simplify as it reads (recursive, ties toward the middle with its running
/// `minPosToMid`), the oracle `Simplification`'s ranks are checked against: the rank of every
/// position of `p` for `sq` (endpoints 1, positions it never keeps 0).
func geojsonVTRanks(_ p: [(Double, Double)], sqTolerance sq: Double) -> [Double] {
    func simplify(_ first: Int, _ last: Int, _ r: inout [Double]) {
        var maxD = sq, index = -1
        let mid = first + (last - first) / 2
        var minPosToMid = last - first
        for i in (first + 1)..<max(first + 1, last) {
            let d = Simplification.sqSegmentDistance(p[i].0, p[i].1, p[first].0, p[first].1, p[last].0, p[last].1)
            if d > maxD { index = i; maxD = d } else if d == maxD, abs(i - mid) < minPosToMid { index = i; minPosToMid = abs(i - mid) }
        }
        guard maxD > sq, index >= 0 else { return }
        if index - first > 1 { simplify(first, index, &r) }
        r[index] = maxD
        if last - index > 1 { simplify(index, last, &r) }
    }
    guard !p.isEmpty else { return [] }
    var r = [Double](repeating: 0, count: p.count)
    r[0] = 1
    if p.count > 2 { simplify(0, p.count - 1, &r) }
    r[p.count - 1] = 1
    return r
}
