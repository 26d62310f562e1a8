import Foundation
import Testing
import GLMap
import GLMapCore
import GLMapPNG
import GLMapPyramid
import GLMapTestSupport

/// Issue 29: labels seamless across tiles. `glmap tiles` draws the 2×2 tiles 10/512–513/340–341
/// (London; a metatile of size 2) of a style whose labels cross the tile edges; stitched, they must
/// equal the same area drawn as one image by `MapRenderer` (the block plus its margin, camera
/// computed here from the block's corner), pixel for pixel. With `--metatile 1` the same fixture
/// must show a cut label, so the test proves it sees the bug it guards against.
@Suite struct MetatileSeamTests {
    /// The block's tiles (z10: x 512…513, y 340…341) and the point where they meet.
    static let z = 10, x0 = 512, y0 = 340
    static let corner = (lon: 0.3515625, lat: 51.39920565355377)
    /// Degrees of longitude per CSS px at camera zoom 9 (256-px tiles at z10).
    static let degreesPerPixel = 360.0 / (256 * 1024)

    /// White background, a blue line layer, labels in "Open Sans Semibold" (one line each) on both
    /// seams, at the corner and along lines crossing them; and a label "C" in a top layer (placed
    /// first) 130 px east of the vertical seam, overlapping the long label "Seam label …" centred
    /// on the seam.
    /// Drawn tile by tile, the western tile's collision grid (its view + 100 px) ends before "C",
    /// so it places the long label, which the eastern tile hides behind "C": a cut label.
    static func style(in folder: TestFolder) throws -> String {
        try SharedData.require("MapLibre's render suite (glyphs)", at: SharedData.renderSuite.appendingPathComponent("glyphs"))
        let seam = corner.lon, c = seam + 130 * degreesPerPixel
        func point(_ lon: Double, _ lat: Double, _ name: String) -> String {
            #"{"type":"Feature","properties":{"name":"\#(name)"},"geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]}}"#
        }
        func line(_ coordinates: [(Double, Double)], _ name: String) -> String {
            let c = coordinates.map { "[\($0.0),\($0.1)]" }.joined(separator: ",")
            return #"{"type":"Feature","properties":{"name":"\#(name)"},"geometry":{"type":"LineString","coordinates":[\#(c)]}}"#
        }
        let features = [
            point(seam, 51.55, "Seam label crossing the tile edge"), point(c, 51.55, "C"),
            point(seam, 51.30, "Point on the vertical seam"), point(0.18, corner.lat, "On the horizontal seam"),
            point(seam, corner.lat, "Corner of four tiles"),
            line([(0.05, 51.45), (0.65, 51.462)], "A line label along a line across the seam"),
            line([(0.60, 51.58), (0.62, 51.22)], "Crossing the horizontal seam"),
        ]
        let glyphs = SharedData.renderSuite.appendingPathComponent("glyphs").path + "/{fontstack}/{range}.pbf"
        let font = #"["Open Sans Semibold","Arial Unicode MS Bold"]"#
        return folder.write("seams.style.json", """
        {"version":8,"glyphs":"\(glyphs)",
         "sources":{"labels":{"type":"geojson","data":{"type":"FeatureCollection","features":[\(features.joined(separator: ","))]}}},
         "layers":[{"id":"bg","type":"background","paint":{"background-color":"#ffffff"}},
                   {"id":"lines","type":"line","source":"labels","filter":["==",["geometry-type"],"LineString"],"paint":{"line-color":"#3366cc","line-width":3}},
                   {"id":"line-labels","type":"symbol","source":"labels","filter":["==",["geometry-type"],"LineString"],
                    "layout":{"text-field":["get","name"],"text-font":\(font),"text-size":18,"symbol-placement":"line"},
                    "paint":{"text-color":"#000000"}},
                   {"id":"labels","type":"symbol","source":"labels","filter":["all",["==",["geometry-type"],"Point"],["!=",["get","name"],"C"]],
                    "layout":{"text-field":["get","name"],"text-font":\(font),"text-size":18,"text-max-width":40},"paint":{"text-color":"#000000"}},
                   {"id":"top","type":"symbol","source":"labels","filter":["==",["get","name"],"C"],
                    "layout":{"text-field":["get","name"],"text-font":\(font),"text-size":18},"paint":{"text-color":"#000000"}}]}
        """)
    }

    /// The 2×2 tiles from `glmap tiles --metatile N`, stitched into one image.
    static func stitchedTiles(style: String, folder: TestFolder, metatile: Int, backend: Backend, tileSize: Int, ratio: Int) throws -> StraightImage {
        let out = folder.path("tiles-\(metatile)-\(backend)-\(tileSize)-\(ratio)")
        let r = CommandLineRun(["tiles", "-s", style, "-z", "\(z)", "--bbox", "0.01,51.2,0.69,51.6", "--tile-size", "\(tileSize)", "--ratio", "\(ratio)",
                                "--metatile", "\(metatile)", "--backend", "\(backend)", "-o", out, "--quiet"])
        #expect(r.code == 0, "\(r.stderr)")
        let side = tileSize * ratio
        var pixels = [UInt8](repeating: 0, count: 4 * side * side * 4)
        for dx in 0..<2 {
            for dy in 0..<2 {
                let tile = try PNGDecoder.decode(contentsOf: "\(out)/\(z)/\(x0 + dx)/\(y0 + dy)\(ratio == 2 ? "@2x" : "").png")
                #expect(tile.width == side && tile.height == side)
                for row in 0..<side {
                    let dst = ((dy * side + row) * 2 * side + dx * side) * 4
                    pixels[dst..<(dst + side * 4)] = tile.pixels[(row * side * 4)..<((row + 1) * side * 4)]
                }
            }
        }
        return StraightImage(width: 2 * side, height: 2 * side, pixels: pixels)
    }

    /// The block drawn as one image: the camera on the corner where the four tiles meet, the view
    /// the block plus 128 CSS px on every side, that margin cut off afterwards.
    static func oneImage(style: String, backend: Backend, tileSize: Int, ratio: Int) throws -> StraightImage {
        let side = 2 * tileSize + 2 * 128
        let options = RenderOptions(width: side, height: side, ratio: Double(ratio), longitude: corner.lon, latitude: corner.lat,
                                    zoom: Double(z) + log2(Double(tileSize) / 512), bearing: 0, pitch: 0)
        let image = try MapRenderer(backend: backend).render(Scene(styleFile: style), options: options)
        return image.unpremultiplied().cropped(to: PixelRect(x: 128 * ratio, y: 128 * ratio, width: 2 * tileSize * ratio, height: 2 * tileSize * ratio))
    }

    /// Pixels that differ between two images of one size.
    static func differing(_ a: StraightImage, _ b: StraightImage) -> Int {
        (0..<(a.width * a.height)).count { i in a.pixels[(4 * i)..<(4 * i + 4)] != b.pixels[(4 * i)..<(4 * i + 4)] }
    }

    /// Dark (text) pixels in the columns `x` of `image`.
    static func ink(_ image: StraightImage, columns: Range<Int>) -> Int {
        columns.reduce(0) { n, x in n + (0..<image.height).count { image[x, $0].r < 100 } }
    }

    @Test(arguments: [(Backend.gpu, 256, 1), (Backend.gpu, 256, 2), (Backend.gpu, 512, 1), (Backend.cpu, 256, 1)])
    func stitchedMetatileEqualsOneImage(backend: Backend, tileSize: Int, ratio: Int) throws {
        let folder = TestFolder("glmap-seams"); defer { folder.remove() }
        let style = try Self.style(in: folder)
        let tiles = try Self.stitchedTiles(style: style, folder: folder, metatile: 2, backend: backend, tileSize: tileSize, ratio: ratio)
        let one = try Self.oneImage(style: style, backend: backend, tileSize: tileSize, ratio: ratio)
        #expect(tiles.width == one.width && tiles.height == one.height)
        #expect(Self.differing(tiles, one) == 0, "the stitched tiles differ from the one image")
        // The fixture means it: text on both sides of the vertical and the horizontal seam.
        let seam = tileSize * ratio
        #expect(Self.ink(tiles, columns: (seam - 3)..<seam) > 0 && Self.ink(tiles, columns: seam..<(seam + 3)) > 0, "no label crosses the vertical seam")
        let rows = (0..<tiles.width).reduce(into: (above: 0, below: 0)) { n, x in
            for y in (seam - 3)..<seam where tiles[x, y].r < 100 { n.above += 1 }
            for y in seam..<(seam + 3) where tiles[x, y].r < 100 { n.below += 1 }
        }
        #expect(rows.above > 0 && rows.below > 0, "no label crosses the horizontal seam")
    }

    @Test func perTileRenderingCutsALabelAtTheSeam() throws {
        let folder = TestFolder("glmap-seams"); defer { folder.remove() }
        let style = try Self.style(in: folder)
        let tiles = try Self.stitchedTiles(style: style, folder: folder, metatile: 1, backend: .gpu, tileSize: 256, ratio: 1)
        let one = try Self.oneImage(style: style, backend: .gpu, tileSize: 256, ratio: 1)
        let differing = Self.differing(tiles, one)
        #expect(differing > 50, "tile-by-tile rendering should cut the long label at the seam (\(differing) pixels differ)")
    }
}
