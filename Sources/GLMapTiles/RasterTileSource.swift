import GLMapCore

/// A source of image tiles (`raster` or `raster-dem`): PNG, JPEG or WebP tiles decoded to
/// straight-alpha RGBA, then made into the source's tile type.
public final class ImageTileSource<Tile: Sendable>: Sendable {
    /// Where the tiles come from (zoom range, bounds, templates or archive).
    public let source: TileSource
    private let make: @Sendable (StraightImage) throws -> Tile

    init(_ description: TileSourceDescription, expecting type: TileSourceType, loader: ResourceLoader, limits: InputLimits,
         pixelRatio: Double, make: @escaping @Sendable (TileSource) -> @Sendable (StraightImage) throws -> Tile) throws(TileSourceError) {
        source = try TileSource(description, expecting: type, loader: loader, limits: limits, pixelRatio: pixelRatio)
        self.make = make(source)
    }

    /// Loads and decodes `tiles`, all fetched and decoded concurrently.
    public func load(tiles: [CanonicalTileID]) -> [CanonicalTileID: TileLoadResult<Tile>] {
        var warnings: [String] = []
        let maxPixels = source.limits.maxImagePixels
        let make = self.make
        return source.load(tiles, warnings: &warnings) { _, bytes in
            do {
                return (.success(try make(try RasterImageDecoder.decode(bytes, maxPixels: maxPixels))), [])
            } catch {
                return (.failure(TileSource.Failure(message: "\(error)")), [])
            }
        }
    }
}

/// A `raster` source: its tiles' images as they are.
public typealias RasterTileSource = ImageTileSource<RasterTileData>

/// A `raster-dem` source: its tiles' images unpacked to elevations (`DEMData`, GL JS's layout: a
/// 1-pixel border filled from the edges).
public typealias RasterDEMTileSource = ImageTileSource<DEMData>

extension ImageTileSource where Tile == RasterTileData {
    /// Opens a raster source (fetches its TileJSON or opens its archive); throws `TileSourceError`.
    public convenience init(_ description: TileSourceDescription, loader: ResourceLoader, limits: InputLimits = .default,
                            pixelRatio: Double = 1) throws(TileSourceError) {
        try self.init(description, expecting: .raster, loader: loader, limits: limits, pixelRatio: pixelRatio) { _ in
            { RasterTileData(image: $0) }
        }
    }
}

extension ImageTileSource where Tile == DEMData {
    /// Opens a raster-dem source (fetches its TileJSON or opens its archive; its `encoding` unpacks
    /// the tiles); throws `TileSourceError`.
    public convenience init(_ description: TileSourceDescription, loader: ResourceLoader, limits: InputLimits = .default,
                            pixelRatio: Double = 1) throws(TileSourceError) {
        try self.init(description, expecting: .rasterDEM, loader: loader, limits: limits, pixelRatio: pixelRatio) { source in
            let encoding = source.description.demEncoding
            return { try DEMData(image: $0, encoding: encoding) }
        }
    }
}
