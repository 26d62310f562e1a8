import CSQLite
import Foundation
import XCTest
import GLMapCore
import GLMapPNG
@testable import GLMap
import GLMapArchives
@testable import GLMapPyramid
import GLMapCLI

/// MBTiles output: read the file back with the SQLite C API and check metadata and tile rows.
final class MBTilesWriterTests: XCTestCase {
    func query(_ db: OpaquePointer?, _ sql: String) -> [[String]] {
        var stmt: OpaquePointer?
        XCTAssertEqual(sqlite3_prepare_v2(db, sql, -1, &stmt, nil), SQLITE_OK, String(cString: sqlite3_errmsg(db)))
        defer { sqlite3_finalize(stmt) }
        var rows: [[String]] = []
        while sqlite3_step(stmt) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(stmt)).map { i in
                sqlite3_column_text(stmt, i).map { String(cString: $0) } ?? "NULL"
            })
        }
        return rows
    }

    func blob(_ db: OpaquePointer?, z: Int, x: Int, row: Int) -> [UInt8]? {
        var stmt: OpaquePointer?
        sqlite3_prepare_v2(db, "SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?", -1, &stmt, nil)
        defer { sqlite3_finalize(stmt) }
        sqlite3_bind_int(stmt, 1, Int32(z)); sqlite3_bind_int(stmt, 2, Int32(x)); sqlite3_bind_int(stmt, 3, Int32(row))
        guard sqlite3_step(stmt) == SQLITE_ROW, let p = sqlite3_column_blob(stmt, 0) else { return nil }
        return [UInt8](UnsafeRawBufferPointer(start: p, count: Int(sqlite3_column_bytes(stmt, 0))))
    }

    func testTilesCommandWritesMBTiles() throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Red fill over the northern hemisphere, blue background: TMS rows must put it on top.
        let style = dir.appendingPathComponent("north.style.json").path
        try Data(##"{"version":8,"sources":{"n":{"type":"geojson","data":{"type":"Polygon","coordinates":[[[-180,0],[180,0],[180,85.06],[-180,85.06],[-180,0]]]}}},"layers":[{"id":"bg","type":"background","paint":{"background-color":"#0000ff"}},{"id":"f","type":"fill","source":"n","paint":{"fill-color":"#ff0000","fill-antialias":false}}]}"##.utf8).write(to: URL(fileURLWithPath: style))
        let out = dir.appendingPathComponent("t.mbtiles").path
        var err = ""
        let io = CommandIO(readStdin: { [] }, writeStdout: { _ in }, writeStderr: { err += $0 })
        let code = GLMapCommand.run(["tiles", "--style", style, "--zoom", "0-2", "--output", out, "--quiet"], io: io)
        XCTAssertEqual(code, 0, err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["north.style.json", "t.mbtiles"], "no temporary file left")

        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open_v2(out, &db, SQLITE_OPEN_READONLY, nil), SQLITE_OK)
        defer { sqlite3_close(db) }
        let meta = Dictionary(uniqueKeysWithValues: query(db, "SELECT name, value FROM metadata").map { ($0[0], $0[1]) })
        XCTAssertEqual(meta["name"], "north")
        XCTAssertEqual(meta["format"], "png")
        XCTAssertEqual(meta["minzoom"], "0")
        XCTAssertEqual(meta["maxzoom"], "2")
        XCTAssertEqual(meta["bounds"], "-180.000000,-85.051129,180.000000,85.051129")
        XCTAssertNotNil(meta["center"])
        XCTAssertEqual(query(db, "SELECT zoom_level, COUNT(*) FROM tiles GROUP BY zoom_level ORDER BY 1"), [["0", "1"], ["1", "4"], ["2", "16"]])
        XCTAssertEqual(query(db, "SELECT COUNT(*) FROM tiles WHERE tile_row < 0 OR tile_row >= (1 << zoom_level)"), [["0"]])

        // XYZ 1/0/0 (north-west) is TMS row 1: red. XYZ 1/0/1 (south-west) is TMS row 0: blue.
        let north = try PNGDecoder.decode(XCTUnwrap(blob(db, z: 1, x: 0, row: 1)))
        let south = try PNGDecoder.decode(XCTUnwrap(blob(db, z: 1, x: 0, row: 0)))
        XCTAssertEqual([north.width, north.height], [256, 256])
        XCTAssertEqual(pixel(north, 128, 128), [255, 0, 0, 255])
        XCTAssertEqual(pixel(south, 128, 128), [0, 0, 255, 255])
        // z2 row 3 (XYZ y 0) is the northernmost row.
        XCTAssertEqual(pixel(try PNGDecoder.decode(XCTUnwrap(blob(db, z: 2, x: 1, row: 3))), 10, 10), [255, 0, 0, 255])
    }

    func testAbandonLeavesNothing() throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("x.mbtiles").path
        let w = try MBTilesWriter(path: out, metadata: [("name", "x")])
        try w.add(TileAddress(z: 0, x: 0, y: 0), png: [1, 2, 3])
        w.abandon()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
        XCTAssertThrowsError(try w.add(TileAddress(z: 0, x: 0, y: 0), png: [1]))
    }

    func testDirectoryOutputWith2xNames() throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let style = dir.appendingPathComponent("s.json").path
        try Data(##"{"version":8,"sources":{},"layers":[{"id":"bg","type":"background","paint":{"background-color":"#00ff00"}}]}"##.utf8).write(to: URL(fileURLWithPath: style))
        let out = dir.appendingPathComponent("tiles").path
        var err = ""
        let io = CommandIO(readStdin: { [] }, writeStdout: { _ in }, writeStderr: { err += $0 })
        let code = GLMapCommand.run(["tiles", "-s", style, "-z", "1", "--bbox", "-180,1,180,85", "-o", out, "--ratio", "2", "--backend", "cpu", "--shard", "1/2", "--metatile", "1"], io: io)
        XCTAssertEqual(code, 0, err)
        XCTAssertTrue(err.contains("1 tiles"), err)
        // The northern row at z1 is 1/0/0 and 1/1/0; shard 1 of 2 is the second (one tile a
        // metatile: with 2×2 metatiles, z1 is one metatile and shard 0 draws it all).
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.sorted(),
                       ["1/1/0@2x.png"])
        let img = try PNGDecoder.decode(contentsOf: out + "/1/1/0@2x.png")
        XCTAssertEqual([img.width, img.height], [512, 512])
    }
}
