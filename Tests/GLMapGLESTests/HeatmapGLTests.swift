import XCTest
import GLMapCore
@testable import GLMapStyle
import GLMapTessellation
@testable import GLMapGLES

/// The heatmap's density target and its two passes through GL.
final class HeatmapGLTests: XCTestCase {
    /// One point at the centre of a 64 × 64 view at zoom 0, weight `weight`, default ramp.
    func render(weight: Double, renderer: GLRenderer) throws -> PremultipliedImage {
        let p = EvaluatedHeatmapPoint(centers: [0.5, 0.5], weight: weight, radius: 20, intensity: 1)
        let layer = EvaluatedHeatmapLayer(id: "h", intensity: 1, opacity: 1, ramp: StyleEvaluator.defaultHeatmapRamp, features: [p])
        return try renderer.render(singleTilePlan(.heatmap(layer)), view: ViewTransform(camera: Camera(zoom: 0), width: 64, height: 64), ratio: 1)
    }

    func testTheDensityIsHalfFloatWhereGLCanRenderToIt() throws {
        let renderer = try GLRenderer()
        let image = try render(weight: 1, renderer: renderer)
        XCTAssertGreaterThan(image[32, 32].a, 0, "the kernel is drawn")
        let extensions = renderer.extensions
        let renderable = extensions.contains("GL_EXT_color_buffer_float") || extensions.contains("GL_EXT_color_buffer_half_float")
        XCTAssertEqual(renderer.heatmaps.densityIsHalfFloat, renderable,
                       "MapLibre's choice: half floats where the context renders to them (\(renderable ? "it does" : "it does not"))")
    }
}
