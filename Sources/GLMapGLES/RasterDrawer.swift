// GLES raster drawers — contract
// Input: a `RasterLayerDraw` per raster-like layer of a frame plan (a raster, hillshade or
// color-relief layer's tiles with their pictures or elevations, in GL JS's drawing order).
// Upload (before the frame is drawn): each picture becomes a premultiplied RGBA8 texture (with
// mip levels when it is a power-of-two square: GL JS's raster tiles use LINEAR_MIPMAP_NEAREST);
// each DEM an RGBA8 texture of its padded grid; each DEM a hillshade layer draws is prepared once
// into a dim × dim RGBA8 slopes texture by the `hillshade_prepare` program (GL JS's offscreen
// pass). Textures are cached by the picture's or DEM's key while plans keep using them.
// Draw: one strip of two triangles per tile (`raster`, `hillshade`, `color_relief` programs,
// with GL JS's pixel-aligned matrix: `ViewTransform.pixelAlignment`),
// with GL JS's overlap stencil when the layer's tiles span several zooms: references reserved
// above every value in the stencil (`TileClipping.reserveOverlapReferences`), one per zoom,
// deeper zooms higher, GEQUAL + REPLACE, so a shallower tile only fills what deeper ones left.
// GL state: leaves blending as the frame loop set it, the stencil test off, the stencil write
// mask at 0; uploads bind their own framebuffer and leave framebuffer 0 bound.
internal import CGLES3
import GLMapCore
import GLMapShaders
import GLMapStyle
import GLMapTiles

/// A texture owned by the raster drawers, deleted in its context when the last user lets go.
final class GPUTexture {
    let id: GLuint
    let width: Int
    let height: Int
    /// Whether mip levels were generated.
    let mipmapped: Bool
    let owner: HeadlessContext

    init(id: GLuint, width: Int, height: Int, mipmapped: Bool, owner: HeadlessContext) {
        (self.id, self.width, self.height, self.mipmapped, self.owner) = (id, width, height, mipmapped, owner)
        GPUScene.count(1)
    }

    deinit {
        GPUScene.count(-1)
        guard owner.makeCurrentForTeardown() else { return }
        var t = id
        glDeleteTextures(1, &t)
    }

    /// Sets the filters (and clamp-to-edge wrapping) of the bound texture.
    func setFilters(mag: Int32, min: Int32) {
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), mag)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), min)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    }
}

/// Draws `raster`, `hillshade` and `color-relief` layers (see the contract above).
final class RasterDrawer {
    /// What a texture holds.
    enum TextureKey: Hashable {
        case picture(UInt64)
        case dem(UInt64)
        case slopes(UInt64, zoom: Int)
    }

    /// A tile's textures for one layer.
    struct TileTextures {
        var picture: GPUTexture?
        var dem: GPUTexture?
        var slopes: GPUTexture?
    }

    /// A layer ready to draw: its draw and each tile's textures (same order).
    struct Uploaded {
        let draw: RasterLayerDraw
        let textures: [TileTextures]
    }

    let programs = ProgramCache()
    /// GL_EXT_texture_filter_anisotropic's largest anisotropy (nil: not supported), queried once.
    private lazy var maxAnisotropy: Float? = {
        var n: GLint = 0
        glGetIntegerv(GLenum(GL_NUM_EXTENSIONS), &n)
        for i in 0..<max(0, Int(n)) {
            guard let s = glGetStringi(GLenum(GL_EXTENSIONS), GLuint(i)).map({ String(cString: $0) }),
                  s == "GL_EXT_texture_filter_anisotropic" else { continue }
            var m: GLfloat = 0
            glGetFloatv(GLenum(0x84FF), &m)   // GL_MAX_TEXTURE_MAX_ANISOTROPY_EXT
            return m > 1 ? m : nil
        }
        return nil
    }()
    private var textures: [TextureKey: (texture: GPUTexture, used: Int)] = [:]
    private var prepareFramebuffer: GLuint = 0

    func release() {
        textures = [:]
        if prepareFramebuffer != 0 { glDeleteFramebuffers(1, &prepareFramebuffer) }
    }

    /// Uploads what `draw` needs that is not uploaded yet (hillshade slopes prepared here).
    func upload(_ draw: RasterLayerDraw, generation: Int, owner: HeadlessContext) throws -> Uploaded {
        var out: [TileTextures] = []
        for t in draw.tiles {
            var tt = TileTextures()
            switch draw.paint {
            case .raster:
                if let p = t.texture { tt.picture = picture(p, generation: generation, owner: owner) }
            case .hillshade:
                if let d = t.dem { tt.slopes = try slopes(d, zoom: t.tile.overscaledZ, generation: generation, owner: owner) }
            case .colorRelief:
                if let d = t.dem { tt.dem = dem(d, generation: generation, owner: owner) }
            }
            out.append(tt)
        }
        return Uploaded(draw: draw, textures: out)
    }

    /// Forgets textures no plan since generation `keep` used.
    func evict(keep: Int) {
        textures = textures.filter { $0.value.used >= keep }
    }

    private func cached(_ key: TextureKey, generation: Int) -> GPUTexture? {
        guard let hit = textures[key] else { return nil }
        textures[key] = (hit.texture, generation)
        return hit.texture
    }

    /// A picture as a premultiplied RGBA8 texture (mip levels for a power-of-two square).
    private func picture(_ p: RasterTexture, generation: Int, owner: HeadlessContext) -> GPUTexture {
        if let hit = cached(.picture(p.key), generation: generation) { return hit }
        let image = p.image
        let px = image.premultiplied().pixels
        let pot = image.width == image.height && image.width > 0 && image.width & (image.width - 1) == 0
        let id = GLDrawing.texture(width: image.width, height: image.height, format: GL_RGBA8, pixelFormat: GL_RGBA,
                                   filter: GL_LINEAR, wrap: GL_CLAMP_TO_EDGE, pixels: px)
        if pot { glGenerateMipmap(GLenum(GL_TEXTURE_2D)) }
        let t = GPUTexture(id: id, width: image.width, height: image.height, mipmapped: pot, owner: owner)
        textures[.picture(p.key)] = (t, generation)
        return t
    }

    /// A DEM's padded grid as an RGBA8 texture (not premultiplied).
    private func dem(_ d: DEMTexture, generation: Int, owner: HeadlessContext) -> GPUTexture {
        if let hit = cached(.dem(d.key), generation: generation) { return hit }
        let id = GLDrawing.texture(width: d.dem.stride, height: d.dem.stride, format: GL_RGBA8, pixelFormat: GL_RGBA,
                                   filter: GL_NEAREST, wrap: GL_CLAMP_TO_EDGE, pixels: d.dem.pixels)
        let t = GPUTexture(id: id, width: d.dem.stride, height: d.dem.stride, mipmapped: false, owner: owner)
        textures[.dem(d.key)] = (t, generation)
        return t
    }

    /// A DEM's slopes prepared at `zoom` (GL JS's hillshade prepare pass) into a dim × dim texture.
    private func slopes(_ d: DEMTexture, zoom: Int, generation: Int, owner: HeadlessContext) throws -> GPUTexture {
        if let hit = cached(.slopes(d.key, zoom: zoom), generation: generation) { return hit }
        let demTexture = dem(d, generation: generation, owner: owner)
        let dim = d.dem.dim
        let id = GLDrawing.texture(width: dim, height: dim, format: GL_RGBA8, pixelFormat: GL_RGBA,
                                   filter: GL_LINEAR, wrap: GL_CLAMP_TO_EDGE, pixels: [UInt8](repeating: 0, count: dim * dim * 4))
        let out = GPUTexture(id: id, width: dim, height: dim, mipmapped: false, owner: owner)
        if prepareFramebuffer == 0 { glGenFramebuffers(1, &prepareFramebuffer) }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), prepareFramebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), id, 0)
        defer { glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0) }
        guard glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw GLError(call: "glCheckFramebufferStatus", message: "the \(dim)x\(dim) hillshade slopes framebuffer is incomplete on this driver")
        }
        glViewport(0, 0, GLsizei(dim), GLsizei(dim))
        glDisable(GLenum(GL_BLEND))
        glDisable(GLenum(GL_STENCIL_TEST))
        glDisable(GLenum(GL_DEPTH_TEST))
        let program = try programs.program(ShaderSource.hillshadePrepare)
        glUseProgram(program.id)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), demTexture.id)
        demTexture.setFilters(mag: GL_NEAREST, min: GL_NEAREST)
        glUniform1i(program.uniform("u_image"), 0)
        glUniform2f(program.uniform("u_dimension"), Float(d.dem.stride), Float(d.dem.stride))
        glUniform1f(program.uniform("u_zoom"), Float(zoom))
        let u = d.dem.unpackVector
        glUniform4f(program.uniform("u_unpack"), Float(u[0]), Float(u[1]), Float(u[2]), Float(u[3]))
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glEnable(GLenum(GL_BLEND))
        try GLState.check("preparing hillshade slopes")
        textures[.slopes(d.key, zoom: zoom)] = (out, generation)
        return out
    }

    /// Draws one uploaded layer into the bound framebuffer.
    func draw(_ layer: Uploaded, frame: FrameState, clipping: TileClipping, stats: inout DrawStats) throws {
        let draw = layer.draw
        guard !draw.tiles.isEmpty else { return }
        let zooms = draw.tiles.map(\.tile.overscaledZ)
        let minZ = zooms.min()!, maxZ = zooms.max()!
        let stencil = draw.stencilOverlap && maxZ > minZ
        var firstReference: GLint = 0
        if stencil {
            firstReference = clipping.reserveOverlapReferences(maxZ - minZ + 1)
            glEnable(GLenum(GL_STENCIL_TEST))
            glStencilMask(0xFF)
            glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_REPLACE))
        } else {
            glDisable(GLenum(GL_STENCIL_TEST))
        }
        defer {
            glStencilMask(0x00)
            glDisable(GLenum(GL_STENCIL_TEST))
        }
        let program: GLProgram
        switch draw.paint {
        case .raster(let p):
            guard p.opacity > 0 else { return }
            program = try programs.program(ShaderSource.raster)
            glUseProgram(program.id)
            glUniform1i(program.uniform("u_image0"), 0)
            glUniform1f(program.uniform("u_opacity"), Float(p.opacity))
            glUniform1f(program.uniform("u_brightness_low"), Float(p.brightnessMin))
            glUniform1f(program.uniform("u_brightness_high"), Float(p.brightnessMax))
            glUniform1f(program.uniform("u_saturation_factor"), Float(p.saturationFactor))
            glUniform1f(program.uniform("u_contrast_factor"), Float(p.contrastFactor))
            let w = p.spinWeights
            glUniform3f(program.uniform("u_spin_weights"), Float(w.0), Float(w.1), Float(w.2))
        case .hillshade(let p):
            guard p.exaggeration != 0 else { return }
            program = try programs.program(ShaderSource.hillshade)
            glUseProgram(program.id)
            HillshadeUniforms.set(program, p, bearing: frame.view.camera.bearing)
        case .colorRelief(let p):
            program = try programs.program(ShaderSource.colorRelief)
            glUseProgram(program.id)
            glUniform1f(program.uniform("u_opacity"), Float(p.opacity))
            glUniform1i(program.uniform("u_image"), 0)
            glUniform1i(program.uniform("u_elevation_stops"), 1)
            glUniform1i(program.uniform("u_color_stops"), 2)
        }
        var ramps: [String: (elevations: GLuint, colors: GLuint, count: Int)] = [:]
        defer {
            for r in ramps.values {
                var ids = [r.elevations, r.colors]
                glDeleteTextures(2, &ids)
            }
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        // GL JS draws raster-like tiles of a still frame with its pixel-aligned matrix.
        let alignment = frame.view.pixelAlignment
        for (t, textures) in zip(draw.tiles, layer.textures) {
            if t.corners == nil { guard frame.showsSquare(of: t.tile) else { continue } }
            if stencil {
                glStencilFunc(GLenum(GL_GEQUAL), firstReference + GLint(t.tile.overscaledZ - minZ), 0xFF)
            }
            GLDrawing.setMatrix(program, frame.matrix(t.tile, translate: alignment))
            switch draw.paint {
            case .raster(let p):
                guard let tex = textures.picture else { continue }
                glBindTexture(GLenum(GL_TEXTURE_2D), tex.id)
                tex.setFilters(mag: p.resampling == .nearest ? GL_NEAREST : GL_LINEAR,
                               min: tex.mipmapped ? GL_LINEAR_MIPMAP_NEAREST : GL_LINEAR)
                // GL JS filters mipmapped tiles anisotropically (the most the GPU allows) past 20° of pitch.
                if tex.mipmapped, let m = maxAnisotropy {
                    glTexParameterf(GLenum(GL_TEXTURE_2D), GLenum(0x84FE), frame.view.camera.pitch > 20 ? m : 1)   // GL_TEXTURE_MAX_ANISOTROPY_EXT
                }
                let q = t.quad
                glUniform4f(program.uniform("u_coords_top"), Float(q[0].x), Float(q[0].y), Float(q[1].x), Float(q[1].y))
                glUniform4f(program.uniform("u_coords_bottom"), Float(q[3].x), Float(q[3].y), Float(q[2].x), Float(q[2].y))
            case .hillshade:
                guard let tex = textures.slopes else { continue }
                glBindTexture(GLenum(GL_TEXTURE_2D), tex.id)
                tex.setFilters(mag: GL_LINEAR, min: GL_LINEAR)
                let c = t.tile.canonical
                glUniform2f(program.uniform("u_latrange"), Float(c.lonLat(x: 0, y: 0).lat), Float(c.lonLat(x: 0, y: Double(TileExtent.extent)).lat))
            case .colorRelief(let p):
                guard let tex = textures.dem, let dem = t.dem?.dem else { continue }
                let ramp = ColorReliefRamp(p, encoding: dem.encoding)
                let name = dem.encoding.name + "\(dem.unpackVector)"
                if ramps[name] == nil { ramps[name] = ColorReliefTextures.make(ramp) }
                let r = ramps[name]!
                glActiveTexture(GLenum(GL_TEXTURE1))
                glBindTexture(GLenum(GL_TEXTURE_2D), r.elevations)
                glActiveTexture(GLenum(GL_TEXTURE2))
                glBindTexture(GLenum(GL_TEXTURE_2D), r.colors)
                glActiveTexture(GLenum(GL_TEXTURE0))
                glBindTexture(GLenum(GL_TEXTURE_2D), tex.id)
                tex.setFilters(mag: GL_LINEAR, min: GL_LINEAR)
                glUniform1i(program.uniform("u_color_ramp_size"), GLint(r.count))
                let u = dem.unpackVector
                glUniform4f(program.uniform("u_unpack"), Float(u[0]), Float(u[1]), Float(u[2]), Float(u[3]))
                glUniform2f(program.uniform("u_dimension"), Float(dem.stride), Float(dem.stride))
            }
            glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
            stats.triangles += 2
            stats.calls += 1
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
    }
}

/// The hillshade program's uniforms from a layer's paint.
enum HillshadeUniforms {
    static func set(_ program: GLProgram, _ p: EvaluatedHillshadePaint, bearing: Double) {
        let lights = Array(p.lights(bearing: bearing).prefix(16))
        glUniform1i(program.uniform("u_image"), 0)
        glUniform1f(program.uniform("u_exaggeration"), Float(p.exaggeration))
        let a = p.accentColor
        glUniform4f(program.uniform("u_accent"), Float(a.r), Float(a.g), Float(a.b), Float(a.a))
        glUniform1i(program.uniform("u_method"), GLint(p.methodCode))
        glUniform1i(program.uniform("u_num_lights"), GLint(lights.count))
        guard !lights.isEmpty else { return }
        glUniform1fv(program.uniform("u_altitudes"), GLsizei(lights.count), lights.map { Float($0.altitude) })
        glUniform1fv(program.uniform("u_azimuths"), GLsizei(lights.count), lights.map { Float($0.azimuth) })
        glUniform4fv(program.uniform("u_shadows"), GLsizei(lights.count), lights.flatMap { [Float($0.shadow.r), Float($0.shadow.g), Float($0.shadow.b), Float($0.shadow.a)] })
        glUniform4fv(program.uniform("u_highlights"), GLsizei(lights.count),
                     lights.flatMap { [Float($0.highlight.r), Float($0.highlight.g), Float($0.highlight.b), Float($0.highlight.a)] })
    }
}

/// The color-relief ramp as GL JS's two N × 1 textures: stop elevations in the DEM's encoding
/// (NEAREST) and premultiplied colours (LINEAR).
enum ColorReliefTextures {
    static func make(_ ramp: ColorReliefRamp) -> (elevations: GLuint, colors: GLuint, count: Int) {
        let n = ramp.colors.count
        var elevations = [UInt8](), colors = [UInt8]()
        for e in ramp.packedElevations { elevations += [e[0], e[1], e[2], 255] }
        for c in ramp.colors { colors += [c.r, c.g, c.b, c.a] }
        let e = GLDrawing.texture(width: n, height: 1, format: GL_RGBA8, pixelFormat: GL_RGBA, filter: GL_NEAREST, wrap: GL_CLAMP_TO_EDGE, pixels: elevations)
        let c = GLDrawing.texture(width: n, height: 1, format: GL_RGBA8, pixelFormat: GL_RGBA, filter: GL_LINEAR, wrap: GL_CLAMP_TO_EDGE, pixels: colors)
        return (e, c, n)
    }
}
