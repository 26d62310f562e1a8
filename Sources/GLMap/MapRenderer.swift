// GLMap — the one-call API
// Input: a `Scene` (style + projected sources) and `RenderOptions` (size, ratio, camera).
// Output: the frame as a premultiplied `RGBAImage` of (width·ratio) × (height·ratio) pixels;
// `renderPNG` also encodes it (straight alpha) with libpng.
// Pipeline per frame: evaluate layers at the camera zoom → tessellate into buckets → draw with
// OpenGL ES 3 (EGL, headless) → read back. Threading: a MapRenderer owns one GL context and must
// be used from one thread at a time (one renderer per thread for parallel rendering).
import GLMapCore
import GLMapGLES
import GLMapPNG
import GLMapStyle
import GLMapTessellation

/// Renders scenes to images with the GPU backend.
public final class MapRenderer {
    private var gl: GLRenderer?

    public init() {}

    /// Creates the GL context now (otherwise it is created by the first render).
    public func prepare() throws {
        if gl == nil { gl = try GLRenderer() }
    }

    /// Strings describing the GL backend (for `glmap info`).
    public func backendInfo() throws -> [(String, String)] {
        try prepare()
        let g = gl!
        let i = g.info
        var rows: [(String, String)] = [
            ("EGL platform", g.context.platform.rawValue),
            ("EGL version", g.context.eglVersion),
            ("EGL vendor", g.context.eglVendor),
            ("GL vendor", i.vendor),
            ("GL renderer", i.renderer),
            ("GL version", i.version),
        ]
        if let r = i.version.range(of: "Mesa ") {
            rows.append(("Mesa version", String(i.version[r.upperBound...]).split(separator: " ").first.map(String.init) ?? ""))
        }
        rows.append(("max framebuffer", "\(i.maxSize)x\(i.maxSize) device pixels"))
        return rows
    }

    /// Renders one frame.
    public func render(_ scene: Scene, options: RenderOptions) throws -> RGBAImage {
        try options.validate()
        try prepare()
        let camera = options.camera(default: scene.style.camera)
        let view = ViewTransform(camera: camera, width: Double(options.width), height: Double(options.height))
        let buckets = scene.evaluatedLayers(zoom: camera.zoom).map { Bucket.make($0) }
        return try gl!.render(buckets, view: view, ratio: options.ratio)
    }

    /// Renders one frame and encodes it as PNG bytes (straight alpha).
    public func renderPNG(_ scene: Scene, options: RenderOptions) throws -> [UInt8] {
        try PNGEncoder.encode(render(scene, options: options).unpremultiplied())
    }
}
