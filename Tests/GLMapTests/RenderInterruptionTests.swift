import Foundation
import XCTest
import GLMapCore
import GLMapTestSupport
@testable import GLMapGLES
@testable import GLMap
@testable import GLMapBatch

/// `GLRenderer.shouldStop`: a frame stops between layers (and before the read-back) with
/// `RenderInterrupted`; the renderer stays usable and its next frame is byte-identical to one
/// from a renderer that was never interrupted.
final class RenderInterruptionTests: XCTestCase {

    func testStopsBetweenLayersAndStaysUsable() throws {
        let gl: GLRenderer
        do { gl = try GLRenderer() } catch { throw XCTSkip("no GPU backend here (\(error))") }
        let scene = try Scene(styleFile: SharedData.exampleStyle)
        let camera = scene.style.camera
        let view = ViewTransform(camera: camera, width: 256, height: 256)
        let uploaded = try gl.upload(scene.framePlan(view: view))
        try gl.draw(uploaded, view: view, ratio: 1)
        let reference = try gl.readback()

        // Stop at the third check: two layers drawn, the rest not.
        let checks = Locked(0)
        gl.shouldStop = { checks.withLock { $0 += 1; return $0 >= 3 } }
        XCTAssertThrowsError(try gl.draw(uploaded, view: view, ratio: 1)) { e in
            XCTAssertTrue(e is RenderInterrupted, "\(e)")
            XCTAssertTrue("\(e)".contains("before layer 3 of"), "\(e)")
        }
        XCTAssertEqual(checks.value, 3)
        XCTAssertTrue(gl.isUsable, "an interruption leaves the renderer usable")
        // Stop before the read-back.
        gl.shouldStop = nil
        try gl.draw(uploaded, view: view, ratio: 1)
        gl.shouldStop = { true }
        XCTAssertThrowsError(try gl.readback()) { e in XCTAssertTrue("\(e)".contains("before the read-back"), "\(e)") }
        gl.shouldStop = nil
        try gl.draw(uploaded, view: view, ratio: 1)
        XCTAssertTrue(try gl.readback().pixels == reference.pixels, "the frame after interruptions differs")
    }

    func testBatchRendererStopsBeforeStarting() throws {
        let scene = try Scene(styleFile: SharedData.exampleStyle)
        let r: BatchRenderer
        do { r = try BatchRenderer(scene: scene, backend: .gpu) } catch { throw XCTSkip("no GPU backend here (\(error))") }
        let options = RenderOptions(width: 128, height: 128)
        XCTAssertThrowsError(try r.render(options, shouldStop: { true })) { e in XCTAssertTrue(e is RenderInterrupted, "\(e)") }
        XCTAssertTrue(r.isHealthy)
        let a = try r.render(options)
        let b = try MapRenderer(backend: .gpu).render(scene, options: options)
        XCTAssertTrue(a.pixels == b.pixels)
    }
}
