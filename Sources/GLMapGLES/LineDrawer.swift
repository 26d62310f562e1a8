internal import CGLES3
import GLMapCore
import GLMapShaders
import GLMapStyle
import GLMapTessellation

/// Draws `line` layers tile by tile (program `line`; variants DASH for `line-dasharray`, the
/// signed-distance line atlas, and GRADIENT for `line-gradient`, the colour ramp), with the
/// tile's matrix moved by `line-translate`; the stencil keeps each tile's draw in its square.
final class LineDrawer {
    /// line vertex: centre-line point (tile units), extrusion, normal, distance, direction.
    static let vertexLayout = [("a_pos", 2), ("a_extrude", 2), ("a_normal", 2), ("a_distance", 1), ("a_direction", 1)]
    /// The second vertex buffer of dashed and gradient lines (`LineBucket.fxLayout` floats).
    static let fxLayout = [("a_fx", 4), ("a_dash_to", 3), ("a_dash_from", 3)]

    let programs = ProgramCache()

    /// A line bucket's buffers and textures.
    struct Uploaded {
        let bucket: LineBucket
        let vertices, indices: GLuint
        var fxVertices: GLuint = 0
        var atlasTexture: GLuint = 0
        var rampTexture: GLuint = 0
        var patternVertices: GLuint = 0
    }

    func upload(_ l: LineBucket, owner: HeadlessContext) -> GPUBucket? {
        guard !l.indices.isEmpty else { return nil }
        var u = Uploaded(bucket: l, vertices: GLDrawing.vertexBuffer(l.vertices), indices: GLDrawing.indexBuffer(l.indices))
        u.patternVertices = GLDrawing.vertexBuffer(l.patternVertices)
        if !l.fxVertices.isEmpty {
            u.fxVertices = GLDrawing.vertexBuffer(l.fxVertices)
            if let atlas = l.atlas {
                // R8, LINEAR, REPEAT, as MapLibre binds its line atlas.
                u.atlasTexture = GLDrawing.texture(width: atlas.width, height: max(1, atlas.height), format: GL_R8, pixelFormat: GL_RED,
                                                   filter: GL_LINEAR, wrap: GL_REPEAT, pixels: atlas.pixels.isEmpty ? [0] : atlas.pixels)
            }
            if let ramp = l.ramp {
                // RGBA8, NEAREST for step gradients, else LINEAR; clamped.
                u.rampTexture = GLDrawing.texture(width: ramp.width, height: ramp.height, format: GL_RGBA8, pixelFormat: GL_RGBA,
                                                  filter: ramp.nearest ? GL_NEAREST : GL_LINEAR, wrap: GL_CLAMP_TO_EDGE, pixels: ramp.pixels)
            }
        }
        return GPUBucket(.line(u), buffers: [u.vertices, u.indices, u.fxVertices, u.patternVertices],
                         textures: [u.atlasTexture, u.rampTexture], owner: owner)
    }

    func draw(_ g: Uploaded, tile: TileDraw, frame: FrameState, stats: inout DrawStats) throws {
        let l = g.bucket
        let view = frame.view
        let patterned = l.layer.patterned
        if patterned && frame.patternTexture == 0 { return }
        let dashed = g.atlasTexture != 0 && !patterned, gradient = g.rampTexture != 0 && !patterned
        let defines = patterned ? ["PATTERN"] : (dashed ? ["DASH"] : []) + (gradient ? ["GRADIENT"] : [])
        let program = try programs.program(ShaderSource.line, defines: defines, paint: l.paint)
        glUseProgram(program.id)
        try GLDrawing.bindAttributes(program, g.vertices, GLDrawing.layout(Self.vertexLayout, l.paint))
        GLDrawing.setPaintUniforms(program, l.paint, zoom: view.camera.zoom)
        if dashed || gradient || patterned { try GLDrawing.bindAttributes(program, g.fxVertices, Self.fxLayout) }
        if patterned {
            try GLDrawing.bindAttributes(program, g.patternVertices, FillExtrusionDrawer.patternLayout)
            PatternUniforms.set(program, tile: tile.id, frame: frame)
        }
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), g.indices)
        glUniform1f(program.uniform("u_units_per_pixel"), Float(tile.unitsPerPixel))
        glUniform1f(program.uniform("u_ratio"), Float(frame.ratio))
        glUniform2f(program.uniform("u_units_to_pixels"), Float(view.width / 2 / frame.clipFold.sx), Float(-view.height / 2 / frame.clipFold.sy))
        if dashed, let atlas = l.atlas {
            // MapLibre's u_tileratio: CSS px per tile unit at the integer zoom the frame is drawn at.
            let tileratio = LineTiling.tileRatio(cameraZoom: view.camera.zoom, tileZoom: tile.id.canonical.z)
            glUniform1f(program.uniform("u_tileratio"), Float(tileratio))
            glUniform1f(program.uniform("u_crossfade_from"), Float(l.layer.dashFromScale))
            glUniform1f(program.uniform("u_crossfade_to"), 1)
            glUniform1f(program.uniform("u_mix"), 1)  // a still frame has finished cross-fading
            glUniform1f(program.uniform("u_lineatlas_height"), Float(atlas.height))
            glActiveTexture(GLenum(GL_TEXTURE1))
            glBindTexture(GLenum(GL_TEXTURE_2D), g.atlasTexture)
            glUniform1i(program.uniform("u_dash"), 1)
        }
        if gradient, let ramp = l.ramp {
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(GL_TEXTURE_2D), g.rampTexture)
            glUniform1i(program.uniform("u_gradient"), 0)
            glUniform1f(program.uniform("u_image_height"), Float(ramp.height))
        }
        GLDrawing.setMatrix(program, frame.matrix(tile.id, translate: l.layer.translate, inViewport: l.layer.translateAnchor == .viewport))
        GLDrawing.drawTriangles(count: l.indices.count, maxIndex: l.vertices.count / l.stride - 1, stats: &stats)
        if dashed || gradient { glActiveTexture(GLenum(GL_TEXTURE0)) }
    }
}
