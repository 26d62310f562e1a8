import Foundation
import XCTest
import GLMapCore
@testable import GLMap
import GLMapArchives
@testable import GLMapPyramid

/// XYZ tile addressing: bounds, TMS rows, file names, the camera that draws a tile, pyramids and shards.
final class TileAddressTests: XCTestCase {
    func testBoundsOfKnownTiles() throws {
        let root = try TileAddress(z: 0, x: 0, y: 0).bounds
        XCTAssertEqual(root.west, -180, accuracy: 1e-9)
        XCTAssertEqual(root.east, 180, accuracy: 1e-9)
        XCTAssertEqual(root.north, WebMercator.maxLatitude, accuracy: 1e-9)
        XCTAssertEqual(root.south, -WebMercator.maxLatitude, accuracy: 1e-9)
        let ne = try TileAddress(z: 1, x: 1, y: 0).bounds
        XCTAssertEqual([ne.west, ne.south, ne.east], [0, 0, 180])
        // z2 x1 y1: lon −90…0, lat 0…66.51°.
        let t = try TileAddress(z: 2, x: 1, y: 1).bounds
        XCTAssertEqual(t.west, -90, accuracy: 1e-9)
        XCTAssertEqual(t.east, 0, accuracy: 1e-9)
        XCTAssertEqual(t.south, 0, accuracy: 1e-9)
        XCTAssertEqual(t.north, 66.51326044311186, accuracy: 1e-9)
    }

    func testContainingRoundTripsWithBounds() throws {
        for z in [0, 3, 7, 12] {
            for (x, y) in [(0, 0), ((1 << z) - 1, (1 << z) / 2), ((1 << z) / 3, (1 << z) - 1)] {
                let t = try TileAddress(z: z, x: x, y: y)
                let b = t.bounds
                XCTAssertEqual(TileAddress.containing(lon: (b.west + b.east) / 2, lat: (b.south + b.north) / 2, z: z), t)
            }
        }
        XCTAssertEqual(TileAddress.containing(lon: 180, lat: -90, z: 2), try TileAddress(z: 2, x: 3, y: 3), "edges clamp into the world")
    }

    func testTMSFlip() throws {
        XCTAssertEqual(try TileAddress(z: 0, x: 0, y: 0).tmsRow, 0)
        XCTAssertEqual(try TileAddress(z: 3, x: 2, y: 0).tmsRow, 7)
        XCTAssertEqual(try TileAddress(z: 3, x: 2, y: 7).tmsRow, 0)
        let t = try TileAddress(z: 5, x: 9, y: 12)
        XCTAssertEqual(try TileAddress.fromTMS(z: 5, x: 9, row: t.tmsRow), t)
    }

    func testNamesAndPaths() throws {
        let t = try TileAddress(z: 4, x: 3, y: 9)
        XCTAssertEqual(t.fileName(ratio: 1), "9.png")
        XCTAssertEqual(t.fileName(ratio: 2), "9@2x.png")
        XCTAssertEqual(t.path(in: "out", ratio: 2), "out/4/3/9@2x.png")
        XCTAssertEqual(t.description, "4/3/9")
    }

    func testInvalidTilesAreRejected() {
        XCTAssertThrowsError(try TileAddress(z: 2, x: 4, y: 0))
        XCTAssertThrowsError(try TileAddress(z: -1, x: 0, y: 0))
        XCTAssertThrowsError(try TileAddress(z: 31, x: 0, y: 0))
    }

    func testRenderOptionsCenterTheTile() throws {
        let t = try TileAddress(z: 3, x: 5, y: 2)
        for (size, zoom) in [(256, 2.0), (512, 3.0)] {
            let o = t.renderOptions(tileSize: size, ratio: 2)
            XCTAssertEqual(o.zoom!, zoom, accuracy: 1e-12)
            XCTAssertEqual([o.width, o.height], [size, size])
            XCTAssertEqual(o.ratio, 2)
            // The viewport spans exactly the tile: its corners are the tile's bounds.
            let view = ViewTransform(camera: o.camera(default: Camera()), width: Double(size), height: Double(size))
            let b = t.bounds
            let nw = view.screenPoint(lon: b.west, lat: b.north)!, se = view.screenPoint(lon: b.east, lat: b.south)!
            XCTAssertEqual(nw.x, 0, accuracy: 1e-6); XCTAssertEqual(nw.y, 0, accuracy: 1e-6)
            XCTAssertEqual(se.x, Double(size), accuracy: 1e-6); XCTAssertEqual(se.y, Double(size), accuracy: 1e-6)
        }
        XCTAssertEqual(try TileAddress(z: 0, x: 0, y: 0).renderOptions(tileSize: 256, ratio: 1).zoom, -1, "z0 at 256 px is the world at zoom −1")
    }

    func testPyramidCountsAndBBox() throws {
        XCTAssertEqual(try Pyramid(zooms: 0...4).count, 341)
        // The north-east quadrant: one tile at z1, four at z2 (a box ending on a tile edge adds none).
        let ne = try Pyramid(zooms: 1...2, bbox: .init(west: 0, south: 0, east: 180, north: 85))
        XCTAssertEqual(ne.range(z: 1).x, 1...1)
        XCTAssertEqual(ne.range(z: 1).y, 0...0)
        XCTAssertEqual(ne.count, 5)
        XCTAssertEqual(try Pyramid.parseZooms("0-5"), 0...5)
        XCTAssertEqual(try Pyramid.parseZooms("7"), 7...7)
        XCTAssertThrowsError(try Pyramid.parseZooms("5-2"))
        XCTAssertThrowsError(try Pyramid.BBox.parse("1,2,3"))
        XCTAssertThrowsError(try Pyramid.BBox.parse("10,0,10,10"))
        XCTAssertEqual(try Pyramid.BBox.parse("-10, 35, 30, 60"), .init(west: -10, south: 35, east: 30, north: 60))
    }

    func testParseShard() throws {
        XCTAssertEqual(try Pyramid.parseShard("2/4").index, 2)
        XCTAssertThrowsError(try Pyramid.parseShard("4/4"))
        XCTAssertThrowsError(try Pyramid.parseShard("1"))
    }
}
