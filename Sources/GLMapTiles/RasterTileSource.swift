import GLMapCore

/// A `raster` source: PNG, JPEG or WebP tiles decoded to straight-alpha RGBA.
public final class RasterTileSource: Sendable {
    /// Where the tiles come from (zoom range, bounds, templates or archive).
    public let source: TileSource

    /// Opens a raster source (fetches its TileJSON or opens its archive); throws `TileSourceError`.
    public init(_ description: TileSourceDescription, loader: ResourceLoader, limits: InputLimits = .default,
                pixelRatio: Double = 1) throws(TileSourceError) {
        source = try TileSource(description, expecting: .raster, loader: loader, limits: limits, pixelRatio: pixelRatio)
    }

    /// Loads and decodes `tiles`, all fetched and decoded concurrently.
    public func load(tiles: [CanonicalTileID]) -> [CanonicalTileID: TileLoadResult<RasterTileData>] {
        var warnings: [String] = []
        let maxPixels = source.limits.maxImagePixels
        return source.load(tiles, warnings: &warnings) { _, bytes in
            do {
                return (.success(RasterTileData(image: try RasterImageDecoder.decode(bytes, maxPixels: maxPixels))), [])
            } catch {
                return (.failure(TileSource.Failure(message: "\(error)")), [])
            }
        }
    }
}

/// A `raster-dem` source: image tiles decoded and unpacked to elevations (`DEMData`, GL JS's
/// layout: a 1-pixel border filled from the edges).
public final class RasterDEMTileSource: Sendable {
    /// Where the tiles come from (zoom range, bounds, templates or archive).
    public let source: TileSource

    /// Opens a raster-dem source (fetches its TileJSON or opens its archive); throws `TileSourceError`.
    public init(_ description: TileSourceDescription, loader: ResourceLoader, limits: InputLimits = .default,
                pixelRatio: Double = 1) throws(TileSourceError) {
        source = try TileSource(description, expecting: .rasterDEM, loader: loader, limits: limits, pixelRatio: pixelRatio)
    }

    /// Loads, decodes and unpacks `tiles`, all fetched and decoded concurrently.
    public func load(tiles: [CanonicalTileID]) -> [CanonicalTileID: TileLoadResult<DEMData>] {
        var warnings: [String] = []
        let maxPixels = source.limits.maxImagePixels
        let encoding = source.description.demEncoding
        return source.load(tiles, warnings: &warnings) { _, bytes in
            do {
                let image = try RasterImageDecoder.decode(bytes, maxPixels: maxPixels)
                return (.success(try DEMData(image: image, encoding: encoding)), [])
            } catch {
                return (.failure(TileSource.Failure(message: "\(error)")), [])
            }
        }
    }
}
