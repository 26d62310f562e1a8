internal import CGLES3
import GLMapCore
import GLMapShaders
import GLMapStyle
import GLMapTiles

/// Draws `background` layers: one colour over the viewport, or over the part of it that shows
/// the world (`WorldBand`: a pitched view can see past the world's north or south edge, where
/// MapLibre, drawing backgrounds over the covering tiles, draws nothing). A `background-pattern`
/// is drawn as MapLibre draws it: over each tile covering the view (`TileCover` at tile size 512),
/// the pattern anchored at each tile's origin (program `background_pattern`); nothing when its
/// images are missing.
final class BackgroundDrawer {
    let program: GLProgram
    let patternProgram: GLProgram

    init() throws {
        program = try GLProgram(ShaderSource.background)
        patternProgram = try GLProgram(ShaderSource.backgroundPattern)
    }

    func draw(_ b: EvaluatedBackground, band: WorldBand, frame: FrameState) {
        if b.patterned {
            drawPattern(b, frame: frame)
            return
        }
        glUseProgram(program.id)
        glUniform4f(program.uniform("u_color"), Float(b.color.r), Float(b.color.g), Float(b.color.b), Float(b.color.a))
        glUniform1f(program.uniform("u_opacity"), Float(b.opacity))
        if band.coversView {
            glUniform1i(program.uniform("u_count"), 0)
            glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
            return
        }
        let poly = band.polygon.prefix(8)
        guard poly.count >= 3, let view = band.viewSize else { return }
        // screen CSS px → the frame's clip space → the tile's (ClipFold)
        let fold = frame.clipFold
        var xy: [Float] = []
        for p in poly {
            let nx = 2 * p.x / view.width - 1, ny = 1 - 2 * p.y / view.height
            xy.append(Float(fold.sx * nx + fold.tx))
            xy.append(Float(fold.sy * ny + fold.ty))
        }
        glUniform1i(program.uniform("u_count"), GLint(poly.count))
        glUniform2fv(program.uniform("u_polygon"), GLsizei(poly.count), xy)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(3 * (poly.count - 2)))
    }

    /// The pattern over every covering tile (nothing when an image is missing or no atlas is bound).
    private func drawPattern(_ b: EvaluatedBackground, frame: FrameState) {
        guard let p = b.pattern, frame.patternTexture != 0, b.opacity > 0 else { return }
        let p0 = patternProgram
        glUseProgram(p0.id)
        glUniform1f(p0.uniform("u_opacity"), Float(b.opacity))
        glUniform4f(p0.uniform("u_pattern_from"), Float(p.from.x0), Float(p.from.y0), Float(p.from.x1), Float(p.from.y1))
        glUniform4f(p0.uniform("u_pattern_to"), Float(p.to.x0), Float(p.to.y0), Float(p.to.x1), Float(p.to.y1))
        glUniform2f(p0.uniform("u_pixel_ratio"), Float(p.from.pixelRatio), Float(p.to.pixelRatio))
        for tile in TileCover(view: frame.view).tiles(tileSize: 512, maxzoom: CanonicalTileID.maxZoom) {
            PatternUniforms.set(p0, tile: tile, frame: frame)
            GLDrawing.setMatrix(p0, frame.matrix(tile))
            glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        }
    }
}
