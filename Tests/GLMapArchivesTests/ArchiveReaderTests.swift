import CDeflate
import Foundation
import GLMapArchives
import GLMapCore
import GLMapTestSupport
import XCTest

/// The archive readers against archives written by independent writers (PyPI pmtiles, Python's
/// sqlite3 and gzip/zlib), and their errors on broken files.
final class ArchiveReaderTests: XCTestCase {
    var tmp: URL!

    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-archives-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    func path(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    // MARK: PMTiles

    /// 87,381 tiles of zooms 0–8 (every tile: 2^(2z) per zoom) with distinct contents, runs of
    /// identical tiles at zoom 7, gzip tile compression: the directory needs leaves.
    static let pmtilesWriter = #"""
import sys, gzip, json, random
from pmtiles.tile import zxy_to_tileid, TileType, Compression
from pmtiles.writer import Writer
random.seed(7)
with open(sys.argv[1], "wb") as f:
    w = Writer(f)
    ids = []
    for z in range(0, 9):
        for x in range(2 ** z):
            for y in range(2 ** z):
                ids.append((zxy_to_tileid(z, x, y), z, x, y))
    ids.sort()
    for tid, z, x, y in ids:
        if z == 7 and x < 64:
            body = b"run"   # runs of identical tiles
        else:
            body = ("%d/%d/%d " % (z, x, y)).encode() + random.randbytes(random.randrange(200))
        w.write_tile(tid, gzip.compress(body, mtime=0))
    w.finalize({"tile_type": TileType.MVT, "tile_compression": Compression.GZIP, "min_zoom": 0, "max_zoom": 8,
                "min_lon_e7": -1800000000, "min_lat_e7": -850000000, "max_lon_e7": 1800000000, "max_lat_e7": 850000000,
                "center_zoom": 3, "center_lon_e7": 249000000, "center_lat_e7": 601700000},
               {"name": "grid", "vector_layers": [{"id": "a", "fields": {}}]})
"""#

    func testPMTilesFromThePMTilesPackageReadTileByTile() throws {
        let py = try OutsideTool.requirePython(["pmtiles"])
        let out = path("grid.pmtiles")
        let w = OutsideTool.run(py, ["-c", Self.pmtilesWriter, out])
        XCTAssertEqual(w.status, 0, w.stderr)
        let r = try PMTilesReader(path: out)
        XCTAssertGreaterThan(r.header.leafLength, 0, "the archive uses leaf directories")
        XCTAssertEqual(r.tileCompression, .gzip)
        XCTAssertEqual(r.tileType, .mvt)
        XCTAssertEqual(r.header.centerZoom, 3)
        XCTAssertEqual(r.header.centerLon, 24.9, accuracy: 1e-7)
        XCTAssertEqual(r.metadata["name"], .string("grid"))
        XCTAssertEqual(r.metadata["vector_layers"]?.arrayValue?.first?["id"], .string("a"))
        var checked = 0
        for z in 0...8 {
            for x in 0..<(1 << z) {
                for y in stride(from: 0, to: 1 << z, by: z >= 7 ? 7 : 1) {
                    let stored = try XCTUnwrap(try r.tile(z: z, x: x, y: y), "\(z)/\(x)/\(y)")
                    let body = try Decompression.gunzip(stored, limit: 1 << 20)
                    let expected = z == 7 && x < 64 ? Array("run".utf8) : Array("\(z)/\(x)/\(y) ".utf8)
                    XCTAssertEqual(Array(body.prefix(expected.count)), expected, "\(z)/\(x)/\(y)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 10_000)
        XCTAssertNil(try r.tile(z: 9, x: 0, y: 0), "zoom 9 is not in the archive")
        XCTAssertNil(try r.tile(z: 2, x: 9, y: 0), "outside the grid")
        // The whole-archive walk agrees with the header's count.
        XCTAssertEqual(try r.tiles().count, Int(r.header.addressedTiles))
    }

    func testBadPMTilesHeadersAreClearErrors() throws {
        func expectError(_ bytes: [UInt8], _ fragment: String, line: UInt = #line) {
            let p = path("bad-\(line).pmtiles")
            _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
            XCTAssertThrowsError(try PMTilesReader(path: p), line: line) { error in
                XCTAssertTrue("\(error)".contains(fragment), "\(error)", line: line)
                XCTAssertTrue("\(error)".contains(p), "names the file: \(error)", line: line)
            }
        }
        var header = PMTiles.Header()
        header.rootOffset = 127; header.rootLength = 10
        let good = header.serialize()
        expectError(Array("not a pmtiles archive at all, no sir".utf8) + [UInt8](repeating: 0, count: 200), "no PMTiles magic")
        expectError(Array(good.prefix(7)) + [2] + Array(good.dropFirst(8)), "PMTiles version 2")
        expectError(Array(good.prefix(60)), "truncated PMTiles header")
        expectError(good, "root directory at 127+10, past the end of the file")
        header.internalCompression = 4
        expectError(header.serialize() + [UInt8](repeating: 0, count: 10), "internal compression zstd is not supported")
        XCTAssertThrowsError(try PMTilesReader(path: path("absent.pmtiles"))) { XCTAssertTrue("\($0)".contains("no such file")) }
    }

    func testCorruptPMTilesDirectoryIsAnErrorNotATrap() throws {
        var header = PMTiles.Header()
        let dir: [UInt8] = [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF, 1, 2, 3, 4]   // gzip header, garbage body
        header.rootOffset = 127; header.rootLength = UInt64(dir.count)
        header.dataOffset = 127 + UInt64(dir.count)
        let p = path("corrupt.pmtiles")
        _ = FileManager.default.createFile(atPath: p, contents: Data(header.serialize() + dir))
        XCTAssertThrowsError(try PMTilesReader(path: p)) { XCTAssertTrue("\($0)".contains("corrupt gzip data"), "\($0)") }
    }

    // MARK: MBTiles

    static let mbtilesWriter = #"""
import sys, sqlite3, gzip, zlib, json
db = sqlite3.connect(sys.argv[1])
db.executescript("CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);")
db.executemany("INSERT INTO metadata VALUES (?, ?)", [("name", "helsinki"), ("format", "pbf"), ("minzoom", "0"), ("maxzoom", "14"),
    ("bounds", "24.9,60.15,25.0,60.2"), ("center", "24.95,60.17,14"),
    ("json", json.dumps({"vector_layers": [{"id": "water", "fields": {"class": "String"}}]}))])
# TMS rows: 14/9326/4740 (XYZ) is row 2^14-1-4740 = 11643.
db.execute("INSERT INTO tiles VALUES (14, 9326, 11643, ?)", (gzip.compress(b"gzip tile", mtime=0),))
db.execute("INSERT INTO tiles VALUES (14, 9327, 11643, ?)", (zlib.compress(b"zlib tile"),))
db.execute("INSERT INTO tiles VALUES (0, 0, 0, ?)", (b"plain",))
db.execute("INSERT INTO tiles VALUES (1, 0, 0, ?)", (b"",))
db.commit()
sqlite3.connect(sys.argv[2]).executescript("CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE images (id TEXT);")
"""#

    func testMBTilesReadByXYZWithCompressedTilesAndMetadata() throws {
        let py = try OutsideTool.requirePython(["sqlite3"])
        let out = path("hki.mbtiles"), noTiles = path("notiles.mbtiles")
        let w = OutsideTool.run(py, ["-c", Self.mbtilesWriter, out, noTiles])
        XCTAssertEqual(w.status, 0, w.stderr)
        let r = try MBTilesReader(path: out)
        XCTAssertEqual(r.metadata["name"], "helsinki")
        XCTAssertEqual(try JSONParser.parse(r.metadata["json"] ?? "")["vector_layers"]?.arrayValue?.first?["id"], .string("water"))
        let gz = try XCTUnwrap(try r.tile(z: 14, x: 9326, y: 4740))
        XCTAssertEqual(CompressionFormat.detect(gz), .gzip)
        XCTAssertEqual(try Decompression.inflateIfCompressed(gz, limit: 1000), Array("gzip tile".utf8))
        let zl = try XCTUnwrap(try r.tile(z: 14, x: 9327, y: 4740))
        XCTAssertEqual(CompressionFormat.detect(zl), .zlib)
        XCTAssertEqual(try Decompression.inflateIfCompressed(zl, limit: 1000), Array("zlib tile".utf8))
        XCTAssertEqual(try r.tile(z: 0, x: 0, y: 0), Array("plain".utf8))
        XCTAssertEqual(try r.tile(z: 1, x: 0, y: 1), [], "an empty blob is an empty tile (row 0 at zoom 1 is y 1)")
        XCTAssertNil(try r.tile(z: 14, x: 9326, y: 11643), "XYZ y, not the TMS row")
        XCTAssertNil(try r.tile(z: 3, x: 99, y: 0))
        XCTAssertEqual(try r.zoomRange(), 0...14)
        XCTAssertThrowsError(try MBTilesReader(path: noTiles)) { error in
            XCTAssertTrue("\(error)".contains("no `tiles` table"), "\(error)")
            XCTAssertTrue("\(error)".contains(noTiles))
        }
        let junk = path("junk.mbtiles")
        _ = FileManager.default.createFile(atPath: junk, contents: Data(repeating: 0x41, count: 4096))
        XCTAssertThrowsError(try MBTilesReader(path: junk)) { XCTAssertTrue("\($0)".contains("not an MBTiles file"), "\($0)") }
    }

    // MARK: Decompression

    func testInflationLimitsAndCorruptData() throws {
        let zeros = [UInt8](repeating: 0, count: 8 << 20)
        let gz = PMTiles.gzip(zeros)
        XCTAssertLessThan(gz.count, 64 << 10)
        XCTAssertEqual(try Decompression.gunzip(gz, limit: 8 << 20).count, 8 << 20, "exactly at the limit is fine")
        XCTAssertThrowsError(try Decompression.gunzip(gz, limit: 1 << 20, limitName: "limit InputLimits.maxTileBytes")) { error in
            let e = error as? DecompressionError
            XCTAssertEqual(e?.pastLimit, true)
            XCTAssertTrue("\(error)".contains("inflates past 1048576 bytes (limit InputLimits.maxTileBytes)"), "\(error)")
        }
        // A lying gzip trailer (ISIZE says 1 byte) still inflates.
        var liar = PMTiles.gzip(Array("hello, tiles".utf8))
        liar[liar.count - 4] = 1; liar[liar.count - 3] = 0
        XCTAssertThrowsError(try Decompression.gunzip(liar, limit: 100), "libdeflate checks ISIZE: corrupt")
        var corrupt = gz
        corrupt[20] ^= 0xFF; corrupt[21] ^= 0x55
        XCTAssertThrowsError(try Decompression.gunzip(corrupt, limit: 16 << 20)) { XCTAssertTrue("\($0)".contains("corrupt gzip data"), "\($0)") }
        XCTAssertEqual(try Decompression.inflateIfCompressed([0x1A, 0x03, 1, 2, 3], limit: 10), [0x1A, 0x03, 1, 2, 3], "an MVT is left alone")
        XCTAssertThrowsError(try Decompression.inflateIfCompressed([0x78, 0x9C, 0xFF, 0xFF], limit: 10))
    }
}
