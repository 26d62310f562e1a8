import Foundation
internal import CGLES3
import GLMapStyle
import GLMapTessellation
import GLMapText
import GLMapTiles

/// One tile bucket's GPU buffers and textures (created by a drawer's `upload`). Shared by every
/// scene that draws the bucket, so a batch uploads a tile's bucket once; deleted in the context
/// that created them when the last scene or cache entry lets go of it (a lost context's objects
/// are simply gone).
final class GPUBucket {
    /// What the drawer of the bucket's layer type uploaded.
    enum Content {
        case fill(FillDrawer.Uploaded)
        case line(LineDrawer.Uploaded)
        case circle(CircleDrawer.Uploaded)
        case fillExtrusion(FillExtrusionDrawer.Uploaded)
        case heatmap(HeatmapDrawer.Uploaded)
        case symbol(SymbolDrawer.Uploaded)
    }

    let content: Content
    let buffers: [GLuint]
    let textures: [GLuint]
    /// The context the names live in.
    let owner: HeadlessContext

    init(_ content: Content, buffers: [GLuint], textures: [GLuint], owner: HeadlessContext) {
        self.content = content
        self.buffers = buffers.filter { $0 != 0 }
        self.textures = textures.filter { $0 != 0 }
        self.owner = owner
        GPUScene.count(self.buffers.count + self.textures.count)
    }

    deinit {
        GPUScene.count(-(buffers.count + textures.count))
        guard owner.makeCurrentForTeardown() else { return }
        if !buffers.isEmpty { glDeleteBuffers(GLsizei(buffers.count), buffers) }
        if !textures.isEmpty { glDeleteTextures(GLsizei(textures.count), textures) }
    }
}

/// A frame plan uploaded to GPU buffers: every layer's tile buckets. Created by
/// `GLRenderer.upload`; frames of any camera over the same tiles then only set uniforms and draw.
/// Must be released on the thread that owns the renderer's context (it is, when it goes out of
/// scope there).
public final class GPUScene {
    /// One drawn layer: a background, or tile buckets in drawing order.
    enum Layer {
        case background(EvaluatedBackground)
        case tiled(source: String, clipped: Bool, tiles: [(tile: OverscaledTileID, bucket: GPUBucket)])
        /// A raster, hillshade or color-relief layer with its tiles' textures (RasterDrawer).
        case raster(RasterDrawer.Uploaded)
        case symbol(tiles: [(frame: SymbolTileFrame, bucket: GPUBucket)], iconItems: [SymbolDrawItem], textItems: [SymbolDrawItem],
                    debug: SymbolCollisionDebug?)
    }

    let layers: [Layer]
    /// Each source's visible tiles (the stencil masks of clipped layers).
    let sourceTiles: [String: [OverscaledTileID]]
    /// The context the buffers live in (set by `GLRenderer.upload`).
    var owner: HeadlessContext?
    /// What the frame's layers share: the light, the 3D depth range, the pattern atlas.
    var extras = FrameExtras()

    init(layers: [Layer], sourceTiles: [String: [OverscaledTileID]]) {
        self.layers = layers
        self.sourceTiles = sourceTiles
    }

    /// GL buffers and textures held by live buckets in this process (for soak tests: it must stay flat).
    public static var liveGLObjects: Int {
        counterLock.lock(); defer { counterLock.unlock() }
        return live
    }

    nonisolated(unsafe) private static var live = 0
    private static let counterLock = NSLock()

    static func count(_ delta: Int) {
        counterLock.lock(); defer { counterLock.unlock() }
        live += delta
    }
}
