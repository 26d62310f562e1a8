import Foundation
import GLMapArchives
import GLMapCore
import GLMapTestSupport
import GLMapTiles
import XCTest

/// Source descriptions, URL templates, bounds, and tile loading from the render suite's folders
/// (through the harness's rewrite rules), archives written by independent tools, and a local server.
final class TileSourceTests: XCTestCase {
    var tmp: URL!
    static let suite = SharedData.root.appendingPathComponent("render-suite")

    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-sources-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    func path(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    func description(_ json: String, id: String = "s") throws -> TileSourceDescription {
        try TileSourceDescription(id: id, json: try XCTUnwrap(try JSONParser.parse(json).objectValue))
    }

    /// The render-suite harness's loader: localhost:2900 is the suite folder, sparse204 answers 204.
    var suiteLoader: ResourceLoader {
        ResourceLoader(options: ResourceLoaderOptions(
            rewrites: [URLRewriteRule(prefix: "http://localhost:2900/", replacement: Self.suite.path + "/")],
            noContentMarkers: ["/sparse204/1-"]))
    }

    // MARK: Templates and bounds

    func testURLTemplatesAsGLJSFillsThem() {
        // GL JS's tile_id test: the bbox of 1/0/0. Quadkeys: one digit per zoom, x bit + 2 · y bit.
        XCTAssertEqual(TileURLTemplate.url(["bbox={bbox-epsg-3857}"], tile: CanonicalTileID(1, 0, 0)),
                       "bbox=-20037508.342789244,0,0,20037508.342789244")
        XCTAssertEqual(TileURLTemplate.url(["quadkey={quadkey}"], tile: CanonicalTileID(1, 1, 1)), "quadkey=3")
        XCTAssertEqual(TileURLTemplate.url(["quadkey={quadkey}"], tile: CanonicalTileID(6, 8, 8)), "quadkey=003000")
        XCTAssertEqual(TileURLTemplate.url(["{z}/{x}/{y}"], tile: CanonicalTileID(2, 1, 0), scheme: .tms), "2/1/3")
        XCTAssertEqual(TileURLTemplate.url(["{prefix}/{z}/{x}/{y}{ratio}.png"], tile: CanonicalTileID(5, 17, 30), pixelRatio: 2), "1e/5/17/30@2x.png")
        XCTAssertEqual(TileURLTemplate.url(["{z}{ratio}"], tile: CanonicalTileID(0, 0, 0), pixelRatio: 1), "0")
        // Templates chosen by (x + y) % count.
        XCTAssertEqual(TileURLTemplate.url(["a/{x}", "b/{x}", "c/{x}"], tile: CanonicalTileID(3, 2, 2)), "b/2")
    }

    func testTileBoundsAsGLJS() {
        let b = TileBounds([-10, -10, 10, 10])
        XCTAssertTrue(b.contains(CanonicalTileID(0, 0, 0)))
        XCTAssertTrue(b.contains(CanonicalTileID(4, 7, 7)))
        XCTAssertTrue(b.contains(CanonicalTileID(4, 8, 8)))
        XCTAssertFalse(b.contains(CanonicalTileID(4, 6, 7)))
        XCTAssertFalse(b.contains(CanonicalTileID(4, 9, 8)))
        let world = TileBounds([-200, -100, 200, 100])
        XCTAssertEqual(world, TileBounds([-180, -90, 180, 90]))
        XCTAssertTrue(world.contains(CanonicalTileID(3, 7, 0)))
    }

    // MARK: Descriptions

    func testDescriptionDefaultsAndErrorsNameTheJSONPath() throws {
        let v = try description(#"{"type":"vector","tiles":["a/{z}/{x}/{y}.pbf"],"promoteId":{"water":"osm_id"}}"#)
        XCTAssertEqual(v.type, .vector)
        XCTAssertEqual(v.scheme, .xyz)
        XCTAssertNil(v.minzoom)
        XCTAssertEqual(v.promoteId, .perLayer(["water": "osm_id"]))
        let dem = try description(#"{"type":"raster-dem","url":"x.json","encoding":"custom","redFactor":2,"baseShift":5}"#)
        XCTAssertEqual(dem.demEncoding, DEMEncoding(name: "custom", redFactor: 2, greenFactor: 1, blueFactor: 1, baseShift: 5))
        XCTAssertEqual(try description(#"{"type":"raster-dem","url":"x.json","encoding":"terrarium"}"#).demEncoding, .terrarium)
        func fails(_ json: String, _ path: String, _ fragment: String, line: UInt = #line) {
            XCTAssertThrowsError(try description(json), line: line) { error in
                let e = error as? TileSourceError
                XCTAssertEqual(e?.path, path, "\(error)", line: line)
                XCTAssertTrue("\(error)".contains(fragment), "\(error)", line: line)
            }
        }
        fails(#"{"type":"vector"}"#, "sources.s", "needs \"tiles\"")
        fails(#"{"type":"vector","tiles":[]}"#, "sources.s.tiles", "empty array")
        fails(#"{"type":"vector","tiles":[1]}"#, "sources.s.tiles", "array of URL strings")
        fails(#"{"type":"raster","tiles":["x"],"scheme":"zxy"}"#, "sources.s.scheme", "not xyz or tms")
        fails(#"{"type":"raster","tiles":["x"],"minzoom":5,"maxzoom":2}"#, "sources.s.minzoom", "greater than maxzoom")
        fails(#"{"type":"raster","tiles":["x"],"maxzoom":40}"#, "sources.s.maxzoom", "outside 0…30")
        fails(#"{"type":"raster","tiles":["x"],"bounds":[1,2,3]}"#, "sources.s.bounds", "four numbers")
        fails(#"{"type":"raster-dem","tiles":["x"],"encoding":"rgb"}"#, "sources.s.encoding", "mapbox, terrarium or custom")
        fails(#"{"type":"image","url":"a.png","coordinates":[[0,0],[1,1]]}"#, "sources.s.coordinates", "four [longitude, latitude]")
        fails(#"{"type":"geojson","data":{}}"#, "sources.s.type", "not a tiled or image source type")
        fails(#"{"type":"vector","tiles":["x"],"promoteId":3}"#, "sources.s.promoteId", "property name")
    }

    // MARK: The suite's tiles through the harness rules

    func testSuiteVectorSourceThroughTileJSONAndRewrites() throws {
        try SharedData.require("MapLibre's render suite", at: Self.suite)
        let d = try description(#"{"type":"vector","url":"http://localhost:2900/tilesets/mapbox.mapbox-streets-v7","maxzoom":14}"#, id: "mapbox")
        let s = try VectorTileSource(d, loader: suiteLoader)
        XCTAssertEqual(s.source.templates, ["http://localhost:2900/tiles/mapbox.mapbox-streets-v7/{z}-{x}-{y}.mvt"])
        XCTAssertEqual(s.source.maxzoom, 14, "the style's maxzoom wins over the TileJSON's (none here)")
        XCTAssertEqual(s.source.tileSize, 512)
        let r = s.load(tiles: [CanonicalTileID(0, 0, 0), CanonicalTileID(4, 4, 7), CanonicalTileID(3, 1, 1), CanonicalTileID(15, 0, 0)])
        guard case .loaded(let t)? = r[CanonicalTileID(0, 0, 0)] else { return XCTFail("0/0/0: \(String(describing: r[CanonicalTileID(0, 0, 0)]))") }
        XCTAssertNotNil(t.layers["water"])
        guard case .loaded? = r[CanonicalTileID(4, 4, 7)] else { return XCTFail("4/4/7") }
        guard case .missing? = r[CanonicalTileID(3, 1, 1)] else { return XCTFail("a missing file is .missing") }
        guard case .missing? = r[CanonicalTileID(15, 0, 0)] else { return XCTFail("past maxzoom: not requested") }
        // The sparse204 rule: an empty tile.
        let sparse = try VectorTileSource(try description(#"{"type":"vector","tiles":["http://localhost:2900/tiles/sparse204/{z}-{x}-{y}.mvt"]}"#), loader: suiteLoader)
        guard case .empty? = sparse.load(tiles: [CanonicalTileID(1, 0, 0)])[CanonicalTileID(1, 0, 0)] else { return XCTFail("204") }
        // A TileJSON without tiles.
        let noTiles = path("notiles.json")
        try Data(#"{"tilejson":"2.2.0","minzoom":0}"#.utf8).write(to: URL(fileURLWithPath: noTiles))
        XCTAssertThrowsError(try VectorTileSource(try description(#"{"type":"vector","url":"\#(noTiles)"}"#), loader: suiteLoader)) { error in
            XCTAssertTrue("\(error)".contains("sources.s.url: the TileJSON \(noTiles) has no \"tiles\""), "\(error)")
        }
        XCTAssertThrowsError(try VectorTileSource(try description(#"{"type":"vector","url":"http://localhost:2900/tilesets/none.json"}"#), loader: suiteLoader)) { error in
            XCTAssertTrue("\(error)".contains("was not found"), "\(error)")
        }
        XCTAssertThrowsError(try VectorTileSource(try description(#"{"type":"vector","tiles":["x/{z}"],"encoding":"mlt"}"#), loader: suiteLoader)) { error in
            XCTAssertTrue("\(error)".contains("mlt"), "\(error)")
        }
    }

    func testSuiteRasterAndDEMTiles() throws {
        try SharedData.require("MapLibre's render suite", at: Self.suite)
        let py = try OutsideTool.requirePython(["PIL"])
        let raster = try RasterTileSource(try description(#"{"type":"raster","url":"http://localhost:2900/tilesets/mapbox.satellite","tileSize":256}"#), loader: suiteLoader)
        XCTAssertEqual(raster.source.tileSize, 256)
        let rr = raster.load(tiles: [CanonicalTileID(1, 0, 1)])
        guard case .loaded(let img)? = rr[CanonicalTileID(1, 0, 1)] else { return XCTFail("\(rr)") }
        // Pillow reads the same file: same size, same pixels.
        let file = Self.suite.appendingPathComponent("tiles/mapbox.satellite/1-0-1.png").path
        let check = OutsideTool.run(py, ["-c", "import sys, hashlib; from PIL import Image; im = Image.open(sys.argv[1]).convert('RGBA'); print(im.size[0], im.size[1], hashlib.sha256(im.tobytes()).hexdigest())", file])
        XCTAssertEqual(check.status, 0, check.stderr)
        let parts = String(decoding: check.stdout, as: UTF8.self).split(separator: " ")
        XCTAssertEqual(Int(parts[0]), img.image.width)
        XCTAssertEqual(Int(parts[1]), img.image.height)
        XCTAssertEqual(String(parts[2]).trimmingCharacters(in: .whitespacesAndNewlines), sha256(img.image.pixels))

        // raster-dem, mapbox and terrarium: elevations against Pillow + the encodings' formulas.
        for (name, enc, formula) in [("terrain", "mapbox", "-10000 + (r * 256 * 256 + g * 256 + b) * 0.1"),
                                     ("terrarium", "terrarium", "(r * 256 + g + b / 256) - 32768")] {
            let d = try description(#"{"type":"raster-dem","tiles":["http://localhost:2900/tiles/{z}-{x}-{y}.\#(name).png"],"encoding":"\#(enc)"}"#)
            let dem = try RasterDEMTileSource(d, loader: suiteLoader)
            guard case .loaded(let data)? = dem.load(tiles: [CanonicalTileID(12, 759, 1608)])[CanonicalTileID(12, 759, 1608)] else { return XCTFail(name) }
            XCTAssertEqual(data.dim, 256)
            XCTAssertEqual(data.stride, 258)
            let f = Self.suite.appendingPathComponent("tiles/12-759-1608.\(name).png").path
            let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1]).convert('RGB'); px = im.load(); w, h = im.size
            e = lambda x, y: (lambda r, g, b: \(formula))(*px[x, y])
            vals = [e(x, y) for y in range(h) for x in range(w)]
            print(min(vals), max(vals), e(0, 0), e(255, 0), e(100, 37), e(0, 255))
            """
            let out = OutsideTool.run(py, ["-c", script, f])
            XCTAssertEqual(out.status, 0, out.stderr)
            let v = String(decoding: out.stdout, as: UTF8.self).split(separator: " ").map { Double($0.trimmingCharacters(in: .whitespacesAndNewlines))! }
            XCTAssertEqual(data.min, v[0], accuracy: 1e-6, name)
            XCTAssertEqual(data.max, v[1], accuracy: 1e-6, name)
            XCTAssertEqual(data.elevation(x: 100, y: 37), v[4], accuracy: 1e-6, name)
            // The border holds the nearest edge pixel, corners the corner pixel.
            XCTAssertEqual(data.elevation(x: -1, y: -1), v[2], accuracy: 1e-6)
            XCTAssertEqual(data.elevation(x: 256, y: -1), v[3], accuracy: 1e-6)
            XCTAssertEqual(data.elevation(x: -1, y: 255), v[5], accuracy: 1e-6)
            XCTAssertEqual(data.elevation(x: 256, y: 0), v[3], accuracy: 1e-6)
            // Backfilling from the western neighbour copies its east column into x = −1.
            var copy = data
            let west = data
            copy.backfillBorder(from: west, dx: -1, dy: 0)
            for y in [0, 100, 255] { XCTAssertEqual(copy.elevation(x: -1, y: y), west.elevation(x: 255, y: y)) }
            XCTAssertEqual(copy.elevation(x: -1, y: -1), data.elevation(x: -1, y: -1), "corners stay")
        }
    }

    func testImageSource() throws {
        try SharedData.require("MapLibre's render suite", at: Self.suite)
        let d = try description(#"{"type":"image","url":"http://localhost:2900/image/0.png","coordinates":[[-1,1],[1,1],[1,-1],[-1,-1]]}"#)
        let s = try ImageSource(d, loader: suiteLoader)
        XCTAssertEqual(s.coordinates, [[-1, 1], [1, 1], [1, -1], [-1, -1]])
        guard case .loaded(let img) = s.load() else { return XCTFail("image") }
        XCTAssertGreaterThan(img.image.width, 0)
        let missing = try ImageSource(try description(#"{"type":"image","url":"http://localhost:2900/image/none.png","coordinates":[[-1,1],[1,1],[1,-1],[-1,-1]]}"#), loader: suiteLoader)
        guard case .missing = missing.load() else { return XCTFail("missing image") }
    }

    // MARK: Bounds and zooms: never requested

    func testTilesOutsideBoundsAndZoomsAreNeverRequested() throws {
        let server = try TestHTTPServer(root: tmp.path)
        defer { server.stop() }
        let d = try description(#"{"type":"vector","tiles":["\#(server.base)/files/{z}/{x}/{y}.pbf"],"minzoom":2,"maxzoom":6,"bounds":[-10,-10,10,10]}"#)
        let s = try VectorTileSource(d, loader: ResourceLoader())
        let tiles = [CanonicalTileID(1, 0, 0), CanonicalTileID(7, 64, 64), CanonicalTileID(4, 0, 0), CanonicalTileID(4, 8, 8), CanonicalTileID(4, 7, 7)]
        let r = s.load(tiles: tiles)
        XCTAssertEqual(r.count, 5)
        for t in tiles { guard case .missing? = r[t] else { return XCTFail("\(t): \(String(describing: r[t]))") } }
        XCTAssertEqual(Set(try server.counts().keys), ["/files/4/8/8.pbf", "/files/4/7/7.pbf"], "only the tiles inside were asked for")
    }

    // MARK: Archives

    static let archiveScript = #"""
import sys, sqlite3, gzip, zlib, json
from pmtiles.tile import zxy_to_tileid, TileType, Compression
from pmtiles.writer import Writer
good = bytes.fromhex(sys.argv[3])
db = sqlite3.connect(sys.argv[1])
db.executescript("CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);")
db.executemany("INSERT INTO metadata VALUES (?, ?)", [("name", "t"), ("format", "pbf"), ("minzoom", "0"), ("maxzoom", "3"), ("bounds", "0,0,0,0"),
    ("attribution", "© test"), ("json", json.dumps({"vector_layers": [{"id": "l"}]}))])
rows = {(0, 0, 0): gzip.compress(good), (1, 0, 0): zlib.compress(good), (1, 1, 0): good, (1, 0, 1): b"\x1f\x8b\x08\x00garbage",
        (1, 1, 1): gzip.compress(b"\x1a\xff\xff\xff\x0f"), (2, 0, 0): gzip.compress(bytes(4 << 20)), (2, 1, 0): b""}
for (z, x, y), d in rows.items():
    db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, (1 << z) - 1 - y, d))
db.commit()
with open(sys.argv[2], "wb") as f:
    w = Writer(f)
    for z, x, y in sorted([(0, 0, 0), (1, 0, 0), (1, 1, 1)], key=lambda t: zxy_to_tileid(*t)):
        w.write_tile(zxy_to_tileid(z, x, y), gzip.compress(good, mtime=0))
    w.finalize({"tile_type": TileType.MVT, "tile_compression": Compression.GZIP, "min_zoom": 0, "max_zoom": 1,
                "min_lon_e7": -1800000000, "min_lat_e7": -850000000, "max_lon_e7": 1800000000, "max_lat_e7": 850000000,
                "center_zoom": 0, "center_lon_e7": 0, "center_lat_e7": 0}, {"attribution": "pm", "vector_layers": [{"id": "l"}]})
"""#

    func testArchiveSourcesAndEveryTileFailureNamesSourceTileAndCause() throws {
        let py = try OutsideTool.requirePython(["pmtiles", "sqlite3"])
        var c: (Int64, Int64) = (0, 0)
        let good = tile([layer(name: "l", features: [feature(id: 5, type: 2, geometry: geometry([[(0, 0), (100, 100)]], close: false, cursor: &c))])])
        let mb = path("t.mbtiles"), pm = path("t.pmtiles")
        let w = OutsideTool.run(py, ["-c", Self.archiveScript, mb, pm, good.map { String(format: "%02x", $0) }.joined()])
        XCTAssertEqual(w.status, 0, w.stderr)
        let limits = InputLimits(maxTileBytes: 1 << 20)
        // mbtiles:// relative to the loader's base folder.
        let loader = ResourceLoader(options: ResourceLoaderOptions(base: tmp.path))
        let s = try VectorTileSource(try description(#"{"type":"vector","url":"mbtiles://t.mbtiles"}"#, id: "hki"), loader: loader, limits: limits)
        XCTAssertEqual(s.source.archivePath, mb)
        XCTAssertEqual(s.source.maxzoom, 3)
        XCTAssertNil(s.source.bounds, "tilemaker's 0,0,0,0 bounds are ignored")
        XCTAssertEqual(s.source.attribution, "© test")
        XCTAssertEqual(s.source.vectorLayerIDs, ["l"])
        let all = [CanonicalTileID(0, 0, 0), CanonicalTileID(1, 0, 0), CanonicalTileID(1, 1, 0), CanonicalTileID(1, 0, 1),
                   CanonicalTileID(1, 1, 1), CanonicalTileID(2, 0, 0), CanonicalTileID(2, 1, 0), CanonicalTileID(2, 3, 3)]
        let r = s.load(tiles: all)
        for t in all.prefix(3) {
            guard case .loaded(let d)? = r[t] else { return XCTFail("\(t): \(String(describing: r[t]))") }
            XCTAssertEqual(d.layers["l"]?.features.first?.id, .number(5))
            XCTAssertEqual(d.layers["l"]?.features.first?.geometry.first?.last, TilePoint(200, 200))
        }
        func failure(_ t: CanonicalTileID) -> String {
            if case .failed(let m)? = r[t] { return m }
            XCTFail("\(t) should fail: \(String(describing: r[t]))")
            return ""
        }
        XCTAssertTrue(failure(CanonicalTileID(1, 0, 1)).hasPrefix("source \"hki\" tile 1/0/1: corrupt gzip data"), failure(CanonicalTileID(1, 0, 1)))
        XCTAssertTrue(failure(CanonicalTileID(1, 1, 1)).hasPrefix("source \"hki\" tile 1/1/1: corrupt vector tile: layer #0: "), failure(CanonicalTileID(1, 1, 1)))
        XCTAssertEqual(failure(CanonicalTileID(2, 0, 0)), "source \"hki\" tile 2/0/0: gzip data of \(try XCTUnwrap(try MBTilesReader(path: mb).tile(z: 2, x: 0, y: 0)).count) bytes inflates past 1048576 bytes (limit InputLimits.maxTileBytes)")
        guard case .empty? = r[CanonicalTileID(2, 1, 0)] else { return XCTFail("an empty blob is an empty tile") }
        guard case .missing? = r[CanonicalTileID(2, 3, 3)] else { return XCTFail("absent") }

        let p = try VectorTileSource(try description(#"{"type":"vector","tiles":["pmtiles://\#(pm)"],"attribution":"style wins"}"#, id: "pm"), loader: loader)
        XCTAssertEqual(p.source.attribution, "style wins")
        XCTAssertEqual(p.source.maxzoom, 1)
        let pr = p.load(tiles: [CanonicalTileID(0, 0, 0), CanonicalTileID(1, 1, 1), CanonicalTileID(1, 0, 1)])
        guard case .loaded? = pr[CanonicalTileID(1, 1, 1)], case .missing? = pr[CanonicalTileID(1, 0, 1)] else { return XCTFail("\(pr)") }

        XCTAssertThrowsError(try VectorTileSource(try description(#"{"type":"vector","url":"pmtiles://nope.pmtiles"}"#, id: "x"), loader: loader)) { error in
            XCTAssertTrue("\(error)".hasPrefix("sources.x: cannot open the pmtiles archive: \(tmp.path)/nope.pmtiles: no such file"), "\(error)")
        }
    }

    // MARK: Raster formats and truncation

    func testRasterFormatsAndTruncatedImagesFailWithTheTile() throws {
        let py = try OutsideTool.requirePython(["PIL"])
        let dir = path("r")
        let script = """
        import sys, os
        from PIL import Image
        d = sys.argv[1]
        os.makedirs(d + "/1/0", exist_ok=True)
        im = Image.new("RGBA", (256, 256), (10, 200, 30, 255))
        for i in range(256): im.putpixel((i, i), (255, 0, 0, 128))
        im.save(d + "/1/0/0.png"); im.convert("RGB").save(d + "/1/0/1.jpg", quality=95); im.save(d + "/1/0/2.webp", lossless=True)
        for name in ["0.png", "1.jpg", "2.webp"]:
            b = open(d + "/1/0/" + name, "rb").read()
            open(d + "/1/0/t" + name, "wb").write(b[: len(b) * 2 // 3])
        open(d + "/1/0/junk.png", "wb").write(b"<html>not found</html>")
        """
        let gen = OutsideTool.run(py, ["-c", script, dir])
        XCTAssertEqual(gen.status, 0, gen.stderr)
        let loader = ResourceLoader(options: ResourceLoaderOptions(base: dir))
        for (name, y) in [("0.png", 0), ("1.jpg", 1), ("2.webp", 2)] {
            let s = try RasterTileSource(try description(#"{"type":"raster","tiles":["{z}/{x}/\#(name)"]}"#, id: "r"), loader: loader)
            let t = CanonicalTileID(1, 0, y % 2)
            guard case .loaded(let img)? = s.load(tiles: [t])[t] else { return XCTFail(name) }
            XCTAssertEqual(img.image.width, 256)
            let px = Array(img.image.pixels[(50 * 256 + 10) * 4..<(50 * 256 + 10) * 4 + 4])
            XCTAssertEqual(Double(px[1]), 200, accuracy: 3, name)
            let truncated = try RasterTileSource(try description(#"{"type":"raster","tiles":["{z}/{x}/t\#(name)"]}"#, id: "r"), loader: loader)
            guard case .failed(let m)? = truncated.load(tiles: [t])[t] else { return XCTFail("truncated \(name)") }
            XCTAssertTrue(m.hasPrefix("source \"r\" tile \(t): truncated or corrupt"), m)
        }
        let junk = try RasterTileSource(try description(#"{"type":"raster","tiles":["{z}/{x}/junk.png"]}"#, id: "r"), loader: loader)
        guard case .failed(let m)? = junk.load(tiles: [CanonicalTileID(1, 0, 0)])[CanonicalTileID(1, 0, 0)] else { return XCTFail("junk") }
        XCTAssertTrue(m.contains("not a PNG, JPEG or WebP image"), m)
        // The pixel limit, checked from the header.
        let tiny = try RasterTileSource(try description(#"{"type":"raster","tiles":["{z}/{x}/0.png"]}"#, id: "r"), loader: loader,
                                        limits: InputLimits(maxImagePixels: 1000))
        guard case .failed(let big)? = tiny.load(tiles: [CanonicalTileID(1, 0, 0)])[CanonicalTileID(1, 0, 0)] else { return XCTFail("limit") }
        XCTAssertTrue(big.contains("larger than 1000 pixels (limit InputLimits.maxImagePixels)"), big)
        // A DEM tile must be square.
        let rect = RGBAImage<StraightAlpha>(width: 4, height: 2)
        XCTAssertThrowsError(try DEMData(image: rect, encoding: .mapbox))
    }

    func testHTTPErrorsAndTimeoutsBecomeTileFailures() throws {
        let server = try TestHTTPServer(root: tmp.path)
        defer { server.stop() }
        let loader = ResourceLoader(options: ResourceLoaderOptions(timeout: 1))
        let s = try VectorTileSource(try description(#"{"type":"vector","tiles":["\#(server.base)/{x}"]}"#, id: "net"), loader: loader)
        // x = 0 → "/0" (404), the template can't name /broken directly: use two sources.
        let broken = try VectorTileSource(try description(#"{"type":"vector","tiles":["\#(server.base)/broken?{z}"]}"#, id: "net"), loader: loader)
        let slow = try VectorTileSource(try description(#"{"type":"vector","tiles":["\#(server.base)/slow/3?{z}"]}"#, id: "net"), loader: loader)
        guard case .missing? = s.load(tiles: [CanonicalTileID(0, 0, 0)])[CanonicalTileID(0, 0, 0)] else { return XCTFail("404") }
        guard case .failed(let m)? = broken.load(tiles: [CanonicalTileID(0, 0, 0)])[CanonicalTileID(0, 0, 0)] else { return XCTFail("500") }
        XCTAssertEqual(m, "source \"net\" tile 0/0/0: \(server.base)/broken?0: HTTP 500 Internal Server Error")
        guard case .failed(let t)? = slow.load(tiles: [CanonicalTileID(0, 0, 0)])[CanonicalTileID(0, 0, 0)] else { return XCTFail("timeout") }
        XCTAssertTrue(t.hasPrefix("source \"net\" tile 0/0/0: \(server.base)/slow/3?0: timed out after 1.0 s"), t)
    }

    func sha256(_ bytes: [UInt8]) -> String {
        let py = OutsideTool.python ?? "/usr/bin/python3"
        let r = OutsideTool.run(py, ["-c", "import sys, hashlib; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())"], stdin: bytes)
        return String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension TileSourceTests {
    func testTileSetSummariesOfArchivesAndFolders() throws {
        let py = try OutsideTool.requirePython(["pmtiles", "sqlite3"])
        let mb = path("t.mbtiles"), pm = path("t.pmtiles")
        let w = OutsideTool.run(py, ["-c", Self.archiveScript, mb, pm, "1a00"])
        XCTAssertEqual(w.status, 0, w.stderr)
        let m = try TileSetSummary.read(mb)
        XCTAssertEqual(m.minzoom, 0); XCTAssertEqual(m.maxzoom, 3)
        XCTAssertEqual(m.format, "pbf")
        XCTAssertEqual(m.vectorLayerIDs, ["l"])
        // 0,0,0,0 in the metadata: the box of the deepest zoom's tiles (2/0/0 and 2/1/0).
        let mbox = try XCTUnwrap(m.bounds)
        XCTAssertEqual(mbox[0], -180, accuracy: 1e-9); XCTAssertEqual(mbox[2], 0, accuracy: 1e-9)
        XCTAssertEqual(mbox[1], 66.51326044311186, accuracy: 1e-9); XCTAssertEqual(mbox[3], 85.0511287798066, accuracy: 1e-9)
        let p = try TileSetSummary.read(pm)
        XCTAssertEqual(p.maxzoom, 1)
        XCTAssertEqual(p.bounds, [-180, -85, 180, 85])
        XCTAssertEqual(p.format, "pbf")
        // A folder: zoom folders, and the tile range at the deepest zoom (2/1/1 and 2/2/1).
        for t in ["1/0/0.pbf", "2/1/1.pbf", "2/2/1.pbf"] {
            let f = tmp.appendingPathComponent("dir/" + t)
            try FileManager.default.createDirectory(at: f.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([1]).write(to: f)
        }
        let d = try TileSetSummary.read(path("dir"))
        XCTAssertEqual(d.minzoom, 1); XCTAssertEqual(d.maxzoom, 2)
        XCTAssertEqual(d.format, "pbf")
        let b = try XCTUnwrap(d.bounds)
        XCTAssertEqual(b[0], -90, accuracy: 1e-9); XCTAssertEqual(b[2], 90, accuracy: 1e-9)
        XCTAssertEqual(b[1], 0, accuracy: 1e-9); XCTAssertEqual(b[3], 66.51326044311186, accuracy: 1e-9)
        XCTAssertThrowsError(try TileSetSummary.read(path("nothing.mbtiles")))
    }
}
