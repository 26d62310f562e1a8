// MBTiles writer — contract
// Output: an MBTiles 1.3 file (SQLite): `metadata(name, value)` and the `tiles(zoom_level,
// tile_column, tile_row, tile_data)` the spec reads, as the view over `map` (z, x, TMS row →
// tile_id) and `images` (tile_id → tile_data) the spec allows, so identical tiles (ocean, land)
// are stored once; rows in TMS order (counted from the south, as the spec says), image blobs.
// A tile_id is a 64-bit FNV-1a hash of the bytes and their length; equal ids with different
// bytes (a hash collision) get a suffix, so deduplication never merges different tiles. Atomic: everything goes to a temporary file beside the
// destination inside one transaction; `finish()` commits, closes, fsyncs and renames it into
// place; `abandon()` (or a failure) deletes it, so the destination is never half-written.
// Threading: `add` may be called from several threads (inserts are serialised by a lock).
import CSQLite
import Foundation
import GLMapCore

/// A failure of SQLite while writing an MBTiles file.
public struct MBTilesError: GLMapError {
    /// The MBTiles file.
    public var path: String
    /// What failed, with SQLite's message where it gives one.
    public var message: String
    /// Always `.renderOrIO` (exit code 1).
    public var kind: FailureKind { .renderOrIO }
    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}

/// Writes tiles into a new MBTiles file atomically.
public final class MBTilesWriter: @unchecked Sendable {
    /// The final path (the file appears there only when `finish` succeeds).
    public let path: String
    private let tempPath: String
    private var db: OpaquePointer?
    private var insert: OpaquePointer?
    private var insertImage: OpaquePointer?
    private var selectImage: OpaquePointer?
    /// Distinct images stored so far.
    public private(set) var imageCount = 0
    private let lock = NSLock()
    private var closed = false

    /// Creates the temporary database with the schema and `metadata` rows (name → value).
    public init(path: String, metadata: [(String, String)]) throws {
        self.path = path
        let dir = PathText.directory(of: path)
        let name = PathText.lastComponent(of: path)
        try OutputFolder.requireParent(of: path)
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
                CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT);
                CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
                CREATE TABLE images (tile_data BLOB, tile_id TEXT);
                CREATE UNIQUE INDEX images_id ON images (tile_id);
                CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
                    map.tile_row AS tile_row, images.tile_data AS tile_data
                    FROM map JOIN images ON images.tile_id = map.tile_id;
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
            try check(sqlite3_prepare_v2(db, "INSERT INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?, ?, ?, ?)", -1, &insert, nil),
                      "preparing the tile insert")
            try check(sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO images (tile_data, tile_id) VALUES (?, ?)", -1, &insertImage, nil),
                      "preparing the image insert")
            try check(sqlite3_prepare_v2(db, "SELECT tile_data FROM images WHERE tile_id = ?", -1, &selectImage, nil),
                      "preparing the image lookup")
        } catch {
            abandon()
            throw error
        }
    }

    deinit { abandon() }

    /// Inserts one tile's image bytes (row stored in TMS order; bytes stored once per content).
    public func add(_ tile: TileAddress, png: [UInt8]) throws {
        lock.lock()
        defer { lock.unlock() }
        guard !closed, let insert else { throw MBTilesError(path: path, message: "the MBTiles file is already closed") }
        let id = try storeImage(png)
        sqlite3_bind_int(insert, 1, Int32(tile.z))
        sqlite3_bind_int(insert, 2, Int32(tile.x))
        sqlite3_bind_int(insert, 3, Int32(tile.tmsRow))
        sqlite3_bind_text(insert, 4, id, -1, sqliteTransient)
        defer { sqlite3_reset(insert) }
        try check(sqlite3_step(insert), "writing tile \(tile)", done: true)
    }

    /// Stores `bytes` in `images` unless the same bytes are there; returns their tile_id.
    private func storeImage(_ bytes: [UInt8]) throws -> String {
        let base = String(MBTilesWriter.fnv1a(bytes), radix: 16) + "-" + String(bytes.count)
        var id = base
        var suffix = 0
        while true {
            _ = bytes.withUnsafeBytes { sqlite3_bind_blob(insertImage, 1, $0.baseAddress, Int32($0.count), sqliteTransient) }
            sqlite3_bind_text(insertImage, 2, id, -1, sqliteTransient)
            let rc = sqlite3_step(insertImage)
            sqlite3_reset(insertImage)
            try check(rc, "writing an image", done: true)
            if sqlite3_changes(db) == 1 { imageCount += 1; return id }
            // The id is taken: the same bytes (share them) or a hash collision (next suffix).
            sqlite3_bind_text(selectImage, 1, id, -1, sqliteTransient)
            defer { sqlite3_reset(selectImage) }
            if sqlite3_step(selectImage) == SQLITE_ROW {
                let n = Int(sqlite3_column_bytes(selectImage, 0))
                let p = sqlite3_column_blob(selectImage, 0)
                let same = n == bytes.count && (n == 0 || (p != nil && bytes.withUnsafeBytes { memcmp($0.baseAddress!, p!, n) == 0 }))
                if same { return id }
            }
            suffix += 1
            id = base + "-" + String(suffix)
        }
    }

    /// Commits, closes, flushes and moves the file into place.
    public func finish() throws {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw MBTilesError(path: path, message: "the MBTiles file is already closed") }
        do {
            sqlite3_finalize(insert); insert = nil
            sqlite3_finalize(insertImage); insertImage = nil
            sqlite3_finalize(selectImage); selectImage = nil
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
        sqlite3_finalize(insertImage); insertImage = nil
        sqlite3_finalize(selectImage); selectImage = nil
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

extension MBTilesWriter {
    /// 64-bit FNV-1a of `bytes` (the content hash behind tile_id).
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        bytes.withUnsafeBufferPointer { p in
            for b in p { h ^= UInt64(b); h = h &* 0x100000001b3 }
        }
        return h
    }
}

/// SQLite's SQLITE_TRANSIENT (copy the bound bytes now); the macro does not import into Swift.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
