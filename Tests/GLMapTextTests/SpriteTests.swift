import Foundation
import GLMapCore
import GLMapPNG
import GLMapText
import XCTest

/// Sprites from the render suite's `sprites/`: 1×/@2x choice and fallback, arrays and id
/// prefixes, metadata, broken sprites costing only themselves; the image store's rules.
final class SpriteTests: XCTestCase {
    func testLoadsTheSuitesSprite() throws {
        try TextFixtures.requireSuite()
        let r = SpriteLoader.load(SpriteLoader.references(.string("local://sprites/sprite")), pixelRatio: 1, fetch: TextFixtures.localFetch())
        XCTAssertTrue(r.warnings.isEmpty, "\(r.warnings)")
        XCTAssertEqual(r.images.count, 374)
        let first = try XCTUnwrap(r.images.first { $0.id == "wetland-17" }).image
        XCTAssertEqual(first.data.width, 256)
        XCTAssertEqual(first.pixelRatio, 1)
        XCTAssertFalse(first.sdf)
        // Pixels are the sheet's, at the image's rectangle (opaque pixels survive the canvas trip).
        let sheet = try PNGDecoder.decode(contentsOf: TextFixtures.sprites.appendingPathComponent("sprite.png").path)
        let json = try JSONParser.parse(TextFixtures.bytes(TextFixtures.sprites.appendingPathComponent("sprite.json")))
        let entry = try XCTUnwrap(json.objectValue?["wetland-noveg-16"]?.objectValue)
        let x = Int(entry["x"]!.numberValue!), y = Int(entry["y"]!.numberValue!)
        let img = try XCTUnwrap(r.images.first { $0.id == "wetland-noveg-16" }).image
        for (ix, iy) in [(0, 0), (5, 7), (127, 127)] where sheet[x + ix, y + iy].a == 255 {
            XCTAssertTrue(img.data[ix, iy] == sheet[x + ix, y + iy])
        }
    }

    func testTwoXIsChosenByPixelRatioWithOneXFallback() throws {
        try TextFixtures.requireSuite()
        let log = LockedLog()
        let emerald = SpriteLoader.load([SpriteReference(id: "default", url: "local://sprites/emerald")], pixelRatio: 2,
                                        fetch: TextFixtures.localFetch(log: log))
        XCTAssertEqual(log.all, ["local://sprites/emerald@2x.json", "local://sprites/emerald@2x.png"])
        XCTAssertEqual(emerald.images.first?.image.pixelRatio, 2)
        // sprite.json has no @2x: the 1× files are used.
        let fallback = SpriteLoader.load([SpriteReference(id: "default", url: "local://sprites/sprite")], pixelRatio: 2,
                                         fetch: TextFixtures.localFetch())
        XCTAssertEqual(fallback.images.count, 374)
        XCTAssertTrue(fallback.warnings.isEmpty)
        XCTAssertEqual(SpriteLoader.fileURL("http://h/s?key=1", suffix: "@2x", ext: ".png"), "http://h/s@2x.png?key=1")
    }

    func testArraysPrefixIdsExceptDefault() throws {
        try TextFixtures.requireSuite()
        let refs = SpriteLoader.references(.array([
            .object(JSONObject([("id", "default"), ("url", "local://sprites/emerald")])),
            .object(JSONObject([("id", "sprite"), ("url", "local://sprites/sprite")])),
            .object(JSONObject([("id", "sprite"), ("url", "local://sprites/sprite")])),
        ]))
        XCTAssertEqual(refs.count, 2, "duplicate {id, url} pairs load once")
        let r = SpriteLoader.load(refs, pixelRatio: 1, fetch: TextFixtures.localFetch())
        XCTAssertTrue(r.images.contains { $0.id == "post_icon" })
        XCTAssertTrue(r.images.contains { $0.id == "sprite:wetland-17" })
        XCTAssertFalse(r.images.contains { $0.id == "wetland-17" })
    }

    func testStretchMetadataIsRead() throws {
        try TextFixtures.requireSuite()
        let r = SpriteLoader.load([SpriteReference(id: "default", url: "local://sprites/stretch")], pixelRatio: 1, fetch: TextFixtures.localFetch())
        let img = try XCTUnwrap(r.images.first { $0.id == "nine-part-textfit-wh-stretchOnly-proportional" }).image
        XCTAssertEqual(img.pixelRatio, 2)
        XCTAssertEqual(img.stretchX?.map { [$0.0, $0.1] }, [[10, 30]])
        XCTAssertEqual(img.content.map { [$0.0, $0.1, $0.2, $0.3] }, [10, 10, 30, 30])
        XCTAssertEqual(img.textFitWidth, .stretchOnly)
        XCTAssertEqual(img.textFitHeight, .proportional)
    }

    func testABrokenSpriteCostsOnlyItself() throws {
        try TextFixtures.requireSuite()
        let good = TextFixtures.localFetch()
        // Bad JSON for "bad"; a PNG too small for its JSON for "mismatch"; "gone" does not exist.
        let fetch: ResourceFetch = { url in
            if url.hasPrefix("mem://bad") { return url.hasSuffix(".json") ? Array("{\"a\": [".utf8) : try good("local://sprites/sprite.png") }
            if url.hasPrefix("mem://mismatch") { return url.hasSuffix(".json") ? try good("local://sprites/sprite.json") : try good("local://sprites/1x.png") }
            return try good(url)
        }
        let refs = [SpriteReference(id: "bad", url: "mem://bad"), SpriteReference(id: "mismatch", url: "mem://mismatch"),
                    SpriteReference(id: "gone", url: "local://sprites/gone"), SpriteReference(id: "default", url: "local://sprites/emerald")]
        let r = SpriteLoader.load(refs, pixelRatio: 1, fetch: fetch)
        XCTAssertEqual(r.warnings.map(\.spriteID), ["bad", "mismatch", "gone"])
        XCTAssertTrue(r.warnings[0].message.contains("not JSON"), r.warnings[0].description)
        XCTAssertTrue(r.warnings[1].message.contains("do not match"), r.warnings[1].description)
        XCTAssertTrue(r.warnings[2].description.contains("gone.json"), r.warnings[2].description)
        XCTAssertTrue(r.images.allSatisfy { !$0.id.contains(":") })
        XCTAssertFalse(r.images.isEmpty)
    }

    func testStoreValidatesAndUpdatesAsGLJS() throws {
        let img = StyleImage(data: StraightImage(width: 4, height: 4))
        var store = StyleImageStore()
        try store.add("a", img)
        XCTAssertThrowsError(try store.add("a", img))
        var bad = img
        bad.stretchX = [(2, 1)]
        XCTAssertThrowsError(try store.add("b", bad)) { XCTAssertTrue("\($0)".contains("stretchX"), "\($0)") }
        bad = img
        bad.content = (0, 0, 5, 4)
        XCTAssertThrowsError(try store.add("c", bad)) { XCTAssertTrue("\($0)".contains("content"), "\($0)") }
        XCTAssertThrowsError(try store.update("a", StyleImage(data: StraightImage(width: 5, height: 4))))
        try store.update("a", img)
        XCTAssertEqual(store["a"]?.version, 1)
        try store.add("10", img)
        try store.add("2", img)
        XCTAssertEqual(store.images(for: ["a", "10", "missing", "2"]).map(\.id), ["2", "10", "a"])
        store.remove("a")
        XCTAssertNil(store["a"])
    }

    func testCanvasRoundTripLosesWhatAPremultipliedCanvasLoses() {
        let img = StraightImage(width: 3, height: 1, pixels: [200, 100, 7, 255, 200, 100, 7, 3, 9, 9, 9, 0])
        let out = StyleImage.canvasRoundTrip(img)
        XCTAssertEqual(Array(out.pixels[0..<4]), [200, 100, 7, 255])
        // alpha 3: 200·3/255 = 2.35 → 2 premultiplied → 2·255/3 = 170.
        XCTAssertEqual(out.pixels[4], 170)
        XCTAssertEqual(Array(out.pixels[8..<12]), [0, 0, 0, 0])
    }
}
