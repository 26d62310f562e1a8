/// An 8-bit RGBA raster, rows top to bottom, **premultiplied** alpha (the renderers' native form).
///
/// Convert with `unpremultiplied()` only when writing a file (see `GLMapPNG`).
public struct RGBAImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes, row-major, top row first.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "pixel buffer size does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A transparent black image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// The four bytes at (x, y).
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// Straight-alpha copy: each colour channel divided by alpha/255 and truncated, as MapLibre's
    /// render-test harness converts its read-back (and as browsers' `getImageData` does).
    public func unpremultiplied() -> RGBAImage {
        var out = pixels
        out.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = Int(p[i + 3])
                if a == 0 {
                    p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
                } else if a < 255 {
                    p[i] = UInt8(min(255, Int(p[i]) * 255 / a))
                    p[i + 1] = UInt8(min(255, Int(p[i + 1]) * 255 / a))
                    p[i + 2] = UInt8(min(255, Int(p[i + 2]) * 255 / a))
                }
                i += 4
            }
        }
        return RGBAImage(width: width, height: height, pixels: out)
    }
}
