// Tile archives — contract
// GLMapArchives holds glmap's one codec of each tile archive format, for the pyramid writer
// (`glmap tiles`) and the tile sources alike: MBTiles (MBTilesWriter / MBTilesReader), PMTiles v3
// (PMTiles: IDs, directories, header, writing; PMTilesReader: random access), gzip/zlib inflation
// under a limit (Decompression), and XYZ tile addresses (TileAddress). This file picks a reader
// by extension and reads a whole archive (merge, checks). Errors name the file.
import Foundation
import GLMapCore

/// The archive formats glmap reads and writes.
public enum TileArchiveKind: String, Sendable {
    /// MBTiles (SQLite) or PMTiles v3.
    case mbtiles, pmtiles
    /// The kind a path's extension names (nil: not an archive, e.g. a directory).
    public init?(path: String) {
        switch PathText.pathExtension(of: path).lowercased() {
        case "mbtiles": self = .mbtiles
        case "pmtiles": self = .pmtiles
        default: return nil
        }
    }
}

/// Reads a finished MBTiles or PMTiles archive whole: its metadata and every tile's bytes (for
/// `tiles merge`, and for checking what was written). Tile sources read tiles one at a time
/// through `MBTilesReader` and `PMTilesReader` instead.
public struct TileArchiveReader {
    /// The archive file.
    public let path: String
    /// Metadata as name → value strings (PMTiles' JSON arrays as comma-separated numbers).
    public let metadata: [String: String]
    /// Every tile with its bytes, in tile-ID order.
    public let tiles: [(tile: TileAddress, data: [UInt8])]

    /// Opens `path` by its extension (.mbtiles or .pmtiles).
    public static func open(_ path: String) throws -> TileArchiveReader {
        switch TileArchiveKind(path: path) {
        case .mbtiles?: return try readMBTiles(path)
        case .pmtiles?: return try readPMTiles(path)
        case nil: throw InputFailure("\(path): expected an .mbtiles or .pmtiles archive")
        }
    }

    /// The bytes of one tile, if present.
    public func tile(_ t: TileAddress) -> [UInt8]? { tiles.first { $0.tile == t }?.data }

    static func readPMTiles(_ path: String) throws -> TileArchiveReader {
        let r = try PMTilesReader(path: path)
        var m: [String: String] = [:]
        for (k, v) in r.metadata.pairs {
            switch v {
            case .string(let s): m[k] = s
            case .number(let n): m[k] = n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
            case .array(let a) where a.allSatisfy({ $0.numberValue != nil }):
                m[k] = a.map { String($0.numberValue!) }.joined(separator: ",")
            default: break
            }
        }
        let tiles = try r.tiles().map { (tile: $0.0, data: $0.1) }
        return TileArchiveReader(path: path, metadata: m, tiles: tiles)
    }

    static func readMBTiles(_ path: String) throws -> TileArchiveReader {
        let r = try MBTilesReader(path: path)
        return TileArchiveReader(path: path, metadata: r.metadata, tiles: try r.tiles())
    }
}
