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
/// Near the antimeridian the tiles take what geojson-vt's `wrap` gives them: a feature with a part
/// the projection moved by whole worlds is cut where its GeoJSON puts it, plus one-world copies
/// (see `worldCopies`), so parts on both sides of lon 180 share that tile's rings as in MapLibre.
public struct FillTiler: Sendable {
    /// Zoom of the tile grid.
    public let zoom: Int
    /// Buffer around each tile as a fraction of its side.
    public let buffer: Double
    /// Tile units per tile side (MapLibre's EXTENT).
    public static let extent = 8192.0
    /// Each line, and each piece the tile cut makes of it, is a feature of its own (the source's
    /// `lineMetrics`): geojson-vt then makes one feature per line of a MultiLineString
    /// (convert.js) and one per clipped piece of a LineString (clip.js), so the fill bucket
    /// classifies every piece's ring on its own — no piece becomes a hole of another, and a lone
    /// two-point piece keeps its outline.
    public var separateLines = false

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

    /// The tiles of a polygon feature; `shifts`: the worlds each polygon was moved by when
    /// projected (`ProjectedFeature.polygonShifts`, empty when none moved).
    public func tiles(polygons: [ProjectedPolygon], shifts: [Double] = []) -> [FillTile] {
        let original = Self.unshifted(polygons, shifts) { p, d in
            var q = p
            for i in stride(from: 0, to: q.coords.count, by: 2) { q.coords[i] += d }
            return q
        }
        if let copies = worldCopies(moved: shifts.contains { $0 != 0 }, cut: { (world: TileLineClipper) -> [[ProjectedPolygon]]? in
            var out: [[ProjectedPolygon]] = [[], [], []]
            for poly in original {
                var parts: [[[Double]]] = [[], [], []]
                for (k, r) in poly.ringRanges.enumerated() {
                    let ring = Array(poly.coords[(r.lowerBound * 2)..<(r.upperBound * 2)])
                    guard world.clip(ring, closed: true, { p in
                        // geojson-vt's clip keeps a polygon in a copy from its outer ring on
                        if p.y == 0, (-1...1).contains(p.x), k == 0 || !parts[p.x + 1].isEmpty { parts[p.x + 1].append(Self.moved(p.coords, by: -Double(p.x))) }
                    }) else { return nil }
                }
                for c in 0..<3 where !parts[c].isEmpty {
                    var coords: [Double] = [], holes: [Int] = []
                    for (i, r) in parts[c].enumerated() {
                        if i > 0 { holes.append(coords.count / 2) }
                        coords.append(contentsOf: r)
                    }
                    out[c].append(ProjectedPolygon(coords: coords, holeIndices: holes))
                }
            }
            return out
        }) {
            return Self.tiles(ofCopies: copies, tile: { tilesInGrid(polygons: $0, gridOnly: true) },
                              whole: { tilesInGrid(polygons: polygons) ?? [] })
        }
        return tilesInGrid(polygons: polygons) ?? []
    }

    /// The tiles of a line feature under a fill layer (each tile's pieces classified into
    /// polygons, each piece alone with `separateLines`); `shifts` as for polygons
    /// (`ProjectedFeature.lineShifts`).
    public func tiles(lines: [[Double]], shifts: [Double] = []) -> [FillTile] {
        let original = Self.unshifted(lines, shifts) { Self.moved($0, by: $1) }
        if let copies = worldCopies(moved: shifts.contains { $0 != 0 }, cut: { (world: TileLineClipper) -> [[[Double]]]? in
            var out: [[[Double]]] = [[], [], []]
            for part in original {
                guard world.clip(part, closed: false, { p in
                    if p.y == 0, (-1...1).contains(p.x) { out[p.x + 1].append(Self.moved(p.coords, by: -Double(p.x))) }
                }) else { return nil }
            }
            return out
        }) {
            return Self.tiles(ofCopies: copies, tile: { tilesInGrid(lines: $0, gridOnly: true) },
                              whole: { tilesInGrid(lines: lines) ?? [] })
        }
        return tilesInGrid(lines: lines) ?? []
    }

    /// geojson-vt's `wrap` (the zoom-0 tile row 0 of a clipper with its 0.25 buffer: column 0 is
    /// the centre, −1 and 1 the copies): a feature within a tile buffer of the antimeridian (or moved across
    /// it by the projection) is cut into the copy where its GeoJSON puts it (x within
    /// −0.25 … 1.25 of the world) and, as separate features, the parts within 0.25 world past
    /// either side moved by one world (left copy, centre, right copy, in geojson-vt's order); each
    /// tile of the grid (columns 0 ..< 2^zoom only) then takes its pieces from every copy. Nil
    /// when no part was moved by the projection: then every tile draws what it would draw from
    /// the copies (a copy's pieces land in other tiles' buffers, outside their squares, as
    /// separate features), and the feature is cut as it is, which costs less.
    private func worldCopies<T>(moved: Bool, cut: (TileLineClipper) -> [[T]]?) -> [[T]]? {
        guard moved else { return nil }
        return cut(TileLineClipper(zoom: 0, buffer: 0.25))
    }

    /// The tiles of every non-empty world copy, each cut to the grid by `tile`; the whole
    /// feature's tiles (`whole`) when a copy spans too many tiles.
    private static func tiles<Piece>(ofCopies copies: [[Piece]], tile: ([Piece]) -> [FillTile]?,
                                     whole: () -> [FillTile]) -> [FillTile] {
        var result: [FillTile] = []
        for pieces in copies where !pieces.isEmpty {
            guard let t = tile(pieces) else { return whole() }
            result += t
        }
        return result
    }

    /// Parts moved back to where the GeoJSON puts them.
    private static func unshifted<T>(_ parts: [T], _ shifts: [Double], _ move: (T, Double) -> T) -> [T] {
        guard shifts.count == parts.count else { return parts }
        return zip(parts, shifts).map { $1 == 0 ? $0 : move($0, $1) }
    }

    /// Flat x,y coordinates moved by `d` worlds along x.
    private static func moved(_ c: [Double], by d: Double) -> [Double] {
        guard d != 0 else { return c }
        var c = c
        for i in stride(from: 0, to: c.count, by: 2) { c[i] += d }
        return c
    }

    /// The columns of this grid (0 ..< 2^zoom); a piece in another column lies in a tile
    /// geojson-vt does not make (its copy in the other world is the one drawn).
    private func inGrid(_ x: Int) -> Bool { x >= 0 && x < (1 << zoom) }

    /// A feature's polygon tiles. `gridOnly` (a world copy): only columns 0 ..< 2^zoom, and nil
    /// when it spans too many tiles; otherwise every column its parts reach (a column past the
    /// grid is drawn by the neighbouring world copy) and a too-large feature whole.
    private func tilesInGrid(polygons: [ProjectedPolygon], gridOnly: Bool = false) -> [FillTile]? {
        guard let single = singleTile(polygons.lazy.map(\.coords)) else {
            return cut(polygons, gridOnly: gridOnly)
        }
        if gridOnly && !inGrid(single.x) { return [] }
        return [FillTile(x: single.x, y: single.y, zoom: zoom, clipped: false, polygons: polygons.map(snapped))]
    }

    /// A feature's line tiles, `gridOnly` as for polygons.
    private func tilesInGrid(lines: [[Double]], gridOnly: Bool = false) -> [FillTile]? {
        if let single = singleTile(lines.lazy) {
            if gridOnly && !inGrid(single.x) { return [] }
            let polys = classify(lines.map(snap))
            return polys.isEmpty ? [] : [FillTile(x: single.x, y: single.y, zoom: zoom, clipped: false, polygons: polys)]
        }
        let clipper = TileLineClipper(zoom: zoom, buffer: buffer)
        var order: [TileKey] = []
        var pieces: [TileKey: [[Double]]] = [:]
        for part in lines {
            let ok = clipper.clip(part, closed: false) { p in
                guard !gridOnly || inGrid(p.x) else { return }
                let key = TileKey(x: p.x, y: p.y)
                if pieces[key] == nil { order.append(key) }
                pieces[key, default: []].append(snap(p.coords))
            }
            if !ok {   // too many tiles: the whole feature, uncut
                if gridOnly { return nil }
                let polys = classify(lines.map(snap))
                let t = tileOf(lines.lazy)
                return polys.isEmpty ? [] : [FillTile(x: t.x, y: t.y, zoom: zoom, clipped: false, polygons: polys)]
            }
        }
        return order.compactMap { key in
            let polys = classify(pieces[key]!)
            return polys.isEmpty ? nil : FillTile(x: key.x, y: key.y, zoom: zoom, clipped: true, polygons: polys)
        }
    }

    struct TileKey: Hashable { var x: Int, y: Int }

    /// One tile's line pieces as the fill bucket's polygons: classified together (one feature)
    /// or, with `separateLines`, each piece as a feature of its own.
    public func classify(_ pieces: [[Double]]) -> [ProjectedPolygon] {
        guard separateLines else { return RingClassification.polygons(fromLines: pieces) }
        return pieces.flatMap { RingClassification.polygons(fromLines: [$0]) }
    }

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

    /// Cuts polygons ring by ring; a tile keeps a polygon when its outer ring reaches the tile
    /// (`gridOnly` as for `tilesInGrid`).
    private func cut(_ polygons: [ProjectedPolygon], gridOnly: Bool) -> [FillTile]? {
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
                    guard !gridOnly || inGrid(p.x) else { return }
                    let key = TileKey(x: p.x, y: p.y)
                    if k == 0 {
                        if rings[key] == nil { ringOrder.append(key) }
                        rings[key, default: []].append(oriented(p.coords))
                    } else if rings[key] != nil {
                        rings[key]!.append(oriented(p.coords))
                    }
                }
                if !ok {   // too many tiles: every polygon of the feature whole, uncut
                    if gridOnly { return nil }
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
