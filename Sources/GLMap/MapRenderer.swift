// GLMap — the one-call API
// Input: a `Scene` (style + projected sources) and `RenderOptions` (size, ratio, camera).
// Output: the frame as a premultiplied `RGBAImage` of (width·ratio) × (height·ratio) pixels
// (callers unpremultiply and encode it with GLMapPNG).
// Pipeline per frame: evaluate layers at the camera zoom → tessellate into buckets → draw with
// OpenGL ES 3 (EGL, headless) → read back. Threading: a MapRenderer owns one GL context and must
// be used from one thread at a time (one renderer per thread for parallel rendering).
import GLMapCore
import GLMapGLES
import GLMapPNG
import GLMapReference
import GLMapStyle
import GLMapTessellation

/// Renders scenes to images with the GPU backend.
public final class MapRenderer {
    private var gl: GLRenderer?
    /// The backend asked for.
    public let backend: Backend
    /// The backend in use once prepared: `.gpu` or `.cpu`.
    public private(set) var activeBackend: Backend?
    /// Why `auto` fell back to the CPU (the EGL failure), if it did.
    public private(set) var fallbackReason: String?

    public init(backend: Backend = .auto) {
        self.backend = backend
    }

    /// Chooses the backend and creates the GL context now (otherwise the first render does).
    public func prepare() throws {
        guard activeBackend == nil else { return }
        switch backend {
        case .cpu:
            activeBackend = .cpu
        case .gpu:
            gl = try GLRenderer()
            activeBackend = .gpu
        case .auto:
            let context: HeadlessContext
            do {
                context = try HeadlessContext()
            } catch {
                fallbackReason = "\(error)"
                activeBackend = .cpu
                return
            }
            gl = try GLRenderer(context: context)
            activeBackend = .gpu
        }
    }

    /// Strings describing the backend (for `glmap info`).
    public func backendInfo() throws -> [(String, String)] {
        try prepare()
        var rows: [(String, String)] = [("backend", backend == .auto ? "auto → \(activeBackend!.rawValue)" : activeBackend!.rawValue)]
        guard let g = gl else {
            rows.append(("reason", fallbackReason ?? "--backend cpu was asked for"))
            rows.append(("max image", "\(MapRenderer.maxCPUImageSize)x\(MapRenderer.maxCPUImageSize) device pixels (CPU backend)"))
            return rows
        }
        rows.append(("reason", backend == .auto ? "an EGL display and an OpenGL ES 3 context are available" : "--backend gpu was asked for"))
        let i = g.info
        rows += [
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

    /// Largest image side the CPU backend draws (the GPU backend checks GL's own limit).
    public static let maxCPUImageSize = 16384

    /// Renders one frame.
    public func render(_ scene: Scene, options: RenderOptions) throws -> RGBAImage {
        try options.validate()
        try prepare()
        let camera = options.camera(default: scene.style.camera)
        let view = ViewTransform(camera: camera, width: Double(options.width), height: Double(options.height))
        let layers = scene.evaluatedLayers(zoom: camera.zoom)
        guard let gl else {
            let w = Double(options.width) * options.ratio, h = Double(options.height) * options.ratio
            guard w.rounded() <= Double(MapRenderer.maxCPUImageSize), h.rounded() <= Double(MapRenderer.maxCPUImageSize) else {
                throw InputFailure("image size \(Int(w.rounded()))x\(Int(h.rounded())) device pixels exceeds the CPU backend's limit of \(MapRenderer.maxCPUImageSize)x\(MapRenderer.maxCPUImageSize)")
            }
            return ReferenceRenderer().render(layers, view: view, ratio: options.ratio)
        }
        return try gl.render(layers.map { Bucket.make($0) }, view: view, ratio: options.ratio)
    }
}
