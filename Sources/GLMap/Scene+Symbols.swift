// Scene symbols — contract
// Input: the style's `glyphs` template and `sprite`, the fonts folder of the resource options
// (`fontsDirectory`: glyphs the PBFs do not give — no `glyphs` URL, a range that cannot be
// loaded — are drawn from its fonts, `FontFolder`), the images added at run time, the frame's
// view and pixel ratio. Output: the assets symbol layout reads (`SymbolAssets`: one glyph manager
// per scene — ranges loaded on first need, once — and the style's images at the frame's sprite
// scale: 1× for ratios up to 1, @2x above, falling back to 1× as GL JS's `loadSprite` does; run-time
// images join them, a run-time image replacing a sprite image of the same id), a tile's symbol
// bucket, and the frame's placement (`SymbolFramePlacement`) turned into plan layers for the GPU
// and reference layers for the CPU renderer.
// Loading goes through glmap's `ResourceLoader` (files, file://, http(s) with its cache rules;
// `local://` references are found up the style's folders as GeoJSON data are). Everything a frame
// needs is loaded before it is drawn; a glyph range, font stack (no font for it), font file or
// sprite that cannot be used costs only the text or icons that need it and is one warning in
// `symbolWarnings` (hence `warningMessages`).
import Foundation
import GLMapCore
import GLMapReference
import GLMapStyle
import GLMapTessellation
import GLMapText
import GLMapTiles

/// Symbol assets loaded for earlier frames: the glyph manager and the images per sprite scale.
struct SymbolAssetCache {
    var glyphs: GlyphManager?
    /// The fonts of `ResourceLoaderOptions.fontsDirectory`, opened with the glyph manager.
    var fonts: FontFolder?
    /// Images by sprite scale (true: @2x), with the warnings their loading gave.
    var images: [Bool: (store: StyleImageStore, warnings: [String])] = [:]
}

extension Scene {
    /// Whether a drawn layer is a symbol layer.
    var usesSymbols: Bool { style.layers.contains { $0.type == .symbol } }

    /// The fetch glyph and sprite loading go through: the scene's `loader` (its rewrites, cache
    /// and offline rules), `local://` found up the style's folders when no rule maps it.
    var symbolFetch: ResourceFetch {
        let file = style.file
        let loader = self.loader
        return { reference in
            // Files have no query: `…/{range}.pbf?key=…` reads `…/{range}.pbf` (as a web server would).
            var url = reference
            if case .file = loader.target(of: url), let q = url.firstIndex(of: "?") { url = String(url[..<q]) }
            if url.hasPrefix("local://"), case .unsupported = loader.target(of: url) {
                guard let path = SourceLoader(styleFile: file).resolve(url) else { return nil }
                return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
            }
            switch loader.load(url) {
            case .data(let bytes): return bytes
            case .notFound, .noContent: return nil
            case .failed(let message): throw IOFailure(path: url, message: message)
            }
        }
    }

    /// The assets for a frame at `ratio`, loading the sprite at its scale on first use.
    func symbolAssets(ratio: Double) -> SymbolAssets {
        let images = styleImages(ratio: ratio)
        let glyphs: GlyphManager = symbolAssetCache.withLock { cache in
            if let g = cache.glyphs { return g }
            let fonts = loader.options.fontsDirectory.map { FontFolder(path: $0) }
            let g = GlyphManager(urlTemplate: style.glyphs, fetch: symbolFetch, local: fonts)
            cache.glyphs = g
            cache.fonts = fonts
            return g
        }
        return SymbolAssets(glyphs: glyphs, images: images, pixelRatio: ratio)
    }

    /// The style's images at `ratio`'s sprite scale with the run-time images, loaded once per
    /// scene and scale: icons and the pattern atlas (Scene+Images.swift) read the same store.
    func styleImages(ratio: Double) -> StyleImageStore {
        let scale = ratio > 1
        return symbolAssetCache.withLock { cache in
            if let hit = cache.images[scale] { return hit.store }
            let made = loadSymbolImages(ratio: scale ? 2 : 1)
            cache.images[scale] = made
            return made.store
        }
    }

    /// The sprite at `ratio` plus the run-time images.
    func loadSymbolImages(ratio: Double) -> (store: StyleImageStore, warnings: [String]) {
        var store = StyleImageStore()
        var warnings: [String] = []
        let references = SpriteLoader.references(style.sprite)
        if !references.isEmpty {
            let result = SpriteLoader.load(references, pixelRatio: ratio, fetch: symbolFetch)
            warnings += result.warnings.map(\.description)
            warnings += store.add(result).map(\.description)
        }
        for id in runtimeImages.keys.sorted() {
            let image = runtimeImages[id]!
            let converted = GLMapText.StyleImage(
                data: GLMapText.StyleImage.canvasRoundTrip(image.image), pixelRatio: image.pixelRatio, sdf: image.sdf,
                stretchX: image.stretchX.isEmpty ? nil : image.stretchX.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil },
                stretchY: image.stretchY.isEmpty ? nil : image.stretchY.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil },
                content: image.content.flatMap { $0.count == 4 ? ($0[0], $0[1], $0[2], $0[3]) : nil })
            store.remove(id)
            do { try store.add(id, converted) } catch { warnings.append("\(error)") }
        }
        return (store, warnings)
    }

    /// Warnings from loading glyphs and sprites for the frames drawn so far.
    var symbolWarnings: [String] {
        symbolAssetCache.withLock { cache in
            var out: [String] = []
            for scale in [false, true] { out += cache.images[scale]?.warnings ?? [] }
            out += cache.fonts?.fileWarnings.map { "font file \($0)" } ?? []
            out += cache.glyphs?.warningMessages ?? []
            var seen = Set<String>()
            return out.filter { seen.insert($0).inserted }
        }
    }

    /// One tile's symbol bucket (nil: nothing to draw).
    func symbolBucket(_ layer: GLMapStyle.Layer, tile: OverscaledTileID, features: [TileFeature], evaluator: StyleEvaluator,
                      assets: SymbolAssets) -> Bucket? {
        guard let layout = symbolLayout(layer, tile: tile, features: features, evaluator: evaluator, assets: assets) else { return nil }
        let paint = PaintSource(layer: layer, globalState: evaluator.globalState, tileZoom: Double(tile.overscaledZ))
        return .symbol(SymbolBucket(layout, paint: paint))
    }

    /// One tile's symbol layout (nil: nothing to draw).
    func symbolLayout(_ layer: GLMapStyle.Layer, tile: OverscaledTileID, features: [TileFeature], evaluator: StyleEvaluator,
                      assets: SymbolAssets) -> SymbolTileLayout? {
        let filtered = evaluator.filteredFeatures(layer, tile: tile, features: features)
        guard !filtered.isEmpty else { return nil }
        return SymbolLayout.build(layer: layer, tile: tile, features: filtered, evaluator: evaluator, assets: assets)
    }

    /// The frame's symbol layers placed: each symbol layer's `.tiled` placeholder of `plan`
    /// becomes `.symbol` with its tiles' placement (`layers`: the plan's layers, same order).
    func placeSymbols(_ plan: FramePlan, layers: [(index: Int, layer: GLMapStyle.Layer)], view: ViewTransform, ratio: Double) -> FramePlan {
        var plan = plan
        var inputs: [SymbolLayerInput] = [], positions: [Int] = [], lists: [[TileBucket]] = []
        var evaluator = StyleEvaluator(zoom: max(0, view.camera.zoom), globalState: style.globalState, sources: style.sources)
        evaluator.featureStates = style.featureStates
        var leaders: [String: Int] = [:]
        for (i, entry) in layers.enumerated() where entry.layer.type == .symbol && i < plan.layers.count {
            guard case .tiled(_, _, let list) = plan.layers[i] else { continue }
            var tiles: [(tile: OverscaledTileID, layout: SymbolTileLayout)] = [], kept: [TileBucket] = []
            for tb in list { if case .symbol(let s) = tb.bucket { tiles.append((tb.tile, s.layout)); kept.append(tb) } }
            let key = SymbolLayerValues.layoutKey(entry.layer)
            let leader = leaders[key]
            if leader == nil { leaders[key] = inputs.count }
            inputs.append(SymbolLayerInput(layer: entry.layer, values: SymbolLayerValues(layer: entry.layer, evaluator: evaluator), tiles: tiles,
                                           leader: leader))
            positions.append(i)
            lists.append(kept)
        }
        guard !inputs.isEmpty else { return plan }
        let frames = SymbolFramePlacement.place(inputs, view: view, ratio: ratio, crossSourceCollisions: crossSourceCollisions,
                                                collisionDebug: showCollisionBoxes)
        for (k, frame) in frames.enumerated() {
            let tiles = frame.tiles.map { (bucket: lists[k][$0.input], frame: $0) }
            plan.layers[positions[k]] = .symbol(SymbolLayerPlan(tiles: tiles, iconItems: frame.iconItems, textItems: frame.textItems,
                                                                debug: frame.debug))
        }
        return plan
    }

    /// The reference renderer's symbol layers: each symbol layer laid out over its tiles (the
    /// tessellator is not involved) and placed for the frame; `result` holds placeholders for them.
    func referenceSymbols(_ result: inout [ReferenceLayer], layers: [(index: Int, layer: GLMapStyle.Layer)],
                          tiles: [String: [OverscaledTileID]], view: ViewTransform, ratio: Double) {
        guard layers.contains(where: { $0.layer.type == .symbol }) else { return }
        let assets = symbolAssets(ratio: ratio)
        var evaluator = StyleEvaluator(zoom: max(0, view.camera.zoom), globalState: style.globalState, sources: style.sources)
        evaluator.featureStates = style.featureStates
        var inputs: [SymbolLayerInput] = [], positions: [Int] = []
        var leaders: [String: Int] = [:]
        for (i, entry) in layers.enumerated() where entry.layer.type == .symbol {
            let layer = entry.layer
            var list: [(tile: OverscaledTileID, layout: SymbolTileLayout)] = []
            for tile in (layer.source.flatMap { tiles[$0] } ?? []).reversed() {
                let features = self.features(layer, tile: tile)
                if features.isEmpty { continue }
                if let layout = symbolLayout(layer, tile: tile.unwrapped, features: features, evaluator: evaluator, assets: assets) {
                    list.append((tile, layout))
                }
            }
            let key = SymbolLayerValues.layoutKey(layer)
            let leader = leaders[key]
            if leader == nil { leaders[key] = inputs.count }
            inputs.append(SymbolLayerInput(layer: layer, values: SymbolLayerValues(layer: layer, evaluator: evaluator), tiles: list, leader: leader))
            positions.append(i)
        }
        let frames = SymbolFramePlacement.place(inputs, view: view, ratio: ratio, crossSourceCollisions: crossSourceCollisions,
                                                collisionDebug: showCollisionBoxes)
        for (k, frame) in frames.enumerated() {
            let layer = inputs[k].layer
            result[positions[k]] = .symbol(ReferenceSymbolLayer(
                frame: frame, layouts: inputs[k].tiles.map(\.layout),
                paint: PaintSource(layer: layer, globalState: style.globalState, tileZoom: max(0, view.camera.zoom).rounded(.down))))
        }
    }
}
