import GLMapCore
@testable import GLMapStyle
import GLMapTessellation
import GLMapTiles

/// A frame plan that draws one layer written in unit-world coordinates: the layer on tile 0/0/0
/// (the whole world, in tile units) laid out at `zoom`, clipped to it like any fill or line tile.
func singleTilePlan(_ layer: EvaluatedLayer, zoom: Int = 0) -> FramePlan {
    let tile = OverscaledTileID(overscaledZ: zoom, wrap: 0, canonical: CanonicalTileID(0, 0, 0))
    func units(_ c: [Double]) -> [Double] { c.map { $0 * 8192 } }
    let bucket: Bucket
    var clipped = true
    switch layer {
    case .background(let b):
        return FramePlan(layers: [.background(b)])
    case .fill(var f):
        f.tile = tile
        f.features = f.features.map { var x = $0; x.polygons = x.polygons.map { FlatPolygon(coords: units($0.coords), holeIndices: $0.holeIndices) }; return x }
        bucket = Bucket.make(.fill(f))
    case .line(var l):
        l.tile = tile
        l.features = l.features.map { var x = $0; x.parts = x.parts.map { (units($0.coords), $0.closed) }; return x }
        bucket = Bucket.make(.line(l))
    case .circle(var c):
        c.tile = tile
        c.features = c.features.map { var x = $0; x.centers = units(x.centers); return x }
        bucket = Bucket.make(.circle(c))
        clipped = false
    case .fillExtrusion(var x):
        x.tile = tile
        x.features = x.features.map { var f = $0; f.polygons = f.polygons.map { FlatPolygon(coords: units($0.coords), holeIndices: $0.holeIndices) }; return f }
        bucket = Bucket.make(.fillExtrusion(x))
        clipped = false
    case .heatmap(var h):
        h.tile = tile
        h.features = h.features.map { var f = $0; f.centers = units(f.centers); return f }
        bucket = Bucket.make(.heatmap(h))
        clipped = false
    }
    nextTestKey += 1
    return FramePlan(layers: [.tiled(source: "s", clipped: clipped, buckets: [TileBucket(tile: tile, bucket: bucket, key: UInt64.max - nextTestKey)])],
                     sourceTiles: ["s": [tile]])
}

nonisolated(unsafe) private var nextTestKey: UInt64 = 0
