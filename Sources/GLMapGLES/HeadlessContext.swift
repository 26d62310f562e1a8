// GLES backend — EGL context contract
// Opens a headless EGL display without a window system or DISPLAY: Mesa's surfaceless platform
// (EGL_MESA_platform_surfaceless) first, then the device platform (EGL_EXT_platform_device, the
// NVIDIA headless path), then the default display. Creates an OpenGL ES 3.0 context with no
// surface (rendering goes to framebuffer objects), robust with reset notification
// (EGL_LOSE_CONTEXT_ON_RESET, through EGL_EXT_create_context_robustness or EGL 1.5) where the display
// offers it, else a plain one (`resetNotification` says which). Nothing assumes an EGL extension function
// exists: every `eglGetProcAddress` result is checked, since glvnd returns NULL when no vendor
// library is found. Threading: a context is current on one thread at a time; one `HeadlessContext`
// per renderer per thread (see docs/architecture.md, "Threading").
internal import CEGL
internal import CGLES3
import Foundation
import GLMapCore

/// A headless EGL display + OpenGL ES 3 context, made current on the creating thread.
public final class HeadlessContext {
    /// Which EGL platform gave the display.
    public enum Platform: String, Sendable {
        /// Mesa's surfaceless platform: no window system, no device needed.
        case surfaceless = "surfaceless (EGL_MESA_platform_surfaceless)"
        /// An EGL device (EGL_EXT_platform_device), e.g. a GPU without a display server.
        case device = "device (EGL_EXT_platform_device)"
        /// `eglGetDisplay(EGL_DEFAULT_DISPLAY)`, the last resort.
        case defaultDisplay = "default display"
    }

    let display: EGLDisplay
    let context: CEGL.EGLContext
    /// The platform the display came from.
    public let platform: Platform
    /// EGL's version as `eglInitialize` reported it ("1.5").
    public let eglVersion: String
    /// EGL_VENDOR ("Mesa Project", …; "unknown" when not reported).
    public let eglVendor: String
    /// Whether the context was created with EGL_LOSE_CONTEXT_ON_RESET, so a GPU reset is reported by
    /// glGetGraphicsResetStatus (without it, only GL errors and EGL_CONTEXT_LOST reveal a lost context).
    public let resetNotification: Bool

    /// Opens a display and creates a current GLES 3.0 context.
    public init() throws {
        var lastError: GLError?
        var opened: (EGLDisplay, Platform, String)?
        var eglMajor: EGLint = 0, eglMinor: EGLint = 0
        HeadlessContext.displayLock.lock()   // initialise and count a user in one step (see releaseDisplay)
        HeadlessContext.opened = true
        for candidate in HeadlessContext.candidateDisplays() {
            var major: EGLint = 0, minor: EGLint = 0
            if eglInitialize(candidate.0, &major, &minor) == EGLBoolean(EGL_TRUE) {
                opened = (candidate.0, candidate.1, "\(major).\(minor)")
                (eglMajor, eglMinor) = (major, minor)
                HeadlessContext.displayUsers[candidate.0, default: 0] += 1
                break
            }
            lastError = GLError(call: "eglInitialize", code: HeadlessContext.errorName(eglGetError()),
                                message: "could not initialise the \(candidate.1.rawValue) EGL display")
        }
        HeadlessContext.displayLock.unlock()
        guard let (display, platform, version) = opened else {
            throw lastError ?? GLError(call: "eglGetPlatformDisplay", code: HeadlessContext.errorName(eglGetError()),
                message: "no EGL display is available. Install Mesa's EGL (apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri) or a GPU driver with EGL, check __EGL_VENDOR_LIBRARY_FILENAMES, or use --backend cpu")
        }
        self.display = display
        self.platform = platform
        self.eglVersion = version
        self.eglVendor = eglQueryString(display, EGL_VENDOR).map { String(cString: $0) } ?? "unknown"

        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGLBoolean(EGL_TRUE) else {
            let code = HeadlessContext.errorName(eglGetError())
            HeadlessContext.releaseDisplay(display)
            throw GLError(call: "eglBindAPI", code: code, message: "the EGL implementation does not support OpenGL ES; install Mesa's GLES (libgles2) or use --backend cpu")
        }
        // A config is optional with EGL_KHR_no_config_context; ask for one anyway (some drivers need it).
        var configAttribs: [EGLint] = [EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE]
        var config: EGLConfig?
        var count: EGLint = 0
        _ = eglChooseConfig(display, &configAttribs, &config, 1, &count)
        var created: CEGL.EGLContext?
        var robust = false
        for (attribs, resets) in HeadlessContext.contextAttributeLists(display: display, eglVersion: (eglMajor, eglMinor)) {
            if let c = eglCreateContext(display, count > 0 ? config : nil, nil, attribs) {
                created = c
                robust = resets
                break
            }
        }
        self.resetNotification = robust
        guard let ctx = created else {
            let code = HeadlessContext.errorName(eglGetError())
            HeadlessContext.releaseDisplay(display)
            throw GLError(call: "eglCreateContext", code: code, message: "could not create an OpenGL ES 3.0 context on the \(platform.rawValue) display; the driver may lack GLES 3 (Mesa ≥ 10 has it) — or use --backend cpu")
        }
        guard eglMakeCurrent(display, nil, nil, ctx) == EGLBoolean(EGL_TRUE) else {
            let code = HeadlessContext.errorName(eglGetError())
            eglDestroyContext(display, ctx)
            HeadlessContext.releaseDisplay(display)
            throw GLError(call: "eglMakeCurrent", code: code, message: "could not make the context current without a surface (EGL_KHR_surfaceless_context is required)")
        }
        self.context = ctx
    }

    deinit {
        eglMakeCurrent(display, nil, nil, nil)
        eglDestroyContext(display, context)
        HeadlessContext.releaseDisplay(display)
    }

    // One EGLDisplay is shared by every context on it, and eglTerminate destroys the contexts that
    // are not current: terminate only when the last context of the process on it goes (so replacing
    // a broken renderer, or holding two, never kills the other one's context).
    private static let displayLock = NSLock()
    nonisolated(unsafe) private static var displayUsers: [EGLDisplay: Int] = [:]
    nonisolated(unsafe) private static var opened = false

    /// Whether this process has tried to open a GL display (Mesa has then read its environment).
    static var anyDisplayOpened: Bool { displayLock.lock(); defer { displayLock.unlock() }; return opened }

    private static func releaseDisplay(_ display: EGLDisplay) {
        displayLock.lock(); defer { displayLock.unlock() }
        let n = (displayUsers[display] ?? 1) - 1
        if n > 0 {
            displayUsers[display] = n
        } else {
            displayUsers[display] = nil
            eglTerminate(display)
        }
    }

    /// Context attribute lists to try in order, each with whether it asks for reset notification:
    /// robust ones first where the display offers them, then a plain GLES 3.0 context (the silent fallback).
    static func contextAttributeLists(display: EGLDisplay, eglVersion: (EGLint, EGLint)) -> [([EGLint], Bool)] {
        let version: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0]
        let extensions = eglQueryString(display, EGL_EXTENSIONS).map { String(cString: $0) } ?? ""
        var lists: [([EGLint], Bool)] = []
        if extensions.split(separator: " ").contains("EGL_EXT_create_context_robustness") {
            lists.append((version + [EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, EGL_LOSE_CONTEXT_ON_RESET_EXT, EGL_NONE], true))
        }
        if eglVersion.0 > 1 || (eglVersion.0 == 1 && eglVersion.1 >= 5) {
            lists.append((version + [EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, EGL_LOSE_CONTEXT_ON_RESET, EGL_NONE], true))
        }
        lists.append((version + [EGL_NONE], false))
        return lists
    }

    /// Makes this context current on the calling thread. This is where the threading contract is
    /// enforced: EGL refuses (EGL_BAD_ACCESS) while the context is current on another thread, so
    /// using one renderer from two threads at once is an error, never a race.
    public func makeCurrent() throws {
        if eglGetCurrentContext() == context { return }
        guard eglMakeCurrent(display, nil, nil, context) == EGLBoolean(EGL_TRUE) else {
            let code = eglGetError()
            throw GLError(call: "eglMakeCurrent", code: HeadlessContext.errorName(code),
                          message: code == EGL_BAD_ACCESS
                            ? "this renderer's GL context is in use on another thread; use one renderer per thread (docs/architecture.md: Threading)"
                            : code == EGL_CONTEXT_LOST
                            ? "the GL context was lost (GPU reset or driver failure); its objects are gone — create a new renderer"
                            : "could not make the GL context current on this thread")
        }
    }

    /// Makes this context current so objects created in it can be deleted. When that fails (a lost
    /// context, or one current on another thread) no context is left current on this thread, so the
    /// deletions that follow reach no other context; returns whether this context is current.
    func makeCurrentForTeardown() -> Bool {
        if eglGetCurrentContext() == context { return true }
        if eglMakeCurrent(display, nil, nil, context) == EGLBoolean(EGL_TRUE) { return true }
        if let current = eglGetCurrentDisplay() { eglMakeCurrent(current, nil, nil, nil) }
        return false
    }

    /// Releases the context from the calling thread, so another thread may use this renderer next.
    public func release() {
        if eglGetCurrentContext() == context { eglMakeCurrent(display, nil, nil, nil) }
    }

    /// Displays to try, in order of preference.
    static func candidateDisplays() -> [(EGLDisplay, Platform)] {
        var result: [(EGLDisplay, Platform)] = []
        let clientExtensions = eglQueryString(nil, EGL_EXTENSIONS).map { String(cString: $0) } ?? ""
        let getPlatformDisplay: PFNEGLGETPLATFORMDISPLAYEXTPROC? =
            eglGetProcAddress("eglGetPlatformDisplayEXT").map { unsafeBitCast($0, to: PFNEGLGETPLATFORMDISPLAYEXTPROC.self) }
        if let getPlatformDisplay {
            if clientExtensions.contains("EGL_MESA_platform_surfaceless"),
               let d = getPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil) {
                result.append((d, .surfaceless))
            }
            if clientExtensions.contains("EGL_EXT_platform_device"),
               let queryDevices = eglGetProcAddress("eglQueryDevicesEXT").map({ unsafeBitCast($0, to: PFNEGLQUERYDEVICESEXTPROC.self) }) {
                var devices = [EGLDeviceEXT?](repeating: nil, count: 16)
                var n: EGLint = 0
                if queryDevices(16, &devices, &n) == EGLBoolean(EGL_TRUE) {
                    for i in 0..<Int(n) {
                        if let dev = devices[i], let d = getPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), dev, nil) {
                            result.append((d, .device))
                        }
                    }
                }
            }
        }
        if let d = eglGetDisplay(nil) { result.append((d, .defaultDisplay)) }
        return result
    }

    /// The name of an EGL error code.
    static func errorName(_ code: EGLint) -> String {
        switch code {
        case EGL_SUCCESS: return "EGL_SUCCESS"
        case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED"
        case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS"
        case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC"
        case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE"
        case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG"
        case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT"
        case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE"
        case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY"
        case EGL_BAD_MATCH: return "EGL_BAD_MATCH"
        case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP"
        case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW"
        case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER"
        case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE"
        case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST"
        default: return "0x" + String(code, radix: 16)
        }
    }
}

