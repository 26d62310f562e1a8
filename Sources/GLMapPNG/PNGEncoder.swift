import CPNG
import Foundation
import GLMapCore

// PNG stage contract.
//
// Inputs:  a `StraightImage`, or a renderer's `PremultipliedImage` (converted to straight alpha
//          row by row as it is written, truncating; the type says which), or PNG bytes.
// Outputs: 8-bit non-interlaced PNG bytes / files, RGB when every pixel is opaque, else RGBA;
//          decoding yields straight-alpha RGBA8.
// Invariants: encode → decode returns the exact pixels (including the colour of alpha-0 pixels).
//          libpng's `longjmp` error handling never crosses a Swift frame: only libpng's
//          simplified API is used (`png_image_*`), which catches its own errors with `setjmp` inside
//          libpng and reports them as a return code plus `png_image.message`.
// Encoding: glmap's own PNG writer (`DeflatePNGWriter`, unfiltered rows — fastest and smallest
//          for map images, measured) over ISA-L's igzip (default) or libdeflate (`.small`);
//          libpng's simplified writer stays
//          available (`encodeWithLibPNG`) as the baseline. Files carry an sRGB chunk. Images must be at
//          least 1×1 and at most `PNGDecoder.maxPixelCount` pixels.
// Threading: stateless; encode/decode may run concurrently on any threads.

/// Speed/size trade-off of the PNG encoder, chosen by measurement (`glmap-bench png`, see
/// Benchmarks/README.md): map images are large flat areas, where unfiltered rows beat libpng's
/// adaptive filters + zlib 6; an opaque frame is written as RGB. On 1024² map frames igzip
/// (`.default`) takes ~1 ms where libdeflate level 3 (`.small`) takes ~6–7 ms, for files 6–46 %
/// larger — still smaller than MapLibre Native's own PNGs of the same scenes.
public enum PNGCompression: Sendable {
    /// ISA-L's igzip level 1, no row filters (RGB when opaque): the fastest; a large image is
    /// compressed in bands on the cores it is given.
    case `default`
    /// libdeflate level 3, no row filters (RGB when opaque): 6–32 % smaller files at ~6× the
    /// time, on one thread (the default before igzip).
    case small

    /// The old name of the fastest setting, which is now the default.
    @available(*, deprecated, renamed: "default", message: "igzip, the default, is faster than libdeflate level 1 was")
    public static var fast: PNGCompression { .default }

    /// The writer's compressor for this setting.
    var compressor: DeflatePNGWriter.Compressor { self == .small ? .libdeflate(level: 3) : .igzip }
}

/// Encodes RGBA images as PNG (glmap's writer over igzip or libdeflate; libpng's as the baseline).
public enum PNGEncoder {
    /// Encodes a straight-alpha image as an 8-bit PNG (RGB when every pixel is opaque, else RGBA).
    /// `threads`: how many cores compress this one image (its pieces, `ChunkedDeflate`; the bytes
    /// do not depend on it); 1 where images are already encoded in parallel (the batch encoder pool).
    public static func encode(_ image: StraightImage, compression: PNGCompression = .default, threads: Int = 1) throws -> [UInt8] {
        try checkSize(image)
        return try DeflatePNGWriter.encode(image, compressor: compression.compressor, filter: .none, threads: threads)
    }

    /// Encodes a renderer's premultiplied frame: the same bytes as
    /// `encode(image.unpremultiplied())`, converting row by row without a second full image.
    public static func encode(_ image: PremultipliedImage, compression: PNGCompression = .default, threads: Int = 1) throws -> [UInt8] {
        try checkSize(image)
        return try DeflatePNGWriter.encode(image, compressor: compression.compressor, filter: .none, threads: threads)
    }

    /// The cores of this machine (the `threads` a single image's encode may use).
    public static var allCores: Int { ProcessInfo.processInfo.activeProcessorCount }

    static func checkSize<Alpha>(_ image: RGBAImage<Alpha>) throws {
        let width = image.width, height = image.height
        guard width > 0, height > 0 else {
            throw PNGError(.encode, path: nil, message: "the image is \(width)×\(height); a PNG needs at least 1×1 pixels")
        }
        guard width * height <= PNGDecoder.maxPixelCount, width * 4 <= Int(Int32.max) else {
            throw PNGError(.encode, path: nil, message: "the image is \(width)×\(height), more than the \(PNGDecoder.maxPixelCount) pixels glmap writes")
        }
    }

    /// libpng's simplified writer (`fast`: PNG_IMAGE_FLAG_FAST).
    public static func encodeWithLibPNG(_ image: StraightImage, fast: Bool) throws -> [UInt8] {
        try checkSize(image)
        let width = image.width, height = image.height
        var png = png_image()
        png.version = png_uint_32(PNG_IMAGE_VERSION)
        png.width = png_uint_32(width)
        png.height = png_uint_32(height)
        png.format = rgba8Format
        png.flags = fast ? png_uint_32(PNG_IMAGE_FLAG_FAST) : 0
        let stride = png_int_32(width * 4)

        // Upper bound of the encoded size (libpng's PNG_IMAGE_PNG_SIZE_MAX, with generous chunk
        // overhead), so one compression pass always fits.
        let filtered = (width * 4 + 1) * height
        let zlibMax = filtered + (filtered + 7) / 8 + (filtered + 63) / 64 + 11
        var capacity = zlibMax + 12 * (zlibMax / 1024 + 1) + 512

        for _ in 0..<2 {
            var needed = 0
            var failure: String?
            let out = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                var size = png_alloc_size_t(capacity)
                let ok = image.pixels.withUnsafeBytes { pixels in
                    png_image_write_to_memory(&png, buffer.baseAddress, &size, 0, pixels.baseAddress, stride, nil)
                }
                if ok != 0 {
                    initialized = Int(size)
                } else {
                    initialized = 0
                    needed = Int(size)
                    failure = libpngMessage(&png)
                }
            }
            png_image_free(&png)
            if failure == nil {
                // Drop the slack of the worst-case allocation (`Array(out)` would share the buffer).
                guard out.capacity > out.count + out.count / 4 + 4096 else { return out }
                return [UInt8](unsafeUninitializedCapacity: out.count) { buffer, initialized in
                    initialized = buffer.initialize(fromContentsOf: out)
                }
            }
            guard needed > capacity else {
                throw PNGError(.encode, path: nil, message: "libpng: \(failure ?? "unknown error")")
            }
            capacity = needed
            png.warning_or_error = 0
        }
        throw PNGError(.encode, path: nil, message: "libpng needed more output memory than it estimated")
    }

    /// Writes the PNG of a straight-alpha image to `path` atomically: a temp file in the same
    /// directory, fsync, rename. On any failure the temp file is removed and nothing is left at
    /// `path`. "-" writes to stdout.
    public static func write(_ image: StraightImage, to path: String, compression: PNGCompression = .default,
                             threads: Int = 1) throws {
        try write(to: path) { try encode(image, compression: compression, threads: threads) }
    }

    /// Writes the PNG of a renderer's premultiplied frame to `path` atomically, as
    /// `write(image.unpremultiplied(), to: path)` would, converting row by row.
    public static func write(_ image: PremultipliedImage, to path: String, compression: PNGCompression = .default,
                             threads: Int = 1) throws {
        try write(to: path) { try encode(image, compression: compression, threads: threads) }
    }

    /// Encodes with `encode` and writes the bytes atomically; errors name the path.
    private static func write(to path: String, encode: () throws -> [UInt8]) throws {
        let shownPath = path == "-" ? "<stdout>" : path
        let bytes: [UInt8]
        do {
            bytes = try encode()
        } catch var error as PNGError {
            error.path = shownPath
            throw error
        }
        do {
            try AtomicFileWriter.write(bytes, to: path)
        } catch let error as IOFailure {
            throw PNGError(.write, path: shownPath, message: error.message)
        }
    }
}

/// The NUL-terminated `png_image.message`, as a Swift string.
func libpngMessage(_ png: inout png_image) -> String {
    withUnsafeBytes(of: &png.message) { raw in
        let text = String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        return text.isEmpty ? "unknown libpng error" : text
    }
}

/// `PNG_FORMAT_RGBA` (8-bit sRGB colour + alpha); the composite macro does not import into Swift.
let rgba8Format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
