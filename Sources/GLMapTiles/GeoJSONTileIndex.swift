// GeoJSON tiler — contract
// What MapLibre GL JS's worker does with a GeoJSON source that is not clustered, ported from
// geojson-vt 4.0.2 (the version GL JS 5 depends on) behaviour for behaviour, in its order:
// - input: a decoded `FeatureCollection`, `GeoJSONTileOptions` (GL JS's values: extent 8192,
//   buffer 2048, tolerance 6, maxZoom = source maxzoom, indexMaxZoom 5, indexMaxPoints 100000)
//   and the source's `filter` as a closure (GLMapTiles does not evaluate style expressions);
// - polygon rings rewound as GL JS's `@mapbox/geojson-rewind` call does (outer clockwise; read
//   backwards by convert rather than copied), then the filter (a feature kept when it returns
//   true), then geojson-vt: convert (Web Mercator in 0…1, latitudes clamped to the world
//   square, Douglas–Peucker importance per position at maxZoom's tolerance, each line's length /
//   ring's area as `size`, start/end for line metrics; ids from the feature, `promoteId` or
//   `generateId`; GeometryCollections become one feature per member; MultiLineStrings one
//   feature per line with `lineMetrics`), wrap (the parts within the buffer
//   of ±180° copied one world over), the index down to `indexMaxZoom` while a tile holds more than
//   `indexMaxPoints` points, and `tile(_:)`'s drill-down from the nearest cut ancestor, each tile
//   cut from its parent's features with the buffered square (k1 = ½·buffer/extent) and cached —
//   only the tiles on the drill-down's path, where geojson-vt cuts all four children of each: a
//   sibling is cut later from the same features (and the same x-half), so it is the same tile.
// - output: `GeoJSONTile` (geojson-vt's tile: integer tile units rounded as `Math.round` rounds,
//   rings rewound per tile, simplified below maxZoom; `mapbox_clip_start`/`mapbox_clip_end` on
//   line pieces with lineMetrics), and `vectorTile(_:)`: the same as `VectorTileData` shaped as
//   GL JS's GeoJSON wrapper hands it to buckets (see `GeoJSONTile.vectorTileData`).
// Invariants: every coordinate of a tile lies within its square widened by the buffer (clipping
// is exact in doubles; rounding moves a point by at most ½ unit); polygon rings that were closed
// stay closed; no tile deeper than `maxZoom` is built or returned (nil: GL JS over-scales the
// maxZoom tile); the same input gives the same tiles whatever order tiles are asked in.
// Departures, all for input GL JS turns into NaN coordinates: empty lines and rings (`[]` inside a
// MultiLineString, Polygon or MultiPolygon) are dropped. A MultiPolygon member with no rings throws
// `GeoJSONTilingError`, as geojson-vt throws on it (GL JS then fails the source).
// Limits: the whole collection is held projected (3 doubles a position) plus the tiles asked for.
// Threads: `tile(_:)` and `vectorTile(_:)` may be called from any thread (one lock around the
// cache and drill-down); building converts large collections on all cores.
import Foundation
import GLMapCore
import GLMapGeoJSON

/// A GeoJSON source cut into tiles as MapLibre GL JS cuts it (a geojson-vt port).
///
/// ```swift
/// let index = try GeoJSONTileIndex(collection, options: .mapLibre(maxzoom: 14, buffer: 64))
/// if let data = index.vectorTile(CanonicalTileID(3, 4, 2)) { … data.layer(nil)?.features … }
/// ```
public final class GeoJSONTileIndex: @unchecked Sendable {
    /// The options the index was built with.
    public let options: GeoJSONTileOptions
    private let lock = NSLock()
    /// Tiles built so far by their `tileKey` (geojson-vt's `tiles`), under `lock`.
    private var tiles: [Int: VTTile] = [:]
    /// The tiles built so far in build order (geojson-vt's `tileCoords`), under `lock`.
    private var built: [CanonicalTileID] = []

    /// Tiles `collection` with `options`; `filter` (the source's `filter`, evaluated at zoom 0)
    /// keeps the features it returns true for. Throws `GeoJSONTilingError` for options geojson-vt
    /// rejects (maxZoom outside 0…24, both promoteId and generateId) and for a MultiPolygon member
    /// without rings.
    public init(_ collection: FeatureCollection, options: GeoJSONTileOptions = GeoJSONTileOptions(),
                filter: (@Sendable (Feature) -> Bool)? = nil) throws {
        guard (0...24).contains(options.maxZoom) else {
            throw GeoJSONTilingError("maxZoom \(options.maxZoom) is outside 0…24 (geojson-vt's range; a GeoJSON source's maxzoom must be 0…24)")
        }
        if options.promoteId != nil && options.generateId {
            throw GeoJSONTilingError("promoteId and generateId cannot be used together")
        }
        self.options = options
        // GL JS's worker rewinds polygon rings, then filters: `convert` reads rings in the rewound order.
        let features = filter.map { collection.features.filter($0) } ?? collection.features
        var projected = try GeoJSONTileIndex.convert(features, options: options)
        projected = GeoJSONTileIndex.wrap(projected, options: options)
        if !projected.isEmpty { splitTile(projected, 0, 0, 0, target: nil) }
    }

    /// geojson-vt's `getTile`: the tile's features, or nil where geojson-vt returns null (no
    /// feature reaches the tile, or the tile is deeper than `maxZoom`).
    public func tile(_ id: CanonicalTileID) -> GeoJSONTile? {
        lock.lock()
        let tile = getTile(id)
        lock.unlock()
        return tile?.transformed(options: options)   // outside the index's lock: tiles transform in parallel
    }

    /// The tile as GL JS's GeoJSON worker hands it to buckets (nil where it hands none): the same
    /// as `tile(id)?.vectorTileData()`, made straight from the tile's features.
    public func vectorTile(_ id: CanonicalTileID) -> VectorTileData? {
        lock.lock()
        let tile = getTile(id)
        lock.unlock()
        return tile?.vectorTileData(options: options)
    }

    /// The tiles built so far (up front and by drill-downs), in build order.
    public var builtTiles: [CanonicalTileID] {
        lock.lock()
        defer { lock.unlock() }
        return built
    }

    /// geojson-vt's tile id: unique per z/x/y for z ≤ 24.
    static func tileKey(_ z: Int, _ x: Int, _ y: Int) -> Int { (((1 << z) * y + x) * 32) + z }

    /// The cached tile, or a drill-down from the nearest ancestor that kept its features. Called
    /// under `lock`.
    private func getTile(_ id: CanonicalTileID) -> VTTile? {
        let (z, x, y) = (id.z, id.x, id.y)
        // geojson-vt answers up to z24; past maxZoom its drill-down stops at maxZoom and finds nothing.
        guard z <= 24, z <= options.maxZoom else { return nil }
        if let tile = tiles[GeoJSONTileIndex.tileKey(z, x, y)] { return tile }
        var (z0, x0, y0) = (z, x, y)
        var parent: VTTile?
        while parent == nil && z0 > 0 {
            z0 -= 1
            x0 >>= 1
            y0 >>= 1
            parent = tiles[GeoJSONTileIndex.tileKey(z0, x0, y0)]
        }
        guard let parent, let source = parent.source else { return nil }
        splitTile(source, z0, x0, y0, target: (z, x, y))
        return tiles[GeoJSONTileIndex.tileKey(z, x, y)]
    }

    /// geojson-vt's `splitTile`: builds the tile z/x/y from `features` and cuts it into its four
    /// children, depth first — up front (no target) until `indexMaxZoom` (and never past
    /// `maxZoom`) or a tile of at most `indexMaxPoints` points; towards `target` only along its
    /// ancestors, stopping at it or at `maxZoom`, each cutting only its child on the path. A tile
    /// that stops, or was cut towards a target, keeps its features (`source`) for later
    /// drill-downs. Called under `lock` (or from init).
    private func splitTile(_ features: [VTFeature], _ z: Int, _ x: Int, _ y: Int, target: (z: Int, x: Int, y: Int)?) {
        var stack: [([VTFeature], Int, Int, Int)] = [(features, z, x, y)]
        while let (features, z, x, y) = stack.popLast() {
            let key = GeoJSONTileIndex.tileKey(z, x, y)
            let tile: VTTile
            if let existing = tiles[key] {
                tile = existing
            } else {
                tile = VTTile(features, z: z, x: x, y: y)
                tiles[key] = tile
                built.append(CanonicalTileID(z, x, y))
            }
            tile.source = features
            if let target {
                if z == options.maxZoom || z == target.z { continue }
                let steps = target.z - z
                if x != target.x >> steps || y != target.y >> steps { continue }
                // Towards a target only the child on its path is cut; the tile keeps its features
                // for the other three (geojson-vt cuts all four here and keeps theirs: the same
                // cuts of the same features, made when asked for), and the half on x it cut for
                // the child's sibling below or above.
                if features.isEmpty { continue }
                let cx = target.x >> (steps - 1), cy = target.y >> (steps - 1)
                let side: [VTFeature]?
                if let kept = tile.halves[cx & 1] {
                    side = kept
                } else {
                    side = cut(features, of: tile, axis: 0, half: cx & 1)
                    tile.halves[cx & 1] = .some(side)
                }
                stack.append(((side.flatMap { cut($0, of: tile, axis: 1, half: cy & 1) }) ?? [], z + 1, cx, cy))
                continue
            } else if z == options.indexMaxZoom || z >= options.maxZoom || tile.numPoints <= options.indexMaxPoints {
                continue
            }
            tile.source = nil
            if features.isEmpty { continue }

            let left = cut(features, of: tile, axis: 0, half: 0), right = cut(features, of: tile, axis: 0, half: 1)
            stack.append(((left.flatMap { cut($0, of: tile, axis: 1, half: 0) }) ?? [], z + 1, x * 2, y * 2))
            stack.append(((left.flatMap { cut($0, of: tile, axis: 1, half: 1) }) ?? [], z + 1, x * 2, y * 2 + 1))
            stack.append(((right.flatMap { cut($0, of: tile, axis: 1, half: 0) }) ?? [], z + 1, x * 2 + 1, y * 2))
            stack.append(((right.flatMap { cut($0, of: tile, axis: 1, half: 1) }) ?? [], z + 1, x * 2 + 1, y * 2 + 1))
        }
    }

    /// geojson-vt's cut of `features` (of `tile`) to the buffered half of the tile on `axis` (0: x,
    /// 1: y) that holds its children `half` (0: west or north, 1: east or south); nil when none.
    private func cut(_ features: [VTFeature], of tile: VTTile, axis: Int, half: Int) -> [VTFeature]? {
        let k1 = 0.5 * options.buffer / Double(options.extent)
        let k2 = 0.5 - k1, k3 = 0.5 + k1, k4 = 1 + k1
        let f = Double(axis == 0 ? tile.x : tile.y)
        let (lo, hi) = half == 0 ? (f - k1, f + k3) : (f + k2, f + k4)
        return GeoJSONTileIndex.clip(features, scale: Double(1 << tile.z), lo, hi, axis: axis,
                                     minAll: axis == 0 ? tile.minX : tile.minY, maxAll: axis == 0 ? tile.maxX : tile.maxY,
                                     lineMetrics: options.lineMetrics)
    }
}
