import GLMapCore

/// An `image` source: one picture placed on four corners.
public struct ImageSource: Sendable {
    /// The style's description (its `url` and `coordinates`).
    public let description: TileSourceDescription
    let loader: ResourceLoader
    let limits: InputLimits

    /// An image source; throws `TileSourceError` unless the description is of type `image`.
    public init(_ description: TileSourceDescription, loader: ResourceLoader, limits: InputLimits = .default) throws(TileSourceError) {
        guard description.type == .image else {
            throw TileSourceError(path: "sources.\(description.id).type", message: "expected an image source, found \(description.type.rawValue)")
        }
        self.description = description
        self.loader = loader
        self.limits = limits
    }

    /// The corners [lon, lat]: top left, top right, bottom right, bottom left.
    public var coordinates: [[Double]] { description.coordinates ?? [] }

    /// Fetches and decodes the image: `.loaded`, `.missing` (404 / no file), `.empty` (204, an empty
    /// file) or `.failed` naming the source and URL.
    public func load() -> TileLoadResult<RasterTileData> {
        let url = description.url ?? ""
        let prefix = "source \"\(description.id)\" image \(url): "
        switch loader.load(url) {
        case .notFound: return .missing
        case .noContent: return .empty
        case .failed(let m): return .failed("source \"\(description.id)\": \(m)")
        case .data(let bytes):
            do {
                return .loaded(RasterTileData(image: try RasterImageDecoder.decode(bytes, maxPixels: limits.maxImagePixels)))
            } catch {
                return .failed(prefix + error.message)
            }
        }
    }
}
