import Foundation
import XCTest
import GLMapCore
@testable import GLMap

/// The threading contract (README "Threading"): one renderer per thread; several renderers on
/// several threads render the same frames byte-identically.
final class ThreadingTests: XCTestCase {
    func testRenderersOnSeveralThreadsAreByteIdentical() throws {
        let scene = try Scene(styleFile: examplesDir.appendingPathComponent("style.json").path)
        let cameras = [(-77.0362, 38.9349, 11.0), (-77.02, 38.90, 12.5), (-77.05, 38.92, 10.2)]
        func frames(_ r: MapRenderer) throws -> [[UInt8]] {
            try cameras.map { c in
                try r.render(scene, options: RenderOptions(width: 160, height: 120, longitude: c.0, latitude: c.1, zoom: c.2)).pixels
            }
        }
        let expected = try frames(MapRenderer(backend: .gpu))
        let lock = NSLock()
        var results: [[[UInt8]]] = []
        var errors: [String] = []
        let group = DispatchGroup()
        for _ in 0..<3 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let f = try frames(MapRenderer(backend: .gpu))
                    lock.lock(); results.append(f); lock.unlock()
                } catch {
                    lock.lock(); errors.append("\(error)"); lock.unlock()
                }
            }.start()
        }
        group.wait()
        XCTAssertEqual(errors, [])
        XCTAssertEqual(results.count, 3)
        for r in results { XCTAssertEqual(r, expected, "a renderer on another thread drew different bytes") }
    }

    func testOneRendererUsedFromTwoThreadsAtOnceIsRefused() throws {
        let r = MapRenderer(backend: .gpu)
        let scene = try Scene(styleFile: examplesDir.appendingPathComponent("style.json").path)
        _ = try r.render(scene, options: RenderOptions(width: 32, height: 32))   // current on this thread now
        var message = ""
        let done = DispatchSemaphore(value: 0)
        Thread {
            do { _ = try r.render(scene, options: RenderOptions(width: 32, height: 32)) } catch { message = "\(error)" }
            done.signal()
        }.start()
        done.wait()
        XCTAssertTrue(message.contains("another thread"), "second thread refused with a clear error: \(message)")
    }
}
