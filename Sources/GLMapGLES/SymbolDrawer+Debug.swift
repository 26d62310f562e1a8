internal import CGLES3
import GLMapCore
import GLMapShaders
import GLMapText

// The collision debug overlay on the GPU (GL JS's `drawCollisionDebug`, `showCollisionBoxes`):
// takes the placement's `SymbolCollisionDebug` (boxes and circles already on the screen, CSS px,
// colours decided), draws it after the layer's symbols with the frame's premultiplied blending,
// no stencil or depth. Boxes are GL_LINES one pixel wide (`collision_box`), circles quads shaded
// to rings (`collision_circle`).

extension SymbolDrawer {
    /// Draws a symbol layer's collision debug overlay as GL JS's `drawCollisionDebug` does after
    /// the layer: text boxes (GL_LINES, one colour per box), the line labels' circles (a quad
    /// each, `collision_circle`), then icon boxes. Positions are the placement's, in CSS px.
    func drawDebug(_ debug: SymbolCollisionDebug, frame: FrameState, stats: inout DrawStats) throws {
        try drawBoxes(debug.textBoxes, frame: frame, stats: &stats)
        try drawCircles(debug.circles, frame: frame, stats: &stats)
        try drawBoxes(debug.iconBoxes, frame: frame, stats: &stats)
    }

    /// The viewport in CSS px and the fold, shared by both debug programs.
    private func setFrameUniforms(_ program: GLProgram, _ frame: FrameState) {
        glUniform2f(program.uniform("u_viewport_size"), Float(frame.view.width), Float(frame.view.height))
        let f = frame.clipFold
        glUniformMatrix4fv(program.uniform("u_fold"), 1, GLboolean(GL_FALSE),
                           Matrix4([f.sx, 0, 0, 0, 0, f.sy, 0, 0, 0, 0, 1, 0, f.tx, f.ty, 0, 1]).floats)
    }

    private func drawBoxes(_ boxes: [SymbolDebugBox], frame: FrameState, stats: inout DrawStats) throws {
        guard !boxes.isEmpty else { return }
        var vertices: [Float] = []
        var indices: [UInt32] = []
        vertices.reserveCapacity(boxes.count * 24)
        for box in boxes {
            let base = UInt32(vertices.count / 6)
            for c in box.corners {
                vertices += [Float(c.x), Float(c.y), Float(box.color.r), Float(box.color.g), Float(box.color.b), Float(box.color.a)]
            }
            indices += [base, base + 1, base + 1, base + 2, base + 2, base + 3, base + 3, base]
        }
        let program = try programs.program(ShaderSource.collisionBox)
        GLDrawing.resetAttributes()
        glUseProgram(program.id)
        setFrameUniforms(program, frame)
        var buffers = [GLDrawing.vertexBuffer(vertices), GLDrawing.indexBuffer(indices)]
        defer { glDeleteBuffers(2, &buffers) }
        try GLDrawing.bindAttributes(program, buffers[0], [("a_pos", 2), ("a_color", 4)])
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), buffers[1])
        stats.calls += 1
        glDrawElements(GLenum(GL_LINES), GLsizei(indices.count), GLenum(GL_UNSIGNED_INT), nil)
    }

    private func drawCircles(_ circles: [SymbolDebugCircle], frame: FrameState, stats: inout DrawStats) throws {
        guard !circles.isEmpty else { return }
        var vertices: [Float] = []
        var indices: [UInt32] = []
        vertices.reserveCapacity(circles.count * 20)
        for (i, c) in circles.enumerated() {
            for _ in 0..<4 {
                vertices += [Float(c.center.x), Float(c.center.y), Float(c.radius), c.collided ? 1 : 0, Float(c.perspectiveRatio)]
            }
            let v = UInt32(i * 4)
            indices += [v, v + 1, v + 2, v + 2, v + 3, v]
        }
        let program = try programs.program(ShaderSource.collisionCircle)
        GLDrawing.resetAttributes()
        glUseProgram(program.id)
        setFrameUniforms(program, frame)
        var buffers = [GLDrawing.vertexBuffer(vertices), GLDrawing.indexBuffer(indices)]
        defer { glDeleteBuffers(2, &buffers) }
        try GLDrawing.bindAttributes(program, buffers[0], [("a_pos", 2), ("a_radius", 1), ("a_collision", 1), ("a_perspective_ratio", 1)])
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), buffers[1])
        GLDrawing.drawTriangles(count: indices.count, maxIndex: circles.count * 4 - 1, stats: &stats)
    }
}
