// Image formats — contract
// Input: a renderer's premultiplied RGBA frame. Output: the bytes of one image file in the chosen
// format: PNG (default; glmap's libdeflate writer, straight alpha), JPEG (libjpeg-turbo, 4:4:4,
// no alpha: every pixel is composited over an opaque matte — the style's background colour or
// white — as `out = premultiplied + matte · (1 − alpha)`), or WebP (libwebp, lossy with alpha or
// lossless; straight alpha, exact RGB under alpha 0 in lossless). The format is chosen by name
// (`--format`) or by a file's extension; an unknown extension is an invalid-input error.
// Quality: 1…100 for JPEG and lossy WebP (default 90); PNG and lossless WebP take none.
// Threading: stateless; encode may run concurrently on any threads.
import Foundation
import GLMapCore
import GLMapPNG

/// The file format a frame or tile is written in, with its settings.
public enum ImageFormat: Equatable, Sendable {
    /// PNG, 8-bit RGBA.
    case png(PNGCompression)
    /// Baseline JPEG (libjpeg-turbo), composited over an opaque `matte`.
    case jpeg(quality: Int, matte: Color)
    /// WebP (libwebp), lossy at `quality` or lossless.
    case webp(quality: Int, lossless: Bool)

    /// The quality JPEG and lossy WebP use when none is given.
    public static let defaultQuality = 90

    /// The kind of format, without settings.
    public enum Kind: String, Sendable, CaseIterable {
        /// PNG (lossless), JPEG, WebP.
        case png, jpeg, webp
        /// The file extension written (`png`, `jpg`, `webp`).
        public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
        /// The MBTiles/TileJSON `format` value.
        public var tileFormat: String { fileExtension }
        /// The MIME type.
        public var mimeType: String { self == .jpeg ? "image/jpeg" : "image/\(rawValue)" }

        /// The format a file name's extension names: nil when it has none; an error when the
        /// extension is not one glmap writes.
        public static func fromPath(_ path: String) throws -> Kind? {
            let ext = PathText.pathExtension(of: path).lowercased()
            if ext.isEmpty { return nil }
            switch ext {
            case "png": return .png
            case "jpg", "jpeg": return .jpeg
            case "webp": return .webp
            default:
                throw InputFailure("\(path): unknown image extension \".\(ext)\" (glmap writes .png, .jpg, .jpeg or .webp; or name the format with --format png|jpeg|webp)")
            }
        }

        /// Parses a `--format` value (png, jpeg or jpg, webp).
        public static func parse(_ name: String) throws -> Kind {
            switch name.lowercased() {
            case "png": return .png
            case "jpeg", "jpg": return .jpeg
            case "webp": return .webp
            default: throw InputFailure("--format expects png, jpeg or webp, got \"\(name)\"")
            }
        }
    }

    /// This format's kind.
    public var kind: Kind {
        switch self {
        case .png: return .png
        case .jpeg: return .jpeg
        case .webp: return .webp
        }
    }

    /// The format of `kind` with the given settings (checked: quality 1…100, only for JPEG and
    /// lossy WebP; lossless only for WebP).
    public static func make(_ kind: Kind, quality: Int? = nil, lossless: Bool = false,
                            pngCompression: PNGCompression = .default, matte: Color = .white) throws -> ImageFormat {
        if let q = quality, !(1...100).contains(q) { throw InputFailure("--quality expects 1 to 100, got \(q)") }
        if lossless && kind != .webp { throw InputFailure("--lossless applies to WebP only, not \(kind.rawValue)") }
        switch kind {
        case .png:
            if quality != nil { throw InputFailure("--quality applies to jpeg and webp, not png (see --png-level)") }
            return .png(pngCompression)
        case .jpeg:
            return .jpeg(quality: quality ?? defaultQuality, matte: matte)
        case .webp:
            if lossless && quality != nil { throw InputFailure("--quality applies to lossy WebP; --lossless takes none") }
            return .webp(quality: quality ?? defaultQuality, lossless: lossless)
        }
    }

    /// Encodes a premultiplied frame in this format; PNG compresses on `threads` threads (one frame
    /// of a batch: 1, the batch's encoder pool spreads frames; a single image: every core).
    public func encode(_ image: PremultipliedImage, threads: Int = 1) throws -> [UInt8] {
        switch self {
        case .png(let c): return try PNGEncoder.encode(image, compression: c, threads: threads)
        case .jpeg(let q, let matte): return try JPEGEncoder.encode(image, quality: q, matte: matte)
        case .webp(let q, let lossless): return try WebPEncoder.encode(image, quality: q, lossless: lossless)
        }
    }
}

/// A failure of an image encoder (render/IO failure, exit 1).
public struct ImageEncodeError: GLMapError {
    /// The format's name as messages write it (`JPEG`, `WebP`, …).
    public var format: String
    /// The encoder's own error text.
    public var message: String
    /// Always `.renderOrIO` (exit code 1).
    public var kind: FailureKind { .renderOrIO }
    /// `<format> encoding failed: <message>`.
    public var description: String { "\(format) encoding failed: \(message)" }
}

extension ImageFormat {
    /// The format for an output path and the format flags: `--format` if given (it must agree with
    /// a known extension), else the extension, else PNG; an unknown extension is an error. `"-"`
    /// (standard output) has no extension.
    public static func forOutput(_ path: String?, format: String?, quality: Int?, lossless: Bool,
                                 pngCompression: PNGCompression = .default, matte: Color = .white) throws -> ImageFormat {
        let named = try format.map(Kind.parse)
        let fromPath = try path.flatMap { $0 == "-" ? nil : try Kind.fromPath($0) }
        if let named, let fromPath, named != fromPath {
            throw InputFailure("--format \(named.rawValue) disagrees with the output \(path!), whose extension names \(fromPath.rawValue)")
        }
        return try make(named ?? fromPath ?? .png, quality: quality, lossless: lossless, pngCompression: pngCompression, matte: matte)
    }
}
