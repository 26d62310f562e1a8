import Foundation
import XCTest
import GLMapCore
import GLMapPNG
import GLMapTessellation
@testable import GLMapGLES
@testable import GLMap
@testable import GLMapBatch
import GLMapTestSupport

/// GL failures mid-batch (issue 8): a real GL failure marks the renderer unusable, the batch replaces
/// it, draws the failing frame and the one in flight again, and every other frame comes out
/// byte-identical to a clean batch's; a frame failing twice is reported and leaves no file.
final class GLRecoveryTests: XCTestCase {
    /// Eight frames of the example scene at different cameras (two evaluation keys, so the scene is
    /// uploaded again on the new renderer for both).
    let cameras: [(Double, Double, Double)] = [
        (-77.0362, 38.9349, 11), (-77.02, 38.90, 11.5), (-77.05, 38.92, 12.2), (-77.00, 38.95, 11),
        (-77.03, 38.91, 12.7), (-77.06, 38.93, 11.3), (-77.01, 38.89, 12), (-77.04, 38.94, 11.8),
    ]

    func options(_ i: Int) -> RenderOptions {
        RenderOptions(width: 96, height: 64, longitude: cameras[i].0, latitude: cameras[i].1, zoom: cameras[i].2)
    }

    func scene() throws -> Scene {
        try Scene(styleFile: SharedData.exampleStyle)
    }

    /// Runs a GPU batch of `cameras.count` frames; `hook` may break the renderer before frame i is drawn.
    /// Returns the summary (or the error) and the PNG bytes delivered per frame.
    func runBatch(directory: URL? = nil, hook: ((Int, GLRenderer) -> Void)? = nil) throws -> (summary: BatchSummary?, error: Error?, pngs: [Int: [UInt8]]) {
        let batch = try BatchRenderer(scene: scene(), backend: .gpu)
        batch.testHookBeforeDraw = hook
        let delivered = Locked<[Int: [UInt8]]>([:])   // PNG bytes per frame, from encoder threads
        let pool = EncoderPool(workers: 2)
        do {
            let summary = try batch.run(count: cameras.count, options: options, deliver: { i in
                let path = directory?.appendingPathComponent("f\(i).png").path
                return { bytes in
                    if let path { try AtomicFileWriter.write(bytes, to: path) }
                    delivered.withLock { $0[i] = bytes }
                }
            }, pool: pool)
            return (summary, nil, delivered.value)
        } catch {
            return (nil, error, delivered.value)
        }
    }

    func testGLErrorMidBatchIsRecoveredAndFramesAreByteIdentical() throws {
        let clean = try runBatch()
        XCTAssertEqual(clean.summary?.completed, cameras.count)
        XCTAssertEqual(clean.summary?.glFailures, [])
        XCTAssertEqual(clean.pngs.count, cameras.count)

        weak var broken: GLRenderer?
        var fired = false
        let r = try runBatch { i, gl in
            if i == 4 && !fired {
                fired = true
                broken = gl
                gl.inject(.deleteFramebuffer)   // a real GL object deleted behind the renderer's back
            }
        }
        XCTAssertTrue(fired)
        XCTAssertNil(r.error)
        let summary = try XCTUnwrap(r.summary)
        XCTAssertNil(broken, "the broken renderer was released")
        XCTAssertEqual(summary.completed, cameras.count)
        XCTAssertEqual(summary.failed, [])
        XCTAssertEqual(summary.recreations, 1)
        XCTAssertEqual(summary.retried, [3, 4], "frame 4 failed; frame 3's pixels were in flight")
        XCTAssertEqual(summary.glFailures.map(\.index), [4])
        let reason = summary.glFailures[0].reason
        XCTAssertTrue(reason.contains("GL_INVALID_OPERATION") || reason.contains("GL_INVALID_FRAMEBUFFER_OPERATION"), reason)
        XCTAssertTrue(reason.hasPrefix("drawing layer failed") || reason.hasPrefix("glGetError failed"), reason)
        for i in 0..<cameras.count {
            XCTAssertEqual(r.pngs[i], clean.pngs[i], "frame \(i) differs from the clean batch")
        }
        let lines = summary.report(noun: "frames", describe: { "frame \($0)" })
        XCTAssertEqual(lines.count, 2, "\(lines)")
        XCTAssertTrue(lines[0].hasPrefix("glmap: GL failure at frame 4: "), lines[0])
        XCTAssertEqual(lines[1], "glmap: GL failure: renderer recreated 1 time; re-rendered 2 frames: frame 3, frame 4")
        XCTAssertNoThrow(try summary.finish(noun: "frames", describe: { "\($0)" }, write: { _ in }))
    }

    func testContextResetMidBatchIsRecovered() throws {
        let clean = try runBatch()
        var fired = false
        let r = try runBatch { i, gl in
            if i == 0 && !fired { fired = true; gl.inject(.contextReset) }
        }
        let summary = try XCTUnwrap(r.summary, "\(String(describing: r.error))")
        XCTAssertEqual(summary.glFailures.count, 1)
        XCTAssertEqual(summary.glFailures.first?.index, 0)
        XCTAssertTrue(summary.glFailures[0].reason.hasPrefix("glGetGraphicsResetStatus failed (GL_GUILTY_CONTEXT_RESET)"), summary.glFailures[0].reason)
        XCTAssertEqual(summary.retried, [0], "nothing else was in flight at the first frame")
        XCTAssertEqual(summary.completed, cameras.count)
        for i in 0..<cameras.count { XCTAssertEqual(r.pngs[i], clean.pngs[i], "frame \(i)") }
    }

    func testFrameFailingTwiceIsReportedAndTheBatchGoesOn() throws {
        let clean = try runBatch()
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var attempts = 0
        let r = try runBatch(directory: dir) { i, gl in
            if i == 5 { attempts += 1; gl.inject(.invalidEnum) }   // a GL call with an invalid argument, every time
        }
        let summary = try XCTUnwrap(r.summary, "\(String(describing: r.error))")
        XCTAssertEqual(attempts, 2, "tried once, retried once")
        XCTAssertEqual(summary.failed.map(\.index), [5])
        XCTAssertTrue(summary.failed[0].reason.contains("GL_INVALID_ENUM"), summary.failed[0].reason)
        XCTAssertEqual(summary.retried, [4, 5])
        XCTAssertEqual(summary.recreations, 2)
        XCTAssertEqual(summary.completed, cameras.count - 1)
        for i in 0..<cameras.count where i != 5 { XCTAssertEqual(r.pngs[i], clean.pngs[i], "frame \(i)") }
        XCTAssertNil(r.pngs[5])
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(files, (0..<cameras.count).filter { $0 != 5 }.map { "f\($0).png" }.sorted(), "no file, no temporary file for the failed frame")

        var stderr = ""
        XCTAssertThrowsError(try summary.finish(noun: "frames", describe: { "frame \($0 + 1)" }, write: { stderr += $0 })) { error in
            guard let e = error as? BatchFramesFailed else { return XCTFail("\(error)") }
            XCTAssertEqual(e.kind.exitCode, 1)
            XCTAssertEqual(e.description, "1 of 8 frames failed on the GPU after a retry on a new renderer; the other 7 are written")
        }
        XCTAssertTrue(stderr.contains("glmap: frame 6 failed (no output written): drawing layer failed (GL_INVALID_ENUM)"), stderr)
    }

    func testGPUThatKeepsFailingStopsTheBatch() throws {
        let r = try runBatch { i, gl in
            if i >= 2 { gl.inject(.invalidEnum) }
        }
        XCTAssertNil(r.summary)
        guard let e = r.error as? BatchGPUFailure else { return XCTFail("expected BatchGPUFailure, got \(String(describing: r.error))") }
        XCTAssertEqual(e.kind.exitCode, 1)
        XCTAssertEqual(e.attempts, BatchRenderer.maxFailedRecreations)
        XCTAssertEqual(e.summary.completed, 2, "frames 0 and 1 finished and stay")
        XCTAssertEqual(e.summary.failed.map(\.index), [2, 3])
        XCTAssertEqual(Set(r.pngs.keys), [0, 1])
        XCTAssertTrue(e.description.hasPrefix("the GPU failed again after 3 new renderers in a row (last: "), e.description)
        XCTAssertTrue(e.description.contains("(GL_INVALID_ENUM)"), e.description)
        XCTAssertTrue(e.description.contains("stopped after 2 of 8 frames, which stay written"), e.description)
    }

    /// The renderer itself: a real GL failure marks it unusable, and it then refuses every call
    /// with the same text; errors that leave GL intact do not.
    func testUnusableRendererRefusesFurtherCalls() throws {
        let gl = try GLRenderer()
        let view = ViewTransform(camera: Camera(longitude: -77.0362, latitude: 38.9349, zoom: 11), width: 64, height: 64)
        let uploaded = try gl.upload(scene().framePlan(view: view))
        try gl.draw(uploaded, view: view, ratio: 1)
        XCTAssertTrue(gl.isUsable)

        // An input error (an empty image; larger-than-GL images are drawn in tiles) leaves it usable.
        let empty = ViewTransform(camera: Camera(longitude: 0, latitude: 0, zoom: 1), width: 0.2, height: 8)
        XCTAssertThrowsError(try gl.draw(uploaded, view: empty, ratio: 1)) { XCTAssertEqual(($0 as? GLError)?.isInputError, true, "\($0)") }
        XCTAssertTrue(gl.isUsable)
        try gl.draw(uploaded, view: view, ratio: 1)

        gl.inject(.deleteFramebuffer)
        XCTAssertThrowsError(try gl.draw(uploaded, view: view, ratio: 1))
        XCTAssertFalse(gl.isUsable)
        let reason = try XCTUnwrap(gl.unusableReason)
        XCTAssertTrue(["GL_INVALID_OPERATION", "GL_INVALID_FRAMEBUFFER_OPERATION"].contains(reason.code), "\(reason)")
        XCTAssertEqual(reason.call, "drawing layer")

        let expected = "this renderer is unusable since an earlier GL failure (\(reason)); create a new renderer"
        XCTAssertThrowsError(try gl.draw(uploaded, view: view, ratio: 1)) {
            XCTAssertEqual("\($0)", "GLRenderer.draw failed: " + expected)
            XCTAssertEqual(($0 as? GLError)?.kind.exitCode, 1)
        }
        XCTAssertThrowsError(try gl.readback()) { XCTAssertEqual("\($0)", "GLRenderer.readback failed: " + expected) }
        XCTAssertThrowsError(try gl.beginReadback()) { XCTAssertEqual("\($0)", "GLRenderer.beginReadback failed: " + expected) }
        XCTAssertThrowsError(try gl.upload(FramePlan())) { XCTAssertEqual("\($0)", "GLRenderer.upload failed: " + expected) }
        XCTAssertEqual(gl.unusableReason, reason, "the first reason is kept")
    }

    /// Lost contexts cannot be forced on llvmpipe: drive the detection code with the values a
    /// lost context reports (reset status, GL_CONTEXT_LOST, EGL_CONTEXT_LOST) and check what marks.
    func testLostContextDetectionMarksTheRenderer() throws {
        func fresh() throws -> GLRenderer { try GLRenderer() }
        var gl = try fresh()
        XCTAssertNoThrow(try gl.noteFrameStatus(glError: 0, resetStatus: 0, after: "GLRenderer.draw"))
        XCTAssertTrue(gl.isUsable)
        XCTAssertThrowsError(try gl.noteFrameStatus(glError: 0, resetStatus: RendererHealth.innocentContextReset, after: "GLRenderer.draw")) {
            XCTAssertEqual("\($0)", "glGetGraphicsResetStatus failed (GL_INNOCENT_CONTEXT_RESET): the GPU was reset by another program (after GLRenderer.draw); its objects are gone; create a new renderer")
        }
        XCTAssertFalse(gl.isUsable)

        gl = try fresh()
        XCTAssertThrowsError(try gl.noteFrameStatus(glError: RendererHealth.contextLost, resetStatus: 0, after: "GLRenderer.endReadback"))
        XCTAssertEqual(gl.unusableReason?.code, "GL_CONTEXT_LOST")

        gl = try fresh()
        let lost = GLError(call: "eglMakeCurrent", code: "EGL_CONTEXT_LOST", message: "the GL context was lost")
        XCTAssertThrowsError(try gl.guarded("GLRenderer.draw") { throw lost })
        XCTAssertEqual(gl.unusableReason, lost)

        gl = try fresh()
        let busy = GLError(call: "eglMakeCurrent", code: "EGL_BAD_ACCESS", message: "in use on another thread")
        XCTAssertThrowsError(try gl.guarded("GLRenderer.draw") { throw busy })
        XCTAssertTrue(gl.isUsable, "another thread holding the context leaves the renderer intact")
        print("GLRecoveryTests: reset notification requested and granted: \(gl.context.resetNotification)")
    }
}
