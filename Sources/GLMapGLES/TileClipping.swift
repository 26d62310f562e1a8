internal import CGLES3
import GLMapCore
import GLMapShaders
import GLMapTiles

/// MapLibre's tile clipping: before a fill or line layer is drawn, each visible tile of its
/// source gets its own stencil value, written over the tile's square (drawn with the tile's own
/// matrix, so `*-translate` moves the geometry but not the clip); each tile's bucket is then drawn
/// where the stencil holds that tile's value. Masks are redrawn only when the source changes, and
/// the stencil is cleared when its 255 values run out.
final class TileClipping {
    let program: GLProgram
    private var source: String?
    private var references: [OverscaledTileID: GLint] = [:]
    private var next: GLint = 1

    init() throws {
        program = try GLProgram(ShaderSource.clippingMask)
    }

    func release() {}

    /// Forgets the masks of the previous frame (the stencil was cleared with the frame).
    func beginFrame() {
        source = nil
        references = [:]
        next = 1
    }

    /// Draws one mask per tile of `source` unless they are the ones in the stencil already.
    func drawMasks(for source: String, tiles: [OverscaledTileID], frame: FrameState) {
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

    /// A stencil value no tile mask holds, for a draw that must touch each pixel once (MapLibre's
    /// `stencilModeFor3D`); the masks are drawn again before the next clipped layer.
    func freshValue() -> GLint {
        reserveOverlapReferences(1)
    }

    /// Reserves `count` consecutive stencil references above every value written so far, for a
    /// raster-like layer's overlapping tiles (GL JS's `stencilConfigForOverlap`): the masks in the
    /// stencil are forgotten, and the stencil is cleared first when the references would pass 255.
    /// Returns the first reference.
    func reserveOverlapReferences(_ count: Int) -> GLint {
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
        glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_REPLACE))
        glStencilFunc(GLenum(GL_EQUAL), references[tile] ?? 0xFF, 0xFF)
    }
}
