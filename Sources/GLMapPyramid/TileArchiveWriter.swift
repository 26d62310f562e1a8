// Tile archive writer — contract
// Output: a finished MBTiles or PMTiles archive at `path`, or nothing there. Tiles are appended
// to a journal (`path + ".partial"`, TileSpool.swift) as they are encoded, from any thread; a
// killed or failed run leaves the journal, and a run with `resume` continues it (the tiles it
// holds are in `done` and are not rendered again). `finish()` builds the archive from the journal
// in tile-ID order into a temporary file, fsyncs it, renames it into place and deletes the
// journal: identical tiles are stored once in both formats (PMTiles: shared offsets and run
// lengths; MBTiles: the map/images layout). Invariants: `path` only ever holds a complete archive;
// a tile is in the journal at most once.
import GLMap
import GLMapBatch
import Foundation
import GLMapArchives
import GLMapCore
import GLMapPNG

/// Writes the tiles of one run into an MBTiles or PMTiles archive, through a resumable journal.
public final class TileArchiveWriter: @unchecked Sendable {
    /// The archive formats (MBTiles or PMTiles).
    public typealias Kind = TileArchiveKind

    /// The final archive path.
    public let path: String
    /// The archive format.
    public let kind: Kind
    /// What the archive's metadata says (name, bounds, zooms, format, …).
    public let metadata: TileArchiveMetadata
    let spool: TileSpool
    /// Tiles already in the journal when the writer opened (resume).
    public let done: Set<TileAddress>
    /// PMTiles: the most entries the root directory holds before leaves are used (tests).
    public var maxRootEntries = Int.max

    /// The journal path of an archive.
    public static func journalPath(_ path: String) -> String { path + ".partial" }

    /// Opens the journal for `job` (a description of the run; resume needs the same one): a new
    /// one, or with `resume` the one an interrupted run left (a new one when there is none).
    public init(path: String, kind: Kind, metadata: TileArchiveMetadata, job: String, resume: Bool) throws {
        self.path = path
        self.kind = kind
        self.metadata = metadata
        try OutputFolder.requireParent(of: path)
        let journal = TileArchiveWriter.journalPath(path)
        if resume && FileManager.default.fileExists(atPath: journal) {
            spool = try TileSpool(resuming: journal, job: job)
        } else {
            spool = try TileSpool(creating: journal, job: job)
        }
        done = Set(spool.records.map(\.tile))
    }

    /// Appends one tile (thread-safe).
    public func add(_ tile: TileAddress, data: [UInt8]) throws { try spool.append(tile, data) }

    /// Builds the archive from the journal, moves it into place and deletes the journal.
    public func finish() throws {
        let records = spool.records.sorted { $0.id < $1.id }
        // Content keys: equal keys ⇔ equal bytes (hash and length first, then the bytes).
        var keys = [Int](repeating: 0, count: records.count)
        var firstOf: [UInt64: [Int]] = [:]   // hash → record indices holding distinct contents
        var nextKey = 0
        for (i, r) in records.enumerated() {
            var key: Int?
            for j in firstOf[r.hash] ?? [] where records[j].length == r.length {
                if try spool.read(records[j]) == spool.read(r) { key = keys[j]; break }
            }
            if let key { keys[i] = key } else {
                keys[i] = nextKey; nextKey += 1
                firstOf[r.hash, default: []].append(i)
            }
        }
        let dir = PathText.directory(of: path)
        let temp = (dir.isEmpty ? "" : dir + "/") + ".\(PathText.lastComponent(of: path)).tmp-\(UInt32.random(in: 0...UInt32.max))"
        switch kind {
        case .pmtiles:
            let fd = InFlightFiles.create(temp, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644)
            guard fd >= 0 else { throw IOFailure(path: path, message: "cannot create \(temp): \(String(cString: strerror(errno)))") }
            do {
                var header = PMTiles.Header()
                metadata.apply(to: &header)
                _ = try PMTiles.write(to: fd, path: path, tiles: records.enumerated().map { (id: $0.element.id, key: keys[$0.offset], length: $0.element.length) },
                                      bytes: { try self.spool.read(records[$0]) }, header: header, metadataJSON: metadata.json,
                                      maxRootEntries: maxRootEntries)
                guard fsync(fd) == 0 else { throw IOFailure(path: path, message: "fsync failed: \(String(cString: strerror(errno)))") }
                _ = Glibc.close(fd)
                guard rename(temp, path) == 0 else { throw IOFailure(path: path, message: "cannot move \(temp) into place: \(String(cString: strerror(errno)))") }
                InFlightFiles.unregister(temp)
            } catch {
                _ = Glibc.close(fd)
                unlink(temp)
                InFlightFiles.unregister(temp)
                throw error
            }
        case .mbtiles:
            let writer = try MBTilesWriter(path: path, metadata: metadata.mbtilesRows)
            do {
                for r in records { try writer.add(r.tile, png: try spool.read(r)) }
                try writer.finish()
            } catch {
                writer.abandon()
                throw error
            }
        }
        spool.remove()
    }

    /// Stops without an archive; the journal stays for `--resume`.
    public func close() { spool.close() }

    /// Stops and deletes the journal too.
    public func abandon() { spool.remove() }
}
