/// A polygon as flat coordinates: rings flattened (x0, y0, x1, y1, …), the first ring outer, with
/// the vertex index where each hole starts (earcut's input). Tile units in evaluated tile layers.
public struct FlatPolygon: Sendable, Equatable {
    /// Every ring's vertices flattened (x0, y0, x1, y1, …), outer ring first.
    public var coords: [Double]
    /// Vertex index where each hole starts (earcut's `holeIndices`).
    public var holeIndices: [Int]

    /// Creates a polygon from flat coordinates and the vertex index where each hole starts.
    public init(coords: [Double], holeIndices: [Int]) {
        self.coords = coords
        self.holeIndices = holeIndices
    }

    /// The rings as slices of `coords` (vertex ranges).
    public var ringRanges: [Range<Int>] {
        var starts = [0] + holeIndices
        starts.append(coords.count / 2)
        return (0..<(starts.count - 1)).map { starts[$0]..<starts[$0 + 1] }
    }
}
