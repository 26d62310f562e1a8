import Foundation
import XCTest
import GLMapCore
import GLMapTiles
@testable import GLMapGLES
@testable import GLMap
import GLMapTestSupport

/// Tile clipping by scissor boxes (TileClipping.swift): where the view is window-aligned and the
/// tiles do not overlap, the box of each tile covers exactly the pixels its stencil mask would, so
/// frames are byte-identical with and without it — checked over real scenes at fractional zooms,
/// centres and odd sizes, world copies and tiled frames; elsewhere the stencil stays.
final class TileScissorTests: XCTestCase {
    func renderer(scissor: Bool, maxTileSize: Int? = nil) throws -> GLRenderer {
        let r: GLRenderer
        do { r = try GLRenderer() } catch { throw XCTSkip("no GPU backend here (\(error)); tile clipping is a GPU path") }
        r.scissorClipping = scissor
        r.maxTileSize = maxTileSize
        return r
    }

    /// The frame as `MapRenderer.render` draws it, on `gl`.
    func render(_ gl: GLRenderer, _ scene: Scene, _ options: RenderOptions) throws -> PremultipliedImage {
        let view = ViewTransform(camera: options.camera(default: scene.style.camera),
                                 width: Double(options.width), height: Double(options.height))
        return try gl.render(scene.framePlan(view: view, ratio: options.ratio), view: view, ratio: options.ratio)
    }

    /// Frames of `style` drawn with boxes and with masks must be the same bytes.
    func assertSameFrames(_ style: String, _ views: [RenderOptions], maxTileSize: Int? = nil,
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let scene = try Scene(styleFile: style)
        let boxes = try renderer(scissor: true, maxTileSize: maxTileSize), masks = try renderer(scissor: false, maxTileSize: maxTileSize)
        for v in views {
            let a = try render(boxes, scene, v), b = try render(masks, scene, v)
            let label = "\((style as NSString).lastPathComponent) \(v.width)x\(v.height) z\(v.zoom ?? -1) at \(v.longitude ?? 0),\(v.latitude ?? 0)"
            XCTAssertGreaterThan(Set(stride(from: 0, to: a.pixels.count, by: 4).map { a.pixels[$0 ..< $0 + 4] }).count, 2,
                                 "\(label): the frame has content", file: file, line: line)
            if a.pixels != b.pixels {
                let differing = stride(from: 0, to: a.pixels.count, by: 4).filter { a.pixels[$0 ..< $0 + 4] != b.pixels[$0 ..< $0 + 4] }.count
                XCTFail("\(label): \(differing) pixels differ between scissor boxes and stencil masks", file: file, line: line)
            }
        }
    }

    func scene(_ name: String) throws -> String {
        try SharedData.require("the scenes", at: SharedData.scenes)
        return SharedData.scenes.appendingPathComponent("\(name).style.json").path
    }

    func testTheExampleMapIsTheSameWithBoxes() throws {
        try assertSameFrames(SharedData.exampleStyle, [
            RenderOptions(width: 512, height: 512),
            RenderOptions(width: 333, height: 257, zoom: 3.37),
            RenderOptions(width: 600, height: 401, ratio: 2, zoom: 4.5),
        ])
    }

    func testMontrealAtFractionalZoomsAndCentresIsTheSameWithBoxes() throws {
        var views: [RenderOptions] = []
        for (k, zoom) in [9.0, 10.51, 11.25, 12.999, 13.5].enumerated() {
            views.append(RenderOptions(width: 301 + 64 * k, height: 257 + 37 * k, longitude: -73.6 + 0.0137 * Double(k),
                                       latitude: 45.5 + 0.0071 * Double(k), zoom: zoom))
        }
        try assertSameFrames(try scene("montreal"), views)
    }

    func testNYCAndTheWorldWithItsCopiesAreTheSameWithBoxes() throws {
        try assertSameFrames(try scene("nyc_boroughs"), [RenderOptions(width: 512, height: 512),
                                                         RenderOptions(width: 777, height: 333, zoom: 10.3)])
        try assertSameFrames(try scene("world"), [RenderOptions(width: 1000, height: 300, longitude: 170, latitude: 10, zoom: 0.6),
                                                  RenderOptions(width: 512, height: 512, longitude: -179.9, latitude: -20, zoom: 2.77)])
    }

    func testTiledFramesAreTheSameWithBoxes() throws {
        try assertSameFrames(try scene("montreal"), [RenderOptions(width: 700, height: 500, zoom: 11.4)], maxTileSize: 256)
    }

    /// The depth and stencil buffer is attached only when a frame first needs one: never for an
    /// unrotated frame clipped by boxes, at the first turned frame, and it is then kept (a turned
    /// frame after it draws the same as on a renderer that had it from its first frame).
    func testDepthAndStencilAreAttachedWhenAFrameFirstUsesThem() throws {
        let scene = try Scene(styleFile: try scene("montreal"))
        let gl = try renderer(scissor: true)
        _ = try render(gl, scene, RenderOptions(width: 300, height: 200, zoom: 11))
        XCTAssertEqual(gl.framebuffer?.depthStencil, 0, "an unrotated frame clipped by boxes has no depth/stencil buffer")
        let turned = RenderOptions(width: 300, height: 200, zoom: 11, bearing: 30)
        let a = try render(gl, scene, turned)
        XCTAssertNotEqual(gl.framebuffer?.depthStencil ?? 0, 0, "a turned frame clips by stencil masks")
        let fresh = try renderer(scissor: true)
        let b = try render(fresh, scene, turned)
        XCTAssertEqual(a.pixels, b.pixels)
        _ = try render(gl, scene, RenderOptions(width: 300, height: 200, zoom: 11))
        XCTAssertEqual(try render(gl, scene, turned).pixels, b.pixels, "the buffer attached once serves later frames")
    }

    func testBoxesOnlyForWindowAlignedViewsOfTilesThatDoNotOverlap() {
        func frame(bearing: Double = 0, pitch: Double = 0) -> FrameState {
            let view = ViewTransform(camera: Camera(zoom: 1, bearing: bearing, pitch: pitch), width: 512, height: 512)
            var f = FrameState(view: view, ratio: 1, clipFold: .identity, viewport: (512, 512))
            f.window = (0, 0, 512, 512)
            return f
        }
        let z1 = [(0, 0), (1, 0), (0, 1), (1, 1)].map { OverscaledTileID(overscaledZ: 1, wrap: 0, canonical: CanonicalTileID(1, $0.0, $0.1)) }
        let boxes = TileClipping.scissorBoxes(z1, frame: frame())
        XCTAssertEqual(boxes?.count, 4)
        // Zoom 1 at the centre of a 512² view: the world is 1024 px, each tile a 512-px square
        // with a corner at the view's centre (GL window y is up: the north tiles are the top ones).
        if let b = boxes?[z1[0]] { XCTAssertTrue(b == (0, 256, 256, 256), "\(b)") }
        if let b = boxes?[z1[3]] { XCTAssertTrue(b == (256, 0, 256, 256), "\(b)") }
        XCTAssertNil(TileClipping.scissorBoxes(z1, frame: frame(bearing: 10)), "a turned view keeps the stencil")
        XCTAssertNil(TileClipping.scissorBoxes(z1, frame: frame(pitch: 30)), "a pitched view keeps the stencil")
        let parent = OverscaledTileID(overscaledZ: 1, wrap: 0, canonical: CanonicalTileID(0, 0, 0))
        XCTAssertNil(TileClipping.scissorBoxes(z1 + [parent], frame: frame()), "a parent under its children overlaps them")
        let overscaled = OverscaledTileID(overscaledZ: 2, wrap: 0, canonical: CanonicalTileID(1, 0, 0))
        XCTAssertNil(TileClipping.scissorBoxes(z1 + [overscaled], frame: frame()), "one square twice overlaps itself")
    }
}
