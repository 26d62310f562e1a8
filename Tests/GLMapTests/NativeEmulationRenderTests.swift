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

        let c = (-75.0, 40.0)
        let plainFill = try render(fill, [], center: c, zoom: 2, size: 512)
        let white = PremultipliedImage(width: 512, height: 512, pixels: [UInt8](repeating: 255, count: 512 * 512 * 4))
        XCTAssertGreaterThan(differing(plainFill, white), 1000, "the fill is in view")
        XCTAssertGreaterThan(differing(plainFill, try render(fill, .earcut22, center: c, zoom: 2, size: 512)), 100)
        XCTAssertEqual(try render(fill, [.int8Direction, .miterClamp], center: c, zoom: 2, size: 512).pixels, plainFill.pixels, "no line: nothing changes")
    }

    func testCPUReferenceRefusesAnEmulation() throws {
        XCTAssertThrowsError(try MapRenderer(backend: .cpu).render(Self.lines, options: RenderOptions(width: 64, height: 64), nativeEmulation: .earcut22)) {
            XCTAssertTrue("\($0)".contains("needs the GPU backend"), "\($0)")
        }
        XCTAssertNoThrow(try MapRenderer(backend: .cpu).render(Self.lines, options: RenderOptions(width: 64, height: 64), nativeEmulation: []))
    }
}
