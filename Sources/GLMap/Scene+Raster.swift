// Raster sources in the scene — contract
// Input: the style's `raster`, `raster-dem` and `image` sources (opened once by `Scene.init`:
// TileJSON fetched or archive opened), a view, the frame's drawn layers and an evaluator at the
// frame zoom. Output: per `raster` / `hillshade` / `color-relief` layer a `RasterLayerDraw`:
// its paint and the pictures or elevations of the tiles GL JS's still render shows, in its
// drawing order. Loading happens here, before drawing (a still frame never loads lazily):
// - tile cover as GL JS's `coveringTiles` for raster sources: rounded covering zoom, the source's
//   tile size, min/maxzoom (deeper views magnify the maxzoom tiles, never re-request them),
//   `bounds` (tiles outside are never requested);
// - a tile that is missing (404, absent from its archive) or fails (corrupt, truncated, a DEM
//   that is not square, …) is replaced by its nearest loaded ancestor down to the covering zoom
//   minus 10 (GL JS's `_updateRetainedTiles` ascent; failures also become tile warnings);
//   a tile answered with 204 (or an empty file) draws nothing and is not replaced;
// - every DEM tile's border is backfilled from the frame's loaded neighbours at its zoom (GL JS's
//   `_backfillDEM`: left/right across the antimeridian through the wrap), per frame, so the same
//   view gives the same bytes whatever was drawn before;
// - an image source's picture is loaded once; it is drawn in its centre tile (GL JS's
//   `getCoordinatesCenterTileID`) with its corners rounded to tile units, in every world copy
//   that may be visible.
// Caching: decoded tiles and backfilled DEMs are kept while frames use them (the last two plans),
// images for the scene's life; each picture has a process-unique key (GPU uploads cache by it).
// Threads: every cache access holds the lock; loading runs outside it.
import Foundation
import GLMapCore
import GLMapStyle
import GLMapTiles

/// The scene's raster, raster-dem and image sources and what frames loaded from them.
final class SceneRasterSources: Sendable {
    /// `raster` sources by id.
    let raster: [String: RasterTileSource]
    /// `raster-dem` sources by id.
    let dem: [String: RasterDEMTileSource]
    /// `image` sources by id.
    let images: [String: GLMapTiles.ImageSource]
    /// Loaded tiles, backfilled DEMs and images.
    let cache = Locked(RasterTileCache())

    init(raster: [String: RasterTileSource] = [:], dem: [String: RasterDEMTileSource] = [:], images: [String: GLMapTiles.ImageSource] = [:]) {
        self.raster = raster
        self.dem = dem
        self.images = images
    }

    /// Whether any source is here.
    var isEmpty: Bool { raster.isEmpty && dem.isEmpty && images.isEmpty }
}

/// What frames loaded from raster-like sources, kept while frames use it.
struct RasterTileCache {
    /// A source's tile.
    struct Key: Hashable {
        var source: String
        var tile: CanonicalTileID
    }

    /// One loaded tile.
    enum Entry {
        case image(RasterTexture)
        case dem(DEMTexture)
        /// 204 or an empty file: nothing is drawn, no ancestor stands in.
        case empty
        /// 404 / absent, or failed: an ancestor may stand in.
        case missing
    }

    /// A DEM tile with its borders filled from the given neighbours (dx, dy → their key).
    struct BackfillKey: Hashable {
        var source: String
        var tile: CanonicalTileID
        var neighbours: [Int: UInt64]
    }

    var tiles: [Key: (entry: Entry, used: Int)] = [:]
    var backfilled: [BackfillKey: (dem: DEMTexture, used: Int)] = [:]
    /// Image sources' pictures (nil: could not be loaded) by source id, kept for the scene's life.
    var images: [String: RasterTexture?] = [:]
    var generation = 0
}

extension Scene {
    /// Whether a layer type draws pictures or elevations of raster-like sources.
    static func isRasterType(_ type: LayerType) -> Bool {
        switch type {
        case .raster, .hillshade, .colorRelief: return true
        case .background, .fill, .line, .circle, .symbol, .heatmap, .fillExtrusion: return false
        }
    }

    /// Loads what the frame's raster-like layers need and returns each one's draw by its index in
    /// the style (see the contract above).
    func rasterLayerDraws(view: ViewTransform, layers: [(index: Int, layer: GLMapStyle.Layer)],
                          evaluator: StyleEvaluator) -> [Int: RasterLayerDraw] {
        let wanted = layers.filter { Scene.isRasterType($0.layer.type) && $0.layer.source != nil }
        guard !wanted.isEmpty else { return [:] }
        let cache = rasters.cache
        let generation = cache.withLock { c -> Int in c.generation += 1; return c.generation }
        var bySource: [String: [RasterTileDraw]] = [:]
        var warnings: [String] = []
        let cover = TileCover(view: view)
        for id in Set(wanted.compactMap(\.layer.source)).sorted() {
            if let s = rasters.raster[id] {
                bySource[id] = rasterTiles(id: id, source: s.source, cover: cover, generation: generation, warnings: &warnings) { tiles in
                    s.load(tiles: tiles).mapValues { r in r.map { RasterTileCache.Entry.image(RasterTexture(key: TileBucketCache.uniqueKey(), image: $0.image)) } }
                }
            } else if let s = rasters.dem[id] {
                let shown = rasterTiles(id: id, source: s.source, cover: cover, generation: generation, warnings: &warnings) { tiles in
                    s.load(tiles: tiles).mapValues { r in r.map { RasterTileCache.Entry.dem(DEMTexture(key: TileBucketCache.uniqueKey(), dem: $0)) } }
                }
                bySource[id] = backfill(id: id, shown, generation: generation)
            } else if let s = rasters.images[id] {
                bySource[id] = imageTiles(id: id, source: s, view: view, warnings: &warnings)
            }
        }
        noteTileWarnings(warnings)
        cache.withLock { c in
            let keep = c.generation - 1
            c.tiles = c.tiles.filter { $0.value.used >= keep }
            c.backfilled = c.backfilled.filter { $0.value.used >= keep }
        }
        var out: [Int: RasterLayerDraw] = [:]
        for (index, layer) in wanted {
            let source = layer.source!
            let tiles = bySource[source] ?? []
            let paint: RasterLayerDraw.Paint
            switch layer.type {
            case .hillshade: paint = .hillshade(evaluator.evaluateHillshade(layer))
            case .colorRelief: paint = .colorRelief(evaluator.evaluateColorRelief(layer))
            default: paint = .raster(evaluator.evaluateRaster(layer))
            }
            // A raster layer needs pictures, the DEM layers elevations (a layer on a source of
            // the other kind draws nothing, as GL JS finds no texture or DEM on the tile).
            let usable = tiles.filter { layer.type == .raster ? $0.texture != nil : $0.dem != nil }
            out[index] = RasterLayerDraw(id: layer.id, paint: paint, tiles: RasterLayerDraw.drawOrder(usable),
                                         stencilOverlap: rasters.images[source] == nil)
        }
        return out
    }

    /// The tiles of a raster or raster-dem source the frame shows, loaded, with ancestors standing
    /// in for missing ones; in MapLibre's drawing order (the reverse of its tile order).
    private func rasterTiles(id: String, source: TileSource, cover: TileCover, generation: Int, warnings: inout [String],
                             load: ([CanonicalTileID]) -> [CanonicalTileID: TileLoadResult<RasterTileCache.Entry>]) -> [RasterTileDraw] {
        let minzoom = Int(source.minzoom.rounded(.down)), maxzoom = Int(source.maxzoom.rounded(.down))
        let ideal = cover.tiles(tileSize: Double(source.tileSize), round: true, minzoom: minzoom, maxzoom: maxzoom,
                                reparseOverscaled: false).filter { source.bounds?.contains($0.canonical) ?? true }
        let coveringZoom = cover.coveringZoom(tileSize: Double(source.tileSize), round: true)
        let minCoveringZoom = max(coveringZoom - 10, minzoom)

        /// The entries of `tiles`, loading those not cached (all at once).
        func entries(_ tiles: [CanonicalTileID]) -> [CanonicalTileID: RasterTileCache.Entry] {
            var out: [CanonicalTileID: RasterTileCache.Entry] = [:]
            let missing: [CanonicalTileID] = rasters.cache.withLock { c in
                var need: [CanonicalTileID] = []
                for t in Set(tiles) {
                    let key = RasterTileCache.Key(source: id, tile: t)
                    if let e = c.tiles[key] {
                        c.tiles[key] = (e.entry, generation)
                        out[t] = e.entry
                    } else {
                        need.append(t)
                    }
                }
                return need.sorted()
            }
            guard !missing.isEmpty else { return out }
            let loaded = load(missing)
            rasters.cache.withLock { c in
                for t in missing {
                    let entry: RasterTileCache.Entry
                    switch loaded[t] {
                    case .loaded(let e)?: entry = e
                    case .empty?: entry = .empty
                    case .failed(let message)?:
                        warnings.append(message)
                        entry = .missing
                    case .missing?, nil: entry = .missing
                    }
                    c.tiles[RasterTileCache.Key(source: id, tile: t)] = (entry, generation)
                    out[t] = entry
                }
            }
            return out
        }

        let idealEntries = entries(ideal.map(\.canonical))
        var shown: [OverscaledTileID: RasterTileCache.Entry] = [:]
        // Chains of missing tiles ascending towards the root, one zoom per round.
        var chains: [OverscaledTileID] = []
        for t in ideal {
            guard let e = idealEntries[t.canonical] else { continue }
            if case .missing = e { chains.append(t) } else { shown[t] = e }
        }
        var checked = Set<OverscaledTileID>()
        while !chains.isEmpty {
            var parents: [OverscaledTileID] = []
            for t in chains {
                let z = t.canonical.z - 1
                guard z >= minCoveringZoom, z >= 0 else { continue }
                let p = OverscaledTileID(overscaledZ: z, wrap: t.wrap, canonical: t.canonical.ancestor(atZoom: z))
                // Another missing tile already climbs through this parent.
                guard checked.insert(p).inserted else { continue }
                parents.append(p)
            }
            guard !parents.isEmpty else { break }
            let got = entries(parents.map(\.canonical))
            chains = []
            for p in parents {
                switch got[p.canonical] {
                case .missing?, nil: chains.append(p)
                case .some(let e): shown[p] = e
                }
            }
        }
        return shown.keys.sorted().reversed().compactMap { t -> RasterTileDraw? in
            switch shown[t]! {
            case .image(let texture): return RasterTileDraw(tile: t, texture: texture)
            case .dem(let dem): return RasterTileDraw(tile: t, dem: dem)
            case .empty, .missing: return nil
            }
        }
    }

    /// The DEM tiles with their borders filled from the neighbours among them (GL JS's
    /// `_backfillDEM`: tiles at the same zoom one column or row apart, across the antimeridian
    /// through the world copy), cached by the neighbours used.
    private func backfill(id: String, _ tiles: [RasterTileDraw], generation: Int) -> [RasterTileDraw] {
        var byID: [OverscaledTileID: DEMTexture] = [:]
        for t in tiles { if let d = t.dem { byID[t.tile] = d } }
        return tiles.map { t in
            guard let own = t.dem else { return t }
            let c = t.tile.canonical, n = c.tilesPerSide
            var neighbours: [Int: DEMTexture] = [:]
            for dy in -1...1 {
                for dx in -1...1 where dx != 0 || dy != 0 {
                    let y = c.y + dy
                    guard y >= 0, y < n else { continue }
                    var x = c.x + dx, wrap = t.tile.wrap
                    if x < 0 { x += n; wrap -= 1 } else if x >= n { x -= n; wrap += 1 }
                    let id = OverscaledTileID(overscaledZ: t.tile.overscaledZ, wrap: wrap, canonical: CanonicalTileID(c.z, x, y))
                    if id == t.tile { continue }
                    if let d = byID[id] { neighbours[(dy + 1) * 3 + dx + 1] = d }
                }
            }
            guard !neighbours.isEmpty else { return t }
            let key = RasterTileCache.BackfillKey(source: id, tile: c, neighbours: neighbours.mapValues(\.key).merging([4: own.key]) { a, _ in a })
            let hit: DEMTexture? = rasters.cache.withLock { cache in
                guard let e = cache.backfilled[key] else { return nil }
                cache.backfilled[key] = (e.dem, generation)
                return e.dem
            }
            var out = t
            if let hit {
                out.dem = hit
                return out
            }
            var dem = own.dem
            for (slot, d) in neighbours { dem.backfillBorder(from: d.dem, dx: slot % 3 - 1, dy: slot / 3 - 1) }
            let filled = DEMTexture(key: TileBucketCache.uniqueKey(), dem: dem)
            rasters.cache.withLock { $0.backfilled[key] = (filled, generation) }
            out.dem = filled
            return out
        }
    }

    /// An image source's picture in its centre tile, in every world copy that may be visible;
    /// loaded on first use (a picture that cannot be loaded is a warning, once).
    private func imageTiles(id: String, source: GLMapTiles.ImageSource, view: ViewTransform, warnings: inout [String]) -> [RasterTileDraw] {
        let cached: RasterTexture?? = rasters.cache.withLock { $0.images[id] }
        let texture: RasterTexture?
        if let cached {
            texture = cached
        } else {
            switch source.load() {
            case .loaded(let d): texture = RasterTexture(key: TileBucketCache.uniqueKey(), image: d.image)
            case .failed(let message): texture = nil; warnings.append(message)
            case .missing: texture = nil; warnings.append("source \"\(id)\": the image \(source.description.url ?? "") was not found")
            case .empty: texture = nil; warnings.append("source \"\(id)\": the image \(source.description.url ?? "") is empty")
            }
            rasters.cache.withLock { $0.images[id] = .some(texture) }
        }
        guard let texture, let placement = Scene.imagePlacement(source.coordinates) else { return [] }
        let copies = WorldCopies.offsets(view, bounds: placement.bounds, marginPixels: 0)
        return copies.map { w in
            RasterTileDraw(tile: OverscaledTileID(placement.tile, wrap: w), texture: texture, corners: placement.corners)
        }
    }

    /// Where GL JS draws an image of four [lon, lat] corners: the tile whose size fits the corners'
    /// box and that holds its centre (`getCoordinatesCenterTileID`), the corners in that tile's
    /// units rounded to integers, and the corners' unit-world box. Nil for unusable corners.
    static func imagePlacement(_ coordinates: [[Double]]) -> (tile: CanonicalTileID, corners: [(x: Double, y: Double)], bounds: WorldBounds)? {
        guard coordinates.count == 4, coordinates.allSatisfy({ $0.count >= 2 && $0[0].isFinite && $0[1].isFinite }) else { return nil }
        let points = coordinates.map { c -> (x: Double, y: Double) in
            ((180 + c[0]) / 360, (180 - (180 / Double.pi * log(tan(Double.pi / 4 + c[1] * Double.pi / 360)))) / 360)
        }
        var b = WorldBounds.empty
        for p in points { b.add(p.x, p.y) }
        guard b.minX.isFinite, b.minY.isFinite, b.maxX.isFinite, b.maxY.isFinite else { return nil }
        let dMax = max(b.maxX - b.minX, b.maxY - b.minY)
        let zoom = min(CanonicalTileID.maxZoom, max(0, Int((-log(dMax) / log(2)).rounded(.down))))
        let n = Double(1 << zoom)
        let x = Int(((b.minX + b.maxX) / 2 * n).rounded(.down)), y = Int(((b.minY + b.maxY) / 2 * n).rounded(.down))
        guard x >= 0, y >= 0, x < 1 << zoom, y < 1 << zoom else { return nil }
        let tile = CanonicalTileID(zoom, x, y)
        let e = Double(TileExtent.extent)
        let corners = points.map { p -> (x: Double, y: Double) in
            (((p.x * n - Double(x)) * e + 0.5).rounded(.down), ((p.y * n - Double(y)) * e + 0.5).rounded(.down))
        }
        return (tile, corners, b)
    }
}

extension TileLoadResult {
    /// The result with its data transformed.
    func map<T: Sendable>(_ transform: (Data) -> T) -> TileLoadResult<T> {
        switch self {
        case .loaded(let d): return .loaded(transform(d))
        case .empty: return .empty
        case .missing: return .missing
        case .failed(let m): return .failed(m)
        }
    }
}
