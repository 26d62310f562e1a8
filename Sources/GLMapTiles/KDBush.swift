import Foundation

/// kdbush 4's static KD-tree of points in float32, as supercluster builds one per zoom.
///
/// The tree order comes from the same in-place Floyd–Rivest selection, and `range`/`within` walk
/// it with the same stack, so results come back in kdbush's order (supercluster's clusters depend
/// on it). Comparisons behave as JavaScript's with NaN coordinates (all false).
struct KDBush: Sendable {
    let nodeSize: Int
    private(set) var ids: [Int32]
    private(set) var coords: [Float]

    /// A tree of `count` points, `point(i)` the i-th (stored as float32), sorted at once.
    init(count: Int, nodeSize: Int = 64, point: (Int) -> (Double, Double)) {
        self.nodeSize = min(max(nodeSize, 2), 65535)
        ids = (0..<Int32(count)).map { $0 }
        coords = []
        coords.reserveCapacity(count * 2)
        for i in 0..<count {
            let (x, y) = point(i)
            coords.append(Float(x))
            coords.append(Float(y))
        }
        sort(0, count - 1, 0)
    }

    /// Indices of the points with minX ≤ x ≤ maxX and minY ≤ y ≤ maxY, in kdbush's order.
    func range(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> [Int] {
        var stack: [Int] = [0, ids.count - 1, 0]
        var result: [Int] = []
        while !stack.isEmpty {
            let axis = stack.removeLast(), right = stack.removeLast(), left = stack.removeLast()
            if right - left <= nodeSize {
                if left <= right {
                    for i in left...right {
                        let x = Double(coords[2 * i]), y = Double(coords[2 * i + 1])
                        if x >= minX && x <= maxX && y >= minY && y <= maxY { result.append(Int(ids[i])) }
                    }
                }
                continue
            }
            let m = (left + right) >> 1
            let x = Double(coords[2 * m]), y = Double(coords[2 * m + 1])
            if x >= minX && x <= maxX && y >= minY && y <= maxY { result.append(Int(ids[m])) }
            if axis == 0 ? minX <= x : minY <= y {
                stack.append(left); stack.append(m - 1); stack.append(1 - axis)
            }
            if axis == 0 ? maxX >= x : maxY >= y {
                stack.append(m + 1); stack.append(right); stack.append(1 - axis)
            }
        }
        return result
    }

    /// Indices of the points within `r` of (qx, qy), in kdbush's order.
    func within(_ qx: Double, _ qy: Double, _ r: Double) -> [Int] {
        var stack: [Int] = [0, ids.count - 1, 0]
        var result: [Int] = []
        let r2 = r * r
        @inline(__always) func sqDist(_ ax: Double, _ ay: Double) -> Double {
            let dx = ax - qx, dy = ay - qy
            return dx * dx + dy * dy
        }
        while !stack.isEmpty {
            let axis = stack.removeLast(), right = stack.removeLast(), left = stack.removeLast()
            if right - left <= nodeSize {
                if left <= right {
                    for i in left...right where sqDist(Double(coords[2 * i]), Double(coords[2 * i + 1])) <= r2 {
                        result.append(Int(ids[i]))
                    }
                }
                continue
            }
            let m = (left + right) >> 1
            let x = Double(coords[2 * m]), y = Double(coords[2 * m + 1])
            if sqDist(x, y) <= r2 { result.append(Int(ids[m])) }
            if axis == 0 ? qx - r <= x : qy - r <= y {
                stack.append(left); stack.append(m - 1); stack.append(1 - axis)
            }
            if axis == 0 ? qx + r >= x : qy + r >= y {
                stack.append(m + 1); stack.append(right); stack.append(1 - axis)
            }
        }
        return result
    }

    /// Sorts [left, right] so each node's middle splits its halves on alternating axes.
    private mutating func sort(_ left: Int, _ right: Int, _ axis: Int) {
        if right - left <= nodeSize { return }
        let m = (left + right) >> 1
        select(m, left, right, axis)
        sort(left, m - 1, 1 - axis)
        sort(m + 1, right, 1 - axis)
    }

    /// Floyd–Rivest selection: the k-th smallest on `axis` at k, smaller ones before it.
    private mutating func select(_ k: Int, _ left0: Int, _ right0: Int, _ axis: Int) {
        var left = left0, right = right0
        let count = ids.count
        while right > left {
            if right - left > 600 {
                let n = Double(right - left + 1)
                let m = Double(k - left + 1)
                let z = JavaScriptMath.log(n)
                let s = 0.5 * JavaScriptMath.exp(2 * z / 3)
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                let newLeft = max(left, Int((Double(k) - m * s / n + sd).rounded(.down)))
                let newRight = min(right, Int((Double(k) + (n - m) * s / n + sd).rounded(.down)))
                select(k, newLeft, newRight, axis)
            }
            let t = coords[2 * k + axis]
            var i = left, j = right
            swapItem(left, k)
            if coords[2 * right + axis] > t { swapItem(left, right) }
            while i < j {
                swapItem(i, j)
                i += 1
                j -= 1
                // (Bounds as JavaScript reads them: past the array a read is undefined, which compares false.)
                while i < count && coords[2 * i + axis] < t { i += 1 }
                while j >= 0 && coords[2 * j + axis] > t { j -= 1 }
            }
            if coords[2 * left + axis] == t {
                swapItem(left, j)
            } else {
                j += 1
                swapItem(j, right)
            }
            if j <= k { left = j + 1 }
            if k <= j { right = j - 1 }
        }
    }

    @inline(__always)
    private mutating func swapItem(_ i: Int, _ j: Int) {
        ids.swapAt(i, j)
        coords.swapAt(2 * i, 2 * j)
        coords.swapAt(2 * i + 1, 2 * j + 1)
    }
}
