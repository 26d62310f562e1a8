import Foundation
import GLMapArchives
import GLMapCore
import GLMapTiles
import XCTest

/// Hostile tiles against the tile limits (`InputLimits.maxTileBytes`, `maxImagePixels`), each with
/// its exact message: a tile costs only itself, never the process.
final class TileInputLimitsTests: XCTestCase {
    var tmp: URL!

    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-tile-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent("0/0"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    func load(_ bytes: [UInt8], limits: InputLimits, type: String = "vector") throws -> TileLoadResult<Void> {
        try Data(bytes).write(to: tmp.appendingPathComponent("0/0/0.tile"))
        let d = try TileSourceDescription(id: "hostile", json: JSONObject([("type", .string(type)), ("tiles", .array([.string("{z}/{x}/{y}.tile")]))]))
        let loader = ResourceLoader(options: ResourceLoaderOptions(base: tmp.path))
        let t = CanonicalTileID(0, 0, 0)
        let r: TileLoadResult<Void>?
        switch type {
        case "vector": r = try VectorTileSource(d, loader: loader, limits: limits).load(tiles: [t])[t].map(Self.erase)
        default: r = try RasterTileSource(d, loader: loader, limits: limits).load(tiles: [t])[t].map(Self.erase)
        }
        return try XCTUnwrap(r)
    }

    static func erase<D>(_ r: TileLoadResult<D>) -> TileLoadResult<Void> {
        switch r {
        case .loaded: return .loaded(())
        case .empty: return .empty
        case .missing: return .missing
        case .failed(let m): return .failed(m)
        }
    }

    func message(_ r: TileLoadResult<Void>) -> String? { if case .failed(let m) = r { return m }; return nil }

    func testDefaults() {
        XCTAssertEqual(InputLimits.default.maxTileBytes, 32 << 20)
        XCTAssertEqual(InputLimits.default.maxImagePixels, 1 << 26)
        XCTAssertEqual(InputLimits(maxTileBytes: 100).tileBytesMessage, "tile inflates past 100 bytes (limit InputLimits.maxTileBytes)")
    }

    func testDecompressionBomb() throws {
        // 64 MiB of zeros in ~64 KB of gzip: stopped at the limit, never allocated whole.
        let bomb = PMTiles.gzip([UInt8](repeating: 0, count: 64 << 20))
        let m = message(try load(bomb, limits: InputLimits(maxTileBytes: 1 << 20)))
        XCTAssertEqual(m, "source \"hostile\" tile 0/0/0: gzip data of \(bomb.count) bytes inflates past 1048576 bytes (limit InputLimits.maxTileBytes)")
        // The default limit stops it too.
        XCTAssertNotNil(message(try load(bomb, limits: .default)))
    }

    func testTileLargerThanTheLimitAsFetched() throws {
        let m = message(try load([UInt8](repeating: 0x1A, count: 5000), limits: InputLimits(maxTileBytes: 4096)))
        XCTAssertEqual(m, "source \"hostile\" tile 0/0/0: the tile is 5000 bytes, more than 4096 (limit InputLimits.maxTileBytes)")
    }

    func testCorruptGzipAndProtobuf() throws {
        var gz = PMTiles.gzip(Array("a perfectly fine string that compresses".utf8))
        gz[12] ^= 0xFF
        XCTAssertTrue(message(try load(gz, limits: .default))?.hasPrefix("source \"hostile\" tile 0/0/0: corrupt gzip data") == true)
        XCTAssertEqual(message(try load([0x1A, 0x7F, 0x0A], limits: .default)),
                       "source \"hostile\" tile 0/0/0: corrupt vector tile: layer #0: length-delimited field of 127 bytes runs past the end of its message (1 left) (at byte 1)")
    }

    func testImagePixelLimitFromTheHeader() throws {
        // A PNG header claiming 100000 × 100000 pixels and nothing else.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        png += [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        XCTAssertEqual(message(try load(png, limits: .default, type: "raster")),
                       "source \"hostile\" tile 0/0/0: PNG image of 100000×100000 pixels is larger than 67108864 pixels (limit InputLimits.maxImagePixels)")
    }
}
