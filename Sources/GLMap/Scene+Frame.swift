import Foundation
import GLMapCore
import GLMapReference
import GLMapStyle
import GLMapTessellation
import GLMapTiles

/// Tile buckets and tile data built for earlier frames, kept while frames keep using them.
struct TileBucketCache {
    /// What a tile bucket depends on: the source's tile (its data and the zoom it is laid out at;
    /// not its world copy: every copy draws the same bucket), the layer (its index in the style),
    /// and for dashed and patterned lines what they read of the frame zoom (`lineZoomKey`).
    struct Key: Hashable {
        var canonical: CanonicalTileID
        var overscaledZ: Int
        var layer: Int
        var zoomKey: Double
        /// The pattern atlas the bucket's pattern positions point into (0: none).
        var images: UInt64 = 0
    }

    /// A source's tile.
    struct DataKey: Hashable {
        var source: String
        var tile: CanonicalTileID
    }

    var entries: [Key: (bucket: TileBucket?, used: Int)] = [:]
    /// Decoded tiles by source, with the generation that last used each.
    var data: [DataKey: (tile: VectorTileData?, used: Int)] = [:]
    var generation = 0
    /// Buckets built since the scene was made (cache misses).
    var built = 0

    /// Forgets what the last two plans did not use, except the `spareTiles` most recently used
    /// of the other tiles (their data and their buckets; not the buckets of dashed lines, which
    /// are keyed by a frame zoom that may not come back), as MapLibre's source cache keeps tiles
    /// that left the view. A server drawing tiles in any order then finds the tiles a request
    /// shares with recent ones laid out already.
    mutating func evict(spareTiles: Int) {
        let keep = generation - 1
        let spare = data.filter { $0.value.used < keep }.sorted { $0.value.used > $1.value.used }.prefix(spareTiles)
        let spareKeys = Set(spare.map(\.key))
        data = data.filter { $0.value.used >= keep || spareKeys.contains($0.key) }
        let kept = Set(data.keys.map(\.tile))
        entries = entries.filter { $0.value.used >= keep || ($0.key.zoomKey < 0 && kept.contains($0.key.canonical)) }
    }

    /// MapLibre GL JS's source cache size for a view: the 512-px tiles across and down it (plus
    /// one each way), times five zoom levels.
    static func spareTiles(view: ViewTransform) -> Int {
        Int(((view.width / 512 + 1).rounded(.up) * (view.height / 512 + 1).rounded(.up) * 5).rounded())
    }

    /// A key no other bucket of this process has (renderers cache uploads by it, across scenes).
    static func uniqueKey() -> UInt64 {
        lastKey.withLock { k in k += 1; return k }
    }
    private static let lastKey = Locked<UInt64>(0)
}

extension Scene {
    /// The layers drawn at `zoom` with their indices in the style, in draw order.
    func drawnLayers(zoom: Double) -> [(index: Int, layer: GLMapStyle.Layer)] {
        style.layers.enumerated().filter { $0.element.isDrawn(atZoom: zoom) }.map { ($0.offset, $0.element) }
    }

    /// The tiles MapLibre shows of each source the drawn layers use, in its tile order
    /// (`OverscaledTileID.<`), for `view`.
    func visibleTiles(view: ViewTransform, layers: [(index: Int, layer: GLMapStyle.Layer)]) -> [String: [OverscaledTileID]] {
        let cover = TileCover(view: view)
        var result: [String: [OverscaledTileID]] = [:]
        for (_, layer) in layers {
            guard let id = layer.source, result[id] == nil else { continue }
            if let index = geojson[id] {
                result[id] = cover.tiles(tileSize: 512, maxzoom: index.maxZoom).sorted()
            } else if let source = vector[id]?.source {
                result[id] = cover.tiles(tileSize: Double(source.tileSize), minzoom: Int(source.minzoom.rounded(.down)),
                                         maxzoom: Int(source.maxzoom.rounded(.down))).sorted()
            }
        }
        return result
    }

    /// Fetches and decodes, all at once, the tiles of vector sources the frame shows that no
    /// earlier plan kept (a still frame never loads lazily); problems become tile warnings. GeoJSON
    /// sources' tiles are cut here too, in parallel, so that the layers sharing a tile find it made.
    func loadTiles(_ tiles: [String: [OverscaledTileID]]) {
        for (id, index) in geojson {
            guard let shown = tiles[id] else { continue }
            let missing = missingTiles(source: id, shown)
            guard !missing.isEmpty else { continue }
            let made = concurrentMap(missing) { index.vectorTile($0) }
            buckets.withLock { cache in
                for (t, data) in zip(missing, made) { cache.data[TileBucketCache.DataKey(source: id, tile: t)] = (data, cache.generation) }
            }
        }
        for (id, source) in vector {
            guard let shown = tiles[id] else { continue }
            let missing = missingTiles(source: id, shown)
            guard !missing.isEmpty else { continue }
            var warnings: [String] = []
            let loaded = source.load(tiles: missing, warnings: &warnings)
            var failures: [String] = []
            buckets.withLock { cache in
                for t in missing {
                    var data: VectorTileData?
                    switch loaded[t] {
                    case .loaded(let d)?: data = d
                    case .failed(let message)?: failures.append(message)
                    case .empty?, .missing?, nil: break
                    }
                    cache.data[TileBucketCache.DataKey(source: id, tile: t)] = (data, cache.generation)
                }
            }
            noteTileWarnings(warnings + failures)
        }
    }

    /// The source's tiles among `shown` that no earlier plan kept (each once); the kept ones are
    /// marked used by this plan.
    private func missingTiles(source id: String, _ shown: [OverscaledTileID]) -> [CanonicalTileID] {
        buckets.withLock { cache in
            var seen = Set<CanonicalTileID>()
            return shown.map(\.canonical).filter { t in
                guard seen.insert(t).inserted else { return false }
                let key = TileBucketCache.DataKey(source: id, tile: t)
                guard let e = cache.data[key] else { return true }
                cache.data[key] = (e.tile, cache.generation)   // kept for this frame
                return false
            }
        }
    }

    /// Adds tile warnings not given before.
    func noteTileWarnings(_ messages: [String]) {
        guard !messages.isEmpty else { return }
        tileWarnings.withLock { list in
            for m in messages where !list.contains(m) { list.append(m) }
        }
    }

    /// The features one tile hands a layer (its source-layer, or a GeoJSON tile's only layer),
    /// from the tiles `loadTiles` made or kept for this plan (and marked used by it).
    func features(_ layer: GLMapStyle.Layer, tile: OverscaledTileID) -> [TileFeature] {
        guard let id = layer.source else { return [] }
        let data = buckets.withLock { $0.data[TileBucketCache.DataKey(source: id, tile: tile.canonical)]?.tile }
        return data?.layer(layer.sourceLayer)?.features ?? []
    }

    /// What a line layer's buckets read of the frame zoom, as a cache key (-1: nothing). Dashed
    /// and patterned lines read the floor zoom's width, whether the frame lies between integer
    /// zooms (the cross-fade's direction and scale) and their dash arrays or images at the zoom and
    /// the one they fade from: a dasharray or pattern that does not change with zoom gives the same
    /// bucket for every frame between two integer zooms; one that does is keyed by the zoom itself.
    static func lineZoomKey(_ layer: GLMapStyle.Layer, zoom: Double) -> Double {
        guard let effect = layer.values[LineProperties.lineDasharray.name] ?? layer.values[LineProperties.linePattern.name]
        else { return -1 }
        guard effect.expression.isZoomConstant else { return zoom }
        let floor = zoom.rounded(.down)
        return floor + (zoom > floor ? 0.5 : 0)
    }

    /// Whether a layer is cut to each tile's square with the stencil (MapLibre's `isTileClipped`).
    static func isTileClipped(_ type: LayerType) -> Bool {
        switch type {
        case .fill, .line: return true
        case .background, .circle, .symbol, .heatmap, .fillExtrusion, .raster, .hillshade, .colorRelief: return false
        }
    }

    /// What the GPU draws for `view`: per drawn layer, one bucket per tile of its source that
    /// has something to draw, tiles in MapLibre's drawing order (the reverse of its tile order:
    /// deeper zooms first, then rows and columns from the north-west). Buckets are built at the
    /// tile's zoom as MapLibre's are (composite paint at the tile zoom and the next) and reused
    /// by later plans while frames keep using them.
    public func framePlan(view: ViewTransform, ratio: Double = 1) -> FramePlan {
        let zoom = max(0, view.camera.zoom)
        let layers = drawnLayers(zoom: zoom)
        let tiles = visibleTiles(view: view, layers: layers)
        var evaluator = StyleEvaluator(zoom: zoom, globalState: style.globalState, sources: style.sources)
        evaluator.featureStates = style.featureStates
        let images = prepareImages(&evaluator, ratio: ratio)
        buckets.withLock { $0.generation += 1 }
        loadTiles(tiles)
        let rasterDraws = rasterLayerDraws(view: view, layers: layers, evaluator: evaluator)
        let assets = usesSymbols ? symbolAssets(ratio: ratio) : nil
        // Jobs: the (layer, tile) pairs without a cached bucket.
        struct Job: Sendable { let key: TileBucketCache.Key; let layer: GLMapStyle.Layer; let tile: OverscaledTileID }
        var jobs: [Job] = []
        var keys: [[(key: TileBucketCache.Key, tile: OverscaledTileID)]] = []
        var queued: Set<TileBucketCache.Key> = []
        var wanted: [Job] = []
        for (index, layer) in layers {
            guard layer.type != .background, let source = layer.source, let ids = tiles[source] else { keys.append([]); continue }
            let lineZoom = layer.type == .line ? Self.lineZoomKey(layer, zoom: zoom) : -1
            let patterned = layer.values.keys.contains { $0.hasSuffix("-pattern") }
            var layerKeys: [(key: TileBucketCache.Key, tile: OverscaledTileID)] = []
            for tile in ids.reversed() {
                // Symbol buckets depend on the sprite scale and pixel ratio (icons): keyed by the ratio.
                let zoomKey = layer.type == .symbol ? -(1 + ratio) : lineZoom
                var key = TileBucketCache.Key(canonical: tile.canonical, overscaledZ: tile.overscaledZ, layer: index, zoomKey: zoomKey)
                if patterned { key.images = images.key }
                layerKeys.append((key, tile))
                wanted.append(Job(key: key, layer: layer, tile: tile.unwrapped))
            }
            keys.append(layerKeys)
        }
        // Looked up in place (a copy of every cached key per plan cost more than the lookups).
        let missing = buckets.withLock { cache in wanted.filter { cache.entries[$0.key] == nil } }
        for job in missing where queued.insert(job.key).inserted { jobs.append(job) }
        evaluator.compositeZoom = nil
        let built: [Bucket?] = concurrentMap(jobs) { [self, evaluator] job in
            let features = self.features(job.layer, tile: job.tile)
            if features.isEmpty { return nil }
            if job.layer.type == .symbol {
                guard let assets else { return nil }
                return self.symbolBucket(job.layer, tile: job.tile, features: features, evaluator: evaluator, assets: assets)
            }
            var lower = evaluator, upper = evaluator
            lower.compositeZoom = Double(job.tile.overscaledZ)
            upper.compositeZoom = Double(job.tile.overscaledZ + 1)
            let composite = job.layer.type.properties.contains { p in
                guard p.gpu != nil, let e = job.layer.values[p.name]?.expression else { return false }
                return !e.isFeatureConstant && !e.isZoomConstant
            }
            let evaluated = lower.evaluate(job.layer, tile: job.tile, features: features)
            let next = composite ? upper.evaluate(job.layer, tile: job.tile, features: features) : nil
            let bucket = Bucket.make(evaluated, next: next)
            return bucket.isEmpty ? nil : bucket
        }
        let plan = buckets.withLock { cache in
            for (job, bucket) in zip(jobs, built) {
                cache.built += 1
                guard let bucket else {
                    cache.entries[job.key] = (nil, cache.generation)   // nothing to draw there
                    continue
                }
                cache.entries[job.key] = (TileBucket(tile: job.tile, bucket: bucket, key: TileBucketCache.uniqueKey()), cache.generation)
            }
            var planned: [PlannedLayer] = []
            for ((index, layer), layerKeys) in zip(layers, keys) {
                if let r = rasterDraws[index] {
                    planned.append(.raster(r))
                    continue
                }
                if layer.type == .background {
                    planned.append(.background(evaluator.evaluateBackground(layer)))
                    continue
                }
                var list: [TileBucket] = []
                for (key, tile) in layerKeys {
                    guard let e = cache.entries[key] else { continue }
                    cache.entries[key] = (e.bucket, cache.generation)
                    // Every world copy draws the same bucket (one upload), with its own matrix.
                    if let b = e.bucket { list.append(TileBucket(tile: tile, bucket: b.bucket, key: b.key)) }
                }
                planned.append(.tiled(source: layer.source ?? "", clipped: Scene.isTileClipped(layer.type), buckets: list))
            }
            cache.evict(spareTiles: TileBucketCache.spareTiles(view: view))
            var plan = FramePlan(layers: planned, sourceTiles: tiles)
            decorate(&plan, evaluator: evaluator, images: images)
            return plan
        }
        return placeSymbols(plan, layers: layers, view: view, ratio: ratio)
    }

    /// Tile buckets built since the scene was made (cache misses of `framePlan`).
    public var tileBucketsBuilt: Int { buckets.withLock { $0.built } }

    /// What the CPU reference renderer draws for `view`: per drawn layer, the layer evaluated
    /// over each tile of its source at the frame zoom (composite paint mixed there), in
    /// MapLibre's drawing order.
    public func referenceFrame(view: ViewTransform, ratio: Double = 1) -> [ReferenceLayer] {
        let zoom = max(0, view.camera.zoom)
        let layers = drawnLayers(zoom: zoom)
        let tiles = visibleTiles(view: view, layers: layers)
        var evaluator = StyleEvaluator(zoom: zoom, globalState: style.globalState, sources: style.sources)
        evaluator.featureStates = style.featureStates
        _ = prepareImages(&evaluator, ratio: ratio)
        buckets.withLock { $0.generation += 1 }
        loadTiles(tiles)
        let rasterDraws = rasterLayerDraws(view: view, layers: layers, evaluator: evaluator)
        defer { buckets.withLock { $0.evict(spareTiles: TileBucketCache.spareTiles(view: view)) } }
        var result = concurrentMap(layers) { [self, evaluator] item -> ReferenceLayer in
            let layer = item.layer
            if let r = rasterDraws[item.index] { return .raster(r) }
            if layer.type == .symbol { return .tiled([]) }   // placed below, across layers
            guard layer.type != .background, let source = layer.source else {
                return .background(evaluator.evaluateBackground(layer))
            }
            var list: [EvaluatedLayer] = []
            for tile in (tiles[source] ?? []).reversed() {
                let features = self.features(layer, tile: tile)
                if features.isEmpty { continue }
                list.append(evaluator.evaluate(layer, tile: tile, features: features))
            }
            return .tiled(list)
        }
        referenceSymbols(&result, layers: layers, tiles: tiles, view: view, ratio: ratio)
        return result
    }
}
