// Scene images — contract
// Input: the style's `sprite` (a URL or an array of {id, url}: fetched by the scene's resource
// loader — paths relative to the style file, `file://`, http(s) — and `local://` as GeoJSON data
// resolves it), the frame's pixel ratio, and the images added at run time. Output, per sprite scale (1× for ratio ≤ 1, else @2x, falling back to 1×
// as GL JS's `loadSprite` does): every image packed into one pattern atlas (`PatternAtlas`:
// GLMapText's `ImageAtlas`, each image padded by one wrapped pixel, premultiplied as WebGL
// uploads it), with a key that identifies it across frames. Loaded once per scene and scale,
// before the frame that needs it is drawn (never lazily during drawing); only when a drawn layer
// sets a `*-pattern`. Also the style's light at the frame zoom.
// Errors: a sprite that cannot be loaded or parsed costs its images (patterns naming them draw
// nothing, as in MapLibre) and is one warning; a feature-constant pattern naming an image that
// does not exist is one warning per image. Neither stops the frame.
import Foundation
import GLMapCore
import GLMapStyle
import GLMapTessellation
import GLMapText

/// The images one sprite scale gives a scene.
struct SceneImages: Sendable {
    /// The pattern atlas (nil: no drawn layer sets a pattern).
    var atlas: PatternAtlas?
    /// The atlas key (0 without one): buckets holding atlas positions are cached by it.
    var key: UInt64 { atlas?.key ?? 0 }
}

/// Loaded `SceneImages` by scale (true: @2x), and the missing-image warnings already given.
struct SceneImageCache {
    var byScale: [Bool: SceneImages] = [:]
    var missing: Set<String> = []
}

extension Scene {
    /// Sprites that could not be loaded and images that patterns name but no sprite has, from
    /// the frames drawn so far (the sprite is loaded by the first frame that needs it), one line
    /// each, as `warningMessages` ends with them.
    public var imageWarningMessages: [String] { symbolWarnings + imageWarnings }

    /// Images that patterns name but no sprite has, from the frames drawn so far (sprites that
    /// could not be loaded are in `symbolWarnings`).
    var imageWarnings: [String] {
        images.withLock { cache in
            cache.missing.sorted().map { "image \"\($0)\" is not in the style's sprite: patterns naming it are not drawn" }
        }
    }

    /// Whether a drawn layer sets a `*-pattern` property (then the sprite and the images added at
    /// run time are loaded for the frame).
    var usesPatterns: Bool {
        style.layers.contains { l in l.values.keys.contains { $0.hasSuffix("-pattern") } }
    }

    /// Sets the frame's light and pattern images on `evaluator` (loading the sprite at this
    /// ratio's scale on first use) and notes feature-constant patterns that name missing images.
    func prepareImages(_ evaluator: inout StyleEvaluator, ratio: Double) -> SceneImages {
        evaluator.light = evaluator.evaluateLight(style.rootObjects["light"])
        guard usesPatterns else { return SceneImages() }
        let scale = ratio > 1
        let loaded: SceneImages = images.withLock { cache in
            if let hit = cache.byScale[scale] { return hit }
            let made = loadImages(ratio: scale ? 2 : 1)
            cache.byScale[scale] = made
            return made
        }
        evaluator.patternAtlas = loaded.atlas
        var missing: [String] = []
        for layer in style.layers {
            guard let property = layer.type.properties.first(where: { !$0.isLayout && $0.name.hasSuffix("-pattern") }) else { continue }
            for name in evaluator.patternNames(property, layer, wholeZooms: layer.type == .background)
            where !name.isEmpty && evaluator.patternImages[name] == nil { missing.append(name) }
        }
        if !missing.isEmpty { images.withLock { $0.missing.formUnion(missing) } }
        return loaded
    }

    /// The plan's frame-wide values: light, 3D depth range, pattern atlas.
    func decorate(_ plan: inout FramePlan, evaluator: StyleEvaluator, images: SceneImages) {
        plan.light = evaluator.light
        plan.extrusionDepthEnd = ExtrusionDepth.rangeEnd(layerCount: style.allLayers.count)
        plan.patternAtlas = images.atlas
    }

    /// Packs every image of the sprite at `ratio`'s scale (and the run-time images) into the
    /// pattern atlas; the sprite is loaded once per scale for icons and patterns alike.
    func loadImages(ratio: Double) -> SceneImages {
        let store = styleImages(ratio: ratio)
        let atlas = ImageAtlas(icons: [], patterns: store.images(for: store.ids))
        var placed: [String: PatternImage] = [:]
        for (id, p) in atlas.patternPositions {
            placed[id] = PatternImage(x0: Double(p.tl.x), y0: Double(p.tl.y), x1: Double(p.br.x), y1: Double(p.br.y), pixelRatio: p.pixelRatio)
        }
        return SceneImages(atlas: PatternAtlas(image: atlas.premultipliedImage, images: placed, key: TileBucketCache.uniqueKey()))
    }
}
