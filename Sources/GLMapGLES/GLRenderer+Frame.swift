internal import CGLES3
import GLMapCore
import GLMapStyle
import GLMapTessellation
import GLMapTiles

/// What every layer of an uploaded frame shares beyond its buckets: the light, the depth range
/// of 3D layers and the pattern atlas texture.
struct FrameExtras {
    var light = EvaluatedLight.default
    var extrusionDepthEnd = 1.0
    var patternTexture: GLuint = 0
    var patternTextureSize = (width: 1, height: 1)
}

extension FrameState {
    /// Takes the frame's shared values.
    mutating func use(_ extras: FrameExtras) {
        light = extras.light
        extrusionDepthEnd = extras.extrusionDepthEnd
        patternTexture = extras.patternTexture
        patternTextureSize = extras.patternTextureSize
    }
}

extension GLRenderer {
    /// The plan's shared values, uploading its pattern atlas unless the texture holds it already
    /// (RGBA8, LINEAR, clamped, as MapLibre binds its atlas for patterns).
    func uploadExtras(_ plan: FramePlan) throws -> FrameExtras {
        var extras = FrameExtras(light: plan.light, extrusionDepthEnd: plan.extrusionDepthEnd)
        if let atlas = plan.patternAtlas {
            if patternTexture?.key != atlas.key {
                releasePatternTexture()
                let t = GLDrawing.texture(width: atlas.image.width, height: atlas.image.height, format: GL_RGBA8, pixelFormat: GL_RGBA,
                                          filter: GL_LINEAR, wrap: GL_CLAMP_TO_EDGE, pixels: atlas.image.pixels)
                try GLState.check("glTexImage2D (pattern atlas \(atlas.image.width)x\(atlas.image.height))")
                patternTexture = (atlas.key, t, atlas.image.width, atlas.image.height)
            }
            if let p = patternTexture {
                extras.patternTexture = p.texture
                extras.patternTextureSize = (p.width, p.height)
            }
        }
        return extras
    }

    /// Deletes the pattern atlas texture (the context is current).
    func releasePatternTexture() {
        if var t = patternTexture?.texture, t != 0 { glDeleteTextures(1, &t) }
        patternTexture = nil
    }

    /// Deletes what frames share beyond buckets: the pattern atlas, the heatmap density target.
    func releaseFrameResources() {
        releasePatternTexture()
        heatmaps.release()
    }

    /// Draws a layer whose type draws all its tiles at once (fill-extrusion: two passes over
    /// every tile; heatmap: the density of every tile, then the colour); false for the layer
    /// types drawn tile by tile.
    func drawWholeLayer(_ tiles: [(tile: OverscaledTileID, bucket: GPUBucket)], frame: FrameState, stats: inout DrawStats) throws -> Bool {
        guard let first = tiles.first else { return false }
        switch first.bucket.content {
        case .fillExtrusion:
            let list = tiles.compactMap { t -> (tile: OverscaledTileID, bucket: FillExtrusionDrawer.Uploaded)? in
                if case .fillExtrusion(let u) = t.bucket.content { return (t.tile, u) }
                return nil
            }
            glDisable(GLenum(GL_STENCIL_TEST))
            heatmaps.past3D = true
            heatmaps.pending = []
            try extrusions.draw(list, frame: frame, clipping: clipping, stats: &stats)
            return true
        case .heatmap:
            let list = tiles.compactMap { t -> (tile: OverscaledTileID, bucket: HeatmapDrawer.Uploaded)? in
                if case .heatmap(let u) = t.bucket.content { return (t.tile, u) }
                return nil
            }
            glDisable(GLenum(GL_STENCIL_TEST))
            try heatmaps.draw(list, frame: frame, stats: &stats)
            return true
        case .fill, .line, .circle, .symbol:   // symbols: drawn from their layer plan
            return false
        }
    }
}
