import GLMapCore

/// A `vector` source: tiles fetched through its `TileSource` and decoded by `VectorTileDecoder`
/// with the source's `promoteId`. The renderer calls `load(tiles:)` before drawing a still frame.
public final class VectorTileSource: Sendable {
    /// Where the tiles come from (zoom range, bounds, templates or archive).
    public let source: TileSource

    /// Opens a vector source (fetches its TileJSON or opens its archive); throws `TileSourceError`.
    public init(_ description: TileSourceDescription, loader: ResourceLoader, limits: InputLimits = .default,
                pixelRatio: Double = 1) throws(TileSourceError) {
        source = try TileSource(description, expecting: .vector, loader: loader, limits: limits, pixelRatio: pixelRatio)
    }

    /// Loads and decodes `tiles`, all fetched and decoded concurrently (see TileSource's contract).
    public func load(tiles: [CanonicalTileID]) -> [CanonicalTileID: TileLoadResult<VectorTileData>] {
        var ignored: [String] = []
        return load(tiles: tiles, warnings: &ignored)
    }

    /// Loads `tiles` and appends the decoder's warnings (one line per tile and kind).
    public func load(tiles: [CanonicalTileID], warnings: inout [String]) -> [CanonicalTileID: TileLoadResult<VectorTileData>] {
        let promoteId = source.description.promoteId
        return source.load(tiles, warnings: &warnings) { _, bytes in
            do {
                let d = try VectorTileDecoder.decode(bytes, promoteId: promoteId)
                return (.success(d.data), d.warnings)
            } catch {
                return (.failure(TileSource.Failure(message: "\(error)")), [])
            }
        }
    }
}
