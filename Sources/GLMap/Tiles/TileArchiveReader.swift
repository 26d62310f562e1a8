import CSQLite
import Foundation
import GLMapCore

/// Reads a finished MBTiles or PMTiles archive back: its metadata and every tile's bytes (for
/// `tiles merge`, and for checking what was written).
public struct TileArchiveReader {
    /// The archive file.
    public let path: String
    /// Metadata as name → value strings (PMTiles' JSON arrays as comma-separated numbers).
    public let metadata: [String: String]
    /// Every tile with its bytes, in tile-ID order.
    public let tiles: [(tile: TileAddress, data: [UInt8])]

    /// Opens `path` by its extension (.mbtiles or .pmtiles).
    public static func open(_ path: String) throws -> TileArchiveReader {
        switch TileArchiveWriter.Kind(path: path) {
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
        for (k, v) in r.metadata {
            if let s = v as? String { m[k] = s } else if let a = v as? [NSNumber] {
                m[k] = a.map { String($0.doubleValue) }.joined(separator: ",")
            } else if let n = v as? NSNumber { m[k] = n.doubleValue == n.doubleValue.rounded() ? String(Int(n.doubleValue)) : String(n.doubleValue) }
        }
        let tiles = try r.tiles().map { (tile: $0.0, data: $0.1) }
        return TileArchiveReader(path: path, metadata: m, tiles: tiles)
    }

    static func readMBTiles(_ path: String) throws -> TileArchiveReader {
        var db: OpaquePointer?
        guard FileManager.default.fileExists(atPath: path) else { throw IOFailure(path: path, message: "no such file") }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            defer { sqlite3_close(db) }
            throw IOFailure(path: path, message: "cannot open the MBTiles file: \(db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory")")
        }
        defer { sqlite3_close(db) }
        func rows(_ sql: String, _ each: (OpaquePointer) throws -> Void) throws {
            var stmt: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
                throw InputFailure("\(path): not an MBTiles file (\(String(cString: sqlite3_errmsg(db))))")
            }
            defer { sqlite3_finalize(stmt) }
            while true {
                let rc = sqlite3_step(stmt)
                if rc == SQLITE_DONE { break }
                guard rc == SQLITE_ROW else { throw IOFailure(path: path, message: "SQLite: \(String(cString: sqlite3_errmsg(db)))") }
                try each(stmt)
            }
        }
        var m: [String: String] = [:]
        try rows("SELECT name, value FROM metadata") { s in
            if let k = sqlite3_column_text(s, 0), let v = sqlite3_column_text(s, 1) { m[String(cString: k)] = String(cString: v) }
        }
        var tiles: [(tile: TileAddress, data: [UInt8])] = []
        try rows("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles") { s in
            let t = try TileAddress.fromTMS(z: Int(sqlite3_column_int(s, 0)), x: Int(sqlite3_column_int(s, 1)), row: Int(sqlite3_column_int(s, 2)))
            let n = Int(sqlite3_column_bytes(s, 3))
            let data = n == 0 ? [] : [UInt8](UnsafeRawBufferPointer(start: sqlite3_column_blob(s, 3), count: n))
            tiles.append((t, data))
        }
        tiles.sort { PMTiles.tileID($0.tile) < PMTiles.tileID($1.tile) }
        return TileArchiveReader(path: path, metadata: m, tiles: tiles)
    }
}
