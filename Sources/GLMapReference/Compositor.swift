import GLMapCore

/// The frame being drawn: premultiplied RGBA per device pixel in Float, blended with
/// `dst = src + dst·(1 − src.a)` (GL's ONE, ONE_MINUS_SRC_ALPHA).
///
/// With `quantizeEachDraw` every blended pixel is snapped to the 8-bit grid straight away, the
/// way a UNORM8 framebuffer stores the result of each fragment's blend; otherwise values stay
/// in Float and are rounded once in `image()`.
struct Compositor {
    let width: Int
    let height: Int
    let quantizeEachDraw: Bool
    var pixels: [SIMD4<Float>]
    /// While set, only pixels whose centres lie in it are drawn (a tile's square: MapLibre's
    /// stencil clip).
    var clip: ConvexClip?

    init(width: Int, height: Int, quantizeEachDraw: Bool) {
        self.width = width
        self.height = height
        self.quantizeEachDraw = quantizeEachDraw
        pixels = [SIMD4<Float>](repeating: .zero, count: width * height)
    }

    /// A premultiplied colour times an opacity, as the shaders compute `color * opacity`.
    @inline(__always)
    static func premultiplied(_ c: Color, opacity: Double) -> SIMD4<Float> {
        SIMD4<Float>(Float(c.r), Float(c.g), Float(c.b), Float(c.a)) * Float(opacity)
    }

    /// Blends `src` (premultiplied) over one pixel.
    @inline(__always)
    static func blend(_ p: UnsafeMutablePointer<SIMD4<Float>>, _ src: SIMD4<Float>, quantize: Bool) {
        var v = src + p.pointee * (1 - src.w)
        if quantize { v = (v * 255).rounded(.toNearestOrAwayFromZero) / 255 }
        p.pointee = v
    }

    /// Blends one colour over every pixel (the background layer).
    mutating func fillAll(_ src: SIMD4<Float>) {
        guard src != .zero else { return }
        let q = quantizeEachDraw
        pixels.withUnsafeMutableBufferPointer { buf in
            for i in 0..<buf.count { Compositor.blend(buf.baseAddress! + i, src, quantize: q) }
        }
    }

    /// Blends one colour over the pixels (column, row) for which `inside` holds.
    mutating func fill(_ src: SIMD4<Float>, where inside: (Int, Int) -> Bool) {
        guard src != .zero else { return }
        let q = quantizeEachDraw, w = width, c = clip
        pixels.withUnsafeMutableBufferPointer { buf in
            for i in 0..<buf.count where inside(i % w, i / w) && (c?.contains(i % w, i / w) ?? true) {
                Compositor.blend(buf.baseAddress! + i, src, quantize: q)
            }
        }
    }

    /// Whether pixel (x, y) may be drawn (inside the clip, when there is one).
    @inline(__always)
    func allows(_ x: Int, _ y: Int) -> Bool { clip?.contains(x, y) ?? true }

    /// Blends `src · coverage[i]` over a run of pixels of row `y` starting at column `x0`.
    @inline(__always)
    mutating func blendRow(y: Int, x0: Int, coverage: UnsafeBufferPointer<Float>, color src: SIMD4<Float>) {
        blendRow(y: y, x0: x0, coverage: coverage) { _, _ in src }
    }

    /// Blends `shade(x, y) · coverage[i]` over a run of pixels of row `y` starting at column `x0`
    /// (a colour that varies per pixel: patterns).
    @inline(__always)
    mutating func blendRow(y: Int, x0: Int, coverage: UnsafeBufferPointer<Float>, shade: (Int, Int) -> SIMD4<Float>) {
        let q = quantizeEachDraw, clip = self.clip
        let base = y * width + x0
        pixels.withUnsafeMutableBufferPointer { buf in
            let p = buf.baseAddress! + base
            for i in 0..<coverage.count {
                let c = coverage[i]
                if c > 0 && (clip?.contains(x0 + i, y) ?? true) { Compositor.blend(p + i, shade(x0 + i, y) * min(c, 1), quantize: q) }
            }
        }
    }

    /// The frame as 8-bit premultiplied RGBA, each channel rounded to nearest (as UNORM8 stores it).
    func image() -> PremultipliedImage {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBufferPointer { out in
            for i in 0..<pixels.count {
                let v = (pixels[i] * 255).rounded(.toNearestOrAwayFromZero)
                    .clamped(lowerBound: .zero, upperBound: SIMD4<Float>(repeating: 255))
                out[4 * i] = UInt8(v.x); out[4 * i + 1] = UInt8(v.y)
                out[4 * i + 2] = UInt8(v.z); out[4 * i + 3] = UInt8(v.w)
            }
        }
        return PremultipliedImage(width: width, height: height, pixels: bytes)
    }
}

/// A convex polygon in device pixels (y down): a pixel is inside when its centre is on the inner
/// side of every edge. A tile's square seen through the camera, cut at the near plane.
struct ConvexClip {
    /// Edge functions a·x + b·y + c ≥ 0 inside.
    let edges: [(a: Double, b: Double, c: Double)]

    /// The clip of a polygon given counter-clockwise or clockwise (either works); nil when it
    /// has fewer than three corners (nothing is inside).
    init?(_ polygon: [(x: Double, y: Double)]) {
        guard polygon.count >= 3 else { return nil }
        var area = 0.0
        for i in polygon.indices {
            let p = polygon[i], q = polygon[(i + 1) % polygon.count]
            area += p.x * q.y - q.x * p.y
        }
        let s = area >= 0 ? 1.0 : -1.0
        edges = polygon.indices.map { i in
            let p = polygon[i], q = polygon[(i + 1) % polygon.count]
            // Inside is to the left of p→q for positive area (y down: clockwise on screen).
            let a = -(q.y - p.y) * s, b = (q.x - p.x) * s
            return (a, b, -(a * p.x + b * p.y))
        }
    }

    @inline(__always)
    func contains(_ x: Int, _ y: Int) -> Bool {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        for e in edges where e.a * px + e.b * py + e.c < 0 { return false }
        return true
    }
}
