import XCTest
import GLMapCore
import GLMapPNG
@testable import GLMapServer

/// Single-colour frames reuse their PNG bytes, which are exactly what the encoder writes; a frame
/// with a second colour is always encoded; the cache holds at most `capacity` colours.
final class UniformImageCacheTests: XCTestCase {
    func image(_ w: Int, _ h: Int, _ px: [UInt8]) -> PremultipliedImage {
        PremultipliedImage(width: w, height: h, pixels: Array([[UInt8]](repeating: px, count: w * h).joined()))
    }

    func testUniformFramesReuseTheEncodersBytes() throws {
        let cache = UniformImageCache(capacity: 2)
        let ocean = image(256, 256, [40, 80, 160, 255])
        let first = try cache.encode(ocean)
        XCTAssertEqual(first, try PNGEncoder.encode(ocean, compression: .default))
        XCTAssertEqual(cache.hits, 0)
        XCTAssertEqual(try cache.encode(ocean), first)
        XCTAssertEqual(cache.hits, 1)
        // Another size or colour is another entry; translucent premultiplied colours too.
        let half = image(256, 256, [20, 40, 80, 128])
        XCTAssertEqual(try cache.encode(half), try PNGEncoder.encode(half, compression: .default))
        let small = image(128, 64, [40, 80, 160, 255])
        XCTAssertEqual(try cache.encode(small), try PNGEncoder.encode(small, compression: .default))
        XCTAssertEqual(cache.hits, 1)
        // Capacity 2: the ocean (oldest) was dropped, so it is encoded again.
        XCTAssertEqual(try cache.encode(ocean), first)
        XCTAssertEqual(cache.hits, 1)
    }

    func testAFrameWithTwoColoursIsEncoded() throws {
        let cache = UniformImageCache()
        var img = image(64, 64, [0, 0, 0, 255])
        img.pixels[img.pixels.count - 1] = 254   // the last pixel differs
        XCTAssertNil(UniformImageCache.uniformPixel(img))
        XCTAssertEqual(try cache.encode(img), try PNGEncoder.encode(img, compression: .default))
        XCTAssertEqual(try cache.encode(img), try PNGEncoder.encode(img, compression: .default))
        XCTAssertEqual(cache.hits, 0)
        XCTAssertNotNil(UniformImageCache.uniformPixel(image(1, 1, [1, 2, 3, 4])))
    }
}
