import CSQLite
import Foundation
import XCTest
@testable import GLMap
import GLMapArchives
@testable import GLMapPyramid
import GLMapCLI
import GLMapCore
import GLMapPNG
import GLMapTestSupport

/// Tile pyramids at scale: PMTiles v3 read by the `pmtiles` reader from PyPI, identical tiles
/// stored once (PMTiles and MBTiles), metadata from the style, antimeridian boxes, merging shard
/// archives, resuming after SIGKILL, and shards run as Kubernetes / Slurm / GNU parallel run them.
final class TileArchiveTests: XCTestCase {
    var tmp: URL!
    override func setUp() { tmp = makeTempDir() }
    override func tearDown() { try? FileManager.default.removeItem(at: tmp) }

    func path(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    func run(_ args: [String]) -> (code: Int32, stderr: String) {
        var err = ""
        let io = CommandIO(readStdin: { [] }, writeStdout: { _ in }, writeStderr: { err += $0 })
        return (GLMapCommand.run(args, io: io), err)
    }

    var executable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("glmap").path
    }

    /// Blue background, red northern hemisphere, a green square near Africa: most z0–3 tiles are
    /// one of two blobs (all blue, all red).
    func style() -> String {
        let p = path("world.style.json")
        try! Data(##"""
        {"version":8,"name":"Test world","center":[10,20],"zoom":2,
         "sources":{"n":{"type":"geojson","attribution":"© North contributors","data":{"type":"Polygon","coordinates":[[[-180,0],[180,0],[180,85.06],[-180,85.06],[-180,0]]]}},
                    "g":{"type":"geojson","attribution":"Green Inc.","data":{"type":"Polygon","coordinates":[[[5,5],[25,5],[25,25],[5,25],[5,5]]]}},
                    "again":{"type":"geojson","attribution":"© North contributors","data":{"type":"Point","coordinates":[0,0]}}},
         "layers":[{"id":"bg","type":"background","paint":{"background-color":"#0000ff"}},
                   {"id":"f","type":"fill","source":"n","paint":{"fill-color":"#ff0000","fill-antialias":false}},
                   {"id":"g","type":"fill","source":"g","paint":{"fill-color":"#00ff00"}}]}
        """##.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }

    func tiles(_ style: String, _ zoom: String, _ out: String, _ extra: [String] = []) {
        let r = run(["tiles", "-s", style, "-z", zoom, "-o", out, "--quiet", "--backend", "cpu", "-j", "2"] + extra)
        XCTAssertEqual(r.code, 0, r.stderr)
    }

    func fileBytes(_ p: String) -> [UInt8] { (try? Data(contentsOf: URL(fileURLWithPath: p))).map { [UInt8]($0) } ?? [] }

    // MARK: PMTiles

    func testPMTilesReadByThePMTilesPackageEqualsMBTilesTileForTile() throws {
        let py = try OutsideTool.requirePython(["pmtiles"])
        let s = style()
        tiles(s, "0-2", path("w.pmtiles"))
        tiles(s, "0-2", path("w.mbtiles"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted(), ["w.mbtiles", "w.pmtiles", "world.style.json"], "no journal or temporary file left")
        // The PyPI reader: header, metadata, every tile (through its own directory walk).
        let script = """
        import sys, json, hashlib
        from pmtiles.reader import Reader, MmapSource, all_tiles
        with open(sys.argv[1], "r+b") as f:
            r = Reader(MmapSource(f)); h = r.header()
            tiles = {f"{z}/{x}/{y}": hashlib.sha256(d).hexdigest() for (z, x, y), d in all_tiles(MmapSource(f))}
            got = {k: hashlib.sha256(r.get(*map(int, k.split("/")))).hexdigest() for k in tiles}
            print(json.dumps({"clustered": h["clustered"], "tile_type": h["tile_type"].value, "min_zoom": h["min_zoom"], "max_zoom": h["max_zoom"],
                              "addressed": h["addressed_tiles_count"], "entries": h["tile_entries_count"], "contents": h["tile_contents_count"],
                              "internal": h["internal_compression"].value, "center_zoom": h["center_zoom"], "center_lon_e7": h["center_lon_e7"],
                              "metadata": r.metadata(), "tiles": tiles, "get_agrees": got == tiles}))
        """
        let r = OutsideTool.run(py, ["-c", script, path("w.pmtiles")])
        XCTAssertEqual(r.status, 0, r.stderr)
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout)) as? [String: Any])
        XCTAssertEqual(o["clustered"] as? Bool, true)
        XCTAssertEqual(o["tile_type"] as? Int, 2, "png")
        XCTAssertEqual(o["internal"] as? Int, 2, "gzip directories")
        XCTAssertEqual(o["min_zoom"] as? Int, 0); XCTAssertEqual(o["max_zoom"] as? Int, 2)
        XCTAssertEqual(o["addressed"] as? Int, 21)
        XCTAssertEqual(o["center_zoom"] as? Int, 2); XCTAssertEqual(o["center_lon_e7"] as? Int, 100_000_000)
        let contents = try XCTUnwrap(o["contents"] as? Int), entries = try XCTUnwrap(o["entries"] as? Int)
        XCTAssertLessThan(contents, 12, "identical tiles are stored once")
        XCTAssertLessThan(entries, 21, "runs of identical tiles share an entry")
        XCTAssertEqual(o["get_agrees"] as? Bool, true)
        let meta = try XCTUnwrap(o["metadata"] as? [String: Any])
        XCTAssertEqual(meta["name"] as? String, "Test world")
        XCTAssertEqual(meta["attribution"] as? String, "© North contributors | Green Inc.")
        XCTAssertEqual(meta["format"] as? String, "png")
        XCTAssertEqual(meta["minzoom"] as? Int, 0); XCTAssertEqual(meta["maxzoom"] as? Int, 2)
        // Tile for tile, byte for byte: the PyPI reader, glmap's reader and the MBTiles agree.
        let pyTiles = try XCTUnwrap(o["tiles"] as? [String: String])
        XCTAssertEqual(pyTiles.count, 21)
        let ours = try TileArchiveReader.open(path("w.pmtiles")), mb = try TileArchiveReader.open(path("w.mbtiles"))
        XCTAssertEqual(ours.tiles.count, 21); XCTAssertEqual(mb.tiles.count, 21)
        for (a, b) in zip(ours.tiles, mb.tiles) {
            XCTAssertEqual(a.tile, b.tile)
            XCTAssertTrue(a.data == b.data, "tile \(a.tile) differs between PMTiles and MBTiles")
            XCTAssertNotNil(pyTiles[a.tile.description], "the PyPI reader sees \(a.tile)")
        }
        XCTAssertEqual(Set(pyTiles.values).count, contents, "distinct contents in the PyPI reading = tile_contents_count")
        // Tiles in clustered order: tile-ID order, offsets increasing for first occurrences.
        let entriesRead = try PMTilesReader(path: path("w.pmtiles")).entries()
        XCTAssertEqual(entriesRead.map(\.tileID), entriesRead.map(\.tileID).sorted())
    }

    func testTileIDsAgreeWithThePMTilesPackage() throws {
        let py = try OutsideTool.requirePython(["pmtiles"])
        let r = OutsideTool.run(py, ["-c", "from pmtiles.tile import zxy_to_tileid as t\nprint(' '.join(str(t(z, x, y)) for z in range(6) for x in range(1 << z) for y in range(1 << z)))"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let theirs = String(decoding: r.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { UInt64($0) }
        var ours: [UInt64] = []
        for z in 0..<6 { for x in 0..<(1 << z) { for y in 0..<(1 << z) {
            let t = try TileAddress(z: z, x: x, y: y)
            ours.append(PMTiles.tileID(t))
            XCTAssertEqual(try PMTiles.tile(id: PMTiles.tileID(t)), t)
        } } }
        XCTAssertEqual(ours, theirs)
    }

    func testLeafDirectoriesReadByThePMTilesPackage() throws {
        let py = try OutsideTool.requirePython(["pmtiles"])
        let out = path("leaves.pmtiles")
        let meta = TileArchiveMetadata(name: "leaves", format: .png, bounds: LngLatBounds(west: -180, south: -85, east: 180, north: 85),
                                       center: (0, 0, 0), minzoom: 0, maxzoom: 4)
        let w = try TileArchiveWriter(path: out, kind: .pmtiles, metadata: meta, job: "leaves", resume: false)
        w.maxRootEntries = 8
        let all = try Pyramid(zooms: 0...4).metatiles(size: 1).map { $0.tiles[0] }
        for t in all { try w.add(t, data: Array("tile \(t) ".utf8) + [UInt8](repeating: UInt8(t.z), count: t.x % 3)) }
        try w.finish()
        let r = try PMTilesReader(path: out)
        XCTAssertGreaterThan(r.header.leafLength, 0, "leaf directories are used")
        let script = """
        import sys
        from pmtiles.reader import Reader, MmapSource, all_tiles
        with open(sys.argv[1], "r+b") as f:
            r = Reader(MmapSource(f))
            n = 0
            for (z, x, y), d in all_tiles(MmapSource(f)):
                assert d == r.get(z, x, y), (z, x, y)
                assert d.startswith(f"tile {z}/{x}/{y} ".encode()), (z, x, y, d)
                n += 1
            print(n)
        """
        let p = OutsideTool.run(py, ["-c", script, out])
        XCTAssertEqual(p.status, 0, p.stderr)
        XCTAssertEqual(String(decoding: p.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), String(all.count))
        XCTAssertEqual(try r.tiles().map(\.0), all.sorted { PMTiles.tileID($0) < PMTiles.tileID($1) })
    }

    // MARK: MBTiles

    func testMBTilesStoresIdenticalTilesOnceWithStyleMetadata() throws {
        let out = path("d.mbtiles")
        tiles(style(), "0-2", out)
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open_v2(out, &db, SQLITE_OPEN_READONLY, nil), SQLITE_OK)
        defer { sqlite3_close(db) }
        func count(_ sql: String) -> Int {
            var s: OpaquePointer?
            sqlite3_prepare_v2(db, sql, -1, &s, nil); defer { sqlite3_finalize(s) }
            return sqlite3_step(s) == SQLITE_ROW ? Int(sqlite3_column_int(s, 0)) : -1
        }
        XCTAssertEqual(count("SELECT COUNT(*) FROM map"), 21)
        XCTAssertEqual(count("SELECT COUNT(*) FROM tiles"), 21, "the spec's tiles view")
        let images = count("SELECT COUNT(*) FROM images")
        XCTAssertLessThan(images, 12, "identical ocean/land tiles share one image (\(images) images)")
        XCTAssertEqual(images, count("SELECT COUNT(DISTINCT tile_data) FROM tiles"), "one image per distinct content")
        let m = try TileArchiveReader.open(out).metadata
        XCTAssertEqual(m["name"], "Test world")
        XCTAssertEqual(m["attribution"], "© North contributors | Green Inc.")
        XCTAssertEqual(m["center"], "10.000000,20.000000,2")
        XCTAssertEqual(m["bounds"], "-180.000000,-85.051129,180.000000,85.051129")
        XCTAssertEqual(m["format"], "png"); XCTAssertEqual(m["minzoom"], "0"); XCTAssertEqual(m["maxzoom"], "2")
    }

    // MARK: Antimeridian

    func testBBoxAcrossTheAntimeridian() throws {
        let p = try Pyramid(zooms: 2...3, bbox: Pyramid.BBox.parse("170,-10,-170,10"))
        XCTAssertEqual(Array(p.columns(z: 2)), [3, 0])
        XCTAssertEqual(Array(p.columns(z: 3)), [7, 0])
        XCTAssertEqual(p.count, 2 * 2 + 2 * 2)
        let out = path("am")
        tiles(style(), "2", out, ["--bbox", "170,-10,-170,10"])
        for t in ["2/3/1.png", "2/3/2.png", "2/0/1.png", "2/0/2.png"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/" + t), t)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/2/1"), "nothing between")
        let mb = path("am.mbtiles")
        tiles(style(), "2", mb, ["--bbox", "170,-10,-170,10"])
        XCTAssertEqual(try TileArchiveReader.open(mb).metadata["bounds"], "170.000000,-10.000000,-170.000000,10.000000")
    }

    // MARK: Merge

    func testMergedShardsEqualOneProcess() throws {
        let s = style()
        tiles(s, "0-2", path("one.pmtiles"))
        tiles(s, "0-2", path("a.pmtiles"), ["--shard", "0/2"])
        tiles(s, "0-2", path("b.mbtiles"), ["--shard", "1/2"])
        let merged = run(["tiles", "merge", path("m.pmtiles"), path("a.pmtiles"), path("b.mbtiles")])
        XCTAssertEqual(merged.code, 0, merged.stderr)
        XCTAssertTrue(fileBytes(path("m.pmtiles")) == fileBytes(path("one.pmtiles")), "the merged PMTiles is byte for byte the one-process archive")
        XCTAssertEqual(run(["tiles", "merge", path("m.mbtiles"), path("a.pmtiles"), path("b.mbtiles"), path("a.pmtiles")]).code, 0, "identical overlaps are fine")
        let one = try TileArchiveReader.open(path("one.pmtiles")), m = try TileArchiveReader.open(path("m.mbtiles"))
        XCTAssertEqual(m.tiles.map(\.tile), one.tiles.map(\.tile))
        XCTAssertTrue(m.tiles.map(\.data) == one.tiles.map(\.data), "merged MBTiles tiles = one-process tiles")
        XCTAssertNil(m.metadata["description"], "the shard description is dropped")
    }

    func testMergeRefusesDifferingOverlaps() throws {
        let s = style()
        tiles(s, "0-1", path("png.mbtiles"))
        let other = path("other.style.json")
        try Data(##"{"version":8,"sources":{},"layers":[{"id":"bg","type":"background","paint":{"background-color":"#ffff00"}}]}"##.utf8)
            .write(to: URL(fileURLWithPath: other))
        tiles(other, "1", path("yellow.pmtiles"))
        let r = run(["tiles", "merge", path("out.pmtiles"), path("png.mbtiles"), path("yellow.pmtiles")])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("tile 1/0/0 differs between \(path("png.mbtiles")) and \(path("yellow.pmtiles"))"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.pmtiles")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.pmtiles.partial")))
        XCTAssertEqual(run(["tiles", "merge", path("out.pmtiles")]).code, 2, "no inputs")
        XCTAssertEqual(run(["tiles", "merge", path("out.zip"), path("png.mbtiles")]).code, 2)
    }

    // MARK: Resume

    func testResumeAfterSIGKILLCompletesEveryTileOnce() throws {
        let fresh = path("fresh.pmtiles")   // an uninterrupted run to compare with
        tiles(style(), "0-3", fresh)
        let f = try TileArchiveReader.open(fresh)
        for kind in ["pmtiles", "mbtiles"] {
            let out = path("k.\(kind)")
            try killAndResumeRun(out)
            let resumed = run(["tiles", "-s", path("world.style.json"), "-z", "0-3", "-o", out, "--backend", "cpu", "-j", "2", "--resume", "--quiet"])
            XCTAssertEqual(resumed.code, 0, resumed.stderr)
            XCTAssertTrue(resumed.stderr.contains("resuming: "), resumed.stderr)
            let done = Int(resumed.stderr.split(separator: " ").dropFirst(2).first ?? "") ?? 0
            XCTAssertGreaterThan(done, 0, "some tiles survived the kill: \(resumed.stderr)")
            XCTAssertLessThan(done, 85)
            XCTAssertFalse(FileManager.default.fileExists(atPath: TileArchiveWriter.journalPath(out)), "the journal is gone when done")
            let r = try TileArchiveReader.open(out)
            XCTAssertEqual(r.tiles.count, 85)
            XCTAssertEqual(Set(r.tiles.map(\.tile)).count, 85, "every tile once")
            XCTAssertEqual(r.tiles.map(\.tile), f.tiles.map(\.tile))
            XCTAssertTrue(r.tiles.map(\.data) == f.tiles.map(\.data), "resumed tiles = uninterrupted tiles")
            if kind == "pmtiles" { XCTAssertTrue(fileBytes(out) == fileBytes(fresh), "the resumed PMTiles is byte for byte an uninterrupted run") }
        }
    }

    /// Runs glmap as a process and SIGKILLs it once its journal holds some of the 85 tiles.
    func killAndResumeRun(_ out: String) throws {
        let s = style()
        let exe = executable
        guard FileManager.default.isExecutableFile(atPath: exe) else { return XCTFail("glmap executable not found at \(exe)") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["tiles", "-s", s, "-z", "0-3", "-o", out, "--quiet", "--backend", "cpu", "-j", "1"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        let journal = TileArchiveWriter.journalPath(out)
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, p.isRunning {
            if let size = InputLimits.fileSize(atPath: journal), size > 6_000 { break }
            usleep(2_000)
        }
        XCTAssertTrue(p.isRunning, "the run was still going when killed (else the test proves nothing)")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .uncaughtSignal)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "no archive from a killed run")
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal), "the journal survives the kill")
    }

    func testResumeRefusesAnotherJobAndFreshRunRefusesAJournal() throws {
        let s = style()
        let out = path("j.pmtiles")
        try Data(Array("GLMAPJOURNAL1\n".utf8) + [3, 0, 0, 0] + Array("old".utf8)).write(to: URL(fileURLWithPath: TileArchiveWriter.journalPath(out)))
        let fresh = run(["tiles", "-s", s, "-z", "0", "-o", out, "--quiet", "--backend", "cpu"])
        XCTAssertEqual(fresh.code, 1)
        XCTAssertTrue(fresh.stderr.contains("continue it with --resume, or delete it"), fresh.stderr)
        let other = run(["tiles", "-s", s, "-z", "0", "-o", out, "--quiet", "--backend", "cpu", "--resume"])
        XCTAssertEqual(other.code, 2)
        XCTAssertTrue(other.stderr.contains("the journal is of another job"), other.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testResumeOfADirectorySkipsExistingFiles() throws {
        let s = style()
        let out = path("dir")
        tiles(s, "0-1", out)
        let marker = out + "/1/0/0.png"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: marker))   // a "finished" tile is not rendered again
        try FileManager.default.removeItem(atPath: out + "/1/1/1.png")
        tiles(s, "0-1", out, ["--resume"])
        XCTAssertEqual(fileBytes(marker), [1, 2, 3])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/1/1/1.png"))
    }

    // MARK: Schedulers

    func testSchedulerEnvironment() throws {
        XCTAssertEqual(try SchedulerShard.parse("auto/4", environment: ["JOB_COMPLETION_INDEX": "3"]).index, 3)
        XCTAssertEqual(try SchedulerShard.parse("auto", environment: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"]).index, 1)
        XCTAssertEqual(try SchedulerShard.parse("auto", environment: ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2"]).count, 2)
        XCTAssertEqual(try SchedulerShard.parse("1/3", environment: [:]).index, 1)
        XCTAssertThrowsError(try SchedulerShard.parse("auto", environment: ["JOB_COMPLETION_INDEX": "0"])) { XCTAssertTrue("\($0)".contains("auto/N with N = the Job's completions"), "\($0)") }
        XCTAssertThrowsError(try SchedulerShard.parse("auto", environment: [:])) { XCTAssertTrue("\($0)".contains("no scheduler index"), "\($0)") }
        XCTAssertThrowsError(try SchedulerShard.parse("auto/2", environment: ["JOB_COMPLETION_INDEX": "2"])) { XCTAssertTrue("\($0)".contains("outside 0…1"), "\($0)") }
        XCTAssertThrowsError(try SchedulerShard.parse("auto/3", environment: ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2"]))
    }

    /// Shards as separate processes with the schedulers' environment, then `tiles merge`: the
    /// archive equals the one-process run (PMTiles: byte for byte).
    func testShardsRunAsSchedulersRunThemMergeToTheSingleRun() throws {
        let s = style()
        let exe = executable
        guard FileManager.default.isExecutableFile(atPath: exe) else { return XCTFail("glmap executable not found at \(exe)") }
        tiles(s, "0-2", path("single.pmtiles"))
        let base = ProcessInfo.processInfo.environment
        func shard(_ env: [String: String], _ shardFlag: String, _ out: String) -> Process {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: exe)
            p.arguments = ["tiles", "-s", s, "-z", "0-2", "-o", out, "--shard", shardFlag, "--quiet", "--backend", "cpu", "-j", "1"]
            p.environment = base.merging(env) { $1 }
            try! p.run()
            return p
        }
        // Kubernetes Indexed Job (completions: 2), Slurm array --array=1-3 (3 tasks), GNU parallel.
        let runs: [(String, [Process], [String])] = [
            ("kubernetes", (0..<2).map { shard(["JOB_COMPLETION_INDEX": "\($0)"], "auto/2", path("k8s-\($0).pmtiles")) },
             (0..<2).map { path("k8s-\($0).pmtiles") }),
            ("slurm", (1...3).map { shard(["SLURM_ARRAY_TASK_ID": "\($0)", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1"], "auto", path("slurm-\($0).mbtiles")) },
             (1...3).map { path("slurm-\($0).mbtiles") }),
            ("parallel", (0..<2).map { shard([:], "\($0)/2", path("par-\($0).pmtiles")) }, (0..<2).map { path("par-\($0).pmtiles") }),
        ]
        for (name, processes, outputs) in runs {
            for p in processes { p.waitUntilExit(); XCTAssertEqual(p.terminationStatus, 0, "\(name) shard") }
            let merged = path("\(name)-merged.pmtiles")
            let m = run(["tiles", "merge", merged] + outputs)
            XCTAssertEqual(m.code, 0, m.stderr)
            XCTAssertTrue(fileBytes(merged) == fileBytes(path("single.pmtiles")), "\(name): merged = single run, byte for byte")
        }
    }
}
