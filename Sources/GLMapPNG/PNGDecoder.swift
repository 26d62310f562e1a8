#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CPNG
import GLMapCore

/// Decodes PNG files through libpng's simplified read API.
///
/// Every PNG colour type, bit depth and interlacing is accepted and converted to 8-bit straight
/// RGBA: grey is replicated, palettes are expanded (with `tRNS` alpha), missing alpha becomes 255,
/// 16-bit samples are scaled to 8 bits and treated as sRGB-encoded (`PNG_IMAGE_FLAG_16BIT_sRGB`),
/// as browsers and pngjs treat them. A file whose `gAMA`/`iCCP` says it is not sRGB is converted to
/// sRGB by libpng. Files written by glmap and MapLibre's expected images are 8-bit sRGB RGBA and
/// come back byte for byte.
public enum PNGDecoder {
    /// Largest image (width × height) glmap encodes or decodes: 2^28 pixels, 1 GiB of RGBA.
    public static let maxPixelCount = 1 << 28

    /// Decodes any PNG (palette, grey, 16-bit, interlaced…) to straight-alpha RGBA8.
    public static func decode(_ bytes: [UInt8]) throws -> StraightImage {
        try decode(bytes, path: nil)
    }

    /// Reads and decodes the PNG file at `path`.
    public static func decode(contentsOf path: String) throws -> StraightImage {
        try decode(try readFile(path), path: path)
    }

    static func decode(_ bytes: [UInt8], path: String?) throws -> StraightImage {
        guard !bytes.isEmpty else { throw PNGError(.decode, path: path, message: "the data is empty (0 bytes)") }
        // libpng keeps the input pointer between begin_read and finish_read, so both calls stay
        // inside one `withUnsafeBytes`.
        let result: Result<StraightImage, PNGError> = bytes.withUnsafeBytes { input in
            var png = png_image()
            png.version = png_uint_32(PNG_IMAGE_VERSION)
            defer { png_image_free(&png) }
            guard png_image_begin_read_from_memory(&png, input.baseAddress, input.count) != 0 else {
                return .failure(PNGError(.decode, path: path, message: "libpng: \(libpngMessage(&png))"))
            }
            let width = Int(png.width), height = Int(png.height)
            guard width > 0, height > 0, width * 4 <= Int(Int32.max), width * height <= maxPixelCount else {
                return .failure(PNGError(.decode, path: path,
                    message: "the image is \(width)×\(height), more than the \(maxPixelCount) pixels glmap decodes"))
            }
            png.format = rgba8Format
            png.flags |= png_uint_32(PNG_IMAGE_FLAG_16BIT_sRGB)
            var failure: String?
            let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, initialized in
                if png_image_finish_read(&png, nil, buffer.baseAddress, png_int_32(width * 4), nil) != 0 {
                    initialized = width * height * 4
                } else {
                    // The buffer may be partly written; hand back a defined (zeroed) array.
                    buffer.initialize(repeating: 0)
                    initialized = buffer.count
                    failure = libpngMessage(&png)
                }
            }
            if let failure {
                return .failure(PNGError(.decode, path: path, message: "libpng: \(failure)"))
            }
            return .success(StraightImage(width: width, height: height, pixels: pixels))
        }
        return try result.get()
    }

    /// The whole file at `path`, or a `.read` error naming it and the system error.
    static func readFile(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PNGError(.read, path: path, message: systemError("cannot open the file")) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var info = stat()
        if fstat(fd, &info) == 0, info.st_size > 0 {
            bytes.reserveCapacity(Int(info.st_size))
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PNGError(.read, path: path, message: systemError("read failed after \(bytes.count) bytes"))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }
}
