/// A reusable earcut triangulator that keeps its node and index buffers between calls.
///
/// Same results as `Earcut.triangulate`; use one instance per thread when triangulating many
/// polygons (e.g. building a fill bucket) to avoid reallocating per polygon.
public final class EarcutTriangulator {
    var state = Earcut.State()

    /// Which earcut's ear order the triangulator follows.
    public let flavor: Earcut.Flavor

    /// Creates a triangulator with empty buffers (they grow on first use).
    public init(flavor: Earcut.Flavor = .current) {
        self.flavor = flavor
        state.mapLibre = flavor == .mapLibre
    }

    deinit { state.deallocate() }

    /// Triangulates flat coordinates with hole start indices (in vertices); returns vertex indices.
    public func triangulate(_ coords: UnsafeBufferPointer<Double>, holeIndices: [Int], dimensions: Int = 2) -> [UInt32] {
        var result: [UInt32] = []
        triangulate(coords, holeIndices: holeIndices, dimensions: dimensions, appendingTo: &result)
        return result
    }

    /// Triangulates a flat coordinate array (see the buffer variant).
    public func triangulate(_ coords: [Double], holeIndices: [Int] = [], dimensions: Int = 2) -> [UInt32] {
        coords.withUnsafeBufferPointer { triangulate($0, holeIndices: holeIndices, dimensions: dimensions) }
    }

    /// Triangulates and appends the indices, each plus `indexOffset`, to `output`; returns the
    /// number of triangles appended.
    @discardableResult
    public func triangulate(_ coords: UnsafeBufferPointer<Double>, holeIndices: [Int], dimensions: Int,
                            appendingTo output: inout [UInt32], indexOffset: UInt32 = 0) -> Int {
        holeIndices.withUnsafeBufferPointer { holes in
            state.run(coords, holes: holes, dim: dimensions)
        }
        let count = state.outCount
        if count == 0 { return 0 }
        let src = state.out
        if indexOffset == 0 {
            output.append(contentsOf: UnsafeBufferPointer(start: src, count: count))
        } else {
            for k in 0..<count { output.append(src[k] &+ indexOffset) }
        }
        return count / 3
    }
}

extension Earcut.State {
    /// Largest accepted vertex count (node ids and output indices must fit their 32-bit fields).
    static let maxVertices = 1 << 30

    /// Triangulates into `out[0..<outCount]`; leaves it empty for invalid or degenerate input.
    mutating func run(_ data: UnsafeBufferPointer<Double>, holes: UnsafeBufferPointer<Int>, dim: Int) {
        outCount = 0
        nodeCount = 0
        numBlocks = 0
        invSize = 0
        indexActive = false
        steiners.removeAll(keepingCapacity: true)

        guard dim >= 2, let base = data.baseAddress else { return }
        let vertexCount = data.count / dim
        guard vertexCount >= 3, vertexCount < Self.maxVertices, holes.count < Self.maxVertices else { return }

        // hole indices: non-decreasing and within the vertex range
        var previous = 0
        for h in holes {
            if h < previous || h > vertexCount { return }
            previous = h
        }

        // non-finite coordinates give no triangles (x * 0 is NaN exactly for NaN and ±Infinity)
        var probe = 0.0
        var k = 0
        for _ in 0..<vertexCount {
            probe += base[k] * 0 + base[k &+ 1] * 0
            k &+= dim
        }
        guard probe == 0 else { return }

        reserveNodes(vertexCount + 2 * holes.count + 16)
        reserveOutput(3 * (vertexCount + 2 * holes.count))

        let outerEnd = holes.isEmpty ? vertexCount : holes[0]
        var outer = linkedList(base, dim: dim, start: 0, end: outerEnd, clockwise: true)
        if outer < 0 || next(outer) == prev(outer) { return }

        if !holes.isEmpty {
            outer = eliminateHoles(base, dim: dim, vertexCount: vertexCount, holes: holes, outer: outer)
        }

        // above 80 vertices, hash nodes on a z-order curve over the merged ring's bounding box
        if vertexCount > hashingThreshold {
            var minX = n[outer].x, minY = n[outer].y
            var maxX = minX, maxY = minY
            var p = next(outer)
            while p != outer {
                let x = n[p].x, y = n[p].y
                if x < minX { minX = x }
                if y < minY { minY = y }
                if x > maxX { maxX = x }
                if y > maxY { maxY = y }
                p = next(p)
            }
            let size = Swift.max(maxX - minX, maxY - minY)
            if size > 0 && size.isFinite {
                let inv = 32767 / size
                if inv.isFinite {
                    self.minX = minX
                    self.minY = minY
                    invSize = inv
                }
            }
        }

        if mapLibre { clipAllMapLibre(outer) } else { clipAll(outer) }
    }
}
