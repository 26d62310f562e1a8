import Foundation
import XCTest
import GLMapCore
import GLMapStyle
import GLMapTessellation
@testable import GLMap

/// `MapRenderer.render(_:options:nativeEmulation:)`, the path `glmap-bench differential
/// --emulate-native` takes: without an emulation it draws exactly what `render` draws; each
/// emulation reaches the tessellator and changes what a style that meets it draws; the CPU
/// reference refuses one (it has no tessellator).
final class NativeEmulationRenderTests: XCTestCase {
    static func scene(_ layers: String, _ data: String) throws -> Scene {
        let style = ##"{"version":8,"center":[0,0],"zoom":4,"sources":{"s":{"type":"geojson","tolerance":0,"data":"##
            + data + ##"}},"layers":[{"id":"bg","type":"background","paint":{"background-color":"#ffffff"}},"## + layers + "]}"
        return try Scene(style: StyleDocument.parse(Array(style.utf8), file: nil))
    }

    /// A zigzag with 60° turns under an offset line with bevel joins (the int8 direction) and
    /// with 140° turns under a miter line allowed long miters (the clamp).
    static let lines = try! scene(
        ##"{"id":"o","type":"line","source":"s","filter":["==",["get","k"],"o"],"layout":{"line-join":"bevel"},"paint":{"line-width":6,"line-offset":-5,"line-color":"#000000"}},"##
        + ##"{"id":"m","type":"line","source":"s","filter":["==",["get","k"],"m"],"layout":{"line-join":"miter","line-miter-limit":10},"paint":{"line-width":8,"line-color":"#0000ff"}}"##,
        ##"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"k":"o"},"geometry":{"type":"LineString","coordinates":[[-10,5],[-6,8],[-2,5],[2,8],[6,5],[10,8]]}},"##
        + ##"{"type":"Feature","properties":{"k":"m"},"geometry":{"type":"LineString","coordinates":[[-10,-8],[0,-8],[-9.4,-4.6]]}}]}"##)

    /// Differential case s1-00003's tile rings (put in tile 1/1 of zoom 2, tile units; the outer
    /// ring in the file reversed, so that geojson-vt's rewinding gives earcut s1-00003's order): a
    /// hole no bridge reaches, where Native's earcut starts clipping at another node than earcut 3.0.
    static func fill() throws -> Scene {
        func lonLat(_ x: Double, _ y: Double) -> String {
            let ux = (1 + x / 8192) / 4, uy = (1 + y / 8192) / 4
            let lat = atan(sinh(Double.pi * (1 - 2 * uy))) * 180 / .pi
            return "[\(ux * 360 - 180),\(lat)]"
        }
        let outer = [(4795.0, 2600.0), (3072, 2585), (993, 5448), (-2048, 6191)], hole = [(-2048.0, 5537.0), (-794, 4601), (-2048, 3721)]
        func ring(_ r: [(Double, Double)]) -> String { "[" + (r + [r[0]]).map { lonLat($0.0, $0.1) }.joined(separator: ",") + "]" }
        return try scene(##"{"id":"f","type":"fill","source":"s","paint":{"fill-color":"#000000","fill-antialias":false}}"##,
                         ##"{"type":"Polygon","coordinates":["## + ring(outer.reversed()) + "," + ring(hole) + "]}")
    }

    func render(_ scene: Scene, _ emulation: NativeEmulation, center: (Double, Double), zoom: Double, size: Int = 256) throws -> PremultipliedImage {
        try MapRenderer(backend: .gpu).render(scene, options: RenderOptions(width: size, height: size, longitude: center.0, latitude: center.1, zoom: zoom),
                                              nativeEmulation: emulation)
    }

    /// Pixels (RGBA) that differ.
    func differing(_ a: PremultipliedImage, _ b: PremultipliedImage) -> Int {
        var count = 0
        var i = 0
        while i + 3 < a.pixels.count {
            if a.pixels[i] != b.pixels[i] || a.pixels[i + 1] != b.pixels[i + 1] || a.pixels[i + 2] != b.pixels[i + 2] || a.pixels[i + 3] != b.pixels[i + 3] {
                count += 1
            }
            i += 4
        }
        return count
    }

    func testEachEmulationChangesWhatItShouldAndNothingElse() throws {
        let lines = Self.lines, fill = try Self.fill()
        let plainLines = try MapRenderer(backend: .gpu).render(lines, options: RenderOptions(width: 256, height: 256, zoom: 3))
        XCTAssertEqual(try render(lines, [], center: (0, 0), zoom: 3).pixels, plainLines.pixels, "no emulation: render's image")
        XCTAssertGreaterThan(differing(try render(lines, .int8Direction, center: (0, 0), zoom: 3), plainLines), 0)
        XCTAssertGreaterThan(differing(try render(lines, .miterClamp, center: (0, 0), zoom: 3), plainLines), 0)
        XCTAssertEqual(try render(lines, .earcut22, center: (0, 0), zoom: 3).pixels, plainLines.pixels, "no fill: earcut22 changes nothing")
        XCTAssertEqual(try render(lines, [.ringStart, .dashRows], center: (0, 0), zoom: 3).pixels, plainLines.pixels,
                       "no dashes, no rings: ring-start and dash-rows change nothing")

        let c = (-75.0, 40.0)
        let plainFill = try render(fill, [], center: c, zoom: 2, size: 512)
        let white = PremultipliedImage(width: 512, height: 512, pixels: [UInt8](repeating: 255, count: 512 * 512 * 4))
        XCTAssertGreaterThan(differing(plainFill, white), 1000, "the fill is in view")
        XCTAssertGreaterThan(differing(plainFill, try render(fill, .earcut22, center: c, zoom: 2, size: 512)), 100)
        XCTAssertEqual(try render(fill, [.int8Direction, .miterClamp], center: c, zoom: 2, size: 512).pixels, plainFill.pixels, "no line: nothing changes")
    }

    /// A polygon crossing the tile boundaries at lon 0 and lat 0 (zoom 3), its file ring starting
    /// south-west, under a dashed line layer (the ring start per tile piece), and a horizontal
    /// line whose dasharray steps from [1, 1] to [3, 1] at zoom 3.5 (at zoom 4.2 "from", taken at
    /// 3.2, ≠ "to": the dash rows) next to one with a constant dasharray.
    static let dashed = try! scene(
        ##"{"id":"r","type":"line","source":"s","filter":["==",["get","k"],"r"],"paint":{"line-width":4,"line-color":"#000000","line-dasharray":[2,1]}},"##
        + ##"{"id":"z","type":"line","source":"s","filter":["==",["get","k"],"z"],"paint":{"line-width":10,"line-color":"#0000ff","line-dasharray":["step",["zoom"],["literal",[1,1]],3.5,["literal",[3,1]]]}},"##
        + ##"{"id":"c","type":"line","source":"s","filter":["==",["get","k"],"c"],"paint":{"line-width":10,"line-color":"#ff0000","line-dasharray":[3,1]}}"##,
        ##"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"k":"r"},"geometry":{"type":"Polygon","coordinates":[[[-8,-3],[-4,6],[2,2],[6,7],[8,-3],[0,-6],[-8,-3]]]}},"##
        + ##"{"type":"Feature","properties":{"k":"z"},"geometry":{"type":"LineString","coordinates":[[-9,-8],[9,-8]]}},"##
        + ##"{"type":"Feature","properties":{"k":"c"},"geometry":{"type":"LineString","coordinates":[[-9,8.5],[9,8.5]]}}]}"##)

    func testRingStartAndDashRowsChangeTheirLinesOnly() throws {
        let s = Self.dashed
        for zoom in [3.2, 4.2] {
            let plain = try MapRenderer(backend: .gpu).render(s, options: RenderOptions(width: 256, height: 256, zoom: zoom))
            XCTAssertEqual(try render(s, [], center: (0, 0), zoom: zoom).pixels, plain.pixels, "no emulation: render's image")
            XCTAssertGreaterThan(differing(try render(s, .ringStart, center: (0, 0), zoom: zoom), plain), 0, "zoom \(zoom): the ring's dashes move")
        }
        // Only the stepped dasharray's line changes under the dash rows, and only where from ≠ to.
        let z3 = try render(s, [], center: (0, 0), zoom: 3.2)
        XCTAssertEqual(try render(s, .dashRows, center: (0, 0), zoom: 3.2).pixels, z3.pixels, "zoom 3.2: from = to = [1, 1]")
        let z4 = try render(s, [], center: (0, 0), zoom: 4.2, size: 512), rows = try render(s, .dashRows, center: (0, 0), zoom: 4.2, size: 512)
        XCTAssertGreaterThan(differing(z4, rows), 0, "zoom 4.2: from [1, 1] ≠ to [3, 1]")
        func band(_ img: PremultipliedImage, _ rows: Range<Int>) -> [UInt8] { Array(img.pixels[(rows.lowerBound * 512 * 4)..<(rows.upperBound * 512 * 4)]) }
        XCTAssertEqual(band(rows, 0..<256), band(z4, 0..<256), "the northern half (ring top, constant dashes) is as it was")
    }

    func testCPUReferenceRefusesAnEmulation() throws {
        XCTAssertThrowsError(try MapRenderer(backend: .cpu).render(Self.lines, options: RenderOptions(width: 64, height: 64), nativeEmulation: .earcut22)) {
            XCTAssertTrue("\($0)".contains("needs the GPU backend"), "\($0)")
        }
        XCTAssertNoThrow(try MapRenderer(backend: .cpu).render(Self.lines, options: RenderOptions(width: 64, height: 64), nativeEmulation: []))
    }
}
