// Tiled frames — contract
// Input: an uploaded `GPUScene`, a `ViewTransform` and the pixel ratio whose device size W × H is
// larger than one framebuffer may be: GL's limit (min of GL_MAX_RENDERBUFFER_SIZE and
// GL_MAX_VIEWPORT_DIMS) or `GLRenderer.maxTileSize`, whichever is smaller.
// Output: the premultiplied RGBA8 image (rows top to bottom) the one-pass draw would give, stitched
// from tiles drawn one after the other into ONE tile-sized framebuffer and read back synchronously
// into their place. Memory: the W × H × 4 image plus one tile's framebuffer and one tile's copy.
// How a tile sees exactly its part of the full frame:
// - W and H within GL_MAX_VIEWPORT_DIMS (always, up to the product maximum, on llvmpipe and on
//   desktop GPUs): the GL viewport is the FULL frame, W × H, shifted by minus the tile's origin.
//   Shaders, matrices and uniforms are untouched, so every vertex reaches clip space with exactly
//   the one-pass values; only the viewport's integer offset differs. Not always byte-identical:
//   llvmpipe's float viewport transform (then 1/256-px vertex snapping) and its interpolation
//   planes (set up relative to the window origin) round differently once the origin moves, so a
//   pitched frame's perspective-interpolated colours can differ by 1–2 and an antialiased fringe
//   pixel can flip coverage (≤ 16). Unpitched frames are mostly byte-identical (TiledRenderTests
//   prints the figures; it asserts the render tests' pixelmatch rule).
// - Otherwise the viewport is the tile and a clip-space scale/translate (`ClipFold`) is folded into
//   every matrix; the three uniforms that convert clip units to pixels (u_viewport,
//   u_units_to_pixels, viewport-aligned u_extrude_scale) are scaled by the same factor so they keep
//   the full frame's pixel meaning. Exact in real arithmetic without pitch. With pitch, line.vert's
//   perspective width correction (len_persp = |projected_extrude.xy / w|) sees the fold's
//   translation times projected_extrude.w, so line antialiasing drifts; the exact fix is to apply
//   the fold in the shaders after that line (a uniform), not in u_matrix.
// Everything else that depends on the frame size (antialiasing width from the ratio, world-copy
// visibility, the camera) is computed from the full frame's ViewTransform, never from the tile.
// Limits: the viewport path needs W, H ≤ GL_MAX_VIEWPORT_DIMS; the fold path has no size limit of
// its own (the product maximum is checked by the caller, GLMap's MapRenderer/BatchRenderer).
// Threading: GL thread only, like the renderer.
internal import CGLES3
import GLMapCore

/// A clip-space scale and translate applied after every matrix: x' = sx·x + tx·w, y' = sy·y + ty·w.
struct ClipFold: Equatable {
    var sx = 1.0, sy = 1.0, tx = 0.0, ty = 0.0
    /// No change: the one-pass frame (matrices go to GL unmodified).
    static let identity = ClipFold()

    /// The fold that maps a `width × height` frame's clip space onto the tile whose bottom-left
    /// window pixel is (x0, y0) (GL window coordinates, y up) and whose size is tw × th.
    init(width: Int, height: Int, x0: Int, y0: Int, tw: Int, th: Int) {
        sx = Double(width) / Double(tw)
        sy = Double(height) / Double(th)
        tx = Double(width - 2 * x0 - tw) / Double(tw)
        ty = Double(height - 2 * y0 - th) / Double(th)
    }

    init() {}

    /// `m` followed by this fold (the identity fold returns `m` itself, bit for bit).
    func apply(_ m: Matrix4) -> Matrix4 {
        if self == .identity { return m }
        return Matrix4([sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, 1, 0, tx, ty, 0, 1]) * m
    }
}

/// GL's framebuffer size limits, queried once per renderer.
struct GLSizeLimits {
    /// GL_MAX_RENDERBUFFER_SIZE.
    var renderbuffer: Int
    /// GL_MAX_VIEWPORT_DIMS (width, height).
    var viewportWidth: Int
    var viewportHeight: Int

    /// Reads the limits from the current context.
    static func query() -> GLSizeLimits {
        var maxRB: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_RENDERBUFFER_SIZE), &maxRB)
        var dims: [GLint] = [0, 0]
        glGetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &dims)
        return GLSizeLimits(renderbuffer: Int(maxRB), viewportWidth: Int(dims[0]), viewportHeight: Int(dims[1]))
    }

    /// Largest framebuffer width and height one pass may use.
    var framebuffer: (width: Int, height: Int) {
        (min(renderbuffer, viewportWidth), min(renderbuffer, viewportHeight))
    }
}

/// A frame drawn in tiles: the stitched image, held until `readback` takes it.
final class TiledFrame {
    private var image: PremultipliedImage?
    /// How many tiles the frame was drawn in.
    let tileCount: Int

    init(image: PremultipliedImage, tileCount: Int) {
        self.image = image
        self.tileCount = tileCount
    }

    /// Hands the image over once (so a 1 GiB frame is not kept alive by the renderer).
    func take() throws -> PremultipliedImage {
        guard let image else {
            throw GLError(call: "glReadPixels", message: "this tiled frame was already read back (a bug in glmap: draw it again)")
        }
        self.image = nil
        return image
    }
}

extension GLRenderer {
    /// The tile size for a `width × height` frame, or nil when it fits one framebuffer.
    func tileSize(width: Int, height: Int) -> (width: Int, height: Int)? {
        let limit = sizeLimits.framebuffer
        let cap = max(1, maxTileSize ?? Int.max)
        let tw = min(limit.width, cap), th = min(limit.height, cap)
        if width <= tw && height <= th { return nil }
        return (min(tw, width), min(th, height))
    }

    /// Whether the last `draw` was split into tiles (its image then comes from `readback` only,
    /// not from `beginReadback`).
    public var lastFrameWasTiled: Bool { tiledFrame != nil }

    /// Draws a `width × height` frame tile by tile into one tile-sized framebuffer and stitches
    /// the tiles' pixels into one image.
    func drawTiled(_ scene: GPUScene, view: ViewTransform, ratio: Double, width: Int, height: Int,
                   tile: (width: Int, height: Int)) throws -> TiledFrame {
        if framebuffer == nil || framebuffer!.width != tile.width || framebuffer!.height != tile.height {
            framebuffer = nil
            framebuffer = try Framebuffer(width: tile.width, height: tile.height)
        }
        let fb = framebuffer!
        let limits = sizeLimits
        let fullViewport = width <= limits.viewportWidth && height <= limits.viewportHeight
        defer { clipFold = .identity }
        let row = width * 4
        var scratch = [UInt8](repeating: 0, count: tile.width * tile.height * 4)
        var tiles = 0
        let pixels = try [UInt8](unsafeUninitializedCapacity: row * height) { out, initialized in
            let dst = UnsafeMutableRawPointer(out.baseAddress!)
            for y0 in stride(from: 0, to: height, by: tile.height) {
                let th = min(tile.height, height - y0)
                let windowY = height - y0 - th  // GL window row (y up) of the tile's bottom edge
                for x0 in stride(from: 0, to: width, by: tile.width) {
                    let tw = min(tile.width, width - x0)
                    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fb.fbo)
                    if fullViewport {
                        clipFold = .identity
                        glViewport(GLint(-x0), GLint(-windowY), GLsizei(width), GLsizei(height))
                    } else {
                        clipFold = ClipFold(width: width, height: height, x0: x0, y0: windowY, tw: tw, th: th)
                        glViewport(0, 0, GLsizei(tw), GLsizei(th))
                    }
                    try drawLayers(scene, view: view, ratio: ratio, width: width, height: height, target: fb)
                    let tileRow = tw * 4
                    glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
                    scratch.withUnsafeMutableBytes { s in
                        glReadPixels(0, 0, GLsizei(tw), GLsizei(th), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), s.baseAddress)
                    }
                    try GLState.check("glReadPixels (tile at \(x0),\(y0) of a \(width)x\(height) frame)")
                    // GL rows are bottom-up: tile row r is image row y0 + th - 1 - r.
                    scratch.withUnsafeBytes { s in
                        for r in 0..<th {
                            dst.advanced(by: (y0 + th - 1 - r) * row + x0 * 4)
                                .copyMemory(from: s.baseAddress!.advanced(by: r * tileRow), byteCount: tileRow)
                        }
                    }
                    tiles += 1
                }
            }
            initialized = row * height
        }
        return TiledFrame(image: PremultipliedImage(width: width, height: height, pixels: pixels), tileCount: tiles)
    }
}
