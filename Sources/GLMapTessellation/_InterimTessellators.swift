// INTERIM stand-ins with the agreed API, replaced at merge by the `earcut` and `lines` branches.
public enum Earcut {
    public static func triangulate(_ coords: [Double], holeIndices: [Int] = [], dimensions: Int = 2) -> [UInt32] {
        let n = (holeIndices.first ?? coords.count / dimensions)
        guard n >= 3 else { return [] }
        var out: [UInt32] = []
        for i in 1..<(n - 1) { out += [0, UInt32(i), UInt32(i + 1)] }
        return out
    }
}
