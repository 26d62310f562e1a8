internal import CGLES3
import GLMapCore
import GLMapShaders
import GLMapStyle

/// Draws `background` layers: one colour over the viewport, or over the part of it that shows
/// the world (`WorldBand`: a pitched view can see past the world's north or south edge, where
/// MapLibre, drawing backgrounds over the covering tiles, draws nothing).
final class BackgroundDrawer {
    let program: GLProgram

    init() throws {
        program = try GLProgram(ShaderSource.background)
    }

    func draw(_ b: EvaluatedBackground, band: WorldBand, frame: FrameState) {
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
}
