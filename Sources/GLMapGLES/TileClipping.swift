internal import CGLES3
import GLMapCore
import GLMapShaders
import GLMapTiles

/// MapLibre's tile clipping: before a fill or line layer is drawn, each visible tile of its
/// source gets its own stencil value, written over the tile's square (drawn with the tile's own
/// matrix, so `*-translate` moves the geometry but not the clip); each tile's bucket is then drawn
/// where the stencil holds that tile's value. Masks are redrawn only when the source changes, and
/// the stencil is cleared when its 255 values run out.
///
/// When the view is neither turned nor pitched and the source's tiles do not overlap (one zoom),
/// every square is a window-aligned rectangle and the pixels a mask would cover are a scissor box:
/// those whose centres lie in the rectangle, its edges snapped to the rasteriser's 1/256 pixel,
/// left and bottom edges in and right and top edges out (the fill rule for the mask's quad). Then
/// no mask is drawn and no stencil is read: the rasteriser does not even visit the pixels outside
/// the box, where llvmpipe ran the stencil test on every fragment of the tile's buffer.
///
/// It also attaches (once per framebuffer) and clears the frame's depth and stencil buffers, at
/// the first draw that uses either (`prepareDepthStencil`: masks, overlapping raster tiles,
/// extrusions, heatmap marks) rather than with the colour: a frame of fills, lines and circles
/// clipped by boxes uses neither, the buffer is 4 bytes a pixel and the clear a full-frame memset
/// on llvmpipe.
final class TileClipping {
    let program: GLProgram
    private var source: String?
    private var references: [OverscaledTileID: GLint] = [:]
    private var next: GLint = 1
    /// The scissor boxes (x, y, width, height in window pixels) of the tiles being clipped, when
    /// the last `drawMasks` could use them instead of the stencil.
    private var boxes: [OverscaledTileID: (GLint, GLint, GLsizei, GLsizei)]?
    /// Scissor boxes may stand in for masks (tests turn it off to compare the two).
    var scissorAllowed = true
    /// Whether this frame's depth and stencil buffers have been cleared yet.
    private var depthStencilReady = false
    /// The frame's render target, given its depth and stencil buffer when first used.
    private weak var target: Framebuffer?

    init() throws {
        program = try GLProgram(ShaderSource.clippingMask)
    }

    func release() {}

    /// Forgets the masks of the previous frame; `target`'s depth and stencil are attached (once)
    /// and cleared when first used.
    func beginFrame(target: Framebuffer) {
        self.target = target
        source = nil
        references = [:]
        next = 1
        boxes = nil
        depthStencilReady = false
    }

    /// Clears the depth (to 1) and stencil (to 0) buffers unless this frame did already: called
    /// before any draw that tests or writes either. Leaves the stencil write mask off, depth
    /// writes on and the scissor off (no layer clipped by boxes uses depth or stencil).
    func prepareDepthStencil() {
        guard !depthStencilReady else { return }
        depthStencilReady = true
        target?.attachDepthStencil()
        glDisable(GLenum(GL_SCISSOR_TEST))
        glStencilMask(0xFF)
        glDepthMask(GLboolean(GL_TRUE))
        glClearStencil(0)
        glClearDepthf(1)
        glClear(GLbitfield(GL_STENCIL_BUFFER_BIT) | GLbitfield(GL_DEPTH_BUFFER_BIT))
        glStencilMask(0x00)
    }

    /// Draws one mask per tile of `source` unless they are the ones in the stencil already (or
    /// sets up their scissor boxes where those cover the same pixels).
    func drawMasks(for source: String, tiles: [OverscaledTileID], frame: FrameState) {
        boxes = scissorAllowed ? TileClipping.scissorBoxes(tiles, frame: frame) : nil
        if boxes != nil {
            glDisable(GLenum(GL_STENCIL_TEST))
            return
        }
        prepareDepthStencil()
        glEnable(GLenum(GL_STENCIL_TEST))
        if self.source == source { return }
        self.source = source
        references = [:]
        if Int(next) + tiles.count > 256 {
            glStencilMask(0xFF)
            glClearStencil(0)
            glClear(GLbitfield(GL_STENCIL_BUFFER_BIT))
            next = 1
        }
        glUseProgram(program.id)
        glColorMask(GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE))
        glStencilMask(0xFF)
        glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_REPLACE))
        for tile in tiles where references[tile] == nil {
            guard next < 256 else { break }
            let ref = next
            next += 1
            references[tile] = ref
            glStencilFunc(GLenum(GL_ALWAYS), ref, 0xFF)
            GLDrawing.setMatrix(program, frame.matrix(tile))
            glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        }
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glStencilMask(0x00)
    }

    /// Each tile's scissor box when the view is window-aligned (no bearing, no pitch) and the tiles
    /// are of one zoom, each square once (so none overlaps another); nil otherwise.
    static func scissorBoxes(_ tiles: [OverscaledTileID], frame: FrameState) -> [OverscaledTileID: (GLint, GLint, GLsizei, GLsizei)]? {
        let camera = frame.view.camera
        let window = frame.window
        guard camera.bearing.truncatingRemainder(dividingBy: 360) == 0, camera.pitch == 0, window.width > 0, window.height > 0,
              let z = tiles.first?.canonical.z else { return nil }
        var squares = Set<OverscaledTileID>()
        var out: [OverscaledTileID: (GLint, GLint, GLsizei, GLsizei)] = [:]
        let e = Double(TileExtent.extent)
        /// The first window pixel (within origin…origin + size) whose centre is at or past the
        /// window coordinate of normalised device coordinate `ndc`, snapped to 1/256 pixel.
        func edge(_ ndc: Double, _ origin: Int, _ size: Int) -> Int {
            let v = Double(origin) + (ndc + 1) / 2 * Double(size)
            guard v.isFinite else { return v > 0 ? origin + size : origin }
            let snapped = (v * 256).rounded(.toNearestOrEven) / 256
            return Int(min(max((snapped - 0.5).rounded(.up), Double(origin)), Double(origin + size)))
        }
        for tile in tiles {
            guard tile.canonical.z == z,
                  squares.insert(OverscaledTileID(overscaledZ: z, wrap: tile.wrap, canonical: tile.canonical)).inserted else { return nil }
            let m = frame.matrix(tile)
            let a = m.transform(0, 0, 0), b = m.transform(e, e, 0)
            guard a.w > 0, b.w > 0 else { return nil }
            let x0 = edge(min(a.x / a.w, b.x / b.w), window.x, window.width)
            let x1 = edge(max(a.x / a.w, b.x / b.w), window.x, window.width)
            let y0 = edge(min(a.y / a.w, b.y / b.w), window.y, window.height)
            let y1 = edge(max(a.y / a.w, b.y / b.w), window.y, window.height)
            out[tile] = (GLint(x0), GLint(y0), GLsizei(max(0, x1 - x0)), GLsizei(max(0, y1 - y0)))
        }
        return out
    }

    /// Ends clipping: neither the stencil nor the scissor restricts the next draws.
    func end() {
        glDisable(GLenum(GL_STENCIL_TEST))
        glDisable(GLenum(GL_SCISSOR_TEST))
    }

    /// A stencil value no tile mask holds, for a draw that must touch each pixel once (MapLibre's
    /// `stencilModeFor3D`); the masks are drawn again before the next clipped layer.
    func freshValue() -> GLint {
        boxes = nil
        return reserveOverlapReferences(1)
    }

    /// Reserves `count` consecutive stencil references above every value written so far, for a
    /// raster-like layer's overlapping tiles (GL JS's `stencilConfigForOverlap`): the masks in the
    /// stencil are forgotten, and the stencil is cleared first when the references would pass 255.
    /// Returns the first reference.
    func reserveOverlapReferences(_ count: Int) -> GLint {
        prepareDepthStencil()
        source = nil
        references = [:]
        if Int(next) + count > 256 {
            glStencilMask(0xFF)
            glClearStencil(0)
            glClear(GLbitfield(GL_STENCIL_BUFFER_BIT))
            next = 1
        }
        let first = next
        next += GLint(min(count, 255))
        return first
    }

    /// Restricts the next draws to `tile`'s square (nothing when it has no mask).
    func clip(to tile: OverscaledTileID) {
        if let boxes {
            let (x, y, w, h) = boxes[tile] ?? (0, 0, 0, 0)
            glEnable(GLenum(GL_SCISSOR_TEST))
            glScissor(x, y, w, h)
            return
        }
        glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_REPLACE))
        glStencilFunc(GLenum(GL_EQUAL), references[tile] ?? 0xFF, 0xFF)
    }
}
