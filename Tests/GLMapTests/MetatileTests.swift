import Foundation
import XCTest
import GLMapCore
import GLMap
import GLMapArchives
import GLMapPyramid

/// Metatile geometry: which tiles a metatile holds, its frame (margins, 256/512-px tiles, @2x,
/// the world's edges), where each tile lies in it, the size limit, and the metatiles of a
/// pyramid (order, shards, boxes across the antimeridian).
final class MetatileTests: XCTestCase {
    func tile(_ z: Int, _ x: Int, _ y: Int) -> TileAddress { try! TileAddress(z: z, x: x, y: y) }

    func testBlocksAreAlignedAndClampedToTheWorld() {
        let m = Metatile(containing: tile(10, 514, 341), size: 4)
        XCTAssertEqual(m.columns, 512...515); XCTAssertEqual(m.rows, 340...343); XCTAssertEqual(m.margin, 128)
        XCTAssertEqual(m.tiles.count, 16)
        XCTAssertEqual(m.tiles.first, tile(10, 512, 340)); XCTAssertEqual(m.tiles[1], tile(10, 512, 341), "x, then y")
        XCTAssertEqual(Metatile(containing: tile(0, 0, 0), size: 4).tiles, [tile(0, 0, 0)], "z0: one tile")
        XCTAssertEqual(Metatile(containing: tile(1, 1, 0), size: 4).tiles.count, 4, "z1: 2×2")
        let edge = Metatile(containing: tile(3, 7, 7), size: 3)   // 8 columns: blocks 0-2, 3-5, 6-7
        XCTAssertEqual(edge.columns, 6...7); XCTAssertEqual(edge.rows, 6...7)
        let one = Metatile(containing: tile(5, 3, 4), size: 1)
        XCTAssertEqual(one.tiles, [tile(5, 3, 4)]); XCTAssertEqual(one.margin, 0, "size 1 is the plain tile")
    }

    func testFrameAndCropsAt256And512PxAnd2x() throws {
        let m = Metatile(containing: tile(10, 514, 341), size: 4)
        for (size, zoom) in [(256, 9.0), (512, 10.0)] {
            for ratio in [1.0, 2.0] {
                let o = m.renderOptions(tileSize: size, ratio: ratio)
                XCTAssertEqual([o.width, o.height], [4 * size + 256, 4 * size + 256])
                XCTAssertEqual(o.zoom!, zoom, accuracy: 1e-12); XCTAssertEqual(o.ratio, ratio)
                // Every tile's corners land on its crop's corners (CSS px × ratio = device px).
                let view = ViewTransform(camera: o.camera(default: Camera()), width: Double(o.width), height: Double(o.height))
                for t in m.tiles {
                    let crop = m.crop(t, tileSize: size, ratio: ratio)
                    XCTAssertEqual([crop.width, crop.height], [Int(Double(size) * ratio), Int(Double(size) * ratio)])
                    let b = t.bounds
                    let nw = view.screenPoint(lon: b.west, lat: b.north)!, se = view.screenPoint(lon: b.east, lat: b.south)!
                    XCTAssertEqual(nw.x * ratio, Double(crop.x), accuracy: 1e-6); XCTAssertEqual(nw.y * ratio, Double(crop.y), accuracy: 1e-6)
                    XCTAssertEqual(se.x * ratio, Double(crop.x + crop.width), accuracy: 1e-6)
                    XCTAssertEqual(se.y * ratio, Double(crop.y + crop.height), accuracy: 1e-6)
                }
            }
        }
        XCTAssertEqual(m.crop(tile(10, 514, 341), tileSize: 256, ratio: 2), PixelRect(x: 1280, y: 768, width: 512, height: 512))
    }

    func testNoMarginPastTheWorldsTopOrBottomEdge() {
        // z0 at 256 px: the world is 256 px tall, so the frame is too; left and right it wraps.
        let world = Metatile(containing: tile(0, 0, 0), size: 4).renderOptions(tileSize: 256, ratio: 1)
        XCTAssertEqual([world.width, world.height], [512, 256])
        XCTAssertEqual(world.longitude!, 0, accuracy: 1e-9); XCTAssertEqual(world.latitude!, 0, accuracy: 1e-9)
        let top = Metatile(containing: tile(4, 5, 0), size: 4)
        XCTAssertEqual(top.renderOptions(tileSize: 256, ratio: 1).height, 4 * 256 + 128)
        XCTAssertEqual(top.crop(tile(4, 5, 0), tileSize: 256, ratio: 1), PixelRect(x: 128 + 256, y: 0, width: 256, height: 256))
        // The camera constraint leaves such frames where they are.
        for m in [top, Metatile(containing: tile(4, 5, 15), size: 4), Metatile(containing: tile(0, 0, 0), size: 4)] {
            let o = m.renderOptions(tileSize: 256, ratio: 1)
            let c = o.camera(default: Camera())
            XCTAssertEqual(o.drawnCamera(default: Camera()).latitude, c.latitude, accuracy: 1e-9, "\(m)")
        }
    }

    func testSizeOneIsThePerTileRender() {
        let t = tile(7, 33, 90)
        for size in [256, 512] {
            let n = Double(1 << t.z)
            let center = WebMercator.unproject(x: (Double(t.x) + 0.5) / n, y: (Double(t.y) + 0.5) / n)
            let o = Metatile(containing: t, size: 1).renderOptions(tileSize: size, ratio: 2)
            XCTAssertEqual(o, RenderOptions(width: size, height: size, ratio: 2, longitude: center.lon, latitude: center.lat,
                                            zoom: Double(t.z) + log2(Double(size) / 512), bearing: 0, pitch: 0))
            XCTAssertEqual(t.renderOptions(tileSize: size, ratio: 2), o)
        }
    }

    func testSizeShrinksToTheLargestImage() {
        XCTAssertEqual(Metatile.size(4, tileSize: 512, ratio: 2), 4)
        // (n·512 + 256)·2 ≤ 16384 ⇔ n ≤ 15.75
        XCTAssertEqual(Metatile.size(64, tileSize: 512, ratio: 2), 15)
        XCTAssertEqual(Metatile.size(64, tileSize: 256, ratio: 1), 63)
        XCTAssertEqual(Metatile.size(1, tileSize: 512, ratio: 3), 1)
    }

    func testPyramidMetatilesShardTheTilesExactlyOnce() throws {
        let pyramid = try Pyramid(zooms: 0...6, bbox: .init(west: -30, south: -10, east: 60, north: 70))
        let ones = pyramid.metatiles(size: 1)
        XCTAssertEqual(ones.count, pyramid.count)
        let all = ones.map { $0.tiles[0] }
        XCTAssertEqual(all, all.sorted(), "size 1: the tiles by zoom, then x, then y")
        for size in [1, 2, 4, 5] {
            let metatiles = pyramid.metatiles(size: size)
            for n in [1, 3, 7] {
                var union: [TileAddress] = []
                for i in 0..<n {
                    let shard = metatiles.shard(i, of: n)
                    let tiles = shard.flatMap { metatiles.tiles(of: metatiles[$0]) }
                    XCTAssertEqual(metatiles.tileCount(shard), tiles.count)
                    union += tiles
                }
                XCTAssertEqual(union.count, all.count, "size \(size), \(n) shards: no tile twice")
                XCTAssertEqual(Set(union), Set(all), "size \(size), \(n) shards: every tile")
            }
        }
    }

    func testMetatilesAcrossTheAntimeridian() throws {
        // z4: columns 5…15 then 0…4 (the box wraps almost all the way round): with blocks of 4,
        // block 1 (columns 4…7) holds a wrapped column and first-run ones, and comes once.
        let pyramid = try Pyramid(zooms: 4...4, bbox: .init(west: -50, south: -10, east: -60, north: 10))
        XCTAssertEqual(pyramid.columns(z: 4).count, 16)
        let metatiles = pyramid.metatiles(size: 4)
        XCTAssertEqual(metatiles.map(\.columns.lowerBound), [4, 4, 8, 8, 12, 12, 0, 0])
        let tiles = metatiles.flatMap { metatiles.tiles(of: $0) }
        XCTAssertEqual(tiles.count, pyramid.count); XCTAssertEqual(Set(tiles).count, tiles.count)
        XCTAssertTrue(pyramid.contains(tile(4, 4, 7)) && !pyramid.contains(tile(4, 4, 2)))
    }
}
