internal import CGLES3
import GLMapCore
import GLMapShaders
import GLMapStyle
import GLMapTessellation

/// Draws `circle` layers tile by tile: one quad per point (program `circle`; `PointQuads`: four
/// vertices with the point and its data-driven paint, two indexed triangles). Not clipped to the
/// tile (each point belongs to the one tile that contains it).
final class CircleDrawer {
    /// Per point: the circle's centre in tile units (then the paint block), after the corner.
    static let pointLayout = [("a_center", 2)]

    let programs = ProgramCache()
    let quads = PointQuads()

    /// A circle bucket's vertex buffer (four vertices per point).
    struct Uploaded {
        let bucket: CircleBucket
        let vertices: GLuint
    }

    func release() { quads.release() }

    func upload(_ c: CircleBucket, owner: HeadlessContext) -> GPUBucket? {
        guard c.instanceCount > 0 else { return nil }
        let u = Uploaded(bucket: c, vertices: GLDrawing.vertexBuffer(PointQuads.vertices(c.instances, stride: c.stride)))
        return GPUBucket(.circle(u), buffers: [u.vertices], textures: [], owner: owner)
    }

    func draw(_ g: Uploaded, tile: TileDraw, frame: FrameState, stats: inout DrawStats) throws {
        let c = g.bucket
        let view = frame.view
        let circle = try programs.program(ShaderSource.circle, paint: c.paint)
        glUseProgram(circle.id)
        try GLDrawing.bindAttributes(circle, g.vertices, GLDrawing.layout(PointQuads.cornerLayout + Self.pointLayout, c.paint))
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
        quads.draw(count: c.instanceCount, stats: &stats)
    }
}
