/// GL JS's `findPoleOfInaccessibility` (mapbox/polylabel over tile points): the point inside a
/// polygon (outer ring, then holes) farthest from its outline, found to within `precision` by
/// refining square cells from a priority queue (tinyqueue's heap order, so ties resolve as in
/// GL JS); the centroid cell is the first guess. A ring with zero width or height gives its
/// bounding box's corner.
public enum PoleOfInaccessibility {
    struct Cell {
        var x: Double, y: Double, h: Double, d: Double, max: Double
        init(_ x: Double, _ y: Double, _ h: Double, _ polygon: [[TileVector]]) {
            self.x = x
            self.y = y
            self.h = h
            d = PoleOfInaccessibility.signedDistance(TileVector(x, y), polygon)
            max = d + h * 2.0.squareRoot()
        }
    }

    /// The pole of `polygon` (tile units) to within `precision` (GL JS uses 16: 2 pixels).
    public static func find(_ polygon: [[TileVector]], precision: Double = 1) -> TileVector {
        guard let outer = polygon.first, !outer.isEmpty else { return TileVector(0, 0) }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (i, p) in outer.enumerated() {
            if i == 0 || p.x < minX { minX = p.x }
            if i == 0 || p.y < minY { minY = p.y }
            if i == 0 || p.x > maxX { maxX = p.x }
            if i == 0 || p.y > maxY { maxY = p.y }
        }
        let cellSize = min(maxX - minX, maxY - minY)
        var h = cellSize / 2
        if cellSize == 0 { return TileVector(minX, minY) }
        var queue = TinyQueue()
        var x = minX
        while x < maxX {
            var y = minY
            while y < maxY {
                queue.push(Cell(x + h, y + h, h, polygon))
                y += cellSize
            }
            x += cellSize
        }
        var best = centroidCell(polygon)
        while let cell = queue.pop() {
            if cell.d > best.d || best.d == 0 || best.d.isNaN { best = cell }
            if cell.max - best.d <= precision { continue }
            h = cell.h / 2
            queue.push(Cell(cell.x - h, cell.y - h, h, polygon))
            queue.push(Cell(cell.x + h, cell.y - h, h, polygon))
            queue.push(Cell(cell.x - h, cell.y + h, h, polygon))
            queue.push(Cell(cell.x + h, cell.y + h, h, polygon))
        }
        return TileVector(best.x, best.y)
    }

    static func signedDistance(_ p: TileVector, _ polygon: [[TileVector]]) -> Double {
        var inside = false
        var minDistSq = Double.infinity
        for ring in polygon {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let a = ring[i], b = ring[j]
                if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                minDistSq = min(minDistSq, distToSegmentSquared(p, a, b))
                j = i
            }
        }
        return (inside ? 1 : -1) * minDistSq.squareRoot()
    }

    static func distToSegmentSquared(_ p: TileVector, _ v: TileVector, _ w: TileVector) -> Double {
        let l2 = v.distSqr(w)
        if l2 == 0 { return p.distSqr(v) }
        let t = ((p.x - v.x) * (w.x - v.x) + (p.y - v.y) * (w.y - v.y)) / l2
        if t < 0 { return p.distSqr(v) }
        if t > 1 { return p.distSqr(w) }
        return p.distSqr(TileVector((w.x - v.x) * t + v.x, (w.y - v.y) * t + v.y))
    }

    static func centroidCell(_ polygon: [[TileVector]]) -> Cell {
        var area = 0.0, x = 0.0, y = 0.0
        let points = polygon[0]
        var j = points.count - 1
        for i in 0..<points.count {
            let a = points[i], b = points[j]
            let f = a.x * b.y - b.x * a.y
            x += (a.x + b.x) * f
            y += (a.y + b.y) * f
            area += f * 3
            j = i
        }
        return Cell(x / area, y / area, 0, polygon)
    }

    /// tinyqueue: a binary heap, largest `max` first.
    struct TinyQueue {
        var data: [Cell] = []
        static func compare(_ a: Cell, _ b: Cell) -> Double { b.max - a.max }

        mutating func push(_ item: Cell) {
            data.append(item)
            var pos = data.count - 1
            while pos > 0 {
                let parent = (pos - 1) >> 1
                let current = data[parent]
                if Self.compare(item, current) >= 0 { break }
                data[pos] = current
                pos = parent
            }
            data[pos] = item
        }

        mutating func pop() -> Cell? {
            guard !data.isEmpty else { return nil }
            let top = data[0]
            let bottom = data.removeLast()
            if !data.isEmpty {
                data[0] = bottom
                var pos = 0
                let half = data.count >> 1
                let item = data[0]
                while pos < half {
                    var left = (pos << 1) + 1
                    var best = data[left]
                    let right = left + 1
                    if right < data.count && Self.compare(data[right], best) < 0 {
                        left = right
                        best = data[right]
                    }
                    if Self.compare(best, item) >= 0 { break }
                    data[pos] = best
                    pos = left
                }
                data[pos] = item
            }
            return top
        }
    }
}
