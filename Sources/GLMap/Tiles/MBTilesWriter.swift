// MBTiles writer — contract
// Output: an MBTiles 1.3 file (SQLite): `metadata(name, value)` and `tiles(zoom_level,
// tile_column, tile_row, tile_data)` with a unique index, rows in TMS order (counted from the
// south, as the spec says), PNG blobs. Atomic: everything goes to a temporary file beside the
// destination inside one transaction; `finish()` commits, closes, fsyncs and renames it into
// place; `abandon()` (or a failure) deletes it, so the destination is never half-written.
// Threading: `add` may be called from several threads (inserts are serialised by a lock).
import CSQLite
import Foundation
import GLMapCore

/// A failure of SQLite while writing an MBTiles file.
public struct MBTilesError: GLMapError {
    public var path: String
    public var message: String
    public var kind: FailureKind { .renderOrIO }
    public var description: String { "\(path): \(message)" }
}

/// Writes tiles into a new MBTiles file atomically.
public final class MBTilesWriter: @unchecked Sendable {
    public let path: String
    private let tempPath: String
    private var db: OpaquePointer?
    private var insert: OpaquePointer?
    private let lock = NSLock()
    private var closed = false

    /// Creates the temporary database with the schema and `metadata` rows (name → value).
    public init(path: String, metadata: [(String, String)]) throws {
        self.path = path
        let dir = PathText.directory(of: path)
        let name = PathText.lastComponent(of: path)
        var isDir: ObjCBool = false
        if !dir.isEmpty && !(FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) && isDir.boolValue) {
            throw IOFailure(path: path, message: "the directory \(dir) does not exist")
        }
        tempPath = (dir.isEmpty ? "" : dir + "/") + ".\(name).tmp-\(UInt32.random(in: 0...UInt32.max))"
        guard InFlightFiles.register(tempPath) else {
            throw MBTilesError(path: path, message: "interrupted before the MBTiles file was created")
        }
        guard sqlite3_open_v2(tempPath, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            unlink(tempPath)
            InFlightFiles.unregister(tempPath)
            throw MBTilesError(path: path, message: "cannot create the SQLite file \(tempPath): \(message)")
        }
        do {
            // The temporary file is renamed into place only when complete: no journal is needed.
            try exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 4096;")
            try exec("""
                CREATE TABLE metadata (name TEXT, value TEXT);
                CREATE UNIQUE INDEX name ON metadata (name);
                CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                BEGIN;
                """)
            var meta: OpaquePointer?
            try check(sqlite3_prepare_v2(db, "INSERT INTO metadata (name, value) VALUES (?, ?)", -1, &meta, nil), "preparing the metadata insert")
            defer { sqlite3_finalize(meta) }
            for (k, v) in metadata {
                sqlite3_bind_text(meta, 1, k, -1, sqliteTransient)
                sqlite3_bind_text(meta, 2, v, -1, sqliteTransient)
                try check(sqlite3_step(meta), "writing metadata \"\(k)\"", done: true)
                sqlite3_reset(meta)
            }
            try check(sqlite3_prepare_v2(db, "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)", -1, &insert, nil),
                      "preparing the tile insert")
        } catch {
            abandon()
            throw error
        }
    }

    deinit { abandon() }

    /// Standard metadata for a PNG pyramid (MBTiles 1.3 names).
    public static func metadata(name: String, pyramid: Pyramid, tileSize: Int, ratio: Double, description: String? = nil) -> [(String, String)] {
        func f(_ v: Double) -> String { String(format: "%.6f", v) }
        let b = pyramid.bbox
        let cz = pyramid.zooms.lowerBound
        var rows: [(String, String)] = [
            ("name", name),
            ("format", "png"),
            ("type", "baselayer"),
            ("version", "1.0"),
            ("minzoom", String(pyramid.zooms.lowerBound)),
            ("maxzoom", String(pyramid.zooms.upperBound)),
            ("bounds", [b.west, b.south, b.east, b.north].map(f).joined(separator: ",")),
            ("center", [f((b.west + b.east) / 2), f((b.south + b.north) / 2), String(cz)].joined(separator: ",")),
            ("tile_size", String(tileSize)),
            ("scale", ratio == ratio.rounded() ? String(Int(ratio)) : String(ratio)),
        ]
        if let description { rows.append(("description", description)) }
        return rows
    }

    /// Inserts one tile's PNG bytes (row stored in TMS order).
    public func add(_ tile: TileAddress, png: [UInt8]) throws {
        lock.lock()
        defer { lock.unlock() }
        guard !closed, let insert else { throw MBTilesError(path: path, message: "the MBTiles file is already closed") }
        sqlite3_bind_int(insert, 1, Int32(tile.z))
        sqlite3_bind_int(insert, 2, Int32(tile.x))
        sqlite3_bind_int(insert, 3, Int32(tile.tmsRow))
        png.withUnsafeBytes { _ = sqlite3_bind_blob(insert, 4, $0.baseAddress, Int32($0.count), sqliteTransient) }
        defer { sqlite3_reset(insert) }
        try check(sqlite3_step(insert), "writing tile \(tile)", done: true)
    }

    /// Commits, closes, flushes and moves the file into place.
    public func finish() throws {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw MBTilesError(path: path, message: "the MBTiles file is already closed") }
        do {
            sqlite3_finalize(insert); insert = nil
            try exec("COMMIT;")
            try check(sqlite3_close(db), "closing the database")
            db = nil
            closed = true
            let fd = open(tempPath, O_RDONLY)
            if fd >= 0 { _ = fsync(fd); close(fd) }
            guard rename(tempPath, path) == 0 else {
                let message = "cannot move \(tempPath) into place: \(String(cString: strerror(errno)))"
                unlink(tempPath)
                InFlightFiles.unregister(tempPath)
                throw MBTilesError(path: path, message: message)
            }
            InFlightFiles.unregister(tempPath)
        } catch {
            closeAndDelete()
            throw error
        }
    }

    /// Discards the temporary file (nothing is left at `path`).
    public func abandon() {
        lock.lock()
        defer { lock.unlock() }
        closeAndDelete()
    }

    private func closeAndDelete() {
        guard !closed else { return }
        closed = true
        sqlite3_finalize(insert); insert = nil
        sqlite3_close(db); db = nil
        unlink(tempPath)
        InFlightFiles.unregister(tempPath)
    }

    private func exec(_ sql: String) throws {
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let m = err.map { String(cString: $0) } ?? "error \(rc)"
            sqlite3_free(err)
            throw MBTilesError(path: path, message: "SQLite: \(m) (running \(sql.prefix(40))…)")
        }
    }

    private func check(_ rc: Int32, _ what: String, done: Bool = false) throws {
        if rc == SQLITE_OK || (done && rc == SQLITE_DONE) { return }
        let m = db.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(rc)"
        throw MBTilesError(path: path, message: "SQLite failed \(what): \(m)\(rc == SQLITE_FULL ? " (disk full?)" : "")")
    }
}

/// SQLite's SQLITE_TRANSIENT (copy the bound bytes now); the macro does not import into Swift.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
