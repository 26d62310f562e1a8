/// `*-overlap` (and `*-allow-overlap` as `always`/`never`).
public enum OverlapMode: String, Sendable {
    /// Never overlaps anything.
    case never
    /// Overlaps anything.
    case always
    /// Overlaps symbols that allow overlap.
    case cooperative

    /// GL JS's `overlapAllowed(a, b)`: whether a symbol with mode `self` may overlap one with `other`.
    public func allowsOverlap(with other: OverlapMode) -> Bool {
        if self == .always { return true }
        return !(self == .never || other == .never)
    }
}

/// GL JS's `GridIndex`: boxes and circles in a plane split into square cells, for fast collision
/// queries (the placement's collision grid). Keys carry their overlap mode.
public struct GridIndex<Key: Sendable>: Sendable {
    /// One query result: the key and its box (a circle reports its bounding square).
    public struct Hit: Sendable {
        /// The key inserted with the box or circle (nil for a hit test covering the whole grid).
        public var key: Key?
        /// Left.
        public var x1: Double
        /// Top.
        public var y1: Double
        /// Right.
        public var x2: Double
        /// Bottom.
        public var y2: Double
    }

    private var boxCells: [[Int]]
    private var circleCells: [[Int]]
    private var boxKeys: [(key: Key, overlap: OverlapMode)] = []
    private var circleKeys: [(key: Key, overlap: OverlapMode)] = []
    private var bboxes: [Double] = []
    private var circles: [Double] = []
    /// Cells across.
    public let xCellCount: Int
    /// Cells down.
    public let yCellCount: Int
    /// Grid width.
    public let width: Double
    /// Grid height.
    public let height: Double
    private let xScale: Double, yScale: Double

    /// A grid of `width` × `height` with cells of `cellSize`.
    public init(width: Double, height: Double, cellSize: Double) {
        func count(_ extent: Double) -> Int {
            let n = (extent / cellSize).rounded(.up)
            return n.isFinite && n >= 1 ? Int(min(n, 1_048_576)) : 1
        }
        xCellCount = count(width)
        yCellCount = count(height)
        boxCells = Array(repeating: [], count: xCellCount * yCellCount)
        circleCells = Array(repeating: [], count: xCellCount * yCellCount)
        self.width = width
        self.height = height
        xScale = Double(xCellCount) / width
        yScale = Double(yCellCount) / height
    }

    /// The number of boxes and circles inserted.
    public var keysLength: Int { boxKeys.count + circleKeys.count }

    /// Inserts a box.
    public mutating func insert(_ key: Key, overlap: OverlapMode = .never, x1: Double, y1: Double, x2: Double, y2: Double) {
        let uid = boxKeys.count
        if let r = cellRange(x1, y1, x2, y2) {
            for x in r.x { for y in r.y { boxCells[xCellCount * y + x].append(uid) } }
        }
        boxKeys.append((key, overlap))
        bboxes += [x1, y1, x2, y2]
    }

    /// Inserts a circle (registered in the cells of its bounding square).
    public mutating func insertCircle(_ key: Key, overlap: OverlapMode = .never, x: Double, y: Double, radius: Double) {
        let uid = circleKeys.count
        if let r = cellRange(x - radius, y - radius, x + radius, y + radius) {
            for cx in r.x { for cy in r.y { circleCells[xCellCount * cy + cx].append(uid) } }
        }
        circleKeys.append((key, overlap))
        circles += [x, y, radius]
    }

    /// Every box and circle intersecting the box x1…x2 × y1…y2.
    public func query(x1: Double, y1: Double, x2: Double, y2: Double) -> [Hit] {
        query(x1, y1, x2, y2, hitTest: false, overlap: .never, predicate: nil)
    }

    /// Whether something that `overlap` may not overlap intersects the box.
    public func hitTest(x1: Double, y1: Double, x2: Double, y2: Double, overlap: OverlapMode, predicate: ((Key) -> Bool)? = nil) -> Bool {
        !query(x1, y1, x2, y2, hitTest: true, overlap: overlap, predicate: predicate).isEmpty
    }

    /// Whether something that `overlap` may not overlap intersects the circle.
    public func hitTestCircle(x: Double, y: Double, radius: Double, overlap: OverlapMode, predicate: ((Key) -> Bool)? = nil) -> Bool {
        let x1 = x - radius, x2 = x + radius, y1 = y - radius, y2 = y + radius
        if x2 < 0 || x1 > width || y2 < 0 || y1 > height { return false }
        var seenBoxes = Set<Int>(), seenCircles = Set<Int>()
        var found = false
        forEachCell(x1, y1, x2, y2) { cell in
            for uid in boxCells[cell] where seenBoxes.insert(uid).inserted {
                let o = uid * 4
                let k = boxKeys[uid]
                if Self.circleAndRectCollide(x, y, radius, bboxes[o], bboxes[o + 1], bboxes[o + 2], bboxes[o + 3])
                    && (predicate?(k.key) ?? true) && !overlap.allowsOverlap(with: k.overlap) {
                    found = true
                    return true
                }
            }
            for uid in circleCells[cell] where seenCircles.insert(uid).inserted {
                let o = uid * 3
                let k = circleKeys[uid]
                if Self.circlesCollide(circles[o], circles[o + 1], circles[o + 2], x, y, radius)
                    && (predicate?(k.key) ?? true) && !overlap.allowsOverlap(with: k.overlap) {
                    found = true
                    return true
                }
            }
            return false
        }
        return found
    }

    private func query(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, hitTest: Bool, overlap: OverlapMode,
                       predicate: ((Key) -> Bool)?) -> [Hit] {
        if x2 < 0 || x1 > width || y2 < 0 || y1 > height { return [] }
        var result: [Hit] = []
        if x1 <= 0 && y1 <= 0 && width <= x2 && height <= y2 {
            if hitTest { return [Hit(key: nil, x1: x1, y1: y1, x2: x2, y2: y2)] }
            for uid in boxKeys.indices {
                result.append(Hit(key: boxKeys[uid].key, x1: bboxes[uid * 4], y1: bboxes[uid * 4 + 1], x2: bboxes[uid * 4 + 2], y2: bboxes[uid * 4 + 3]))
            }
            for uid in circleKeys.indices {
                let x = circles[uid * 3], y = circles[uid * 3 + 1], r = circles[uid * 3 + 2]
                result.append(Hit(key: circleKeys[uid].key, x1: x - r, y1: y - r, x2: x + r, y2: y + r))
            }
            return result
        }
        var seenBoxes = Set<Int>(), seenCircles = Set<Int>()
        forEachCell(x1, y1, x2, y2) { cell in
            for uid in boxCells[cell] where seenBoxes.insert(uid).inserted {
                let o = uid * 4
                let k = boxKeys[uid]
                if x1 <= bboxes[o + 2] && y1 <= bboxes[o + 3] && x2 >= bboxes[o] && y2 >= bboxes[o + 1] && (predicate?(k.key) ?? true) {
                    if !hitTest || !overlap.allowsOverlap(with: k.overlap) {
                        result.append(Hit(key: k.key, x1: bboxes[o], y1: bboxes[o + 1], x2: bboxes[o + 2], y2: bboxes[o + 3]))
                        if hitTest { return true }
                    }
                }
            }
            for uid in circleCells[cell] where seenCircles.insert(uid).inserted {
                let o = uid * 3
                let k = circleKeys[uid]
                if Self.circleAndRectCollide(circles[o], circles[o + 1], circles[o + 2], x1, y1, x2, y2) && (predicate?(k.key) ?? true) {
                    if !hitTest || !overlap.allowsOverlap(with: k.overlap) {
                        let x = circles[o], y = circles[o + 1], r = circles[o + 2]
                        result.append(Hit(key: k.key, x1: x - r, y1: y - r, x2: x + r, y2: y + r))
                        if hitTest { return true }
                    }
                }
            }
            return false
        }
        return result
    }

    /// Calls `body` with each cell index the box touches, stopping when it returns true.
    private func forEachCell(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ body: (Int) -> Bool) {
        guard let r = cellRange(x1, y1, x2, y2) else { return }
        for x in r.x {
            for y in r.y where body(xCellCount * y + x) { return }
        }
    }

    /// The columns and rows of the cells the box touches (nil when none). The inserts loop over
    /// them in place: a mutating closure passed to `forEachCell` made Swift copy the grid, and
    /// then the whole cell array, on every insert.
    private func cellRange(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
        let cx1 = xCell(x1), cy1 = yCell(y1), cx2 = xCell(x2), cy2 = yCell(y2)
        guard cx1 <= cx2, cy1 <= cy2 else { return nil }
        return (cx1...cx2, cy1...cy2)
    }

    private func xCell(_ x: Double) -> Int { cell(x * xScale, count: xCellCount) }
    private func yCell(_ y: Double) -> Int { cell(y * yScale, count: yCellCount) }
    private func cell(_ v: Double, count: Int) -> Int {
        guard v.isFinite else { return v > 0 ? count - 1 : 0 }
        return max(0, min(count - 1, Int(max(-1, min(Double(count), v.rounded(.down))))))
    }

    static func circlesCollide(_ x1: Double, _ y1: Double, _ r1: Double, _ x2: Double, _ y2: Double, _ r2: Double) -> Bool {
        let dx = x2 - x1, dy = y2 - y1, both = r1 + r2
        return both * both > dx * dx + dy * dy
    }

    static func circleAndRectCollide(_ cx: Double, _ cy: Double, _ r: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Bool {
        let halfW = (x2 - x1) / 2
        let distX = abs(cx - (x1 + halfW))
        if distX > halfW + r { return false }
        let halfH = (y2 - y1) / 2
        let distY = abs(cy - (y1 + halfH))
        if distY > halfH + r { return false }
        if distX <= halfW || distY <= halfH { return true }
        let dx = distX - halfW, dy = distY - halfH
        return dx * dx + dy * dy <= r * r
    }
}
