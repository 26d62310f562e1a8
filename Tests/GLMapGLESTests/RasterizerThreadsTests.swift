import Foundation
import XCTest
@testable import GLMapGLES

/// When llvmpipe is told to rasterize on the drawing thread (RasterizerThreads.swift).
final class RasterizerThreadsTests: XCTestCase {
    func testWorkersCoveringTheCoresChooseTheDrawingThread() {
        XCTAssertTrue(RasterizerThreads.shouldRasterizeOnDrawingThread(workers: 2, cores: 2, current: nil, displayOpened: false))
        XCTAssertTrue(RasterizerThreads.shouldRasterizeOnDrawingThread(workers: 16, cores: 8, current: nil, displayOpened: false))
    }

    func testFewerWorkersThanCoresKeepLlvmpipesPool() {
        XCTAssertFalse(RasterizerThreads.shouldRasterizeOnDrawingThread(workers: 1, cores: 2, current: nil, displayOpened: false))
        XCTAssertFalse(RasterizerThreads.shouldRasterizeOnDrawingThread(workers: 7, cores: 8, current: nil, displayOpened: false))
    }

    func testTheEnvironmentsOwnValueWins() {
        XCTAssertFalse(RasterizerThreads.shouldRasterizeOnDrawingThread(workers: 4, cores: 2, current: "2", displayOpened: false))
        XCTAssertFalse(RasterizerThreads.shouldRasterizeOnDrawingThread(workers: 4, cores: 2, current: "", displayOpened: false))
    }

    func testNothingChangesOnceADisplayIsOpen() throws {
        XCTAssertFalse(RasterizerThreads.shouldRasterizeOnDrawingThread(workers: 4, cores: 2, current: nil, displayOpened: true))
        // In this process: once a context exists, the call leaves the environment alone.
        let context = try HeadlessContext()
        let before = getenv("LP_NUM_THREADS").map { String(cString: $0) }
        XCTAssertTrue(HeadlessContext.anyDisplayOpened)
        XCTAssertFalse(RasterizerThreads.rasterizeOnDrawingThread(workers: 1000))
        XCTAssertEqual(getenv("LP_NUM_THREADS").map { String(cString: $0) }, before)
        withExtendedLifetime(context) {}
    }
}
