internal import CGLES3
import Foundation
import GLMapCore
import GLMapShaders
import GLMapStyle
import GLMapTessellation
import GLMapTiles

/// Draws `fill-extrusion` layers as MapLibre's `drawFillExtrusion` does: every tile of the layer
/// with the depth test (LEQUAL, writing depth into the 3D range below every 2D layer's depth,
/// kept across the frame's extrusion layers), back faces culled. A layer at opacity 1 without a
/// pattern is drawn in one pass; otherwise two: depth only, then colour where the fragment is the
/// nearest surface, each pixel once (stencil NOTEQUAL a fresh value, REPLACE), so a translucent
/// building shows only its front faces. Heights are metres: the tile matrix scales z by pixels
/// per metre at the view's centre latitude. Not clipped to the tile (MapLibre's 3D layers are not).
final class FillExtrusionDrawer {
    /// Vertex: position (tile units), MapLibre's packed normal/top flag/edge distance.
    static let vertexLayout = [("a_pos", 2), ("a_normal_ed", 4)]
    /// The parallel pattern buffer of a patterned layer.
    static let patternLayout = [("a_pattern_from", 4), ("a_pattern_to", 4), ("a_pixel_ratio_from", 1), ("a_pixel_ratio_to", 1)]

    let programs = ProgramCache()

    /// A fill-extrusion bucket's buffers.
    struct Uploaded {
        let bucket: FillExtrusionBucket
        let vertices, indices, patternVertices: GLuint
    }

    func upload(_ b: FillExtrusionBucket, owner: HeadlessContext) -> GPUBucket? {
        guard !b.indices.isEmpty else { return nil }
        let u = Uploaded(bucket: b, vertices: GLDrawing.vertexBuffer(b.vertices), indices: GLDrawing.indexBuffer(b.indices),
                         patternVertices: GLDrawing.vertexBuffer(b.patternVertices))
        return GPUBucket(.fillExtrusion(u), buffers: [u.vertices, u.indices, u.patternVertices], textures: [], owner: owner)
    }

    /// Draws one layer's tiles (drawing order), in one or two passes.
    func draw(_ tiles: [(tile: OverscaledTileID, bucket: Uploaded)], frame: FrameState, clipping: TileClipping,
              stats: inout DrawStats) throws {
        guard let first = tiles.first?.bucket.bucket else { return }
        let zoom = max(0, frame.view.camera.zoom)
        let opacity = first.paint.source.value(FillExtrusionProperties.fillExtrusionOpacity, zoom: zoom).number ?? 1
        guard opacity > 0 else { return }
        clipping.prepareDepthStencil()
        glEnable(GLenum(GL_DEPTH_TEST))
        glDepthFunc(GLenum(GL_LEQUAL))
        glDepthMask(GLboolean(GL_TRUE))
        glDepthRangef(0, Float(frame.extrusionDepthEnd))
        glEnable(GLenum(GL_CULL_FACE))
        glCullFace(GLenum(GL_BACK))
        glFrontFace(GLenum(GL_CCW))
        defer {
            glDisable(GLenum(GL_DEPTH_TEST))
            glDisable(GLenum(GL_CULL_FACE))
            glDisable(GLenum(GL_STENCIL_TEST))
            glDepthRangef(0, 1)
            glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
            glStencilMask(0x00)
        }
        if opacity >= 1 && !first.layer.patterned {
            glDisable(GLenum(GL_STENCIL_TEST))
            try drawTiles(tiles, frame: frame, stats: &stats)
            return
        }
        // Depth only, then colour at the nearest depth, each pixel once.
        glDisable(GLenum(GL_STENCIL_TEST))
        glColorMask(GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE))
        try drawTiles(tiles, frame: frame, stats: &stats)
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        let ref = clipping.freshValue()
        glEnable(GLenum(GL_STENCIL_TEST))
        glStencilMask(0xFF)
        glStencilFunc(GLenum(GL_NOTEQUAL), ref, 0xFF)
        glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_REPLACE))
        // Each tile draws its own copy of the features in its buffer: copies of one surface reach
        // the depth buffer a rounding apart. Pulled a few depth steps nearer, every copy passes and
        // the stencil keeps the first one drawn, as when the copies' depths tie exactly.
        glEnable(GLenum(GL_POLYGON_OFFSET_FILL))
        glPolygonOffset(0, -Self.copyTolerance)
        defer { glDisable(GLenum(GL_POLYGON_OFFSET_FILL)) }
        try drawTiles(tiles, frame: frame, stats: &stats)
    }

    /// Depth steps within which copies of one surface from different tiles count as tied.
    static let copyTolerance: Float = 4

    private func drawTiles(_ tiles: [(tile: OverscaledTileID, bucket: Uploaded)], frame: FrameState, stats: inout DrawStats) throws {
        let view = frame.view
        let zoom = max(0, view.camera.zoom)
        let ppm = MercatorAltitude.pixelsPerMeter(latitude: view.camera.latitude, worldSize: view.worldSize)
        let light = frame.light
        let direction = light.direction(bearing: view.camera.bearing)
        for (tile, g) in tiles {
            let b = g.bucket
            let patterned = b.layer.patterned
            if patterned && frame.patternTexture == 0 { continue }
            let source = patterned ? ShaderSource.fillExtrusionPattern : ShaderSource.fillExtrusion
            let program = try programs.program(source, paint: b.paint)
            GLDrawing.resetAttributes()
            glUseProgram(program.id)
            try GLDrawing.bindAttributes(program, g.vertices, GLDrawing.layout(Self.vertexLayout, b.paint))
            GLDrawing.setPaintUniforms(program, b.paint, zoom: zoom)
            let m = frame.matrix(tile, translate: b.layer.translate, inViewport: b.layer.translateAnchor == .viewport)
                * Matrix4.scale(1, 1, ppm)
            GLDrawing.setMatrix(program, m)
            glUniform3f(program.uniform("u_lightpos"), Float(direction.x), Float(direction.y), Float(direction.z))
            glUniform1f(program.uniform("u_lightintensity"), Float(light.intensity))
            glUniform3f(program.uniform("u_lightcolor"), Float(light.color.r), Float(light.color.g), Float(light.color.b))
            glUniform1f(program.uniform("u_vertical_gradient"), b.layer.verticalGradient ? 1 : 0)
            if patterned {
                try GLDrawing.bindAttributes(program, g.patternVertices, Self.patternLayout)
                PatternUniforms.set(program, tile: tile, frame: frame)
                glUniform1f(program.uniform("u_height_factor"), Float(PatternUniforms.heightFactor(tile)))
            }
            glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), g.indices)
            GLDrawing.drawTriangles(count: b.indices.count, maxIndex: b.vertices.count / b.stride - 1, stats: &stats)
        }
    }
}
