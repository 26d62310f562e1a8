/// How the colour channels of an `RGBAImage` relate to its alpha: `PremultipliedAlpha` (the
/// renderers' native form) or `StraightAlpha` (what image files store).
public protocol AlphaConvention: Sendable {}

/// Colour channels already multiplied by alpha (what GL blending with ONE, ONE_MINUS_SRC_ALPHA and
/// the CPU reference's compositor produce).
public enum PremultipliedAlpha: AlphaConvention {}

/// Colour channels independent of alpha (what PNG, WebP and pixelmatch work with).
public enum StraightAlpha: AlphaConvention {}

/// An 8-bit RGBA raster, rows top to bottom, whose alpha convention is part of its type.
///
/// Renderers return a `PremultipliedImage`; image files and comparisons use a `StraightImage`.
/// The ways from one to the other are `PremultipliedImage.unpremultiplied()`,
/// `StraightImage.premultiplied()` (as GL uploads textures) and encoders
/// that takes a `PremultipliedImage` and converts while it writes), so converting twice, or
/// encoding premultiplied pixels as if they were straight, does not compile.
public struct RGBAImage<Alpha: AlphaConvention>: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes, row-major, top row first.
    public var pixels: [UInt8]

    /// An image over `pixels` (`width * height * 4` bytes in this image's alpha convention).
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
}

/// A rectangle of whole pixels in an image: its top-left corner and size.
public struct PixelRect: Equatable, Hashable, Sendable {
    /// Left column and top row.
    public var x, y: Int
    /// Size in pixels.
    public var width, height: Int
    /// The rectangle at (`x`, `y`) of `width × height` pixels.
    public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
}

extension RGBAImage {
    /// The pixels inside `rect` (which must lie inside the image), row by row.
    public func cropped(to rect: PixelRect) -> RGBAImage {
        precondition(rect.x >= 0 && rect.y >= 0 && rect.width >= 0 && rect.height >= 0
                     && rect.x + rect.width <= width && rect.y + rect.height <= height, "crop \(rect) outside a \(width)x\(height) image")
        if rect == PixelRect(x: 0, y: 0, width: width, height: height) { return self }
        var out = [UInt8]()
        out.reserveCapacity(rect.width * rect.height * 4)
        for row in rect.y..<(rect.y + rect.height) {
            let start = (row * width + rect.x) * 4
            out += pixels[start..<(start + rect.width * 4)]
        }
        return RGBAImage(width: rect.width, height: rect.height, pixels: out)
    }
}

/// A renderer's frame: premultiplied alpha (see `RGBAImage`).
public typealias PremultipliedImage = RGBAImage<PremultipliedAlpha>

/// An image with straight alpha, as files store it (see `RGBAImage`).
public typealias StraightImage = RGBAImage<StraightAlpha>

extension RGBAImage where Alpha == StraightAlpha {
    /// Premultiplied copy, rounding as WebGL's UNPACK_PREMULTIPLY_ALPHA does (`(c · a + 127) / 255`,
    /// truncated): how GL JS uploads sprites, raster tiles and images.
    public func premultiplied() -> PremultipliedImage {
        var px = pixels
        var i = 0
        while i + 3 < px.count {
            let a = UInt32(px[i + 3])
            if a != 255 {
                px[i] = UInt8((UInt32(px[i]) * a + 127) / 255)
                px[i + 1] = UInt8((UInt32(px[i + 1]) * a + 127) / 255)
                px[i + 2] = UInt8((UInt32(px[i + 2]) * a + 127) / 255)
            }
            i += 4
        }
        return PremultipliedImage(width: width, height: height, pixels: px)
    }
}

extension RGBAImage where Alpha == PremultipliedAlpha {
    /// Straight-alpha copy: each colour channel divided by alpha/255 and truncated, as MapLibre's
    /// render-test harness converts its read-back (and as browsers' `getImageData` does).
    public func unpremultiplied() -> StraightImage {
        let out = [UInt8](unsafeUninitializedCapacity: pixels.count) { dst, initialized in
            pixels.withUnsafeBufferPointer { src in
                if let s = src.baseAddress, let d = dst.baseAddress { PremultipliedImage.unpremultiply(s, into: d, count: src.count) }
            }
            initialized = pixels.count
        }
        return StraightImage(width: width, height: height, pixels: out)
    }

    /// Premultiplied → straight alpha for `count` bytes of RGBA (whole pixels), truncating as
    /// `unpremultiplied()` does. `src` and `dst` may be the same memory.
    @inline(__always)
    public static func unpremultiply(_ src: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>, count: Int) {
        var i = 0
        while i + 3 < count {
            let a = Int(src[i + 3])
            if a == 255 {
                dst[i] = src[i]; dst[i + 1] = src[i + 1]; dst[i + 2] = src[i + 2]
            } else if a == 0 {
                dst[i] = 0; dst[i + 1] = 0; dst[i + 2] = 0
            } else {
                dst[i] = UInt8(min(255, Int(src[i]) * 255 / a))
                dst[i + 1] = UInt8(min(255, Int(src[i + 1]) * 255 / a))
                dst[i + 2] = UInt8(min(255, Int(src[i + 2]) * 255 / a))
            }
            dst[i + 3] = src[i + 3]
            i += 4
        }
    }
}
