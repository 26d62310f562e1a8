import Foundation
import XCTest
@testable import GLMapGLES

/// When llvmpipe is told to rasterize on the drawing thread (RasterizerThreads.swift).
final class RasterizerThreadsTests: XCTestCase {
    func should(_ w: RasterizerThreads.Workload, cores: Int = 2, current: String? = nil, opened: Bool = false) -> Bool {
        RasterizerThreads.shouldRasterizeOnDrawingThread(w, cores: cores, current: current, displayOpened: opened)
    }

    func testRenderThreadsCoveringTheCoresChooseTheDrawingThread() {
        XCTAssertTrue(should(.renderThreads(2), cores: 2))
        XCTAssertTrue(should(.renderThreads(16), cores: 8))
        XCTAssertFalse(should(.renderThreads(1), cores: 2))
        XCTAssertFalse(should(.renderThreads(7), cores: 8))
    }

    func testBatchesOfSmallFramesChooseTheDrawingThreadLargeOnesThePool() {
        XCTAssertTrue(should(.batch(framePixels: 256 * 256)))
        XCTAssertTrue(should(.batch(framePixels: RasterizerThreads.smallFramePixels)))
        XCTAssertFalse(should(.batch(framePixels: RasterizerThreads.smallFramePixels + 1)))
        XCTAssertFalse(should(.batch(framePixels: 512 * 512)))
        XCTAssertFalse(should(.batch(framePixels: 1024 * 1024)))
    }

    func testTheEnvironmentsOwnValueWins() {
        XCTAssertFalse(should(.renderThreads(4), current: "2"))
        XCTAssertFalse(should(.batch(framePixels: 64 * 64), current: ""))
    }

    func testNothingChangesOnceADisplayIsOpen() throws {
        XCTAssertFalse(should(.renderThreads(4), opened: true))
        // In this process: once a context exists, the call leaves the environment alone.
        let context = try HeadlessContext()
        let before = getenv("LP_NUM_THREADS").map { String(cString: $0) }
        XCTAssertTrue(HeadlessContext.anyDisplayOpened)
        XCTAssertFalse(RasterizerThreads.rasterizeOnDrawingThread(for: .batch(framePixels: 1)))
        XCTAssertEqual(getenv("LP_NUM_THREADS").map { String(cString: $0) }, before)
        withExtendedLifetime(context) {}
    }
}
