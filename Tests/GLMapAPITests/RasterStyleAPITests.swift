import Foundation
import XCTest
import GLMap   // the only glmap import: what a library user writes

/// Raster, raster-dem and image sources with the generated `RasterLayer`, `HillshadeLayer` and
/// `ColorReliefLayer` through the Snapshotter, as a library user writes them. The tiles are PNGs
/// the Snapshotter itself draws (one colour each).
final class RasterStyleAPITests: XCTestCase {
    func tmpDir() throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-raster-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: d) }
        return d
    }

    /// A `size`² PNG of one colour, drawn by a Snapshotter's background layer.
    func tile(_ color: StyleColor, size: Int = 64) throws -> Data {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: size, height: size)))
        var bg = BackgroundLayer(id: "bg")
        bg.backgroundColor = .constant(color)
        try s.addLayer(bg)
        return try s.snapshot().pngData()
    }

    func pixel(_ s: Snapshot, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * s.width + x) * 4
        return Array(s.pixels[i..<(i + 4)])
    }

    func testRasterAndImageSourcesWithRasterLayers() throws {
        let dir = try tmpDir()
        try tile(StyleColor("rgb(255, 0, 0)")!).write(to: dir.appendingPathComponent("0-0-0.png"))
        try tile(StyleColor("rgb(0, 0, 255)")!, size: 16).write(to: dir.appendingPathComponent("blue.png"))
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 256, height: 256)))
        var raster = RasterSource(id: "r")
        raster.tiles = [dir.path + "/{z}-{x}-{y}.png"]
        raster.tileSize = 256
        raster.maxzoom = 0
        try s.addSource(raster)
        try s.addSource(ImageSource(id: "img", url: dir.appendingPathComponent("blue.png").path,
                                    coordinates: [[-20, 20], [20, 20], [20, -20], [-20, -20]]))
        var layer = RasterLayer(id: "r", source: "r")
        layer.rasterOpacity = .constant(0.5)
        try s.addLayer(layer)
        try s.addLayer(RasterLayer(id: "i", source: "img"))
        s.setCamera(to: CameraOptions(center: LocationCoordinate2D(latitude: 0, longitude: 0), zoom: 0))
        let shot = try s.snapshot()
        XCTAssertEqual(shot.warnings, [])
        XCTAssertEqual(pixel(shot, 10, 10), [255, 0, 0, 128], "half-opaque red raster tile")
        XCTAssertEqual(pixel(shot, 128, 128), [0, 0, 255, 255], "the image on its corners")
        XCTAssertEqual(try s.layer(withId: "r", type: RasterLayer.self).rasterOpacity, .constant(0.5))
    }

    func testRasterDemSourceWithHillshadeAndColorReliefLayers() throws {
        let dir = try tmpDir()
        // Terrain-RGB (1, 134, 160) is 0 m everywhere: flat, so the hillshade adds nothing.
        try tile(StyleColor("rgb(1, 134, 160)")!).write(to: dir.appendingPathComponent("0-0-0.png"))
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 128, height: 128)))
        var dem = RasterDemSource(id: "dem")
        dem.tiles = [dir.path + "/{z}-{x}-{y}.png"]
        dem.tileSize = 256
        dem.maxzoom = 0
        dem.encoding = .mapbox
        try s.addSource(dem)
        var relief = ColorReliefLayer(id: "relief", source: "dem")
        relief.colorReliefColor = .expression(Exp(.interpolate) { Exp(.linear); Exp(.elevation); -10; StyleColor("rgb(255, 0, 0)")!; 10; StyleColor("rgb(0, 255, 0)")! })
        try s.addLayer(relief)
        var hill = HillshadeLayer(id: "hill", source: "dem")
        hill.hillshadeExaggeration = .constant(1)
        hill.hillshadeMethod = .constant(.basic)
        try s.addLayer(hill)
        let shot = try s.snapshot()
        XCTAssertEqual(shot.warnings, [])
        let p = pixel(shot, 64, 64)
        // 0 m is halfway from red to green. Basic shading of flat ground: GL JS stores slopes in
        // 8 bits (0 → 128/255, a slope of 128/255·8 − 4 on both axes, doubled by exaggeration 1),
        // lit from 335° at 45°: highlight = 2·shade − 1 of white over the relief.
        let d = (128.0 / 255 * 8 - 4) * 2, alt = Double.pi / 4, az = 335 * Double.pi / 180 + Double.pi
        let shade = (sin(alt) - (d * cos(az) * cos(alt) - d * sin(az) * cos(alt))) / (1 + 2 * d * d).squareRoot()
        let h = 2 * shade - 1
        XCTAssertEqual(p[3], 255)
        XCTAssertEqual(Double(p[0]), 128 * (1 - h) + 255 * h, accuracy: 2, "\(p)")
        XCTAssertEqual(Double(p[1]), 128 * (1 - h) + 255 * h, accuracy: 2, "\(p)")
        XCTAssertEqual(Double(p[2]), 255 * h, accuracy: 2, "\(p)")
    }
}
