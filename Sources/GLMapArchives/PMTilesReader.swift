// PMTiles reader — contract
// Input: a PMTiles v3 archive on disk. Opening reads the 127-byte header (magic "PMTiles",
// version 3, every section inside the file), the root directory and the metadata JSON; tiles are
// then read one at a time with `pread` (the archive is never read whole): the tile ID's entry is
// found in the root directory, and in at most three levels of leaf directories below it (binary
// search; an entry covers `runLength` consecutive IDs; run length 0 points at a leaf). Leaf
// directories read once are kept (at most `maxCachedLeaves`). Internal compression none or gzip
// (brotli/zstd are refused when opened); tiles are returned as stored — `tileCompression` says
// whether the caller must inflate them. Errors name the file and what is wrong. Thread-safe.
import Foundation
import GLMapCore

/// Reads tiles from a PMTiles v3 archive by z/x/y (see the contract above).
public final class PMTilesReader: @unchecked Sendable {
    /// The archive file.
    public let path: String
    /// The archive's parsed header.
    public let header: PMTiles.Header
    /// The metadata JSON object (empty when the archive has none or it is not an object).
    public let metadata: JSONObject
    /// The file's size in bytes.
    public let fileSize: UInt64
    /// Leaf directories kept in memory at most.
    public static let maxCachedLeaves = 64

    private let fd: Int32
    private let root: [PMTiles.Entry]
    private let leaves = Locked<[UInt64: [PMTiles.Entry]]>([:])
    private let limits: InputLimits

    /// Opens `path`: header, root directory and metadata; throws (naming the file) if it is not a
    /// readable PMTiles v3 archive.
    public init(path: String, limits: InputLimits = .default) throws {
        self.path = path
        self.limits = limits
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw IOFailure(path: path, message: errno == ENOENT ? "no such file" : "cannot open the PMTiles archive: \(String(cString: strerror(errno)))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else { close(fd); throw IOFailure(path: path, message: "cannot stat the PMTiles archive") }
        self.fd = fd
        fileSize = UInt64(st.st_size)
        do {
            let head = try PMTilesReader.read(fd, 0, UInt64(min(fileSize, UInt64(PMTiles.Header.size))), path: path, what: "header", fileSize: fileSize)
            guard head.count == PMTiles.Header.size || head.starts(with: Array("PMTiles".utf8)) == false else {
                throw InputFailure("\(path): truncated PMTiles header (\(head.count) of \(PMTiles.Header.size) bytes)")
            }
            let h = try PMTiles.Header.parse(head, path: path)
            header = h
            for (name, offset, length) in [("root directory", h.rootOffset, h.rootLength), ("metadata", h.metadataOffset, h.metadataLength),
                                           ("leaf directories", h.leafOffset, h.leafLength), ("tile data", h.dataOffset, h.dataLength)] {
                guard offset <= fileSize, length <= fileSize - offset else {
                    throw InputFailure("\(path): the PMTiles header puts the \(name) at \(offset)+\(length), past the end of the file (\(fileSize) bytes)")
                }
            }
            guard h.internalCompression == PMTiles.Compression.none.rawValue || h.internalCompression == PMTiles.Compression.gzip.rawValue else {
                throw InputFailure("\(path): PMTiles internal compression \(PMTiles.Compression(rawValue: h.internalCompression).map { "\($0)" } ?? "code \(h.internalCompression)") is not supported (glmap reads none and gzip)")
            }
            guard h.rootLength > 0 else { throw InputFailure("\(path): the PMTiles root directory is empty") }
            let rootBytes = try PMTilesReader.read(fd, h.rootOffset, h.rootLength, path: path, what: "root directory", fileSize: fileSize)
            root = try PMTilesReader.directory(rootBytes, header: h, path: path, limits: limits)
            var meta = JSONObject()
            if h.metadataLength > 0 {
                let raw = try PMTilesReader.read(fd, h.metadataOffset, h.metadataLength, path: path, what: "metadata", fileSize: fileSize)
                let json = try PMTilesReader.uncompressed(raw, header: h, path: path, what: "metadata", limits: limits)
                do {
                    meta = try JSONParser.parse(json, limits: limits).objectValue ?? JSONObject()
                } catch {
                    throw InputFailure("\(path): the PMTiles metadata is not JSON: \(error)")
                }
            }
            metadata = meta
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// The tile compression the archive declares.
    public var tileCompression: PMTiles.Compression { PMTiles.Compression(rawValue: header.tileCompression) ?? .unknown }
    /// The tile type the archive declares.
    public var tileType: PMTiles.TileType { PMTiles.TileType(rawValue: header.tileType) ?? .unknown }

    /// The stored bytes of tile z/x/y (still compressed per `tileCompression`), or nil when the
    /// archive does not hold it.
    public func tile(z: Int, x: Int, y: Int) throws -> [UInt8]? {
        guard let t = try? TileAddress(z: z, x: x, y: y) else { return nil }
        let id = PMTiles.tileID(t)
        var directory = root
        for _ in 0..<4 {
            guard let e = PMTilesReader.find(id, in: directory) else { return nil }
            if e.runLength > 0 {
                return try PMTilesReader.read(fd, header.dataOffset &+ e.offset, UInt64(e.length), path: path, what: "tile \(z)/\(x)/\(y)",
                                              fileSize: fileSize, within: (header.dataOffset, header.dataLength))
            }
            directory = try leaf(offset: e.offset, length: UInt64(e.length))
        }
        throw InputFailure("\(path): PMTiles directories nest deeper than 3 levels of leaves")
    }

    /// Every tile entry (leaf directories followed), in tile-ID order.
    public func entries() throws -> [PMTiles.Entry] {
        var out: [PMTiles.Entry] = []
        func walk(_ entries: [PMTiles.Entry], depth: Int) throws {
            guard depth < 4 else { throw InputFailure("\(path): PMTiles directories nest deeper than 3 levels of leaves") }
            for e in entries {
                if e.runLength == 0 {
                    try walk(try leaf(offset: e.offset, length: UInt64(e.length)), depth: depth + 1)
                } else {
                    out.append(e)
                }
            }
        }
        try walk(root, depth: 0)
        return out
    }

    /// Every tile with its stored bytes, in tile-ID order.
    public func tiles() throws -> [(TileAddress, [UInt8])] {
        var out: [(TileAddress, [UInt8])] = []
        for e in try entries() {
            let data = try PMTilesReader.read(fd, header.dataOffset &+ e.offset, UInt64(e.length), path: path, what: "tile data",
                                              fileSize: fileSize, within: (header.dataOffset, header.dataLength))
            for k in 0..<UInt64(e.runLength) { out.append((try PMTiles.tile(id: e.tileID + k), data)) }
        }
        return out
    }

    // MARK: Directories

    private func leaf(offset: UInt64, length: UInt64) throws -> [PMTiles.Entry] {
        if let cached = leaves.withLock({ $0[offset] }) { return cached }
        guard offset <= header.leafLength, length <= header.leafLength - offset else {
            throw InputFailure("\(path): a PMTiles leaf directory at \(offset)+\(length) lies outside the leaf section (\(header.leafLength) bytes)")
        }
        let raw = try PMTilesReader.read(fd, header.leafOffset + offset, length, path: path, what: "leaf directory", fileSize: fileSize)
        let entries = try PMTilesReader.directory(raw, header: header, path: path, limits: limits)
        leaves.withLock { cache in
            if cache.count >= PMTilesReader.maxCachedLeaves { cache.removeAll() }
            cache[offset] = entries
        }
        return entries
    }

    /// The entry holding tile `id` (or the leaf that may hold it), as the PMTiles spec's findTile.
    static func find(_ id: UInt64, in entries: [PMTiles.Entry]) -> PMTiles.Entry? {
        var lo = 0, hi = entries.count - 1
        while lo <= hi {
            let mid = (lo + hi) >> 1
            let t = entries[mid].tileID
            if id > t { lo = mid + 1 } else if id < t { hi = mid - 1 } else { return entries[mid] }
        }
        guard hi >= 0 else { return nil }
        let e = entries[hi]
        if e.runLength == 0 || id - e.tileID < UInt64(e.runLength) { return e }
        return nil
    }

    static func directory(_ raw: [UInt8], header: PMTiles.Header, path: String, limits: InputLimits) throws -> [PMTiles.Entry] {
        let bytes = try uncompressed(raw, header: header, path: path, what: "directory", limits: limits)
        do {
            return try PMTiles.deserialize(bytes)
        } catch {
            throw InputFailure("\(path): \(error)")
        }
    }

    static func uncompressed(_ raw: [UInt8], header: PMTiles.Header, path: String, what: String, limits: InputLimits) throws -> [UInt8] {
        guard header.internalCompression == PMTiles.Compression.gzip.rawValue else { return raw }
        do {
            return try Decompression.gunzip(raw, limit: limits.maxTileBytes, limitName: "limit InputLimits.maxTileBytes")
        } catch {
            throw InputFailure("\(path): PMTiles \(what): \(error)")
        }
    }

    static func read(_ fd: Int32, _ offset: UInt64, _ length: UInt64, path: String, what: String, fileSize: UInt64,
                     within section: (offset: UInt64, length: UInt64)? = nil) throws -> [UInt8] {
        if let section {
            let end = offset.subtractingReportingOverflow(section.offset)
            guard offset >= section.offset, !end.overflow, end.partialValue <= section.length, length <= section.length - end.partialValue else {
                throw InputFailure("\(path): the PMTiles \(what) at \(offset)+\(length) lies outside its section")
            }
        }
        guard offset <= fileSize, length <= fileSize - offset else {
            throw InputFailure("\(path): the PMTiles \(what) at \(offset)+\(length) lies past the end of the file (\(fileSize) bytes)")
        }
        var out = [UInt8](repeating: 0, count: Int(length))
        var done = 0
        while done < out.count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw IOFailure(path: path, message: "reading the PMTiles \(what) failed: \(n < 0 ? String(cString: strerror(errno)) : "unexpected end of file")") }
            done += n
        }
        return out
    }
}
