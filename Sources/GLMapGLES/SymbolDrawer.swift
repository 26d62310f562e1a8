internal import CGLES3
import GLMapCore
import GLMapShaders
import GLMapStyle
import GLMapTessellation
import GLMapText

/// Draws `symbol` layers as GL JS's `draw_symbol` does: per layer, every tile's icons, then every
/// tile's text, in the frame plan's order (tiles in GL JS's symbol order, or by sort key); SDF
/// draws (text, SDF icons) first a halo pass when the layer has a halo width, then the fill. The
/// static vertices (anchors, offsets, texture positions, sizes, paint) are uploaded once per
/// bucket with the bucket's glyph atlas (one alpha channel, linear) and icon atlas (premultiplied
/// RGBA); the frame's positions and opacities (`SymbolKindFrame.dynamic`) and the quads to draw
/// are uploaded per frame. Not clipped to the tile, no depth test, blending ONE,
/// ONE_MINUS_SRC_ALPHA. Programs: `symbol_text`, `symbol_text_and_icon`, `symbol_icon_sdf`,
/// `symbol_icon`.
final class SymbolDrawer {
    /// Static vertex inputs, then the paint block.
    static let staticLayout = [("a_pos_offset", 4), ("a_data", 4), ("a_pixeloffset", 4)]
    /// Per-frame vertex inputs.
    static let dynamicLayout = [("a_projected_pos", 3), ("a_fade_opacity", 1)]

    let programs = ProgramCache()

    /// A symbol bucket's buffers and atlases.
    struct Uploaded {
        let bucket: SymbolBucket
        let textVertices: GLuint
        let iconVertices: GLuint
        let glyphAtlas: GLuint
        let iconAtlas: GLuint
    }

    func upload(_ s: SymbolBucket, owner: HeadlessContext) -> GPUBucket? {
        guard !s.layout.isEmpty else { return nil }
        let l = s.layout
        let glyphs = l.hasTextData
            ? GLDrawing.texture(width: l.glyphAtlas.width, height: l.glyphAtlas.height, format: GL_ALPHA, pixelFormat: GL_ALPHA,
                                filter: GL_LINEAR, wrap: GL_CLAMP_TO_EDGE, pixels: l.glyphAtlas.pixels)
            : 0
        let needsIcons = l.hasIconData || l.iconsInText
        let icons = needsIcons
            ? GLDrawing.texture(width: l.iconAtlas.width, height: l.iconAtlas.height, format: GL_RGBA, pixelFormat: GL_RGBA,
                                filter: GL_LINEAR, wrap: GL_CLAMP_TO_EDGE, pixels: l.iconAtlas.pixels)
            : 0
        let u = Uploaded(bucket: s, textVertices: GLDrawing.vertexBuffer(s.textVertices), iconVertices: GLDrawing.vertexBuffer(s.iconVertices),
                         glyphAtlas: glyphs, iconAtlas: icons)
        return GPUBucket(.symbol(u), buffers: [u.textVertices, u.iconVertices], textures: [glyphs, icons], owner: owner)
    }

    /// Draws one symbol layer of a frame.
    func draw(_ tiles: [(frame: SymbolTileFrame, bucket: Uploaded)], iconItems: [SymbolDrawItem], textItems: [SymbolDrawItem],
              frame: FrameState, stats: inout DrawStats) throws {
        var dynamicBuffers: [Int: GLuint] = [:]
        var indexBuffer: GLuint = 0
        glGenBuffers(1, &indexBuffer)
        defer {
            var all = Array(dynamicBuffers.values) + [indexBuffer]
            glDeleteBuffers(GLsizei(all.count), &all)
        }
        func dynamic(_ tile: Int, _ isText: Bool, _ kind: SymbolKindFrame) -> GLuint {
            let key = tile * 2 + (isText ? 1 : 0)
            if let b = dynamicBuffers[key] { return b }
            let b = GLDrawing.vertexBuffer(kind.dynamic)
            dynamicBuffers[key] = b
            return b
        }
        for (isText, items) in [(false, iconItems), (true, textItems)] {
            for item in items {
                let (tf, g) = tiles[item.tile]
                guard let kind = isText ? tf.text : tf.icon else { continue }
                let quads = kind.segments[item.segment].quads
                guard !quads.isEmpty else { continue }
                var indices: [UInt32] = []
                indices.reserveCapacity(quads.count * 6)
                for q in quads {
                    let v = q * 4
                    indices += [v, v + 2, v + 1, v + 1, v + 2, v + 3]
                }
                glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
                indices.withUnsafeBytes { glBufferData(GLenum(GL_ELEMENT_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
                let dyn = dynamic(item.tile, isText, kind)
                try drawKind(kind, bucket: g, isText: isText, dynamicBuffer: dyn, indexCount: indices.count,
                             maxIndex: Int(quads.max()!) * 4 + 3, frame: frame, stats: &stats)
            }
        }
    }

    /// One segment of one tile's text or icons: the halo pass (SDF with a halo), then the fill.
    func drawKind(_ kind: SymbolKindFrame, bucket g: Uploaded, isText: Bool, dynamicBuffer: GLuint, indexCount: Int, maxIndex: Int,
                  frame: FrameState, stats: inout DrawStats) throws {
        let u = kind.uniforms
        let b = g.bucket
        let paint = isText ? b.textPaint : b.iconPaint
        let source: ShaderSource.Program
        switch u.program {
        case .text: source = ShaderSource.symbolText
        case .textAndIcon: source = ShaderSource.symbolTextAndIcon
        case .iconSDF: source = ShaderSource.symbolIconSDF
        case .icon: source = ShaderSource.symbolIcon
        }
        let program = try programs.program(source, paint: paint)
        GLDrawing.resetAttributes()
        glUseProgram(program.id)
        try GLDrawing.bindAttributes(program, isText ? g.textVertices : g.iconVertices, GLDrawing.layout(Self.staticLayout, paint))
        try GLDrawing.bindAttributes(program, dynamicBuffer, Self.dynamicLayout)
        GLDrawing.setPaintUniforms(program, paint, zoom: frame.view.camera.zoom)
        func matrix(_ name: String, _ m: Matrix4) {
            glUniformMatrix4fv(program.uniform(name), 1, GLboolean(GL_FALSE), m.floats)
        }
        func flag(_ name: String, _ v: Bool) { glUniform1i(program.uniform(name), v ? 1 : 0) }
        matrix("u_matrix", u.posMatrix)
        matrix("u_label_plane_matrix", u.labelPlaneMatrix)
        matrix("u_coord_matrix", u.coordMatrix)
        let f = frame.clipFold
        matrix("u_fold", Matrix4([f.sx, 0, 0, 0, 0, f.sy, 0, 0, 0, 0, 1, 0, f.tx, f.ty, 0, 1]))
        flag("u_is_size_zoom_constant", u.sizeZoomConstant)
        flag("u_is_size_feature_constant", u.sizeFeatureConstant)
        glUniform1f(program.uniform("u_size_t"), Float(u.sizeT))
        glUniform1f(program.uniform("u_size"), Float(u.size))
        flag("u_is_text", u.isText)
        flag("u_pitch_with_map", u.pitchWithMap)
        flag("u_is_along_line", u.alongLine)
        flag("u_is_variable_anchor", u.variableAnchor)
        flag("u_rotate_symbol", u.rotateSymbol)
        glUniform1f(program.uniform("u_aspect_ratio"), Float(u.aspectRatio))
        glUniform1f(program.uniform("u_camera_to_center_distance"), Float(u.cameraToCenterDistance))
        glUniform2f(program.uniform("u_texsize"), Float(u.texSize.w), Float(u.texSize.h))
        glUniform2f(program.uniform("u_texsize_icon"), Float(u.texSizeIcon.w), Float(u.texSizeIcon.h))
        glUniform2f(program.uniform("u_translation"), Float(u.translation.x), Float(u.translation.y))
        glUniform1f(program.uniform("u_gamma_scale"), Float(u.gammaScale))
        glUniform1f(program.uniform("u_device_pixel_ratio"), Float(u.devicePixelRatio))
        glUniform1i(program.uniform("u_texture"), 0)
        glUniform1i(program.uniform("u_texture_icon"), 1)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), isText ? g.glyphAtlas : g.iconAtlas)
        let filter = u.linear ? GL_LINEAR : GL_NEAREST
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
        if u.program == .textAndIcon {
            glActiveTexture(GLenum(GL_TEXTURE1))
            glBindTexture(GLenum(GL_TEXTURE_2D), g.iconAtlas)
            let iconFilter = u.linearIcon ? GL_LINEAR : GL_NEAREST
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), iconFilter)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), iconFilter)
            glActiveTexture(GLenum(GL_TEXTURE0))
        }
        if u.isSDF && u.hasHalo {
            flag("u_is_halo", true)
            GLDrawing.drawTriangles(count: indexCount, maxIndex: maxIndex, stats: &stats)
        }
        flag("u_is_halo", false)
        GLDrawing.drawTriangles(count: indexCount, maxIndex: maxIndex, stats: &stats)
    }
}
