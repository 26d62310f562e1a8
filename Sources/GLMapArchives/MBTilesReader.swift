// MBTiles reader — contract
// Input: an MBTiles file (SQLite; spec 1.3 and earlier): the `tiles` table or view
// (zoom_level, tile_column, tile_row in TMS order — counted from the south — and tile_data) and
// the `metadata` name/value table (optional here; `json` holds vector_layers for vector tiles).
// Output: metadata as strings, and one tile's bytes by XYZ z/x/y, as stored (vector tiles are
// usually gzip- or zlib-compressed by tilemaker, tippecanoe and planetiler: the caller inflates).
// Errors name the file: not there, not SQLite, no `tiles` table. Opened read-only; one
// connection, its reads serialised by a lock (thread-safe).
import CSQLite
import Foundation
import GLMapCore

/// Reads tiles and metadata from an MBTiles file (see the contract above).
public final class MBTilesReader: @unchecked Sendable {
    /// The MBTiles file.
    public let path: String
    /// The `metadata` table as name → value (empty when the table is absent).
    public let metadata: [String: String]
    private var db: OpaquePointer?
    private var select: OpaquePointer?
    private let lock = NSLock()

    /// Opens `path` read-only; throws when it is missing, not SQLite, or has no `tiles` table.
    public init(path: String) throws {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else { throw IOFailure(path: path, message: "no such file") }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            let m = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw IOFailure(path: path, message: "cannot open the MBTiles file: \(m)")
        }
        do {
            let kinds = try MBTilesReader.rows(db, path: path, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')") { s in
                sqlite3_column_text(s, 0).map { String(cString: $0) } ?? ""
            }
            guard kinds.contains("tiles") else {
                throw InputFailure("\(path): not an MBTiles file: it has no `tiles` table (tables: \(kinds.isEmpty ? "none" : kinds.sorted().joined(separator: ", ")))")
            }
            var m: [String: String] = [:]
            if kinds.contains("metadata") {
                for (k, v) in try MBTilesReader.rows(db, path: path, "SELECT name, value FROM metadata", { s in
                    (sqlite3_column_text(s, 0).map { String(cString: $0) }, sqlite3_column_text(s, 1).map { String(cString: $0) })
                }) {
                    if let k, let v { m[k] = v }
                }
            }
            metadata = m
            guard sqlite3_prepare_v2(db, "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?", -1, &select, nil) == SQLITE_OK else {
                throw InputFailure("\(path): not an MBTiles file: its `tiles` table lacks zoom_level, tile_column, tile_row or tile_data (\(String(cString: sqlite3_errmsg(db))))")
            }
        } catch {
            sqlite3_finalize(select)
            sqlite3_close(db)
            throw error
        }
    }

    deinit {
        sqlite3_finalize(select)
        sqlite3_close(db)
    }

    /// The stored bytes of tile z/x/y (XYZ; the row is looked up in TMS order), nil when absent.
    public func tile(z: Int, x: Int, y: Int) throws -> [UInt8]? {
        guard (0...TileAddress.maxZoom).contains(z), x >= 0, y >= 0, x < 1 << z, y < 1 << z else { return nil }
        lock.lock()
        defer { lock.unlock() }
        sqlite3_bind_int64(select, 1, Int64(z))
        sqlite3_bind_int64(select, 2, Int64(x))
        sqlite3_bind_int64(select, 3, Int64((1 << z) - 1 - y))
        defer { sqlite3_reset(select) }
        switch sqlite3_step(select) {
        case SQLITE_ROW:
            let n = Int(sqlite3_column_bytes(select, 0))
            guard n > 0, let p = sqlite3_column_blob(select, 0) else { return [] }
            return [UInt8](UnsafeRawBufferPointer(start: p, count: n))
        case SQLITE_DONE:
            return nil
        default:
            throw IOFailure(path: path, message: "reading tile \(z)/\(x)/\(y): SQLite: \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    /// Every tile with its bytes (rows outside the tile grid are skipped), in tile-ID order.
    public func tiles() throws -> [(tile: TileAddress, data: [UInt8])] {
        lock.lock()
        defer { lock.unlock() }
        var out = try MBTilesReader.rows(db, path: path, "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles") { s -> (tile: TileAddress, data: [UInt8])? in
            guard let t = try? TileAddress.fromTMS(z: Int(sqlite3_column_int64(s, 0)), x: Int(sqlite3_column_int64(s, 1)), row: Int(sqlite3_column_int64(s, 2))) else { return nil }
            let n = Int(sqlite3_column_bytes(s, 3))
            let data = n == 0 ? [] : [UInt8](UnsafeRawBufferPointer(start: sqlite3_column_blob(s, 3), count: n))
            return (t, data)
        }.compactMap { $0 }
        out.sort { PMTiles.tileID($0.tile) < PMTiles.tileID($1.tile) }
        return out
    }

    /// The zoom levels present in the `tiles` table (min, max), nil when it is empty.
    public func zoomRange() throws -> ClosedRange<Int>? {
        lock.lock()
        defer { lock.unlock() }
        let r = try MBTilesReader.rows(db, path: path, "SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles") { s -> ClosedRange<Int>? in
            guard sqlite3_column_type(s, 0) != SQLITE_NULL else { return nil }
            let lo = Int(sqlite3_column_int64(s, 0)), hi = Int(sqlite3_column_int64(s, 1))
            return lo <= hi ? lo...hi : nil
        }
        return r.first ?? nil
    }

    /// The columns and TMS rows of the tiles at `zoom` (nil when there are none).
    public func tileRange(zoom: Int) throws -> (minX: Int, maxX: Int, minRow: Int, maxRow: Int)? {
        lock.lock()
        defer { lock.unlock() }
        let sql = "SELECT MIN(tile_column), MAX(tile_column), MIN(tile_row), MAX(tile_row) FROM tiles WHERE zoom_level = \(zoom)"
        let r = try MBTilesReader.rows(db, path: path, sql) { s -> (minX: Int, maxX: Int, minRow: Int, maxRow: Int)? in
            guard sqlite3_column_type(s, 0) != SQLITE_NULL else { return nil }
            return (Int(sqlite3_column_int64(s, 0)), Int(sqlite3_column_int64(s, 1)), Int(sqlite3_column_int64(s, 2)), Int(sqlite3_column_int64(s, 3)))
        }
        return r.first ?? nil
    }

    static func rows<T>(_ db: OpaquePointer?, path: String, _ sql: String, _ each: (OpaquePointer) throws -> T) throws -> [T] {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
            throw InputFailure("\(path): not an MBTiles file (SQLite: \(String(cString: sqlite3_errmsg(db))))")
        }
        defer { sqlite3_finalize(stmt) }
        var out: [T] = []
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw IOFailure(path: path, message: "SQLite: \(String(cString: sqlite3_errmsg(db)))") }
            out.append(try each(stmt))
        }
        return out
    }
}
