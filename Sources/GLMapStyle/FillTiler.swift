import Foundation
import GLMapCore

/// One tile's share of a fill feature, as MapLibre's GeoJSON source hands it to that tile.
public struct FillTile: Sendable {
    /// Tile column and row at the tiler's zoom (a column outside 0 ..< 2^zoom is a tile of a
    /// neighbouring world copy, which draws the same).
    public var x: Int, y: Int
    /// The tile zoom.
    public var zoom: Int
    /// The piece draws only inside its tile's square (MapLibre's per-tile stencil clip). False
    /// when the whole feature lies inside this one tile (nothing to cut) or spans more than
    /// `TileLineClipper.maxTiles` tiles (drawn whole, uncut).
    public var clipped: Bool
    /// The polygons of this tile, unit-world coordinates snapped to the tile grid (8192 units a
    /// tile side), each polygon's first ring outer.
    public var polygons: [ProjectedPolygon]
}

/// Cuts fill geometry into MapLibre's tiles (a data rule: both renderers draw what it returns).
///
/// MapLibre does not fill a feature as one shape: geojson-vt hands each tile of the grid at the
/// tile zoom (floor(zoom), at most the source's maxzoom) the feature clipped to the tile's square
/// widened by the source buffer (128 of 512 px), with every coordinate rounded to the tile's
/// 8192-unit grid; the fill bucket then triangulates each tile's rings with earcut and the tile
/// draws only inside its own square. For a valid polygon the union is the polygon (up to the
/// rounding); where earcut's result depends on its input — self-intersecting rings, and above
/// all the rings a fill layer makes of LineStrings, whose clipped pieces are closed by a chord
/// inside each tile — the union differs, and this reproduces it.
///
/// Polygon rings are clipped as closed rings (one ring per tile, cut edges along the buffered
/// border); lines are clipped as open lines (a new piece each time the line leaves the buffered
/// square) and each tile's pieces are then grouped into polygons by winding
/// (`RingClassification`). A feature inside one tile is not cut (`clipped` false), only snapped.
public struct FillTiler: Sendable {
    /// Zoom of the tile grid.
    public let zoom: Int
    /// Buffer around each tile as a fraction of its side.
    public let buffer: Double
    /// Tile units per tile side (MapLibre's EXTENT).
    public static let extent = 8192.0

    /// Creates a tiler for the grid at `zoom`, with `buffer` a fraction of a tile's side.
    public init(zoom: Int, buffer: Double) {
        self.zoom = max(0, min(zoom, 30))
        self.buffer = max(0, buffer)
    }

    /// The tiler MapLibre's GeoJSON source uses for a frame at `zoom`: tile zoom floor(zoom)
    /// capped at the source's maxzoom, buffer in 512-px tile pixels.
    public init(frameZoom: Double, sourceMaxzoom: Double, sourceBuffer: Double) {
        let z = min(max(0, frameZoom.rounded(.down)), max(0, sourceMaxzoom.rounded(.down)))
        self.init(zoom: Int(min(z, 30)), buffer: sourceBuffer / 512)
    }

    /// Tiles per unit-world length.
    public var scale: Double { Double(1 << zoom) }

    /// Rounds unit-world coordinates (flat x, y) to the tile grid, as geojson-vt's transform does.
    public func snap(_ coords: [Double]) -> [Double] {
        let k = scale * Self.extent
        return coords.map { ($0 * k + 0.5).rounded(.down) / k }
    }

    /// The tiles of a polygon feature.
    public func tiles(polygons: [ProjectedPolygon]) -> [FillTile] {
        guard let single = singleTile(polygons.lazy.map(\.coords)) else {
            return cut(polygons)
        }
        return [FillTile(x: single.x, y: single.y, zoom: zoom, clipped: false, polygons: polygons.map(snapped))]
    }

    /// The tiles of a line feature under a fill layer (each tile's pieces classified into polygons).
    public func tiles(lines: [[Double]]) -> [FillTile] {
        if let single = singleTile(lines.lazy) {
            let polys = RingClassification.polygons(fromLines: lines.map(snap))
            return polys.isEmpty ? [] : [FillTile(x: single.x, y: single.y, zoom: zoom, clipped: false, polygons: polys)]
        }
        let clipper = TileLineClipper(zoom: zoom, buffer: buffer)
        var order: [TileKey] = []
        var pieces: [TileKey: [[Double]]] = [:]
        for part in lines {
            let ok = clipper.clip(part, closed: false) { p in
                let key = TileKey(x: p.x, y: p.y)
                if pieces[key] == nil { order.append(key) }
                pieces[key, default: []].append(snap(p.coords))
            }
            if !ok {   // too many tiles: the whole feature, uncut
                let polys = RingClassification.polygons(fromLines: lines.map(snap))
                let t = tileOf(lines.lazy)
                return polys.isEmpty ? [] : [FillTile(x: t.x, y: t.y, zoom: zoom, clipped: false, polygons: polys)]
            }
        }
        return order.compactMap { key in
            let polys = RingClassification.polygons(fromLines: pieces[key]!)
            return polys.isEmpty ? nil : FillTile(x: key.x, y: key.y, zoom: zoom, clipped: true, polygons: polys)
        }
    }

    struct TileKey: Hashable { var x: Int, y: Int }

    private func snapped(_ p: ProjectedPolygon) -> ProjectedPolygon {
        var q = p
        var coords = p.coords
        for (k, r) in p.ringRanges.enumerated() { Self.rewind(&coords, r, outer: k == 0) }
        q.coords = snap(coords)
        return q
    }

    /// Orients a polygon ring as geojson-vt does for every tile (outer rings one way, holes the
    /// other) by reversing its points in place. Earcut's output does not depend on the winding of
    /// a valid polygon, but for a self-intersecting ring it depends on the order it walks.
    static func rewind(_ c: inout [Double], _ r: Range<Int>, outer: Bool) {
        let n = r.count
        guard n >= 2 else { return }
        var area = 0.0
        var j = r.upperBound - 1
        for i in r {
            area += (c[2 * i] - c[2 * j]) * (c[2 * i + 1] + c[2 * j + 1])
            j = i
        }
        guard (area > 0) == outer else { return }
        var lo = r.lowerBound, hi = r.upperBound - 1
        while lo < hi {
            c.swapAt(2 * lo, 2 * hi); c.swapAt(2 * lo + 1, 2 * hi + 1)
            lo += 1; hi -= 1
        }
    }

    /// The tile holding every coordinate (strictly inside its square), or nil.
    private func singleTile<S: Sequence>(_ parts: S) -> (x: Int, y: Int)? where S.Element == [Double] {
        let s = scale
        var tx: Double? = nil, ty: Double? = nil
        for c in parts {
            var i = 0
            while i + 1 < c.count {
                let x = (c[i] * s).rounded(.down), y = (c[i + 1] * s).rounded(.down)
                if tx == nil { tx = x; ty = y } else if x != tx || y != ty { return nil }
                guard x.isFinite, y.isFinite, abs(x) < 1e9, abs(y) < 1e9 else { return nil }
                i += 2
            }
        }
        guard let tx, let ty else { return (0, 0) }
        return (Int(tx), Int(ty))
    }

    /// The tile of the first coordinate (for features drawn whole).
    private func tileOf<S: Sequence>(_ parts: S) -> (x: Int, y: Int) where S.Element == [Double] {
        for c in parts where c.count >= 2 {
            let x = (c[0] * scale).rounded(.down), y = (c[1] * scale).rounded(.down)
            if x.isFinite, y.isFinite, abs(x) < 1e9, abs(y) < 1e9 { return (Int(x), Int(y)) }
        }
        return (0, 0)
    }

    /// Cuts polygons ring by ring; a tile keeps a polygon when its outer ring reaches the tile.
    private func cut(_ polygons: [ProjectedPolygon]) -> [FillTile] {
        let clipper = TileLineClipper(zoom: zoom, buffer: buffer)
        var order: [TileKey] = []
        var out: [TileKey: [ProjectedPolygon]] = [:]
        for poly in polygons {
            // rings of this polygon per tile, outer first
            var rings: [TileKey: [[Double]]] = [:]
            var ringOrder: [TileKey] = []
            for (k, r) in poly.ringRanges.enumerated() {
                let ring = Array(poly.coords[(r.lowerBound * 2)..<(r.upperBound * 2)])
                func oriented(_ c: [Double]) -> [Double] {
                    var c = c
                    Self.rewind(&c, 0..<(c.count / 2), outer: k == 0)
                    return snap(c)
                }
                let ok = clipper.clip(ring, closed: true) { p in
                    let key = TileKey(x: p.x, y: p.y)
                    if k == 0 {
                        if rings[key] == nil { ringOrder.append(key) }
                        rings[key, default: []].append(oriented(p.coords))
                    } else if rings[key] != nil {
                        rings[key]!.append(oriented(p.coords))
                    }
                }
                if !ok {   // too many tiles: every polygon of the feature whole, uncut
                    let t = tileOf(polygons.lazy.map(\.coords))
                    return [FillTile(x: t.x, y: t.y, zoom: zoom, clipped: false, polygons: polygons.map(snapped))]
                }
            }
            for key in ringOrder {
                let rs = rings[key]!
                var coords: [Double] = []
                var holes: [Int] = []
                for (i, r) in rs.enumerated() {
                    if i > 0 { holes.append(coords.count / 2) }
                    coords.append(contentsOf: r)
                }
                if out[key] == nil { order.append(key) }
                out[key, default: []].append(ProjectedPolygon(coords: coords, holeIndices: holes))
            }
        }
        return order.map { FillTile(x: $0.x, y: $0.y, zoom: zoom, clipped: true, polygons: out[$0]!) }
    }
}
