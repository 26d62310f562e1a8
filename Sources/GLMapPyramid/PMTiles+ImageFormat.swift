import GLMap
import GLMapBatch
import GLMapArchives
import GLMapImageFormats

extension PMTiles {
    /// The PMTiles tile type code of an image format.
    public static func tileType(_ kind: ImageFormat.Kind) -> UInt8 {
        switch kind {
        case .png: return TileType.png.rawValue
        case .jpeg: return TileType.jpeg.rawValue
        case .webp: return TileType.webp.rawValue
        }
    }
}
