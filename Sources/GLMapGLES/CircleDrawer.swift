internal import CGLES3
import GLMapCore
import GLMapShaders
import GLMapStyle
import GLMapTessellation

/// Draws `circle` layers tile by tile: one instanced quad per point (program `circle`), the
/// quad's corners from a shared corner buffer, the point and its data-driven paint per instance.
/// Not clipped to the tile (each point belongs to the one tile that contains it).
final class CircleDrawer {
    /// Per-vertex corner of the instanced quad.
    static let cornerLayout = [("a_corner", 2)]
    /// Per-instance: the circle's centre in tile units (then the paint block).
    static let instanceLayout = [("a_center", 2)]

    let programs = ProgramCache()
    var cornerBuffer: GLuint = 0

    /// A circle bucket's instance buffer.
    struct Uploaded {
        let bucket: CircleBucket
        let instances: GLuint
    }

    /// Creates the shared corner buffer (the context is current).
    func prepare() throws {
        let corners: [Float] = [-1, -1, 1, -1, -1, 1, 1, 1]
        cornerBuffer = GLDrawing.vertexBuffer(corners)
    }

    func release() {
        if cornerBuffer != 0 { glDeleteBuffers(1, &cornerBuffer) }
    }

    func upload(_ c: CircleBucket, owner: HeadlessContext) -> GPUBucket? {
        guard c.instanceCount > 0 else { return nil }
        let u = Uploaded(bucket: c, instances: GLDrawing.vertexBuffer(c.instances))
        return GPUBucket(.circle(u), buffers: [u.instances], textures: [], owner: owner)
    }

    func draw(_ g: Uploaded, tile: TileDraw, frame: FrameState, stats: inout DrawStats) throws {
        let c = g.bucket
        let view = frame.view
        let circle = try programs.program(ShaderSource.circle, paint: c.paint)
        glUseProgram(circle.id)
        try GLDrawing.bindAttributes(circle, cornerBuffer, Self.cornerLayout)
        try GLDrawing.bindAttributes(circle, g.instances, GLDrawing.layout(Self.instanceLayout, c.paint), divisor: 1)
        GLDrawing.setPaintUniforms(circle, c.paint, zoom: view.camera.zoom)
        let pitchWithMap = c.layer.pitchAlignment == .map
        glUniform1i(circle.uniform("u_scale_with_map"), c.layer.pitchScale == .map ? 1 : 0)
        glUniform1i(circle.uniform("u_pitch_with_map"), pitchWithMap ? 1 : 0)
        if pitchWithMap {
            let upp = Float(tile.unitsPerPixel)
            glUniform2f(circle.uniform("u_extrude_scale"), upp, upp)
        } else {
            glUniform2f(circle.uniform("u_extrude_scale"), Float(2 / view.width * frame.clipFold.sx), Float(-2 / view.height * frame.clipFold.sy))
        }
        glUniform1f(circle.uniform("u_camera_to_center_distance"), Float(view.cameraToCenterDistance))
        glUniform1f(circle.uniform("u_ratio"), Float(frame.ratio))
        GLDrawing.setMatrix(circle, frame.matrix(tile.id, translate: c.layer.translate, inViewport: c.layer.translateAnchor == .viewport))
        glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(c.instanceCount))
        stats.triangles += 2 * c.instanceCount
        stats.calls += 1
    }
}
