import GLMapCore
import GLMapStyle
import GLMapTiles

/// Tile geometry moved into the unit world (world copy included), and a tile's square as the
/// pixels MapLibre's stencil mask covers.
enum TileSquare {
    /// Tile units → unit-world x, y for `tile` (its world copy added to x).
    @inline(__always)
    static func world(_ tile: OverscaledTileID, _ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let scale = 1 / (Double(TileExtent.extent) * Double(tile.canonical.tilesPerSide))
        return ((Double(tile.unwrappedX) * Double(TileExtent.extent) + x) * scale, (Double(tile.canonical.y) * Double(TileExtent.extent) + y) * scale)
    }

    /// Flat tile coordinates in unit-world coordinates.
    static func world(_ tile: OverscaledTileID, flat coords: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: coords.count)
        var i = 0
        while i + 1 < coords.count {
            let p = world(tile, coords[i], coords[i + 1])
            out[i] = p.x; out[i + 1] = p.y
            i += 2
        }
        return out
    }

    /// The device pixels whose centres lie in `tile`'s square seen through the camera (the part
    /// in front of the camera), as the GPU's stencil mask covers them.
    static func clip(_ tile: OverscaledTileID, view: ViewTransform, ratio: Double) -> ConvexClip? {
        let b = tile.unitBounds
        let ws = view.worldSize
        let corners = [(b.x, b.y), (b.x + b.side, b.y), (b.x + b.side, b.y + b.side), (b.x, b.y + b.side)]
        var clipped: [(x: Double, y: Double, w: Double)] = corners.map {
            let p = view.projectionMatrix.transform($0.0 * ws, $0.1 * ws, 0)
            return (p.x, p.y, p.w)
        }
        // Cut at the near side of the camera (w > ε) before dividing.
        let epsilon = 1e-9
        var out: [(x: Double, y: Double, w: Double)] = []
        for i in clipped.indices {
            let p = clipped[i], q = clipped[(i + 1) % clipped.count]
            if p.w > epsilon { out.append(p) }
            if (p.w > epsilon) != (q.w > epsilon) {
                let t = (epsilon - p.w) / (q.w - p.w)
                out.append((p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t, epsilon))
            }
        }
        clipped = out
        let wd = view.width * ratio, hd = view.height * ratio
        return ConvexClip(clipped.map { ((($0.x / $0.w) + 1) / 2 * wd, (1 - $0.y / $0.w) / 2 * hd) })
    }
}

extension EvaluatedFillLayer {
    /// The layer with its polygons in unit-world coordinates.
    func inWorld(_ tile: OverscaledTileID) -> EvaluatedFillLayer {
        var l = self
        l.features = features.map { f in
            var f = f
            f.polygons = f.polygons.map { FlatPolygon(coords: TileSquare.world(tile, flat: $0.coords), holeIndices: $0.holeIndices) }
            return f
        }
        return l
    }
}

extension EvaluatedLineLayer {
    /// The layer with its lines in unit-world coordinates.
    func inWorld(_ tile: OverscaledTileID) -> EvaluatedLineLayer {
        var l = self
        l.features = features.map { f in
            var f = f
            f.parts = f.parts.map { (TileSquare.world(tile, flat: $0.coords), $0.closed) }
            return f
        }
        return l
    }
}

extension EvaluatedCircleLayer {
    /// The layer with its centres in unit-world coordinates.
    func inWorld(_ tile: OverscaledTileID) -> EvaluatedCircleLayer {
        var l = self
        l.features = features.map { f in
            var f = f
            f.centers = TileSquare.world(tile, flat: f.centers)
            return f
        }
        return l
    }
}
