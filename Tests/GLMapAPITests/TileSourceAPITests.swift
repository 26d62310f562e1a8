import Foundation
import XCTest
import GLMap

/// The Mapbox SDK's source types through the Snapshotter: a `VectorSource` from tile templates
/// drawn by a typed `FillLayer` with `sourceLayer`, and each type's style JSON.
final class TileSourceAPITests: XCTestCase {
    /// The render suite's tiles folder (../shared next to the repository).
    var suiteTiles: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/render-suite/tiles")
    }

    func testVectorSourceDrawsItsTilesThroughATypedLayer() throws {
        let tile = suiteTiles.appendingPathComponent("0-0-0.mvt")
        guard FileManager.default.fileExists(atPath: tile.path) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("\(tile.path) is missing (CI=true)") }
            throw XCTSkip("../shared/render-suite is absent at \(tile.path)")
        }
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 128, height: 128)))
        try s.setStyleJSON(#"{"version": 8, "sources": {}, "layers": []}"#)
        var source = VectorSource(id: "v")
        source.tiles = ["file://\(suiteTiles.path)/{z}-{x}-{y}.mvt"]
        source.maxzoom = 0
        try s.addSource(source)
        var water = FillLayer(id: "water", source: "v")
        water.sourceLayer = "water"
        try s.addLayer(water.fillColor(StyleColor(.blue)))
        s.setCamera(to: CameraOptions(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 0))
        let snapshot = try s.snapshot()
        XCTAssertEqual(snapshot.warnings, [])
        let p = snapshot.image.pixels
        let blue = stride(from: 0, to: p.count, by: 4).filter { p[$0 + 2] > 200 && p[$0 + 3] > 200 }.count
        XCTAssertGreaterThan(blue, 128 * 128 / 4, "the oceans are drawn")
        XCTAssertLessThan(blue, 128 * 128, "and the land is not")
    }

    func testEachSourceTypeWritesItsStyleObject() throws {
        var raster = RasterSource(id: "r")
        raster.tiles = ["tiles/{z}/{x}/{y}.png"]; raster.tileSize = 256; raster.scheme = .tms
        XCTAssertEqual(try raster.styleJSONObject()["type"], "raster")
        XCTAssertEqual(try raster.styleJSONObject()["scheme"], "tms")
        var dem = RasterDemSource(id: "d")
        dem.url = "mbtiles:///data/dem.mbtiles"; dem.encoding = .terrarium
        XCTAssertEqual(try dem.styleJSONObject()["encoding"], "terrarium")
        let image = ImageSource(id: "i", url: "a.png", coordinates: [[0, 1], [1, 1], [1, 0], [0, 0]])
        XCTAssertEqual(try image.styleJSONObject()["coordinates"]?.arrayValue?.count, 4)
        let sources: [any Source] = [raster, dem, image]
        XCTAssertEqual(sources.map(\.type), [.raster, .rasterDEM, .image])
        // Codable: a source round-trips through JSON.
        let data = try JSONEncoder().encode(raster)
        XCTAssertEqual(try JSONDecoder().decode(RasterSource.self, from: data), raster)
    }

    func testSourceKeysAreTheKeyTableRows() throws {
        var v = VectorSource(id: "v")
        v.url = "pmtiles:///data/world.pmtiles"
        v.promoteId = "osm_id"
        v.bounds = [-10, 40, 10, 60]
        XCTAssertEqual(v.url, "pmtiles:///data/world.pmtiles")
        XCTAssertNil(v.maxzoom)
        XCTAssertEqual(JSONValue.object(try v.styleJSONObject()).jsonText,
                       #"{"type":"vector","url":"pmtiles:///data/world.pmtiles","bounds":[-10,40,10,60],"promoteId":"osm_id"}"#)
        // Vector sources may carry keys the spec does not list; image sources may not.
        let decoded = try JSONDecoder().decode(VectorSource.self, from: Data(#"{"id":"v","type":"vector","tiles":["a/{z}/{x}/{y}.pbf"],"vendor-key":1}"#.utf8))
        XCTAssertEqual(decoded.tiles, ["a/{z}/{x}/{y}.pbf"])
        XCTAssertEqual(decoded.styleValues["vendor-key"], 1)
        XCTAssertThrowsError(try JSONDecoder().decode(ImageSource.self, from: Data(#"{"id":"i","type":"image","url":"a.png","coordinates":[[0,1],[1,1],[1,0],[0,0]],"urll":"x"}"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(RasterSource.self, from: Data(#"{"id":"r","type":"vector"}"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(RasterSource.self, from: Data(#"{"id":"r","type":"raster","tileSize":"big"}"#.utf8)))
    }
}
