// PMTiles v3 — contract
// Output: a PMTiles v3 archive (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md):
// the 127-byte header, the root directory (within the first 16 KiB), the metadata JSON, the leaf
// directories, then the tile data. Directories and metadata are gzip-compressed (libdeflate);
// tiles are stored as encoded (PNG, JPEG or WebP; tile compression "none"). Tiles are written in
// tile-ID order (Hilbert order per zoom: the archive is "clustered"); identical tiles are stored
// once (entries point at the same bytes) and runs of consecutive IDs with the same bytes become
// one entry with a run length. When the root directory would not fit in 16 KiB (or holds more
// than `maxRootEntries`), entries go to leaf directories the root points at.
// Input to `write`: the entries sorted by tile ID with the bytes of each tile fetched on demand,
// so the whole pyramid never sits in memory. Reading is `PMTilesReader` (PMTilesReader.swift).
import CDeflate
import Foundation
import GLMapCore

/// PMTiles' primitives: tile IDs, varints, directories, the header.
public enum PMTiles {
    /// The tile ID of z/x/y: the tiles of lower zooms, then the Hilbert index at zoom z.
    public static func tileID(_ t: TileAddress) -> UInt64 {
        var acc: UInt64 = ((1 << (2 * UInt64(t.z))) - 1) / 3
        var x = UInt64(t.x), y = UInt64(t.y)
        var a = t.z - 1
        while a >= 0 {
            let s = UInt64(1) << UInt64(a)
            let rx: UInt64 = (x & s) != 0 ? 1 : 0
            let ry: UInt64 = (y & s) != 0 ? 1 : 0
            acc += ((3 * rx) ^ ry) << (2 * UInt64(a))
            // Rotate the quadrant (only the bits below s matter from here on).
            x &= s - 1; y &= s - 1
            if ry == 0 {
                if rx == 1 { x = s - 1 - x; y = s - 1 - y }
                swap(&x, &y)
            }
            a -= 1
        }
        return acc
    }

    /// The tile of a tile ID.
    public static func tile(id: UInt64) throws -> TileAddress {
        var z = 0
        var base: UInt64 = 0
        while z <= TileAddress.maxZoom {
            let count = UInt64(1) << (2 * UInt64(z))
            if id < base + count { break }
            base += count
            z += 1
        }
        guard z <= TileAddress.maxZoom else { throw InputFailure("PMTiles tile ID \(id) is past zoom \(TileAddress.maxZoom)") }
        var pos = id - base
        var x: UInt64 = 0, y: UInt64 = 0
        var s: UInt64 = 1
        let n = UInt64(1) << UInt64(z)
        while s < n {
            let rx = 1 & (pos / 2)
            let ry = 1 & (pos ^ rx)
            if ry == 0 {
                if rx == 1 { x = s - 1 - x; y = s - 1 - y }
                swap(&x, &y)
            }
            x += s * rx
            y += s * ry
            pos /= 4
            s *= 2
        }
        return try TileAddress(z: z, x: Int(x), y: Int(y))
    }

    /// One directory entry: `runLength` tiles from `tileID` share the bytes at `offset`
    /// (relative to the tile data); run length 0 points at a leaf directory instead.
    public struct Entry: Equatable, Sendable {
        /// The first tile's ID (PMTiles numbering: zoom by zoom, Hilbert order within a zoom).
        public var tileID: UInt64
        /// Byte offset of the tile in the tile data (of the leaf directory in the leaf section, for run length 0).
        public var offset: UInt64
        /// Byte length of the tile (or of the leaf directory).
        public var length: UInt32
        /// How many consecutive tile IDs share the bytes; 0: a leaf directory.
        public var runLength: UInt32
        /// Creates an entry from its four fields.
        public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
            self.tileID = tileID; self.offset = offset; self.length = length; self.runLength = runLength
        }
    }

    /// PMTiles compression codes (header fields `internalCompression`, `tileCompression`).
    public enum Compression: UInt8, Sendable {
        /// Unknown (0).
        case unknown = 0
        /// None (1).
        case none = 1
        /// gzip (2).
        case gzip = 2
        /// Brotli (3).
        case brotli = 3
        /// Zstandard (4).
        case zstd = 4
    }

    /// PMTiles tile type codes (header field `tileType`).
    public enum TileType: UInt8, Sendable {
        /// Unknown or other (0).
        case unknown = 0
        /// Mapbox Vector Tile (1).
        case mvt = 1
        /// PNG (2).
        case png = 2
        /// JPEG (3).
        case jpeg = 3
        /// WebP (4).
        case webp = 4
        /// AVIF (5).
        case avif = 5
        /// MapLibre Tile (6).
        case mlt = 6
    }

    package static func appendVarint(_ v: UInt64, to out: inout [UInt8]) {
        var v = v
        while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        out.append(UInt8(v))
    }

    package static func readVarint(_ b: [UInt8], _ i: inout Int) throws -> UInt64 {
        var v: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard i < b.count, shift < 64 else { throw InputFailure("PMTiles directory: truncated or overlong varint") }
            let byte = b[i]; i += 1
            v |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return v }
            shift += 7
        }
    }

    /// A directory's bytes before compression.
    package static func serialize(_ entries: [Entry]) -> [UInt8] {
        var out: [UInt8] = []
        appendVarint(UInt64(entries.count), to: &out)
        var last: UInt64 = 0
        for e in entries { appendVarint(e.tileID - last, to: &out); last = e.tileID }
        for e in entries { appendVarint(UInt64(e.runLength), to: &out) }
        for e in entries { appendVarint(UInt64(e.length), to: &out) }
        for (i, e) in entries.enumerated() {
            if i > 0 && e.offset == entries[i - 1].offset + UInt64(entries[i - 1].length) {
                appendVarint(0, to: &out)
            } else {
                appendVarint(e.offset + 1, to: &out)
            }
        }
        return out
    }

    package static func deserialize(_ b: [UInt8]) throws -> [Entry] {
        var i = 0
        let n = try readVarint(b, &i)
        guard n <= UInt64(b.count) else { throw InputFailure("PMTiles directory: \(n) entries in \(b.count) bytes") }
        var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(n))
        var last: UInt64 = 0
        for k in 0..<entries.count { last += try readVarint(b, &i); entries[k].tileID = last }
        for k in 0..<entries.count { entries[k].runLength = UInt32(truncatingIfNeeded: try readVarint(b, &i)) }
        for k in 0..<entries.count { entries[k].length = UInt32(truncatingIfNeeded: try readVarint(b, &i)) }
        for k in 0..<entries.count {
            let v = try readVarint(b, &i)
            if v == 0 && k > 0 {
                entries[k].offset = entries[k - 1].offset + UInt64(entries[k - 1].length)
            } else {
                guard v > 0 else { throw InputFailure("PMTiles directory: the first entry has no offset") }
                entries[k].offset = v - 1
            }
        }
        return entries
    }

    package static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        guard let c = libdeflate_alloc_compressor(9) else { fatalError("libdeflate: out of memory") }
        defer { libdeflate_free_compressor(c) }
        let bound = libdeflate_gzip_compress_bound(c, bytes.count)
        var out = [UInt8](repeating: 0, count: bound)
        let n = bytes.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in libdeflate_gzip_compress(c, src.baseAddress, bytes.count, dst.baseAddress, bound) }
        }
        return Array(out.prefix(n))
    }

    package static func gunzip(_ bytes: [UInt8], limit: Int = 256 << 20) throws -> [UInt8] {
        do {
            return try Decompression.gunzip(bytes, limit: limit)
        } catch {
            throw InputFailure("PMTiles: \(error)")
        }
    }

    /// The header's fields.
    public struct Header: Equatable, Sendable {
        /// Byte range of the root directory, from the start of the file.
        public var rootOffset: UInt64 = 0, rootLength: UInt64 = 0
        /// Byte range of the metadata JSON.
        public var metadataOffset: UInt64 = 0, metadataLength: UInt64 = 0
        /// Byte range of the leaf directories (0, 0 when there are none).
        public var leafOffset: UInt64 = 0, leafLength: UInt64 = 0
        /// Byte range of the tile data.
        public var dataOffset: UInt64 = 0, dataLength: UInt64 = 0
        /// Tile counts: addressed (with run lengths), directory entries, distinct contents.
        public var addressedTiles: UInt64 = 0, tileEntries: UInt64 = 0, tileContents: UInt64 = 0
        /// Whether the tile data is in tile-ID order (glmap always writes it so).
        public var clustered = true
        /// Compression of directories and metadata (PMTiles code: 2 = gzip).
        public var internalCompression: UInt8 = 2   // gzip
        /// Compression of the tiles (PMTiles code: 1 = none; images are compressed already).
        public var tileCompression: UInt8 = 1       // none
        /// Tile type (PMTiles code: 2 = PNG, 3 = JPEG, 4 = WebP).
        public var tileType: UInt8 = 2
        /// Zoom range of the tiles.
        public var minZoom: UInt8 = 0, maxZoom: UInt8 = 0
        /// Bounds in degrees.
        public var minLon = -180.0, minLat = -85.0511, maxLon = 180.0, maxLat = 85.0511
        /// The zoom a viewer opens at.
        public var centerZoom: UInt8 = 0
        /// The centre a viewer opens at, in degrees.
        public var centerLon = 0.0, centerLat = 0.0

        /// A header with glmap's defaults: gzip directories, uncompressed PNG tiles, the whole world.
        public init() {}

        package static let size = 127

        package func serialize() -> [UInt8] {
            var b = Array("PMTiles".utf8) + [3]
            func u64(_ v: UInt64) { for i in 0..<8 { b.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
            func i32(_ d: Double) {
                let v = Int32(clamping: Int64((d * 1e7).rounded()))
                for i in 0..<4 { b.append(UInt8(truncatingIfNeeded: UInt32(bitPattern: v) >> (8 * UInt32(i)))) }
            }
            [rootOffset, rootLength, metadataOffset, metadataLength, leafOffset, leafLength, dataOffset, dataLength,
             addressedTiles, tileEntries, tileContents].forEach(u64)
            b += [clustered ? 1 : 0, internalCompression, tileCompression, tileType, minZoom, maxZoom]
            [minLon, minLat, maxLon, maxLat].forEach(i32)
            b.append(centerZoom)
            i32(centerLon); i32(centerLat)
            precondition(b.count == Header.size)
            return b
        }

        package static func parse(_ b: [UInt8], path: String) throws -> Header {
            guard b.count >= size, Array(b[0..<7]) == Array("PMTiles".utf8) else {
                throw InputFailure("\(path): not a PMTiles archive (no PMTiles magic)")
            }
            guard b[7] == 3 else { throw InputFailure("\(path): PMTiles version \(b[7]); glmap reads version 3") }
            func u64(_ o: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[o + $1]) << (8 * UInt64($1)) } }
            func i32(_ o: Int) -> Double {
                Double(Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[o + $1]) << (8 * UInt32($1)) })) / 1e7
            }
            var h = Header()
            (h.rootOffset, h.rootLength, h.metadataOffset, h.metadataLength) = (u64(8), u64(16), u64(24), u64(32))
            (h.leafOffset, h.leafLength, h.dataOffset, h.dataLength) = (u64(40), u64(48), u64(56), u64(64))
            (h.addressedTiles, h.tileEntries, h.tileContents) = (u64(72), u64(80), u64(88))
            h.clustered = b[96] == 1
            (h.internalCompression, h.tileCompression, h.tileType, h.minZoom, h.maxZoom) = (b[97], b[98], b[99], b[100], b[101])
            (h.minLon, h.minLat, h.maxLon, h.maxLat) = (i32(102), i32(106), i32(110), i32(114))
            h.centerZoom = b[118]
            (h.centerLon, h.centerLat) = (i32(119), i32(123))
            return h
        }
    }

    /// Bytes the header and root directory may use together.
    public static let rootLimit = 16384

    /// Writes a PMTiles archive to the open file `fd`: `tiles` sorted by tile ID (no duplicates),
    /// each with a content key (equal keys ⇔ equal bytes) and a way to fetch its bytes.
    /// Returns the header written.
    package static func write(to fd: Int32, path: String, tiles: [(id: UInt64, key: Int, length: Int)], bytes: (Int) throws -> [UInt8],
                      header template: Header, metadataJSON: [UInt8], maxRootEntries: Int = .max) throws -> Header {
        // Tile data in ID order; a content seen before points at its first copy.
        var entries: [Entry] = []
        var offsets: [Int: (offset: UInt64, length: UInt32)] = [:]
        var dataOrder: [Int] = []   // tile indices whose bytes are written, in order
        var dataLength: UInt64 = 0
        for (i, t) in tiles.enumerated() {
            let place: (offset: UInt64, length: UInt32)
            if let seen = offsets[t.key] {
                place = seen
            } else {
                place = (dataLength, UInt32(t.length))
                offsets[t.key] = place
                dataOrder.append(i)
                dataLength += UInt64(t.length)
            }
            if var last = entries.last, last.offset == place.offset, last.tileID + UInt64(last.runLength) == t.id {
                last.runLength += 1
                entries[entries.count - 1] = last
            } else {
                entries.append(Entry(tileID: t.id, offset: place.offset, length: place.length, runLength: 1))
            }
        }
        // Directories: everything in the root if it fits, else leaves of growing size.
        var root = gzip(serialize(entries))
        var leaves: [UInt8] = []
        if root.count > rootLimit - Header.size || entries.count > maxRootEntries {
            var leafSize = min(4096, max(1, maxRootEntries == .max ? 4096 : maxRootEntries))
            while true {
                var rootEntries: [Entry] = []
                leaves = []
                var start = 0
                while start < entries.count {
                    let chunk = Array(entries[start..<min(entries.count, start + leafSize)])
                    let leaf = gzip(serialize(chunk))
                    rootEntries.append(Entry(tileID: chunk[0].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
                    leaves += leaf
                    start += leafSize
                }
                root = gzip(serialize(rootEntries))
                if root.count <= rootLimit - Header.size && rootEntries.count <= maxRootEntries { break }
                leafSize *= 2
            }
        }
        let metadata = gzip(metadataJSON)
        var h = template
        h.rootOffset = UInt64(Header.size); h.rootLength = UInt64(root.count)
        h.metadataOffset = h.rootOffset + h.rootLength; h.metadataLength = UInt64(metadata.count)
        h.leafOffset = h.metadataOffset + h.metadataLength; h.leafLength = UInt64(leaves.count)
        h.dataOffset = h.leafOffset + h.leafLength; h.dataLength = dataLength
        h.addressedTiles = UInt64(tiles.count); h.tileEntries = UInt64(entries.count); h.tileContents = UInt64(dataOrder.count)
        h.clustered = true; h.internalCompression = 2; h.tileCompression = 1
        try writeAll(fd, h.serialize() + root + metadata + leaves, path: path)
        var buffer: [UInt8] = []
        for i in dataOrder {
            let b = try bytes(i)
            guard b.count == tiles[i].length else { throw IOFailure(path: path, message: "tile \(tiles[i].id) changed length while writing") }
            buffer += b
            if buffer.count >= 1 << 20 { try writeAll(fd, buffer, path: path); buffer.removeAll(keepingCapacity: true) }
        }
        try writeAll(fd, buffer, path: path)
        return h
    }

    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw IOFailure(path: path, message: "write failed: \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }
}
