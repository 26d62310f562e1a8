import Foundation
import XCTest
import GLMapCore
import GLMapPNG
@testable import GLMap

/// Fill-extrusion, heatmap and pattern layers through a whole scene, on both backends: sprites
/// read next to the style at the pixel ratio's scale, a sprite that fails to load, hostile heights
/// and weights. Every check runs on the GPU and on the CPU reference.
final class ExtrusionHeatmapPatternSceneTests: XCTestCase {
    var dir: URL!

    override func setUp() { dir = makeTempDir() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// Writes a one-image sprite (`name` → a solid 4 × 4 image of `rgba`) as `base`.json/.png.
    func writeSprite(_ base: String, name: String = "dot", rgba: [UInt8], pixelRatio: Int = 1) throws {
        let side = 4 * pixelRatio
        let png = try PNGEncoder.encode(StraightImage(width: side, height: side, pixels: Array([[UInt8]](repeating: rgba, count: side * side).joined())))
        try Data(png).write(to: dir.appendingPathComponent(base + ".png"))
        let json = #"{"\#(name)": {"x": 0, "y": 0, "width": \#(side), "height": \#(side), "pixelRatio": \#(pixelRatio)}}"#
        try Data(json.utf8).write(to: dir.appendingPathComponent(base + ".json"))
    }

    /// A scene of `layers` over one square polygon (±40°) and one point at (0, 0) (each with the
    /// property `zero`: 0), with `extra` root members.
    func scene(_ layers: String, extra: String = "") throws -> Scene {
        let style = #"""
        {"version": 8, \#(extra) "center": [0, 0], "zoom": 1,
         "sources": {"poly": {"type": "geojson", "data": {"type": "Feature", "properties": {"zero": 0},
                              "geometry": {"type": "Polygon", "coordinates": [[[-40, -40], [40, -40], [40, 40], [-40, 40], [-40, -40]]]}}},
                     "pt": {"type": "geojson", "data": {"type": "Feature", "properties": {"zero": 0}, "geometry": {"type": "Point", "coordinates": [0, 0]}}}},
         "layers": [\#(layers)]}
        """#
        let path = dir.appendingPathComponent("style.json")
        try Data(style.utf8).write(to: path)
        return try Scene(styleFile: path.path)
    }

    func render(_ scene: Scene, backend: Backend, ratio: Double = 1, pitch: Double = 0) throws -> PremultipliedImage {
        try MapRenderer(backend: backend).render(scene, options: RenderOptions(width: 64, height: 64, ratio: ratio, pitch: pitch))
    }

    func testPatternsComeFromTheSpriteNextToTheStyleAtTheRatiosScale() throws {
        try writeSprite("sprite", rgba: [255, 0, 0, 255])
        try writeSprite("sprite@2x", rgba: [0, 0, 255, 255], pixelRatio: 2)
        let s = try scene(#"{"id": "f", "type": "fill", "source": "poly", "paint": {"fill-pattern": "dot", "fill-antialias": false}}"#,
                          extra: #""sprite": "./sprite","#)
        for backend in [Backend.gpu, .cpu] {
            XCTAssertEqual(pixel(try render(s, backend: backend), 32, 32), [255, 0, 0, 255], "\(backend): the 1× image at ratio 1")
            XCTAssertEqual(pixel(try render(s, backend: backend, ratio: 2), 64, 64), [0, 0, 255, 255], "\(backend): the @2x image at ratio 2")
        }
        XCTAssertTrue(s.warningMessages.isEmpty, "\(s.warningMessages)")
    }

    func testASpriteThatFailsToLoadCostsOnlyItsPatterns() throws {
        // A missing sprite, then one whose PNG is not a PNG.
        for (sprite, expected) in [("./nowhere", "not found"), ("./broken", "not a PNG")] {
            try Data("{}".utf8).write(to: dir.appendingPathComponent("broken.json"))
            try Data("not a png".utf8).write(to: dir.appendingPathComponent("broken.png"))
            let s = try scene(#"""
                {"id": "bg", "type": "background", "paint": {"background-color": "#00ff00"}},
                {"id": "f", "type": "fill", "source": "poly", "paint": {"fill-pattern": "dot", "fill-color": "red"}},
                {"id": "c", "type": "circle", "source": "pt", "paint": {"circle-color": "blue", "circle-radius": 4}}
                """#, extra: #""sprite": "\#(sprite)","#)
            for backend in [Backend.gpu, .cpu] {
                let image = try render(s, backend: backend)
                XCTAssertEqual(pixel(image, 20, 20), [0, 255, 0, 255], "\(sprite), \(backend): the pattern draws nothing, the background shows")
                XCTAssertEqual(pixel(image, 32, 32), [0, 0, 255, 255], "\(sprite), \(backend): other layers are drawn")
            }
            XCTAssertTrue(s.warningMessages.contains { $0.contains("sprite") && $0.contains(expected) }, "\(s.warningMessages)")
            XCTAssertTrue(s.warningMessages.contains { $0.contains("\"dot\"") }, "the missing image is named: \(s.warningMessages)")
        }
    }

    func testHostileExtrusionHeightsDrawWithoutNaNOrCrash() throws {
        let s = try scene(#"""
            {"id": "bg", "type": "background", "paint": {"background-color": "white"}},
            {"id": "nan", "type": "fill-extrusion", "source": "poly", "paint": {"fill-extrusion-height": ["/", ["get", "zero"], ["get", "zero"]], "fill-extrusion-color": "red"}},
            {"id": "huge", "type": "fill-extrusion", "source": "poly", "paint": {"fill-extrusion-height": 1e30, "fill-extrusion-base": ["-", ["get", "zero"], 1e30], "fill-extrusion-opacity": 0.5}},
            {"id": "inverted", "type": "fill-extrusion", "source": "poly", "paint": {"fill-extrusion-height": 10, "fill-extrusion-base": 1000000}}
            """#)
        let plan = s.framePlan(view: ViewTransform(camera: Camera(zoom: 1, pitch: 60), width: 64, height: 64))
        for case .tiled(_, _, let buckets) in plan.layers {
            for tb in buckets {
                guard case .fillExtrusion(let b) = tb.bucket else { continue }
                XCTAssertFalse(b.vertices.contains { !$0.isFinite }, "finite vertices")
            }
        }
        for backend in [Backend.gpu, .cpu] {
            for pitch in [0.0, 60] {
                let image = try render(s, backend: backend, pitch: pitch)
                XCTAssertEqual(image.width, 64, "\(backend) draws")
            }
        }
    }

    func testHostileHeatmapWeightsFallBackToTheDefaultAsInGLJS() throws {
        // GL JS evaluates a NaN result to the property's default (heatmap-weight 1); a huge radius
        // still draws, and a zero weight draws nothing.
        let nan = try scene(#"""
            {"id": "h", "type": "heatmap", "source": "pt", "paint": {"heatmap-weight": ["/", ["get", "zero"], ["get", "zero"]], "heatmap-radius": 1e9}}
            """#)
        let one = try scene(#"""
            {"id": "h", "type": "heatmap", "source": "pt", "paint": {"heatmap-weight": 1, "heatmap-radius": 1e9}}
            """#)
        let zero = try scene(#"""
            {"id": "h", "type": "heatmap", "source": "pt", "paint": {"heatmap-weight": ["get", "zero"], "heatmap-radius": 1e9}}
            """#)
        for backend in [Backend.gpu, .cpu] {
            XCTAssertEqual(try render(nan, backend: backend).pixels, try render(one, backend: backend).pixels, "\(backend): a NaN weight is weight 1")
            XCTAssertTrue(try render(zero, backend: backend).pixels.allSatisfy { $0 == 0 }, "\(backend): a zero weight has no kernel")
        }
    }

    func testAHeatmapShowsOverOpaqueLayersAboveItAsInMapLibre() throws {
        // GL JS draws opaque layers first and the heatmap's colour pass without the depth test:
        // the heatmap shows over the opaque background above it, the translucent fill between
        // them stays hidden under the background, and a translucent layer above draws over all.
        let s = try scene(#"""
            {"id": "h", "type": "heatmap", "source": "pt", "paint": {"heatmap-radius": 40, "heatmap-intensity": 3}},
            {"id": "hidden", "type": "fill", "source": "poly", "paint": {"fill-color": "rgba(0, 255, 0, 0.5)"}},
            {"id": "bg", "type": "background", "paint": {"background-color": "blue"}},
            {"id": "top", "type": "circle", "source": "pt", "paint": {"circle-color": "rgba(255, 255, 255, 0.5)", "circle-radius": 3}}
            """#)
        for backend in [Backend.gpu, .cpu] {
            let image = try render(s, backend: backend)
            XCTAssertTrue(close(pixel(image, 2, 2), [0, 0, 255, 255]), "\(backend): the background where the heatmap (nearly) is empty: \(pixel(image, 2, 2))")
            let near = pixel(image, 32, 42)
            XCTAssertGreaterThan(near[0], 100, "\(backend): the heatmap's red-yellow over the blue background: \(near)")
            XCTAssertEqual(near[1] == 255 && near[0] == 0, false, "\(backend): the translucent green fill stays hidden")
            let centre = pixel(image, 32, 32)
            XCTAssertTrue(close(centre, [255, 128, 128, 255], tolerance: 40), "\(backend): the translucent circle above draws over the heatmap: \(centre)")
        }
    }
}
