import Foundation
import XCTest
@testable import GLMapCLI
import GLMap
import GLMapArchives
import GLMapPyramid
import GLMapTestSupport

/// Where glmap writes: the tile limits of `glmap tiles`, its output checks, and the rules for an
/// existing output file (symlinks, read-only files, non-regular files). Exact messages, exit
/// codes, and nothing left behind.
final class OutputRulesCLITests: FolderTestCase {
    override var folderPrefix: String { "glmap-out" }

    override func tearDown() {
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: tmp.appendingPathComponent("ro.png").path)
        super.tearDown()
    }

    var exampleStyle: String { SharedData.exampleStyle }

    func run(_ args: [String]) -> (code: Int32, stdout: [UInt8], stderr: String) {
        let r = CommandLineRun(args)
        return (r.code, r.stdout, r.stderr)
    }

    func path(_ name: String) -> String { folder.path(name) }
    func files() -> [String] { folder.allFiles() }

    // MARK: tile counts and limits

    func testTileCountIsPrintedBeforeRendering() {
        let r = run(["tiles", "-s", exampleStyle, "-z", "0-1", "-o", path("t"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("glmap: 5 tiles in 2 metatiles of up to 4×4 (zoom 0-1) → \(path("t"))\n"), r.stderr)
        XCTAssertEqual(files(), ["t", "t/0", "t/0/0", "t/0/0/0.png", "t/1", "t/1/0", "t/1/0/0.png", "t/1/0/1.png", "t/1/1", "t/1/1/0.png", "t/1/1/1.png"])
    }

    func testPyramidPastTheLimitIsRefusedWithItsCountAndTheFlag() {
        let cases: [(String, String)] = [
            ("18", "68,719,476,736", "68719476736"),
            ("14", "268,435,456", "268435456"),
            ("24-24", "281,474,976,710,656", "281474976710656"),
            ("0-24", "375,299,968,947,541", "375299968947541"),
        ].map { z, count, raw in
            (z, "glmap: --zoom \(z) covers \(count) tiles, more than the limit of 1,000,000; pass --max-tiles \(raw) to render them all, or narrow --zoom or --bbox\n")
        }
        for (zoom, message) in cases {
            let r = run(["tiles", "-s", exampleStyle, "-z", zoom, "-o", path("t")])
            XCTAssertEqual(r.code, 2, zoom)
            XCTAssertEqual(r.stderr, message)
        }
        XCTAssertEqual(files(), [], "nothing created")
    }

    func testLimitCountsTheShardAndTheBoxAndCanBeLowered() {
        // Shards are whole metatiles: z0, z1 and z2 are one each, and shard 0 of 2 holds z0 and z2.
        let r = run(["tiles", "-s", exampleStyle, "-z", "0-2", "--shard", "0/2", "--max-tiles", "5", "-o", path("t")])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "glmap: --zoom 0-2 covers 17 tiles in shard 0/2, more than the limit of 5; pass --max-tiles 17 to render them all, or narrow --zoom or --bbox\n")
        let single = run(["tiles", "-s", exampleStyle, "-z", "0-2", "--shard", "1/2", "--metatile", "1", "--max-tiles", "5", "-o", path("t")])
        XCTAssertEqual(single.stderr, "glmap: --zoom 0-2 covers 10 tiles in shard 1/2, more than the limit of 5; pass --max-tiles 10 to render them all, or narrow --zoom or --bbox\n")
        let box = run(["tiles", "-s", exampleStyle, "-z", "10", "--bbox", "0,0,10,10", "--max-tiles", "100", "-o", path("t")])
        XCTAssertEqual(box.code, 2)
        XCTAssertEqual(box.stderr, "glmap: --zoom 10 --bbox 0,0,10,10 covers 841 tiles, more than the limit of 100; pass --max-tiles 841 to render them all, or narrow --zoom or --bbox\n")
        XCTAssertEqual(run(["tiles", "-s", exampleStyle, "-z", "0", "--max-tiles", "0", "-o", path("t")]).stderr,
                       "glmap: --max-tiles expects at least 1, got 0\n")
        XCTAssertEqual(files(), [])
    }

    func testTileZoomsStopWhereRenderZoomsStop() {
        for zoom in ["25", "0-25", "30"] {
            let r = run(["tiles", "-s", exampleStyle, "-z", zoom, "-o", path("t")])
            XCTAssertEqual(r.code, 2)
            let range = zoom.contains("-") ? zoom : "\(zoom)-\(zoom)"
            XCTAssertEqual(r.stderr, "glmap: --zoom: tile zooms must be between 0 and 24 (the deepest zoom glmap renders), got \(range)\n")
        }
        let render = run(["render", "-s", exampleStyle, "-z", "24.5", "-o", path("r.png")])
        XCTAssertEqual(render.code, 2)
        XCTAssertEqual(render.stderr, "glmap: zoom must be between -2 and 24, got 24.5\n")
        XCTAssertEqual(Pyramid.maxZoom, RenderOptions.maxZoom)
        XCTAssertEqual(files(), [])
    }

    func testHugePyramidTilesAreComputedNotStored() throws {
        // 0-24 is 3.75·10^14 tiles: counting and indexing them must not allocate.
        let pyramid = try Pyramid(zooms: 0...24)
        XCTAssertEqual(pyramid.count, 375_299_968_947_541)
        let tiles = pyramid.metatiles(size: 1)   // each metatile one tile
        XCTAssertEqual(tiles.count, pyramid.count)
        XCTAssertEqual(tiles[0].tiles, [try TileAddress(z: 0, x: 0, y: 0)])
        XCTAssertEqual(tiles[1].tiles, [try TileAddress(z: 1, x: 0, y: 0)])
        XCTAssertEqual(tiles[tiles.count - 1].tiles, [try TileAddress(z: 24, x: (1 << 24) - 1, y: (1 << 24) - 1)])
        let shard = tiles.shard(3, of: 7)
        XCTAssertEqual(shard[2], 3 + 2 * 7)
        XCTAssertEqual(shard.count, (pyramid.count - 3 + 6) / 7)
        // Metatiles of 4: z0 and z1 are one each, then (2^z / 4)² a zoom.
        let metatiles = pyramid.metatiles(size: 4)
        XCTAssertEqual(metatiles.count, 2 + (2...24).reduce(0) { $0 + (1 << (2 * $1 - 4)) })
        XCTAssertEqual(metatiles[metatiles.count - 1].description, "24/16777212-16777215/16777212-16777215")
    }

    // MARK: what tiles may write to

    func testTilesToStandardOutputIsRefused() {
        let r = run(["tiles", "-s", exampleStyle, "-z", "0", "-o", "-"])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "glmap: --output -: a tile pyramid is many files and cannot go to standard output; give a directory (DIR/z/x/y.png), FILE.mbtiles or FILE.pmtiles\n")
        XCTAssertEqual(r.stdout, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: "-"))
    }

    func testTilesOntoAnExistingFileIsRefused() throws {
        FileManager.default.createFile(atPath: path("plain"), contents: Data("keep".utf8))
        let r = run(["tiles", "-s", exampleStyle, "-z", "0", "-o", path("plain")])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "glmap: --output \(path("plain")) is an existing file, not a directory; give a directory (DIR/z/x/y.png), FILE.mbtiles or FILE.pmtiles\n")
        XCTAssertFalse(r.stderr.contains("NSCocoaErrorDomain"))
        XCTAssertEqual(try String(contentsOfFile: path("plain"), encoding: .utf8), "keep")
        XCTAssertEqual(files(), ["plain"])
    }

    func testTilesIntoAnImageNamedDirectoryIsRefused() {
        let r = run(["tiles", "-s", exampleStyle, "-z", "0", "-o", path("tiles.png")])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "glmap: --output \(path("tiles.png")) names an image file, but tiles go to a directory (DIR/z/x/y.png), FILE.mbtiles or FILE.pmtiles\n")
        XCTAssertEqual(files(), [])
    }

    func testExistingMBTilesNeedsOverwrite() throws {
        FileManager.default.createFile(atPath: path("a.mbtiles"), contents: Data("old".utf8))
        let r = run(["tiles", "-s", exampleStyle, "-z", "0", "-o", path("a.mbtiles"), "--backend", "cpu"])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "glmap: --output \(path("a.mbtiles")) already exists; pass --overwrite to replace it (or --resume to continue an interrupted run)\n")
        XCTAssertEqual(try String(contentsOfFile: path("a.mbtiles"), encoding: .utf8), "old")
        let o = run(["tiles", "-s", exampleStyle, "-z", "0", "-o", path("a.mbtiles"), "--backend", "cpu", "--overwrite", "-q"])
        XCTAssertEqual(o.code, 0, o.stderr)
        let head = try Data(contentsOf: URL(fileURLWithPath: path("a.mbtiles"))).prefix(15)
        XCTAssertEqual(String(decoding: head, as: UTF8.self), "SQLite format 3")
        XCTAssertEqual(files(), ["a.mbtiles"])
    }

    // MARK: an existing output file

    func testSymlinkIsFollowedAndStaysALink() throws {
        FileManager.default.createFile(atPath: path("target.png"), contents: Data("old".utf8))
        try FileManager.default.createSymbolicLink(atPath: path("link.png"), withDestinationPath: "target.png")
        let r = run(["render", "-s", exampleStyle, "-o", path("link.png"), "-w", "8", "-h", "8", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("link.png")), "target.png")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("target.png"))))
        XCTAssertEqual(Array(bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertEqual(files(), ["link.png", "target.png"])
    }

    func testDanglingSymlinkIsRefused() throws {
        try FileManager.default.createSymbolicLink(atPath: path("link.png"), withDestinationPath: "missing/x.png")
        let r = run(["render", "-s", exampleStyle, "-o", path("link.png"), "-w", "8", "-h", "8", "--backend", "cpu"])
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.stderr, "glmap: \(path("link.png")): cannot write PNG: is a symbolic link to a missing file; glmap does not create files through dangling links: create the target or remove the link\n")
        XCTAssertEqual(files(), ["link.png"])
    }

    func testReadOnlyFileIsRefusedAndKept() throws {
        FileManager.default.createFile(atPath: path("ro.png"), contents: Data("old".utf8), attributes: [.posixPermissions: 0o444])
        let r = run(["render", "-s", exampleStyle, "-o", path("ro.png"), "-w", "8", "-h", "8", "--backend", "cpu"])
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.stderr, "glmap: \(path("ro.png")): cannot write PNG: is read-only (mode 444); glmap does not replace read-only files: make it writable or remove it\n")
        XCTAssertEqual(try String(contentsOfFile: path("ro.png"), encoding: .utf8), "old")
        XCTAssertEqual(files(), ["ro.png"])
    }

    func testReplacedFileKeepsItsMode() throws {
        FileManager.default.createFile(atPath: path("m.png"), contents: Data("old".utf8), attributes: [.posixPermissions: 0o600])
        let r = run(["render", "-s", exampleStyle, "-o", path("m.png"), "-w", "8", "-h", "8", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let mode = try FileManager.default.attributesOfItem(atPath: path("m.png"))[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    func testNonRegularFileIsRefused() throws {
        XCTAssertEqual(mkfifo(path("fifo.png"), 0o644), 0)
        let r = run(["render", "-s", exampleStyle, "-o", path("fifo.png"), "-w", "8", "-h", "8", "--backend", "cpu"])
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.stderr, "glmap: \(path("fifo.png")): cannot write PNG: is not a regular file (a device, FIFO or socket); glmap only replaces regular files\n")
        XCTAssertEqual(files(), ["fifo.png"])
    }

    func testDirectoryOutputIsRefused() throws {
        try FileManager.default.createDirectory(atPath: path("d.png"), withIntermediateDirectories: false)
        let r = run(["render", "-s", exampleStyle, "-o", path("d.png"), "-w", "8", "-h", "8", "--backend", "cpu"])
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.stderr, "glmap: \(path("d.png")): cannot write PNG: is a directory; give a file name\n")
        XCTAssertEqual(files(), ["d.png"])
    }
}
