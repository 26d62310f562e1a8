internal import CGLES3
import GLMapCore
import GLMapShaders
import GLMapStyle
import GLMapTessellation

/// Draws `fill` layers tile by tile: earcut triangles (program `fill`) and, with
/// `fill-antialias`, the 1-pixel outline of every ring edge (program `fill_outline`), both with
/// the tile's matrix moved by `fill-translate`; the stencil keeps each tile's draw in its square.
final class FillDrawer {
    /// fill vertex: x, y in tile units.
    static let vertexLayout = [("a_pos", 2)]
    /// fill outline vertex (one quad per ring edge): start, end, t (0 start / 1 end), side (±1).
    static let outlineLayout = [("a_start", 2), ("a_end", 2), ("a_t", 1), ("a_side", 1)]

    let programs = ProgramCache()

    /// A fill bucket's buffers.
    struct Uploaded {
        let bucket: FillBucket
        let vertices, indices, outlineVertices, outlineIndices: GLuint
        var patternVertices: GLuint = 0, outlinePatternVertices: GLuint = 0
    }

    func upload(_ f: FillBucket, owner: HeadlessContext) -> GPUBucket? {
        guard !f.indices.isEmpty || !f.outlineIndices.isEmpty else { return nil }
        var u = Uploaded(bucket: f, vertices: GLDrawing.vertexBuffer(f.vertices), indices: GLDrawing.indexBuffer(f.indices),
                         outlineVertices: GLDrawing.vertexBuffer(f.outlineVertices),
                         outlineIndices: GLDrawing.indexBuffer(f.outlineIndices))
        u.patternVertices = GLDrawing.vertexBuffer(f.patternVertices)
        u.outlinePatternVertices = GLDrawing.vertexBuffer(f.outlinePatternVertices)
        return GPUBucket(.fill(u), buffers: [u.vertices, u.indices, u.outlineVertices, u.outlineIndices, u.patternVertices, u.outlinePatternVertices],
                         textures: [], owner: owner)
    }

    /// Draws a tile's fills and (with `fill-antialias`) outlines; `interiorOnly`: the triangles alone.
    func draw(_ g: Uploaded, tile: TileDraw, frame: FrameState, stats: inout DrawStats, interiorOnly: Bool = false) throws {
        let f = g.bucket
        let m = frame.matrix(tile.id, translate: f.layer.translate, inViewport: f.layer.translateAnchor == .viewport)
        let zoom = frame.view.camera.zoom
        let patterned = f.layer.patterned
        if patterned && frame.patternTexture == 0 { return }
        if !f.indices.isEmpty {
            let fill = try programs.program(patterned ? ShaderSource.fillPattern : ShaderSource.fill, paint: f.paint)
            glUseProgram(fill.id)
            try GLDrawing.bindAttributes(fill, g.vertices, GLDrawing.layout(Self.vertexLayout, f.paint))
            if patterned {
                try GLDrawing.bindAttributes(fill, g.patternVertices, FillExtrusionDrawer.patternLayout)
                PatternUniforms.set(fill, tile: tile.id, frame: frame)
            }
            GLDrawing.setPaintUniforms(fill, f.paint, zoom: zoom)
            GLDrawing.setMatrix(fill, m)
            glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), g.indices)
            GLDrawing.drawTriangles(count: f.indices.count, maxIndex: f.vertices.count / f.stride - 1, stats: &stats)
        }
        if !f.outlineIndices.isEmpty && !interiorOnly {
            // The cheaper distance where the matrix has no perspective on the ground (fill_outline.vert).
            let mf = m.floats
            let affine = mf[3] == 0 && mf[7] == 0
            let source = f.layer.patternOutline ? ShaderSource.fillOutlinePattern : ShaderSource.fillOutline
            let outline = try programs.program(source, defines: affine ? ["AFFINE"] : [], paint: f.outlinePaint)
            GLDrawing.resetAttributes()
            glUseProgram(outline.id)
            try GLDrawing.bindAttributes(outline, g.outlineVertices, GLDrawing.layout(Self.outlineLayout, f.outlinePaint))
            if f.layer.patternOutline {
                try GLDrawing.bindAttributes(outline, g.outlinePatternVertices, FillExtrusionDrawer.patternLayout)
                PatternUniforms.set(outline, tile: tile.id, frame: frame)
            }
            GLDrawing.setPaintUniforms(outline, f.outlinePaint, zoom: zoom)
            GLDrawing.setMatrix(outline, m)
            glUniform2f(outline.uniform("u_viewport"), frame.viewport.0, frame.viewport.1)
            glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), g.outlineIndices)
            GLDrawing.drawTriangles(count: f.outlineIndices.count, maxIndex: f.outlineVertices.count / f.outlineStride - 1, stats: &stats)
        }
    }
}
