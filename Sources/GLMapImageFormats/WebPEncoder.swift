import CWebP
import Foundation
import GLMapCore

/// Encodes frames as WebP with libwebp (see ImageFormat.swift).
public enum WebPEncoder {
    /// Encodes a premultiplied frame (unpremultiplied first: WebP stores straight alpha), lossy at
    /// `quality` (1…100) or lossless (exact RGB kept under alpha 0, like glmap's PNG).
    public static func encode(_ image: PremultipliedImage, quality: Int, lossless: Bool) throws -> [UInt8] {
        try JPEGEncoder.checkSize(image, format: "WebP")
        let straight = image.unpremultiplied()
        var config = WebPConfig()
        guard WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, Float(quality), WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw ImageEncodeError(format: "WebP", message: "libwebp version mismatch (WebPConfigInit)")
        }
        if lossless {
            _ = WebPConfigLosslessPreset(&config, 6)
            config.exact = 1
        }
        guard WebPValidateConfig(&config) != 0 else { throw ImageEncodeError(format: "WebP", message: "invalid configuration") }
        var picture = WebPPicture()
        guard WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw ImageEncodeError(format: "WebP", message: "libwebp version mismatch (WebPPictureInit)")
        }
        picture.use_argb = 1
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPPictureFree(&picture); WebPMemoryWriterClear(&writer) }
        let imported = straight.pixels.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(image.width * 4)) }
        guard imported != 0 else { throw ImageEncodeError(format: "WebP", message: "out of memory importing the frame") }
        let ok = withUnsafeMutablePointer(to: &writer) { w -> Int32 in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(w)
            return WebPEncode(&config, &picture)
        }
        guard ok != 0 else { throw ImageEncodeError(format: "WebP", message: "libwebp error code \(picture.error_code.rawValue)") }
        return [UInt8](UnsafeBufferPointer(start: writer.mem, count: writer.size))
    }
}
