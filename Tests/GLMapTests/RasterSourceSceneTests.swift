import Foundation
import Testing
import GLMapCore
import GLMapPNG
import GLMapReference
import GLMapStyle
import GLMapTiles
@testable import GLMap
import GLMapImageFormats

/// Raster, raster-dem and image sources in a scene, on tiles written to a temporary folder:
/// hostile tiles (truncated PNG, JPEG and WebP; a DEM that is not square; a missing image) each
/// cost a warning naming the tile and nothing else — the parent tile stands in, the rest of the map
/// is drawn — on both backends; 204-like empty tiles draw nothing; DEM borders are backfilled from
/// the frame's neighbours; the image source lands in GL JS's centre tile.
@Suite struct RasterSourceSceneTests {
    static let red = rgba(255, 0, 0), blue = rgba(0, 0, 255), green = rgba(0, 128, 0)

    static func rgba(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) -> [UInt8] { [r, g, b, a] }

    /// A `size`² picture of one colour.
    static func solid(_ c: [UInt8], size: Int = 256, height: Int? = nil) -> StraightImage {
        let h = height ?? size
        return StraightImage(width: size, height: h, pixels: Array((0..<(size * h)).map { _ in c }.joined()))
    }

    /// An opaque picture as a premultiplied image (the same bytes).
    static func opaque(_ c: [UInt8], size: Int = 256) -> PremultipliedImage {
        PremultipliedImage(width: size, height: size, pixels: solid(c, size: size).pixels)
    }

    static func write(_ bytes: [UInt8], _ dir: URL, _ name: String) throws {
        try Data(bytes).write(to: dir.appendingPathComponent(name))
    }

    /// A style over the folder's tiles, written as style.json there; returns its scene.
    static func scene(_ dir: URL, sources: String, layers: String, zoom: Double = 1) throws -> Scene {
        let style = #"{"version": 8, "center": [0, 0], "zoom": \#(zoom), "sources": {\#(sources)}, "layers": [\#(layers)]}"#
        let path = dir.appendingPathComponent("style.json").path
        try Data(style.utf8).write(to: URL(fileURLWithPath: path))
        return try Scene(styleFile: path)
    }

    /// A raster source of 512-px tiles `{z}-{x}-{y}.tile` in `dir`, drawn over a green background.
    static func tileFolderScene(_ dir: URL) throws -> Scene {
        try scene(dir, sources: #""r": {"type": "raster", "tiles": ["{z}-{x}-{y}.tile"], "tileSize": 512}"#,
                  layers: #"{"id": "bg", "type": "background", "paint": {"background-color": "green"}}, {"id": "r", "type": "raster", "source": "r"}"#)
    }

    static func render(_ scene: Scene, backend: Backend, size: Int = 512) throws -> StraightImage {
        try MapRenderer(backend: backend).render(scene, options: RenderOptions(width: size, height: size)).unpremultiplied()
    }

    static func color(_ img: StraightImage, _ x: Int, _ y: Int) -> [UInt8] {
        let p = img[x, y]
        return [p.r, p.g, p.b, p.a]
    }

    @Test(arguments: [Backend.gpu, Backend.cpu])
    func truncatedTilesAreWarningsAndTheirParentStandsIn(_ backend: Backend) throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(PNGEncoder.encode(Self.solid(Self.blue)), dir, "0-0-0.tile")
        try Self.write(PNGEncoder.encode(Self.solid(Self.red)), dir, "1-0-0.tile")
        let png = try PNGEncoder.encode(Self.solid(Self.red))
        try Self.write(Array(png.prefix(png.count / 2)), dir, "1-1-0.tile")
        let jpeg = try JPEGEncoder.encode(Self.opaque(Self.red), quality: 90)
        try Self.write(Array(jpeg.prefix(jpeg.count / 2)), dir, "1-0-1.tile")
        let webp = try WebPEncoder.encode(Self.opaque(Self.red), quality: 90, lossless: false)
        try Self.write(Array(webp.prefix(webp.count / 2)), dir, "1-1-1.tile")
        let scene = try Self.tileFolderScene(dir)
        let img = try Self.render(scene, backend: backend)
        // The view shows a quarter of each zoom-1 tile: the good one red, the three broken ones
        // replaced by the zoom-0 tile (blue), as GL JS's retained parent.
        #expect(Self.color(img, 128, 128) == Self.red)
        #expect(Self.color(img, 384, 128) == Self.blue)
        #expect(Self.color(img, 128, 384) == Self.blue)
        #expect(Self.color(img, 384, 384) == Self.blue)
        let w = scene.warningMessages
        #expect(w.count == 3, "\(w)")
        #expect(w.contains { $0.contains("tile 1/1/0") && $0.contains("PNG") }, "\(w)")
        #expect(w.contains { $0.contains("tile 1/0/1") && $0.contains("JPEG") }, "\(w)")
        #expect(w.contains { $0.contains("tile 1/1/1") && $0.contains("WebP") }, "\(w)")
    }

    @Test(arguments: [Backend.gpu, Backend.cpu])
    func missingTilesFallBackToTheirParent(_ backend: Backend) throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(PNGEncoder.encode(Self.solid(Self.blue)), dir, "0-0-0.tile")
        try Self.write(PNGEncoder.encode(Self.solid(Self.red)), dir, "1-0-0.tile")
        try Self.write(PNGEncoder.encode(Self.solid(Self.red)), dir, "1-1-1.tile")
        // 1-1-0 and 1-0-1 are absent (404): the zoom-0 tile stands in, only where they are.
        let scene = try Self.tileFolderScene(dir)
        let img = try Self.render(scene, backend: backend)
        #expect(Self.color(img, 128, 128) == Self.red)
        #expect(Self.color(img, 384, 128) == Self.blue)
        #expect(Self.color(img, 128, 384) == Self.blue)
        #expect(Self.color(img, 384, 384) == Self.red)
        #expect(scene.warningMessages.isEmpty, "\(scene.warningMessages)")
    }

    @Test(arguments: [Backend.gpu, Backend.cpu])
    func emptyTilesDrawNothingAndNoParentStandsIn(_ backend: Backend) throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(PNGEncoder.encode(Self.solid(Self.blue)), dir, "0-0-0.tile")
        for t in ["1-0-0", "1-0-1", "1-1-1"] { try Self.write(PNGEncoder.encode(Self.solid(Self.red)), dir, "\(t).tile") }
        try Self.write([], dir, "1-1-0.tile")   // empty: as HTTP 204
        let scene = try Self.tileFolderScene(dir)
        let img = try Self.render(scene, backend: backend)
        #expect(Self.color(img, 128, 128) == Self.red)
        #expect(Self.color(img, 384, 128) == Self.green, "an empty tile draws nothing, and no parent is loaded for it")
        #expect(Self.color(img, 384, 384) == Self.red)
        #expect(scene.warningMessages.isEmpty, "\(scene.warningMessages)")
    }

    @Test(arguments: [Backend.gpu, Backend.cpu])
    func aDEMThatIsNotSquareIsAWarningAndTheRestIsDrawn(_ backend: Backend) throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Mapbox encoding: 0 m is (1, 134, 160); a flat DEM gives no slope, so hillshade is clear.
        let flat = Self.rgba(1, 134, 160)
        for x in 0..<2 { for y in 0..<2 { try Self.write(PNGEncoder.encode(Self.solid(flat)), dir, "1-\(x)-\(y).png") } }
        try Self.write(PNGEncoder.encode(Self.solid(flat, size: 256, height: 128)), dir, "1-1-1.png")
        let scene = try Self.scene(dir, sources: #""dem": {"type": "raster-dem", "tiles": ["{z}-{x}-{y}.png"], "tileSize": 512}, "pt": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}"#,
                                   layers: #"{"id": "bg", "type": "background", "paint": {"background-color": "white"}}, {"id": "c", "type": "color-relief", "source": "dem", "paint": {"color-relief-color": ["interpolate", ["linear"], ["elevation"], -100, "red", 100, "blue"]}}, {"id": "dot", "type": "circle", "source": "pt", "paint": {"circle-color": "green", "circle-radius": 20}}"#)
        let img = try Self.render(scene, backend: backend)
        #expect(scene.warningMessages.count == 1, "\(scene.warningMessages)")
        #expect(scene.warningMessages.first?.contains("tile 1/1/1") == true && scene.warningMessages.first?.contains("square") == true,
                "\(scene.warningMessages)")
        // 0 m is halfway between red and blue on the three good tiles; the broken tile's quarter
        // has no DEM (its parent is absent): the background shows.
        let mid = Self.color(img, 128, 128)
        #expect(abs(Int(mid[0]) - 128) <= 2 && mid[1] == 0 && abs(Int(mid[2]) - 128) <= 2, "\(mid)")
        #expect(Self.color(img, 400, 400) == Self.rgba(255, 255, 255))
        #expect(Self.color(img, 256, 256) == Self.green, "the GeoJSON circle is drawn")
    }

    @Test(arguments: [Backend.gpu, Backend.cpu])
    func aMissingImageIsAWarningAndTheRestIsDrawn(_ backend: Backend) throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try Self.scene(dir, sources: #""img": {"type": "image", "url": "nowhere.png", "coordinates": [[-10, 10], [10, 10], [10, -10], [-10, -10]]}"#,
                                   layers: #"{"id": "bg", "type": "background", "paint": {"background-color": "green"}}, {"id": "i", "type": "raster", "source": "img"}"#)
        let img = try Self.render(scene, backend: backend)
        #expect(Self.color(img, 256, 256) == Self.green)
        #expect(scene.warningMessages.count == 1 && scene.warningMessages[0].contains("nowhere.png"), "\(scene.warningMessages)")
    }

    @Test(arguments: [Backend.gpu, Backend.cpu])
    func anImageIsDrawnOnItsCorners(_ backend: Backend) throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(PNGEncoder.encode(Self.solid(Self.red, size: 64)), dir, "red.png")
        let scene = try Self.scene(dir, sources: #""img": {"type": "image", "url": "red.png", "coordinates": [[-10, 10], [10, 10], [10, -10], [-10, -10]]}"#,
                                   layers: #"{"id": "bg", "type": "background", "paint": {"background-color": "green"}}, {"id": "i", "type": "raster", "source": "img"}"#,
                                   zoom: 2)
        let img = try Self.render(scene, backend: backend)
        // ±10° at zoom 2 (2048 px world) spans 2048 · 20/360 ≈ 114 px around the centre.
        #expect(Self.color(img, 256, 256) == Self.red)
        #expect(Self.color(img, 256 + 50, 256 - 50) == Self.red)
        #expect(Self.color(img, 256 + 64, 256) == Self.green)
        #expect(Self.color(img, 256, 256 + 64) == Self.green)
        #expect(scene.warningMessages.isEmpty, "\(scene.warningMessages)")
    }

    /// GL JS's `getCoordinatesCenterTileID` and the corners rounded in that tile's units.
    @Test func imagePlacementFollowsGLJS() throws {
        let p = try #require(Scene.imagePlacement([[-10, 10], [10, 10], [10, -10], [-10, -10]]))
        #expect(p.tile == CanonicalTileID(4, 8, 8))
        // x: ((180 − 10) / 360 · 16 − 8) · 8192 = −3640.9 → −3641.
        #expect(p.corners[0].x == -3641 && p.corners[1].x == 3641)
        #expect(p.corners[0].y == p.corners[1].y && p.corners[2].y == p.corners[3].y && p.corners[0].y < 0)
        #expect(Scene.imagePlacement([[0, 0], [1, 1]]) == nil)
        #expect(Scene.imagePlacement([[.nan, 0], [1, 1], [1, 0], [0, 0]]) == nil)
    }

    /// Neighbouring DEM tiles fill each other's borders (GL JS's backfillBorder), in the frame's draw.
    @Test func demBordersAreBackfilledFromTheFramesNeighbours() throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Four zoom-1 tiles of different flat elevations (mapbox: blue byte · 0.1 m steps).
        let blues: [String: UInt8] = ["0-0": 10, "1-0": 20, "0-1": 30, "1-1": 40]
        for (k, b) in blues { try Self.write(PNGEncoder.encode(Self.solid(Self.rgba(1, 134, b), size: 64)), dir, "1-\(k).png") }
        let scene = try Self.scene(dir, sources: #""dem": {"type": "raster-dem", "tiles": ["{z}-{x}-{y}.png"], "tileSize": 512}"#,
                                   layers: #"{"id": "h", "type": "hillshade", "source": "dem"}"#)
        let frame = scene.referenceFrame(view: ViewTransform(camera: Camera(longitude: 0, latitude: 0, zoom: 1), width: 512, height: 512))
        guard case .raster(let draw)? = frame.first else { Issue.record("no raster layer: \(frame)"); return }
        let tiles = draw.tiles.filter { $0.tile.wrap == 0 }
        #expect(tiles.count == 4)
        let nw = try #require(tiles.first { $0.tile.canonical == CanonicalTileID(1, 0, 0) }?.dem?.dem)
        let base = 1 * 6553.6 + 134 * 25.6 - 10000
        #expect(abs(nw.elevation(x: 10, y: 10) - (base + 1.0)) < 1e-6)
        #expect(abs(nw.elevation(x: 64, y: 10) - (base + 2.0)) < 1e-6, "east border from 1/1/0")
        #expect(abs(nw.elevation(x: 10, y: 64) - (base + 3.0)) < 1e-6, "south border from 1/0/1")
        #expect(abs(nw.elevation(x: 64, y: 64) - (base + 4.0)) < 1e-6, "south-east corner from 1/1/1")
        #expect(abs(nw.elevation(x: -1, y: 10) - (base + 1.0)) < 1e-6, "west border: the copy of 1/1/0 to the west is not in view, its own edge")
        #expect(abs(nw.elevation(x: 10, y: -1) - (base + 1.0)) < 1e-6, "north border: no tile above, its own edge")
    }
}

/// The raster data rules both renderers read.
@Suite struct RasterDataRuleTests {
    /// GL JS's `packDEMData`: stops sit on the encoding's grid and decode back.
    @Test func colorReliefStopsArePackedInTheDEMsEncoding() {
        let paint = EvaluatedColorReliefPaint(opacity: 1, stops: [1000, 1000.04, -10000, 12.34], colors: [.black, .white, .transparent, Color(r: 1, g: 0, b: 0, a: 0.5)])
        let ramp = ColorReliefRamp(paint, encoding: .mapbox)
        #expect(ramp.packedElevations[0] == [1, 173, 176])
        #expect(abs(ramp.elevations[0] - 1000) < 1e-9)
        #expect(abs(ramp.elevations[1] - 1000) < 1e-9, "0.1 m steps")
        #expect(ramp.packedElevations[2] == [0, 0, 0])
        #expect(abs(ramp.elevations[3] - 12.3) < 1e-6)
        let t = ColorReliefRamp(paint, encoding: .terrarium)
        #expect(t.packedElevations[0] == [131, 232, 0] && abs(t.elevations[0] - 1000) < 1e-9)
        // Colours: straight bytes rounded, premultiplied by the alpha byte (truncating).
        #expect(ramp.colors[3] == (r: 128, g: 0, b: 0, a: 128))
        #expect(ramp.colors[1] == (r: 255, g: 255, b: 255, a: 255))
    }

    /// GL JS's ramp: the stops of a top-level `interpolate` on `elevation`; anything else is clear.
    @Test func colorReliefRampReadsTheInterpolateStops() throws {
        let spec = ColorReliefProperties.colorReliefColor
        let interp = try StyleExpression.compile(["interpolate", ["linear"], ["elevation"], 0, "red", 500, "blue"], spec: spec.spec).get()
        let r = EvaluatedColorReliefPaint.ramp(interp)
        #expect(r.stops == [0, 500])
        #expect(r.colors == [Color(r: 1, g: 0, b: 0), Color(r: 0, g: 0, b: 1)])
        let step = try StyleExpression.compile(["step", ["elevation"], "red", 500, "blue"], spec: spec.spec).get()
        #expect(EvaluatedColorReliefPaint.ramp(step).stops == [0, 1])
        #expect(EvaluatedColorReliefPaint.ramp(step).colors == [.transparent, .transparent])
        #expect(EvaluatedColorReliefPaint.ramp(nil).stops == [0, 1])
        let one = try StyleExpression.compile(["interpolate", ["linear"], ["elevation"], 7, "red"], spec: spec.spec).get()
        #expect(EvaluatedColorReliefPaint.ramp(one).stops == [7, 8])
        var ctx = EvaluationContext()
        ctx.elevation = 250
        #expect(try interp.evaluate(ctx).color == Color(r: 0.5, g: 0, b: 0.5))
    }

    /// GL JS's `alignedProjMatrix` shift: the centre's fractional world position (JS rounding),
    /// half a pixel more along an odd dimension, within −½…½.
    @Test func pixelAlignmentFollowsGLJS() {
        let v = ViewTransform(camera: Camera(longitude: 0, latitude: 0, zoom: 1), width: 512, height: 512)
        #expect(v.pixelAlignment.x == 0 && v.pixelAlignment.y == 0)
        let odd = ViewTransform(camera: Camera(longitude: 0, latitude: 0, zoom: 1), width: 511, height: 512)
        #expect(odd.pixelAlignment.x == 0.5 && odd.pixelAlignment.y == 0)
        let moved = ViewTransform(camera: Camera(longitude: 0.3 * 360 / 1024, latitude: 0, zoom: 1), width: 512, height: 512)
        #expect(abs(moved.pixelAlignment.x - 0.3) < 1e-9)
        let back = ViewTransform(camera: Camera(longitude: 0.7 * 360 / 1024, latitude: 0, zoom: 1), width: 512, height: 512)
        #expect(abs(back.pixelAlignment.x + 0.3) < 1e-9)
        let turned = ViewTransform(camera: Camera(longitude: 0, latitude: 0, zoom: 1, bearing: 90), width: 511, height: 512)
        #expect(abs(turned.pixelAlignment.x) < 1e-9 && abs(turned.pixelAlignment.y + 0.5) < 1e-9)
    }

    /// GL JS's hillshade lights: lists padded to the longest, as many lights as highlight colours,
    /// directions turned by the bearing for the viewport anchor.
    @Test func hillshadeLightsArePaddedAndTurned() {
        let p = EvaluatedHillshadePaint(directions: [270, 315], altitudes: [45], anchor: .viewport, exaggeration: 0.5,
                                        shadowColors: [.black], highlightColors: [.white, .white, .white], accentColor: .black, method: .multidirectional)
        let lights = p.lights(bearing: 90)
        #expect(lights.count == 3)
        #expect(abs(lights[0].azimuth - 360 * Double.pi / 180) < 1e-12)
        #expect(abs(lights[2].azimuth - 405 * Double.pi / 180) < 1e-12)
        #expect(lights.allSatisfy { abs($0.altitude - Double.pi / 4) < 1e-12 })
        var map = p
        map.anchor = .map
        #expect(abs(map.lights(bearing: 90)[0].azimuth - 270 * Double.pi / 180) < 1e-12)
        #expect(p.methodCode == 3)
    }
}
