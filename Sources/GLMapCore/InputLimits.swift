// Input limits — contract
// One place for the sizes glmap accepts from its inputs (style JSON, GeoJSON files, inline data),
// so that hostile or accidental inputs fail with an error a person can act on instead of
// exhausting memory or the stack. Every reader takes an `InputLimits` (default `.default`) so
// tests can pass tiny values.
// Checks are cheap and early: file sizes from stat before reading, string lengths and nesting as
// the scanner meets them, feature and position counts as they are decoded.
// Each message names the limit as `(limit InputLimits.<name>)`; the reader adds the place
// (file:line:column, JSON path, source id).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The largest inputs glmap reads; see `InputLimits.default` for the values and why.
public struct InputLimits: Equatable, Sendable {
    /// Largest style JSON file, in bytes.
    public var maxStyleFileBytes: Int
    /// Largest GeoJSON file of one source, in bytes.
    public var maxGeoJSONFileBytes: Int
    /// Longest JSON string (keys and values), in bytes of JSON text between the quotes.
    public var maxStringBytes: Int
    /// Most features in one GeoJSON source (the `features` of its FeatureCollection).
    public var maxFeaturesPerSource: Int
    /// Most positions in one GeoJSON source (a ring's closing repeat counts).
    public var maxPositionsPerSource: Int
    /// Deepest nesting of JSON arrays and objects.
    public var maxNestingDepth: Int
    /// Largest tile (vector or raster) or archive directory, in bytes, as fetched and again
    /// after gzip/zlib inflation (the decompression-bomb limit).
    public var maxTileBytes: Int
    /// Most pixels in one decoded raster tile or image source.
    public var maxImagePixels: Int

    /// Limits with the given values (each defaults to the production value).
    public init(maxStyleFileBytes: Int = 64 << 20, maxGeoJSONFileBytes: Int = 512 << 20,
                maxStringBytes: Int = 8 << 20, maxFeaturesPerSource: Int = 2_000_000,
                maxPositionsPerSource: Int = 20_000_000, maxNestingDepth: Int = 512,
                maxTileBytes: Int = 32 << 20, maxImagePixels: Int = 1 << 26) {
        (self.maxStyleFileBytes, self.maxGeoJSONFileBytes) = (maxStyleFileBytes, maxGeoJSONFileBytes)
        (self.maxStringBytes, self.maxFeaturesPerSource) = (maxStringBytes, maxFeaturesPerSource)
        (self.maxPositionsPerSource, self.maxNestingDepth) = (maxPositionsPerSource, maxNestingDepth)
        (self.maxTileBytes, self.maxImagePixels) = (maxTileBytes, maxImagePixels)
    }

    /// The production limits.
    ///
    /// - Style file, 64 MiB: real styles are 10 KB–2 MB; inline GeoJSON can make them larger, but
    ///   a style is parsed into a JSON tree (several times its size in memory), so big data
    ///   belongs in GeoJSON files.
    /// - GeoJSON file, 512 MiB: a source is read whole into memory and decoded straight into
    ///   positions; 512 MiB of text is about 20 M positions (~25 bytes each), the position limit.
    /// - String, 8 MiB: property values may hold long text (descriptions, WKT, encoded
    ///   polylines); anything longer is not map data and would be copied into every evaluation.
    /// - Features, 2 M per source: each feature keeps its properties and a projected copy
    ///   (hundreds of bytes each), so 2 M features are about 1 GB before any geometry.
    /// - Positions, 20 M per source: 16 bytes decoded + 16 projected + up to ~200 bytes of
    ///   tessellated line vertices each, so 20 M positions (a country's building footprints)
    ///   need up to ~4 GB, what a render host can be expected to have.
    /// - Nesting, 512 levels: MapLibre styles and GeoJSON need fewer than 10 (expressions
    ///   rarely 30); the limit keeps the recursive readers far from the thread's stack end.
    /// - Tile, 32 MiB (fetched, and again inflated): vector tiles are 10 KB–1 MB inflated
    ///   (tippecanoe's default cap is 500 KB compressed), raster tiles well under 1 MB; gzip
    ///   inflates up to ~1000×, so a 1 MB "tile" could otherwise claim 1 GB. Also caps each
    ///   PMTiles directory.
    /// - Image pixels, 64 M (256 MiB as RGBA): raster tiles are 256² or 512² (1024² at @2x);
    ///   image sources are larger pictures, but not larger than a render host's memory allows.
    public static let `default` = InputLimits()

    // MARK: Messages (the reader prefixes the place)

    /// "nesting deeper than 512 levels (limit InputLimits.maxNestingDepth)".
    public var nestingMessage: String {
        "nesting deeper than \(maxNestingDepth) levels (limit InputLimits.maxNestingDepth)"
    }

    /// "string longer than 8388608 bytes (limit InputLimits.maxStringBytes)".
    public var stringMessage: String {
        "string longer than \(maxStringBytes) bytes (limit InputLimits.maxStringBytes)"
    }

    /// "more than 2000000 features in one source (limit InputLimits.maxFeaturesPerSource)".
    public var featuresMessage: String {
        "more than \(maxFeaturesPerSource) features in one source (limit InputLimits.maxFeaturesPerSource)"
    }

    /// "more than 20000000 positions in one source (limit InputLimits.maxPositionsPerSource)".
    public var positionsMessage: String {
        "more than \(maxPositionsPerSource) positions in one source (limit InputLimits.maxPositionsPerSource)"
    }

    /// "tile inflates past 33554432 bytes (limit InputLimits.maxTileBytes)".
    public var tileBytesMessage: String {
        "tile inflates past \(maxTileBytes) bytes (limit InputLimits.maxTileBytes)"
    }

    /// "file is 123 bytes, more than 100 bytes (limit InputLimits.maxStyleFileBytes)".
    public static func fileSizeMessage(size: Int, limit: Int, name: String) -> String {
        "file is \(size) bytes, more than \(limit) bytes (limit InputLimits.\(name))"
    }

    /// The size of the file at `path` from stat (nil when it cannot be stat'ed, e.g. missing;
    /// the caller's read then reports that).
    public static func fileSize(atPath path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int(st.st_size)
    }
}
