import Foundation
import XCTest
import GLMapCore
@testable import GLMap
@testable import GLMapBatch

/// The encoder pool shares the cores with the GL thread: a second encoder takes frames only while
/// more than one waits, so frames handed over one at a time are all encoded by the first, and a
/// backlog brings the second in. Every frame is delivered either way, on threads that run at a
/// lower priority than the drawing.
final class EncoderPoolTests: XCTestCase {
    static let frame = PremultipliedImage(width: 8, height: 8, pixels: [UInt8](repeating: 255, count: 8 * 8 * 4))

    func testFramesOneAtATimeStayOnTheFirstEncoder() throws {
        let pool = EncoderPool(workers: 2)
        let threads = Locked<[UInt]>([])   // the delivering threads' pthread ids
        for i in 0..<20 {
            try pool.submit(Self.frame) { bytes in
                XCTAssertFalse(bytes.isEmpty)
                threads.withLock { $0.append(UInt(pthread_self())) }
            }
            // The next frame comes only once this one is delivered: never more than one waits.
            let deadline = Date().addingTimeInterval(10)
            while pool.completed < i + 1 && Date() < deadline { usleep(200) }
        }
        try pool.finish()
        XCTAssertEqual(threads.value.count, 20)
        XCTAssertEqual(Set(threads.value).count, 1, "one encoder delivered every frame")
    }

    func testABacklogBringsTheSecondEncoderIn() throws {
        let pool = EncoderPool(workers: 2, capacity: 8)
        let threads = Locked<[UInt]>([])
        for _ in 0..<16 {
            try pool.submit(Self.frame) { _ in
                usleep(20_000)   // a slow delivery: the frames behind it wait
                threads.withLock { $0.append(UInt(pthread_self())) }
            }
        }
        try pool.finish()
        XCTAssertEqual(threads.value.count, 16)
        XCTAssertEqual(Set(threads.value).count, 2, "both encoders delivered frames")
    }

    /// Encoders run below the drawing threads (nice `EncoderPool.niceness`, Linux per thread),
    /// while the thread that submits keeps its own priority.
    func testEncodersRunAtALowerPriority() throws {
        let mine = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        try XCTSkipIf(mine > EncoderPool.niceness, "this process already runs at nice \(mine), above the encoders' \(EncoderPool.niceness)")
        let pool = EncoderPool(workers: 1)
        let seen = Locked<Int32?>(nil)
        try pool.submit(Self.frame) { _ in seen.withLock { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) } }
        try pool.finish()
        XCTAssertEqual(seen.value, EncoderPool.niceness)
        XCTAssertEqual(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), mine, "the submitting thread is unchanged")
    }
}
