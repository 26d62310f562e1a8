/// One vertex of an extruded line (32 bytes, tightly packed, Float32).
///
/// The drawn position is `(x, y) + (ex, ey) * outset`, where `outset` is the half width in the
/// same units as the shader works in (see `LineTessellator` for the full vertex-shader recipe,
/// including `line-gap-width` and `line-offset`).
public struct LineVertex: Equatable, Sendable {
    /// Point on the centre line, in input units relative to the tessellator's origin.
    public var x: Float
    /// Point on the centre line, in input units relative to the tessellator's origin (y down).
    public var y: Float
    /// Extrusion in the map plane (same axes as x, y): |e| = 1 on straight parts, 1/cos(θ/2) at miters.
    public var ex: Float
    /// Extrusion in the map plane (same axes as x, y).
    public var ey: Float
    /// Normal space, along the line: ±1 at the far end of round caps (−1 behind a start, +1 past an end), else 0.
    public var nx: Float
    /// Normal space, across the line: +1 on the left edge, −1 on the right edge (screen, y down).
    public var ny: Float
    /// Distance along the line from its first point, in input units.
    public var distance: Float
    /// MapLibre's `a_direction` (−1, 0 or 1): rotates the extrusion for `line-offset` at caps and joins.
    public var direction: Float

    /// Creates a vertex from its eight components.
    @inline(__always)
    public init(x: Float, y: Float, ex: Float, ey: Float, nx: Float, ny: Float,
                distance: Float, direction: Float) {
        (self.x, self.y, self.ex, self.ey, self.nx, self.ny, self.distance) = (x, y, ex, ey, nx, ny, distance)
        self.direction = direction
    }
}

/// Vertex and index buffers of extruded lines; indices are triangles into `vertices`.
public struct LineGeometry: Sendable {
    /// Vertices, 32 bytes each.
    public var vertices: [LineVertex]
    /// Triangle list (three indices per triangle) into `vertices`. Winding is not consistent.
    public var indices: [UInt32]

    /// Creates empty buffers.
    public init() {
        vertices = []
        indices = []
    }

    /// Creates empty buffers with room for the given numbers of vertices and indices.
    public init(reservingVertices vertexCount: Int, indices indexCount: Int) {
        vertices = []
        indices = []
        vertices.reserveCapacity(vertexCount)
        indices.reserveCapacity(indexCount)
    }

    /// Number of triangles (`indices.count / 3`).
    public var triangleCount: Int { indices.count / 3 }

    /// Empties both buffers, keeping their storage by default.
    public mutating func removeAll(keepingCapacity: Bool = true) {
        vertices.removeAll(keepingCapacity: keepingCapacity)
        indices.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Makes room for `vertexCount` more vertices and `indexCount` more indices, growing
    /// geometrically so that many small appends stay amortised O(1).
    public mutating func reserveAdditional(vertices vertexCount: Int, indices indexCount: Int) {
        let needV = vertices.count + vertexCount
        if needV > vertices.capacity { vertices.reserveCapacity(Swift.max(needV, vertices.capacity * 2)) }
        let needI = indices.count + indexCount
        if needI > indices.capacity { indices.reserveCapacity(Swift.max(needI, indices.capacity * 2)) }
    }
}
