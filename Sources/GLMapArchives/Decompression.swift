// Decompression — contract
// Input: bytes that may be gzip (RFC 1952, magic 1F 8B) or zlib (RFC 1950: a deflate method byte
// and a header whose 16-bit value is a multiple of 31) compressed — as tilemaker, tippecanoe and
// planetiler store vector tiles in MBTiles, and PMTiles stores directories — and a limit on the
// inflated size. Output: the inflated bytes (libdeflate), or the input unchanged when it is
// neither. Failures are `DecompressionError`s: corrupt data, and output past the limit (a
// decompression bomb, stopped before the memory is spent: the buffer grows by doubling and never
// past the limit). Thread-safe: every call has its own decompressor.
import CDeflate

/// How tile or directory bytes are compressed.
public enum CompressionFormat: Sendable, Equatable {
    /// Stored as is.
    case none
    /// gzip (RFC 1952).
    case gzip
    /// zlib (RFC 1950).
    case zlib

    /// The format the bytes' header says (`.none` when neither header is there).
    public static func detect(_ bytes: [UInt8]) -> CompressionFormat {
        guard bytes.count >= 2 else { return .none }
        if bytes[0] == 0x1F && bytes[1] == 0x8B { return .gzip }
        if bytes[0] & 0x0F == 8, bytes[0] >> 4 <= 7, (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0 { return .zlib }
        return .none
    }
}

/// Why bytes could not be inflated.
public struct DecompressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong ("corrupt gzip data", "inflates past … bytes (limit …)").
    public var message: String
    /// Whether the output would pass the limit (a likely decompression bomb).
    public var pastLimit: Bool
    /// The message.
    public var description: String { message }
    /// An error with this message.
    public init(_ message: String, pastLimit: Bool = false) { self.message = message; self.pastLimit = pastLimit }
}

/// gzip and zlib inflation under a size limit.
public enum Decompression {
    /// Inflates `bytes` when they are gzip or zlib (see `CompressionFormat.detect`), else returns
    /// them as they are. `limitName` names the limit in the message (e.g. `InputLimits.maxTileBytes`).
    public static func inflateIfCompressed(_ bytes: [UInt8], limit: Int, limitName: String = "limit") throws(DecompressionError) -> [UInt8] {
        switch CompressionFormat.detect(bytes) {
        case .none: return bytes
        case .gzip: return try gunzip(bytes, limit: limit, limitName: limitName)
        case .zlib: return try inflate(bytes, format: .zlib, limit: limit, limitName: limitName)
        }
    }

    /// Inflates gzip data (at most `limit` bytes out).
    public static func gunzip(_ bytes: [UInt8], limit: Int, limitName: String = "limit") throws(DecompressionError) -> [UInt8] {
        try inflate(bytes, format: .gzip, limit: limit, limitName: limitName)
    }

    /// Inflates `format` data (at most `limit` bytes out).
    public static func inflate(_ bytes: [UInt8], format: CompressionFormat, limit: Int, limitName: String = "limit") throws(DecompressionError) -> [UInt8] {
        let name = format == .gzip ? "gzip" : format == .zlib ? "zlib" : "deflate"
        guard format != .none else { return bytes }
        guard let d = libdeflate_alloc_decompressor() else { throw DecompressionError("libdeflate: out of memory") }
        defer { libdeflate_free_decompressor(d) }
        // First guess: gzip's trailer holds the size mod 2^32; else a few times the input.
        var capacity = max(1024, bytes.count * 4)
        if format == .gzip, bytes.count >= 18 {
            let n = bytes.count
            let isize = Int(bytes[n - 4]) | Int(bytes[n - 3]) << 8 | Int(bytes[n - 2]) << 16 | Int(bytes[n - 1]) << 24
            if isize > 0 { capacity = isize }
        }
        capacity = min(capacity, limit)
        while true {
            var out = [UInt8](repeating: 0, count: capacity)
            var actual = 0
            let rc = bytes.withUnsafeBytes { src in
                out.withUnsafeMutableBytes { dst in
                    format == .gzip
                        ? libdeflate_gzip_decompress(d, src.baseAddress, bytes.count, dst.baseAddress, capacity, &actual)
                        : libdeflate_zlib_decompress(d, src.baseAddress, bytes.count, dst.baseAddress, capacity, &actual)
                }
            }
            if rc == LIBDEFLATE_SUCCESS {
                out.removeLast(capacity - actual)
                return out
            }
            guard rc == LIBDEFLATE_INSUFFICIENT_SPACE else {
                throw DecompressionError("corrupt \(name) data (\(bytes.count) bytes)")
            }
            if capacity >= limit {
                throw DecompressionError("\(name) data of \(bytes.count) bytes inflates past \(limit) bytes (\(limitName))", pastLimit: true)
            }
            capacity = capacity > limit / 2 ? limit : capacity * 2
        }
    }
}
