import Foundation
import XCTest
import GLMapCore
import GLMapStyle
import GLMapTessellation
@testable import GLMap
@testable import GLMapBatch

/// Paint that follows the zoom is uniforms on the GPU: frames at fractional zooms of one tile
/// zoom share one tessellation, and still draw what the CPU reference (which evaluates each
/// frame's zoom from scratch) draws.
final class ZoomUniformsTests: XCTestCase {
    /// Points with property `r`; radius and colour follow the zoom (camera) and the feature and
    /// the zoom (composite, MapLibre's mix between the tile zoom and the next).
    func scene() throws -> Scene {
        let style = ##"""
        {"version":8,"center":[0,0],"zoom":3,"sources":{"p":{"type":"geojson","data":{"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{"r":4},"geometry":{"type":"Point","coordinates":[-2,0]}},
          {"type":"Feature","properties":{"r":8},"geometry":{"type":"Point","coordinates":[2,0]}}]}}},
         "layers":[{"id":"bg","type":"background","paint":{"background-color":"#ffffff"}},
          {"id":"c","type":"circle","source":"p","paint":{
            "circle-radius":["interpolate",["linear"],["zoom"],3,["get","r"],4,["*",2,["get","r"]]],
            "circle-color":["interpolate",["linear"],["zoom"],3,"#ff0000",4,"#0000ff"],
            "circle-opacity":0.8}}]}
        """##
        return try Scene(style: StyleDocument.parse(Array(style.utf8), file: nil))
    }

    func testCompositeCameraAndConstantPaintBindAsMapLibreDoes() throws {
        let view = ViewTransform(camera: Camera(zoom: 3.25), width: 128, height: 64)
        guard case .tiled(_, _, let tiles)? = try scene().framePlan(view: view).layers.last else { return XCTFail("no circle layer") }
        let buckets = tiles.compactMap { t -> CircleBucket? in if case .circle(let c) = t.bucket { return c }; return nil }
        XCTAssertEqual(buckets.count, 2, "one tile holds each point")
        var radii: Set<[Float]> = []
        for c in buckets {
            let modes = Dictionary(uniqueKeysWithValues: c.paint.entries.map { ($0.property.name, $0.mode) })
            XCTAssertEqual(modes["circle-radius"], .composite)
            XCTAssertEqual(modes["circle-color"], .camera)
            XCTAssertEqual(modes["circle-opacity"], .uniform([0.8]))
            // Each instance carries the radius at the tile zoom 3 and at 4: (4, 8) and (8, 16).
            XCTAssertEqual(c.stride, VertexLayout.circle + 2)
            for i in 0..<c.instanceCount { radii.insert([c.instances[i * c.stride + 2], c.instances[i * c.stride + 3]]) }
        }
        XCTAssertEqual(radii, Set([[4, 8], [8, 16]]))
        let c = buckets[0]
        // Per frame: the mix factor and the camera colour at the frame's zoom.
        let u = Dictionary(uniqueKeysWithValues: c.paint.uniformValues(zoom: 3.25).map { ($0.name, $0.value) })
        XCTAssertEqual(u["u_radius_t"], [0.25])
        XCTAssertEqual(u["u_color"]?.count, 4)
        XCTAssertEqual(Double(u["u_color"]?[0] ?? 0), 0.75, accuracy: 0.02, "red fading to blue")
    }

    func testFractionalZoomsShareOneTessellationAndMatchTheCPU() throws {
        let scene = try scene()
        let gpu = try BatchRenderer(scene: scene, backend: .gpu)
        let cpu = try BatchRenderer(scene: scene, backend: .cpu)
        for zoom in [3.0, 3.3, 3.6, 3.9] {
            let o = RenderOptions(width: 128, height: 64, zoom: zoom)
            let a = try gpu.render(o), b = try cpu.render(o)
            // The right circle's centre (2° east): radius and colour follow the zoom.
            let x = Int((64 + 2.0 / 360 * 512 * exp2(zoom)).rounded()), y = 32
            XCTAssertTrue(close(pixel(a, x, y), pixel(b, x, y), tolerance: 3), "zoom \(zoom): GPU \(pixel(a, x, y)) vs CPU \(pixel(b, x, y))")
            // Just inside the composite radius 8·(1 + t) at this zoom, and just outside it.
            let r = 8 * (1 + (zoom - 3))
            let inside = pixel(a, x + Int(r) - 2, y), outside = pixel(a, x + Int(r) + 2, y)
            XCTAssertLessThan(inside[1], 128, "zoom \(zoom): inside the circle at radius \(r)")
            XCTAssertEqual(outside, [255, 255, 255, 255], "zoom \(zoom): outside the circle at radius \(r)")
        }
        let atZoom3 = gpu.evaluations
        XCTAssertEqual(atZoom3, 4, "one evaluation per tile of zoom 3, shared by the four frames")
        _ = try gpu.render(RenderOptions(width: 128, height: 64, zoom: 4.2))
        XCTAssertGreaterThan(gpu.evaluations, atZoom3, "tiles of a new tile zoom are evaluated again")
    }
}
