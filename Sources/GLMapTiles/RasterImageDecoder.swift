// Raster tile decoding: PNG (libpng through GLMapPNG), JPEG (libjpeg-turbo) and WebP (libwebp),
// told apart by their signatures, to straight-alpha RGBA8. The image size is read from the header
// and checked against the pixel limit before any pixel buffer is allocated. Truncated or corrupt
// data is an error (libjpeg-turbo's "premature end" warning included), never a partial image.
import CTurboJPEG
import CWebP
import GLMapCore
import GLMapPNG

/// Why raster bytes could not be decoded.
public struct RasterDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong ("truncated or corrupt JPEG: …", "not a PNG, JPEG or WebP image").
    public var message: String
    /// The message.
    public var description: String { message }
    /// An error with this message.
    public init(_ message: String) { self.message = message }
}

/// Decodes PNG, JPEG and WebP bytes to straight-alpha RGBA.
public enum RasterImageDecoder {
    /// The formats told apart by signature.
    public enum Format: String, Sendable {
        /// PNG (89 50 4E 47).
        case png
        /// JPEG (FF D8 FF).
        case jpeg
        /// WebP (RIFF....WEBP).
        case webp
    }

    /// The format the bytes' signature names (nil: none of the three).
    public static func format(of b: [UInt8]) -> Format? {
        if b.count >= 8, b[0] == 0x89, b[1] == 0x50, b[2] == 0x4E, b[3] == 0x47 { return .png }
        if b.count >= 3, b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF { return .jpeg }
        if b.count >= 12, b[0] == 0x52, b[1] == 0x49, b[2] == 0x46, b[3] == 0x46,
           b[8] == 0x57, b[9] == 0x45, b[10] == 0x42, b[11] == 0x50 { return .webp }
        return nil
    }

    /// Decodes `bytes` (at most `maxPixels` pixels).
    public static func decode(_ bytes: [UInt8], maxPixels: Int) throws(RasterDecodeError) -> StraightImage {
        guard let format = format(of: bytes) else {
            let head = bytes.prefix(8).map { String($0, radix: 16) }.joined(separator: " ")
            throw RasterDecodeError("not a PNG, JPEG or WebP image (\(bytes.count) bytes starting \(head.isEmpty ? "with nothing" : head))")
        }
        switch format {
        case .png: return try decodePNG(bytes, maxPixels: maxPixels)
        case .jpeg: return try decodeJPEG(bytes, maxPixels: maxPixels)
        case .webp: return try decodeWebP(bytes, maxPixels: maxPixels)
        }
    }

    static func checkSize(_ w: Int, _ h: Int, _ format: String, maxPixels: Int) throws(RasterDecodeError) {
        guard w > 0, h > 0 else { throw RasterDecodeError("\(format) image of \(w)×\(h) pixels") }
        guard w <= maxPixels / h else {
            throw RasterDecodeError("\(format) image of \(w)×\(h) pixels is larger than \(maxPixels) pixels (limit InputLimits.maxImagePixels)")
        }
    }

    static func decodePNG(_ bytes: [UInt8], maxPixels: Int) throws(RasterDecodeError) -> StraightImage {
        guard bytes.count >= 24 else { throw RasterDecodeError("truncated PNG (\(bytes.count) bytes)") }
        func be32(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
        try checkSize(be32(16), be32(20), "PNG", maxPixels: maxPixels)
        do {
            return try PNGDecoder.decode(bytes)
        } catch {
            throw RasterDecodeError("truncated or corrupt PNG: \(error)")
        }
    }

    static func decodeJPEG(_ bytes: [UInt8], maxPixels: Int) throws(RasterDecodeError) -> StraightImage {
        guard let handle = tjInitDecompress() else { throw RasterDecodeError("libjpeg-turbo: tjInitDecompress failed") }
        defer { tjDestroy(handle) }
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer { p in
            tjDecompressHeader3(handle, p.baseAddress, UInt(p.count), &w, &h, &subsampling, &colorspace)
        }
        guard header == 0 else { throw RasterDecodeError("corrupt JPEG: \(String(cString: tjGetErrorStr2(handle)))") }
        try checkSize(Int(w), Int(h), "JPEG", maxPixels: maxPixels)
        var pixels = [UInt8](repeating: 0, count: Int(w) * Int(h) * 4)
        let rc = bytes.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                tjDecompress2(handle, src.baseAddress, UInt(src.count), dst.baseAddress, w, 0, h, Int32(TJPF_RGBA.rawValue), TJFLAG_ACCURATEDCT)
            }
        }
        guard rc == 0 else { throw RasterDecodeError("truncated or corrupt JPEG: \(String(cString: tjGetErrorStr2(handle)))") }
        return StraightImage(width: Int(w), height: Int(h), pixels: pixels)
    }

    static func decodeWebP(_ bytes: [UInt8], maxPixels: Int) throws(RasterDecodeError) -> StraightImage {
        var w: Int32 = 0, h: Int32 = 0
        let ok = bytes.withUnsafeBufferPointer { WebPGetInfo($0.baseAddress, $0.count, &w, &h) }
        guard ok != 0 else { throw RasterDecodeError("corrupt WebP (its header cannot be read)") }
        try checkSize(Int(w), Int(h), "WebP", maxPixels: maxPixels)
        var pixels = [UInt8](repeating: 0, count: Int(w) * Int(h) * 4)
        let count = pixels.count
        let out = bytes.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                WebPDecodeRGBAInto(src.baseAddress, src.count, dst.baseAddress, count, w * 4)
            }
        }
        guard out != nil else { throw RasterDecodeError("truncated or corrupt WebP (\(w)×\(h), \(bytes.count) bytes)") }
        return StraightImage(width: Int(w), height: Int(h), pixels: pixels)
    }
}
