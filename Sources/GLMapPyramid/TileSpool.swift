// Tile journal — contract
// The journal an MBTiles or PMTiles run writes its tiles to as they are encoded (`OUT.partial`
// beside the output), so a run that is killed can be continued: a header naming the job (style,
// zooms, box, tile size, ratio, format, shard — a run resumes only the same job), then one record a
// tile: tile ID (u64), length (u32), FNV-1a hash (u64), the bytes. Each record is appended with a
// single write under a lock, so after a kill at most the record being written is incomplete;
// opening for resume drops that torn tail (truncating the file) and lists the tiles present.
// A tile already in the journal is never appended twice (the caller skips it). The archive is
// built from the journal when the run is complete (TileArchiveWriter), then the journal is
// deleted. Threading: `append` from any thread; `records`/`read` after appends are done.
import GLMap
import GLMapBatch
import Foundation
import GLMapArchives
import GLMapCore

/// The append-only journal of a tile run (see the contract above).
public final class TileSpool: @unchecked Sendable {
    /// One tile in the journal.
    public struct Record: Sendable {
        /// The tile.
        public let tile: TileAddress
        /// The tile's PMTiles tile ID (zoom by zoom, Hilbert order within a zoom).
        public let id: UInt64
        /// Where the bytes start in the journal file.
        public let offset: Int
        /// Byte count of the tile.
        public let length: Int
        /// FNV-1a 64-bit hash of the bytes (the archive stores identical tiles once).
        public let hash: UInt64
    }

    /// The journal file (`OUT.partial` beside the output).
    public let path: String
    private let fd: Int32
    private let lock = NSLock()
    private var end: Int
    private var list: [Record] = []
    private var present: Set<UInt64> = []
    private var closed = false

    static let magic = Array("GLMAPJOURNAL1\n".utf8)
    static let recordHeader = 20

    /// 64-bit FNV-1a of `bytes`.
    public static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        bytes.withUnsafeBufferPointer { p in
            for b in p { h ^= UInt64(b); h = h &* 0x100000001b3 }
        }
        return h
    }

    /// Creates a new journal for `job` (fails when one exists).
    public init(creating path: String, job: String) throws {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let why = String(cString: strerror(errno))
            throw IOFailure(path: path, message: errno == EEXIST ? "a journal of an interrupted run is here: continue it with --resume, or delete it" : "cannot create the tile journal: \(why)")
        }
        var header = TileSpool.magic
        TileSpool.put(UInt32(job.utf8.count), into: &header)
        header += Array(job.utf8)
        do { try PMTiles.writeAll(fd, header, path: path) } catch { closeDescriptor(fd); unlink(path); throw error }
        end = header.count
    }

    /// Opens an existing journal of the same `job`, dropping a torn last record.
    public init(resuming path: String, job: String) throws {
        self.path = path
        fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { throw IOFailure(path: path, message: "cannot open the tile journal: \(String(cString: strerror(errno)))") }
        guard let data = FileManager.default.contents(atPath: path) else {
            closeDescriptor(fd); throw IOFailure(path: path, message: "cannot read the tile journal")
        }
        let b = [UInt8](data)
        let m = TileSpool.magic.count
        guard b.count >= m + 4, Array(b[0..<m]) == TileSpool.magic else {
            closeDescriptor(fd); throw InputFailure("\(path): not a glmap tile journal")
        }
        let jobLength = Int(TileSpool.u32(b, m))
        guard b.count >= m + 4 + jobLength, String(decoding: b[(m + 4)..<(m + 4 + jobLength)], as: UTF8.self) == job else {
            closeDescriptor(fd)
            throw InputFailure("\(path): the journal is of another job (style, zooms, box, tile size, ratio, format or shard differ); delete it to start again")
        }
        var i = m + 4 + jobLength
        while i + TileSpool.recordHeader <= b.count {
            let id = TileSpool.u64(b, i), length = Int(TileSpool.u32(b, i + 8)), hash = TileSpool.u64(b, i + 12)
            let start = i + TileSpool.recordHeader
            guard start + length <= b.count, let tile = try? PMTiles.tile(id: id) else { break }
            if present.insert(id).inserted {
                list.append(Record(tile: tile, id: id, offset: start, length: length, hash: hash))
            }
            i = start + length
        }
        if i < b.count { _ = ftruncate(fd, off_t(i)) }   // a record torn by the kill
        end = i
    }

    deinit { close() }

    /// Tile IDs already in the journal.
    public var tileIDs: Set<UInt64> { lock.lock(); defer { lock.unlock() }; return present }

    /// Every record, in the order written.
    public var records: [Record] { lock.lock(); defer { lock.unlock() }; return list }

    /// Appends one tile's bytes (a tile already present is an error: the caller skips those).
    public func append(_ tile: TileAddress, _ bytes: [UInt8]) throws {
        let id = PMTiles.tileID(tile)
        let hash = TileSpool.fnv1a(bytes)
        var record: [UInt8] = []
        record.reserveCapacity(bytes.count + TileSpool.recordHeader)
        TileSpool.put(id, into: &record)
        TileSpool.put(UInt32(bytes.count), into: &record)
        TileSpool.put(hash, into: &record)
        record += bytes
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw IOFailure(path: path, message: "the tile journal is closed") }
        guard present.insert(id).inserted else { throw IOFailure(path: path, message: "tile \(tile) is written twice (a bug in glmap)") }
        try PMTiles.writeAll(fd, record, path: path)
        list.append(Record(tile: tile, id: id, offset: end + TileSpool.recordHeader, length: bytes.count, hash: hash))
        end += record.count
    }

    /// The bytes of a record.
    public func read(_ r: Record) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: r.length)
        var done = 0
        while done < r.length {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, r.length - done, off_t(r.offset + done)) }
            guard n > 0 else { throw IOFailure(path: path, message: "cannot read tile \(r.tile) back from the journal") }
            done += n
        }
        return out
    }

    /// Closes the file (the journal stays for --resume).
    public func close() {
        lock.lock(); defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        closeDescriptor(fd)
    }

    /// Closes and deletes the journal.
    public func remove() {
        close()
        unlink(path)
    }

    static func put(_ v: UInt64, into b: inout [UInt8]) { for i in 0..<8 { b.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
    static func put(_ v: UInt32, into b: inout [UInt8]) { for i in 0..<4 { b.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
    static func u64(_ b: [UInt8], _ o: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[o + $1]) << (8 * UInt64($1)) } }
    static func u32(_ b: [UInt8], _ o: Int) -> UInt32 { (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[o + $1]) << (8 * UInt32($1)) } }
}

/// `close(2)` (the name `close` is taken by the method).
@inline(__always) func closeDescriptor(_ fd: Int32) { _ = Glibc.close(fd) }
