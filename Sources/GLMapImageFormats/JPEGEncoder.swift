import CTurboJPEG
import Foundation
import GLMapCore
import GLMapPNG

/// Encodes frames as baseline JPEG with libjpeg-turbo's TurboJPEG API (see ImageFormat.swift).
public enum JPEGEncoder {
    /// Composites a premultiplied frame over the opaque `matte` (its alpha is ignored) and encodes
    /// it at `quality` (1…100), 4:4:4 (no chroma subsampling: map lines are thin and coloured).
    public static func encode(_ image: PremultipliedImage, quality: Int, matte: Color = .white) throws -> [UInt8] {
        try checkSize(image, format: "JPEG")
        let n = image.width * image.height
        // Matte in 0…255 (straight components of an opaque colour).
        let a = max(matte.a, 1e-9)
        let m = [matte.r / a, matte.g / a, matte.b / a].map { min(max($0, 0), 1) * 255 }
        var rgb = [UInt8](repeating: 0, count: n * 3)
        image.pixels.withUnsafeBufferPointer { src in
            rgb.withUnsafeMutableBufferPointer { dst in
                for i in 0..<n {
                    let alpha = Int(src[i * 4 + 3])
                    let inv = Double(255 - alpha) / 255
                    for c in 0..<3 {
                        let v = Double(src[i * 4 + c]) + m[c] * inv
                        dst[i * 3 + c] = UInt8(min(255, max(0, v.rounded())))
                    }
                }
            }
        }
        guard let handle = tjInitCompress() else {
            throw ImageEncodeError(format: "JPEG", message: "tjInitCompress failed")
        }
        defer { tjDestroy(handle) }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let rc = rgb.withUnsafeBufferPointer { p in
            tjCompress2(handle, p.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGB.rawValue),
                        &out, &size, Int32(TJSAMP_444.rawValue), Int32(quality), TJFLAG_ACCURATEDCT)
        }
        defer { if let out { tjFree(out) } }
        guard rc == 0, let out else {
            throw ImageEncodeError(format: "JPEG", message: String(cString: tjGetErrorStr2(handle)))
        }
        return [UInt8](UnsafeBufferPointer(start: out, count: Int(size)))
    }

    static func checkSize(_ image: PremultipliedImage, format: String) throws {
        guard image.width > 0, image.height > 0 else {
            throw ImageEncodeError(format: format, message: "the image is \(image.width)×\(image.height); it needs at least 1×1 pixels")
        }
        // Both formats store sides in 16 bits (WebP: 14 bits); PNG's pixel limit applies too.
        let maxSide = format == "WebP" ? 16383 : 65535
        guard image.width <= maxSide, image.height <= maxSide, image.width * image.height <= PNGDecoder.maxPixelCount else {
            throw ImageEncodeError(format: format, message: "the image is \(image.width)×\(image.height); \(format) allows at most \(maxSide) pixels a side")
        }
    }
}
