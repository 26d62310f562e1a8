import Foundation
import XCTest
@testable import GLMapCLI
import GLMap
import GLMapPNG
import GLMapTestSupport

/// Vector sources on the command line: tiles from a z/x/y folder or an archive given by
/// `--source ID=FILE`, and `--offline` refusing the network with a clear warning (error under --strict).
final class TileSourceCLITests: FolderTestCase {
    override var folderPrefix: String { "glmap-tiles-cli" }

    func run(_ args: [String]) -> (code: Int32, stderr: String) {
        let r = CommandLineRun(args, stdin: [])
        return (r.code, r.stderr)
    }

    /// A style drawing the suite's z0 vector tile's water in blue over white, from `tiles`.
    func style(tiles: String) -> String {
        folder.write("style.json", ##"""
        {"version": 8, "center": [0, 0], "zoom": 0,
         "sources": {"v": {"type": "vector", "maxzoom": 0, "tiles": ["\##(tiles)"]}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                    {"id": "water", "type": "fill", "source": "v", "source-layer": "water", "paint": {"fill-color": "#0000ff"}}]}
        """##)
    }

    func bluePixels(_ path: String) throws -> Int {
        let image = try PNGDecoder.decode(contentsOf: path)
        return stride(from: 0, to: image.pixels.count, by: 4).filter { image.pixels[$0 + 2] > 200 && image.pixels[$0] < 60 }.count
    }

    func testSourceOverrideWithATileFolderDrawsItsTiles() throws {
        let tileURL = SharedData.root.appendingPathComponent("render-suite/tiles/0-0-0.mvt")
        try SharedData.require("the render suite's vector tile", at: tileURL)
        let tile = tileURL.path
        let dir = tmp.appendingPathComponent("tiles/0/0").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: tile, toPath: dir + "/0.pbf")
        let stylePath = style(tiles: "https://tiles.invalid/{z}/{x}/{y}.pbf")
        let out = tmp.appendingPathComponent("map.png").path
        let r = run(["render", "--style", stylePath, "-o", out, "-w", "256", "-h", "256", "--offline",
                     "--source", "v=" + tmp.appendingPathComponent("tiles").path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "", "the folder replaces the network URL: nothing is fetched")
        XCTAssertGreaterThan(try bluePixels(out), 1000, "the oceans of the z0 tile are drawn")
    }

    func testOfflineRefusesTheNetworkWithAWarningOrAStrictError() throws {
        let stylePath = style(tiles: "https://tiles.invalid/{z}/{x}/{y}.pbf")
        let out = tmp.appendingPathComponent("offline.png").path
        let r = run(["render", "--style", stylePath, "-o", out, "-w", "64", "-h", "64", "--offline"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("source \"v\" tile 0/0/0") && r.stderr.lowercased().contains("offline"), r.stderr)
        XCTAssertEqual(try bluePixels(out), 0, "the tile was not fetched")
        let strictOut = tmp.appendingPathComponent("strict.png").path
        let strict = run(["render", "--style", stylePath, "-o", strictOut, "-w", "64", "-h", "64", "--offline", "--strict"])
        XCTAssertEqual(strict.code, 2, strict.stderr)
        XCTAssertTrue(strict.stderr.contains("--strict"), strict.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: strictOut), "nothing is written")
    }

    func testSourceOverrideRejectsWhatIsNotTiles() throws {
        let stylePath = style(tiles: "https://tiles.invalid/{z}/{x}/{y}.pbf")
        let notTiles = folder.write("data.geojson", "{}")
        let r = run(["render", "--style", stylePath, "-o", tmp.appendingPathComponent("x.png").path, "--source", "v=" + notTiles])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("expected an .mbtiles or .pmtiles archive or a z/x/y folder"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("x.png").path))
    }
}
