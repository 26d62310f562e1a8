import Foundation
import XCTest
import GLMap   // the only glmap import: what a library user writes

/// The collision debug overlay (`Snapshotter.showCollisionBoxes`, GL JS's `showCollisionBoxes`)
/// on both backends: the box of a placed symbol in GL JS's blue, the box of one that collided in
/// its red, and nothing of either without the option.
final class CollisionDebugAPITests: XCTestCase {
    /// Two 8 px icons 7 px apart on white: the first is placed, the second collides with it.
    func snapshotter(_ backend: Backend, debug: Bool) throws -> Snapshotter {
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 64, height: 64)), backend: backend)
        try s.setStyleJSON(#"""
        {"version": 8, "center": [0, 0], "zoom": 0,
         "sources": {"p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
           {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
           {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [5, 0]}}]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "icons", "type": "symbol", "source": "p", "layout": {"icon-image": "square"}}]}
        """#)
        let black = StraightImage(width: 8, height: 8, pixels: (0..<64).flatMap { _ in [UInt8(0), 0, 0, 255] })
        try s.addImage(StyleImage(image: black), id: "square")
        s.showCollisionBoxes = debug
        return s
    }

    /// How many pixels are within 3 of `colour` (RGB; the image is opaque).
    func count(_ snap: Snapshot, _ colour: [Int]) -> Int {
        var n = 0
        for i in stride(from: 0, to: snap.pixels.count, by: 4) {
            if (0..<3).allSatisfy({ abs(Int(snap.pixels[i + $0]) - colour[$0]) <= 3 }) { n += 1 }
        }
        return n
    }

    func testPlacedAndCollidedBoxesInGLJSColoursOnBothBackends() throws {
        // Over white: placed (0, 0, 1, 0.5) × 0.5 premultiplied → (191, 191, 255); collided
        // (1, 0, 0, 1) × 0.5 → (255, 128, 128).
        let placed = [191, 191, 255], collided = [255, 128, 128]
        for backend in [Backend.gpu, .cpu] {
            let plain = try snapshotter(backend, debug: false).snapshot()
            XCTAssertEqual(count(plain, placed), 0, "\(backend): no overlay unless asked for")
            XCTAssertEqual(count(plain, collided), 0, "\(backend): no overlay unless asked for")
            let debug = try snapshotter(backend, debug: true).snapshot()
            // Each box is a loop of one-pixel lines round the 12 px padded icon box.
            XCTAssertGreaterThan(count(debug, placed), 20, "\(backend): the placed icon's box is blue")
            XCTAssertGreaterThan(count(debug, collided), 15, "\(backend): the colliding icon's box is red")
            XCTAssertTrue(debug.warnings.isEmpty, "\(backend): \(debug.warnings)")
        }
    }
}
