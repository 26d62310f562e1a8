internal import CGLES3
import GLMapCore
import GLMapStyle
import GLMapTessellation
import GLMapTiles

/// MapLibre's heatmaps over opaque layers: GL JS draws the opaque layers below its first 3D layer
/// first (opaque pass, writing depth), then every layer bottom to top, each 2D layer depth-tested
/// against the opaque ones above it — but a heatmap's colour pass has no depth test, so a heatmap
/// shows over the opaque fills and backgrounds drawn above it, while what lies between stays
/// hidden. Drawing in layer order, glmap gets the same by repeating each earlier heatmap's colour
/// pass right after such an opaque layer, only where the layer's interior covers the pixel (marked
/// in the depth buffer, then cleared: no 3D layer has drawn yet).
extension GLRenderer {
    /// The GL extensions the context reports (GL_EXTENSIONS, split at spaces).
    public var extensions: Set<String> {
        guard (try? context.makeCurrent()) != nil, let p = glGetString(GLenum(GL_EXTENSIONS)) else { return [] }
        return Set(String(cString: p).split(separator: " ").map(String.init))
    }

    /// The depth value the marks are written at (any: nothing else uses depth below the first 3D layer).
    static let opaqueMark: Float = 0.5

    /// After an opaque background: the pending heatmaps over the part it covers.
    func repeatHeatmaps(over b: EvaluatedBackground, band: WorldBand, frame: FrameState, stats: inout DrawStats) {
        beginMarking()
        backgrounds.draw(b, band: band, frame: frame)
        finishMarking(frame: frame, stats: &stats)
    }

    /// After a fill layer drawn in MapLibre's opaque pass: the pending heatmaps over its interiors
    /// (each tile's cut to its square, as drawn).
    func repeatHeatmaps(over tiles: [(tile: OverscaledTileID, bucket: GPUBucket)], source: String, scene: GPUScene,
                        frame: FrameState, stats: inout DrawStats) {
        guard case .fill(let first)? = tiles.first?.bucket.content,
              first.bucket.layer.drawsInOpaquePass(zoom: max(0, frame.view.camera.zoom)) else { return }
        beginMarking()
        clipping.drawMasks(for: source, tiles: scene.sourceTiles[source] ?? tiles.map(\.tile), frame: frame)
        beginMarking()   // the masks leave the colour mask on
        for (tile, bucket) in tiles {
            guard case .fill(let f) = bucket.content, frame.showsSquare(of: tile) else { continue }
            clipping.clip(to: tile)
            try? fills.draw(f, tile: frame.tile(tile), frame: frame, stats: &stats, interiorOnly: true)
        }
        clipping.end()
        finishMarking(frame: frame, stats: &stats)
    }

    /// Depth writes at the mark, colour off.
    private func beginMarking() {
        clipping.prepareDepthStencil()
        glColorMask(GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE))
        glEnable(GLenum(GL_DEPTH_TEST))
        glDepthFunc(GLenum(GL_ALWAYS))
        glDepthMask(GLboolean(GL_TRUE))
        glDepthRangef(Self.opaqueMark, Self.opaqueMark)
    }

    /// The pending colour passes where the mark is, then the marks cleared.
    private func finishMarking(frame: FrameState, stats: inout DrawStats) {
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glDepthFunc(GLenum(GL_EQUAL))
        glDepthMask(GLboolean(GL_FALSE))
        GLDrawing.resetAttributes()
        for c in heatmaps.pending { try? heatmaps.composite(c, frame: frame, stats: &stats) }
        glDepthMask(GLboolean(GL_TRUE))
        glDepthRangef(0, 1)
        glClear(GLbitfield(GL_DEPTH_BUFFER_BIT))
        glDepthFunc(GLenum(GL_LEQUAL))
        glDisable(GLenum(GL_DEPTH_TEST))
    }
}
