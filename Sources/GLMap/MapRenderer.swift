// GLMap — the one-call API
// Input: a `Scene` (style + projected sources) and `RenderOptions` (size, ratio, camera).
// Output: the frame as a `PremultipliedImage` of (width·ratio) × (height·ratio) pixels
// (callers encode it with GLMapPNG, which unpremultiplies as it writes, or call `unpremultiplied()`).
// Pipeline per frame: evaluate layers at the camera zoom → tessellate into buckets → draw with
// OpenGL ES 3 (EGL, headless) → read back. Threading: a MapRenderer owns one GL context and must
// be used from one thread at a time (one renderer per thread for parallel rendering).
import Foundation
import GLMapCore
import GLMapGLES
import GLMapPNG
import GLMapReference
import GLMapStyle
import GLMapTessellation

/// Renders scenes to images with the GPU backend.
public final class MapRenderer {
    private var gl: GLRenderer?
    /// Largest framebuffer side the GPU draws in one pass (nil: GL's limit); larger images are
    /// drawn in tiles and stitched. Tests lower it to exercise tiling on small images.
    public var maxTileSize: Int?
    /// The backend asked for.
    public let backend: Backend
    /// The backend in use once prepared: `.gpu` or `.cpu`.
    public private(set) var activeBackend: Backend?
    /// Why `auto` fell back to the CPU (the EGL failure), if it did.
    public private(set) var fallbackReason: String?

    /// A renderer that will use `backend` (default `auto`: the GPU, else the CPU); nothing starts yet.
    public init(backend: Backend = .auto) {
        self.backend = backend
    }

    /// A `prepareInBackground` still running or not yet collected.
    private var pendingPreparation: (done: DispatchSemaphore, error: Locked<(any Error)?>)?

    /// Starts `prepare` on a thread of its own and returns at once, so EGL's set-up (tens of
    /// milliseconds: loading the driver, creating the context) overlaps the caller's work, such
    /// as loading the scene. The next `prepare` or `render` waits for it and throws its error;
    /// the context is released from that thread when it is done. Nothing to do when prepared.
    public func prepareInBackground() {
        guard activeBackend == nil, pendingPreparation == nil else { return }
        if backend == .cpu { activeBackend = .cpu; return }
        let done = DispatchSemaphore(value: 0), error = Locked<(any Error)?>(nil)
        pendingPreparation = (done, error)
        // This renderer is touched by that thread alone until `done` is signalled and waited for.
        let renderer = UnsafeSendable(self)
        Thread.detachNewThread {
            do { try renderer.value.prepareNow() } catch let e { error.withLock { $0 = e } }
            renderer.value.gl?.context.release()
            done.signal()
        }
    }

    /// Chooses the backend and creates the GL context now (otherwise the first render does).
    public func prepare() throws {
        if let pending = pendingPreparation {
            pending.done.wait()
            pendingPreparation = nil
            if let e = pending.error.value { throw e }
        }
        try prepareNow()
    }

    private func prepareNow() throws {
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
            rows.append(("max image", "\(MapRenderer.maxImageSize)x\(MapRenderer.maxImageSize) device pixels"))
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
        rows.append(("max image", "\(MapRenderer.maxImageSize)x\(MapRenderer.maxImageSize) device pixels"
            + (i.maxSize < MapRenderer.maxImageSize ? " (larger than the framebuffer: drawn in tiles)" : "")))
        return rows
    }

    /// Largest image side in device pixels, on both backends: the product maximum, the one place
    /// it is set. 16384² premultiplied RGBA8 is 1 GiB; the PNG path adds an unpremultiplied copy
    /// and the encoder's buffers, about 2.5 GiB in all, which a 4 GiB machine still renders. It
    /// is also llvmpipe's GL limit and the common GPU one, so there one pass suffices; images
    /// larger than a smaller GL limit are drawn in tiles. Larger maps: `glmap tiles`.
    public static let maxImageSize = 16384

    /// Throws the input error (exit 2) for an image larger than `maxImageSize` on either side.
    public static func checkImageSize(_ options: RenderOptions) throws {
        let w = (Double(options.width) * options.ratio).rounded(), h = (Double(options.height) * options.ratio).rounded()
        let limit = Double(maxImageSize)
        guard w > limit || h > limit else { return }
        func text(_ v: Double) -> String { v < 1e15 ? String(Int(v)) : "\(v)" }
        throw InputFailure("image size \(text(w))x\(text(h)) device pixels exceeds glmap's maximum of \(maxImageSize)x\(maxImageSize); lower --ratio, --width or --height, or render the area as tiles with `glmap tiles`")
    }

    /// Renders one frame.
    public func render(_ scene: Scene, options: RenderOptions) throws -> PremultipliedImage {
        try options.validate()
        try MapRenderer.checkImageSize(options)
        // The view holds MapLibre's constrained camera (`Camera.constrained`): its zoom is the one drawn.
        let view = ViewTransform(camera: options.camera(default: scene.style.camera),
                                 width: Double(options.width), height: Double(options.height))
        // While EGL is still being set up on its own thread, tessellate meanwhile (the GPU is the
        // likely outcome; a CPU fallback draws from evaluated layers and leaves these unused).
        let early = pendingPreparation != nil && backend != .cpu ? scene.framePlan(view: view, ratio: options.ratio) : nil
        try prepare()
        if let g = gl, !g.isUsable {   // an earlier GL failure (error, reset, lost context) broke it: start afresh
            gl = nil
            gl = try GLRenderer()
        }
        guard let gl else {
            return ReferenceRenderer().render(scene.referenceFrame(view: view, ratio: options.ratio), view: view, ratio: options.ratio)
        }
        gl.maxTileSize = maxTileSize
        return try gl.render(early ?? scene.framePlan(view: view, ratio: options.ratio), view: view, ratio: options.ratio)
    }
}
