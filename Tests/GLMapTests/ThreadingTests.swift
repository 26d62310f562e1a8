import Foundation
import XCTest
import GLMapCore
@testable import GLMap
import GLMapTestSupport

/// The threading contract (docs/architecture.md, "Threading"): one renderer per thread; several renderers on
/// several threads render the same frames byte-identically.
final class ThreadingTests: XCTestCase {
    func testRenderersOnSeveralThreadsAreByteIdentical() throws {
        let scene = try Scene(styleFile: SharedData.exampleStyle)
        let cameras = [(-77.0362, 38.9349, 11.0), (-77.02, 38.90, 12.5), (-77.05, 38.92, 10.2)]
        @Sendable func frames(_ r: MapRenderer) throws -> [[UInt8]] {
            try cameras.map { c in
                try r.render(scene, options: RenderOptions(width: 160, height: 120, longitude: c.0, latitude: c.1, zoom: c.2)).pixels
            }
        }
        let expected = try frames(MapRenderer(backend: .gpu))
        let results = Locked<[[[UInt8]]]>([]), errors = Locked<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<3 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let f = try frames(MapRenderer(backend: .gpu))
                    results.withLock { $0.append(f) }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }.start()
        }
        group.wait()
        XCTAssertEqual(errors.value, [])
        XCTAssertEqual(results.value.count, 3)
        for r in results.value { XCTAssertEqual(r, expected, "a renderer on another thread drew different bytes") }
    }

    /// A renderer prepared on its own thread (`prepareInBackground`, as `glmap render` does while
    /// the scene loads) renders on this thread the frames a renderer prepared here renders, and
    /// its context is free for this thread once the preparation is collected.
    func testPreparedInTheBackgroundRendersTheSameFrames() throws {
        let scene = try Scene(styleFile: SharedData.exampleStyle)
        let options = RenderOptions(width: 160, height: 120, longitude: -77.02, latitude: 38.9, zoom: 11.5)
        let expected = try MapRenderer(backend: .gpu).render(scene, options: options).pixels
        let background = MapRenderer(backend: .gpu)
        background.prepareInBackground()
        background.prepareInBackground()   // a second call while the first runs does nothing
        XCTAssertEqual(try background.render(scene, options: options).pixels, expected)
        XCTAssertEqual(background.activeBackend, .gpu)
        XCTAssertEqual(try background.render(scene, options: options).pixels, expected, "a second frame")
        let prepared = MapRenderer(backend: .gpu)
        prepared.prepareInBackground()
        try prepared.prepare()
        XCTAssertEqual(prepared.activeBackend, .gpu)
        XCTAssertEqual(try prepared.render(scene, options: options).pixels, expected)
    }

    func testOneRendererUsedFromTwoThreadsAtOnceIsRefused() throws {
        let renderer = MapRenderer(backend: .gpu)
        let r = UnsafeSendable(renderer)   // deliberately shared: the contract is what is tested
        let scene = try Scene(styleFile: SharedData.exampleStyle)
        _ = try renderer.render(scene, options: RenderOptions(width: 32, height: 32))   // current on this thread now
        let message = Locked("")
        let done = DispatchSemaphore(value: 0)
        Thread {
            do { _ = try r.value.render(scene, options: RenderOptions(width: 32, height: 32)) } catch { message.withLock { $0 = "\(error)" } }
            done.signal()
        }.start()
        done.wait()
        XCTAssertTrue(message.value.contains("another thread"), "second thread refused with a clear error: \(message.value)")
    }
}
