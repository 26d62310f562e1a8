import Foundation
import XCTest
@testable import GLMapCLI
import GLMap
import GLMapArchives
import GLMapPyramid
import GLMapCore
import GLMapPNG
import GLMapTestSupport

/// JPEG and WebP output (render, --frames, tiles), decoded by Pillow and by the formats' own
/// command-line decoders (libjpeg-turbo's djpeg, libwebp's dwebp); format choice and its errors.
final class OutputFormatTests: XCTestCase {
    var tmp: URL!
    override func setUp() { tmp = makeTempDir() }
    override func tearDown() { try? FileManager.default.removeItem(at: tmp) }

    var exampleStyle: String { SharedData.exampleStyle }

    func run(_ args: [String], stdin: [UInt8] = []) -> (code: Int32, stdout: [UInt8], stderr: String) {
        var out: [UInt8] = [], err = ""
        let io = CommandIO(readStdin: { stdin }, writeStdout: { out += $0 }, writeStderr: { err += $0 })
        return (GLMapCommand.run(args, io: io), out, err)
    }

    func path(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    /// Pillow's reading of an image: format, width, height and the RGBA of a few pixels.
    func pillow(_ file: String, pixels: [(Int, Int)]) throws -> (format: String, width: Int, height: Int, rgba: [[Int]]) {
        let py = try OutsideTool.requirePython(["PIL"])
        let script = """
        import sys, json
        from PIL import Image
        im = Image.open(sys.argv[1]); im.load()
        fmt = im.format; rgba = im.convert("RGBA")
        pts = json.loads(sys.argv[2])
        print(json.dumps({"format": fmt, "size": rgba.size, "px": [list(rgba.getpixel((x, y))) for x, y in pts]}))
        """
        let pts = "[" + pixels.map { "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]"
        let r = OutsideTool.run(py, ["-c", script, file, pts])
        guard r.status == 0, let obj = try JSONSerialization.jsonObject(with: Data(r.stdout)) as? [String: Any],
              let size = obj["size"] as? [Int], let px = obj["px"] as? [[Int]], let fmt = obj["format"] as? String else {
            XCTFail("Pillow could not read \(file): \(r.stderr)"); throw XCTSkip("unreadable")
        }
        return (fmt, size[0], size[1], px)
    }

    let probe = [(0, 0), (40, 30), (100, 50), (127, 63)]

    /// The PNG render's straight-alpha pixels at the probe points (the reference for the others).
    func pngReference() throws -> [[Int]] {
        let png = path("ref.png")
        let r = run(["render", "-s", exampleStyle, "-o", png, "-w", "128", "-h", "64", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let img = try PNGDecoder.decode(contentsOf: png)
        return probe.map { pixel(img, $0.0, $0.1) }
    }

    func testJPEGDecodesInPillowAndDjpeg() throws {
        let ref = try pngReference()
        let out = path("map.jpg")
        let r = run(["render", "-s", exampleStyle, "-o", out, "-w", "128", "-h", "64", "--backend", "cpu", "--quality", "95"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        XCTAssertEqual(Array(bytes.prefix(3)), [0xFF, 0xD8, 0xFF], "JPEG SOI marker")
        let p = try pillow(out, pixels: probe)
        XCTAssertEqual(p.format, "JPEG"); XCTAssertEqual(p.width, 128); XCTAssertEqual(p.height, 64)
        for (a, b) in zip(p.rgba, ref) { XCTAssertTrue(close(Array(a.prefix(3)), Array(b.prefix(3)), tolerance: 24), "JPEG \(a) vs PNG \(b)") }
        let djpeg = try OutsideTool.requireCommand("djpeg", package: "libjpeg-turbo-progs")
        let d = OutsideTool.run(djpeg, ["-ppm", out])
        XCTAssertEqual(d.status, 0, d.stderr)
        XCTAssertTrue(d.stdout.starts(with: Array("P6\n128 64\n255\n".utf8)), "djpeg writes a 128×64 PPM")
    }

    func testLossyWebPDecodesInPillowAndDwebp() throws {
        let ref = try pngReference()
        let out = path("map.webp")
        let r = run(["render", "-s", exampleStyle, "-o", out, "-w", "128", "-h", "64", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        XCTAssertEqual(Array(bytes[0..<4]), Array("RIFF".utf8)); XCTAssertEqual(Array(bytes[8..<12]), Array("WEBP".utf8))
        XCTAssertEqual(Array(bytes[12..<16]), Array("VP8 ".utf8), "lossy WebP of an opaque frame is a VP8 chunk")
        let p = try pillow(out, pixels: probe)
        XCTAssertEqual(p.format, "WEBP"); XCTAssertEqual(p.width, 128); XCTAssertEqual(p.height, 64)
        for (a, b) in zip(p.rgba, ref) { XCTAssertTrue(close(a, b, tolerance: 24), "WebP \(a) vs PNG \(b)") }
        try dwebp(out, width: 128, height: 64)
    }

    func testLosslessWebPEqualsPNGPixels() throws {
        // Straight alpha with transparent and half-transparent pixels: no background layer.
        let style = path("circles.json")
        try Data(##"{"version":8,"center":[0,0],"zoom":1,"sources":{"p":{"type":"geojson","data":{"type":"Point","coordinates":[0,0]}}},"layers":[{"id":"c","type":"circle","source":"p","paint":{"circle-radius":20,"circle-color":"rgba(200,40,10,0.6)","circle-blur":0.5}}]}"##.utf8).write(to: URL(fileURLWithPath: style))
        let png = path("c.png"), webp = path("c.webp")
        XCTAssertEqual(run(["render", "-s", style, "-o", png, "-w", "64", "-h", "64", "--backend", "cpu"]).code, 0)
        let r = run(["render", "-s", style, "-o", webp, "-w", "64", "-h", "64", "--backend", "cpu", "--lossless"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: webp)))
        XCTAssertEqual(Array(bytes[12..<16]), Array("VP8L".utf8), "lossless WebP is a VP8L chunk")
        let img = try PNGDecoder.decode(contentsOf: png)
        let pts = [(0, 0), (32, 32), (20, 32), (14, 32), (10, 32), (32, 50)]
        let p = try pillow(webp, pixels: pts)
        for (i, pt) in pts.enumerated() {
            let want = pixel(img, pt.0, pt.1)
            // Alpha-0 pixels: both keep RGB; compare all four channels everywhere.
            XCTAssertEqual(p.rgba[i], want, "pixel \(pt)")
        }
        XCTAssertTrue(pts.contains { pixel(img, $0.0, $0.1)[3] > 0 && pixel(img, $0.0, $0.1)[3] < 255 }, "the probe covers half-transparent pixels")
        try dwebp(webp, width: 64, height: 64)
    }

    func dwebp(_ file: String, width: Int, height: Int) throws {
        let tool = try OutsideTool.requireCommand("dwebp", package: "webp")
        let out = file + ".decoded.pam"
        let d = OutsideTool.run(tool, [file, "-pam", "-o", out])
        XCTAssertEqual(d.status, 0, d.stderr)
        let pam = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: out))).map { $0.prefix(60) } ?? Data(), as: UTF8.self)
        XCTAssertTrue(pam.hasPrefix("P7\nWIDTH \(width)\nHEIGHT \(height)\n"), "dwebp decodes \(width)×\(height): \(pam)")
    }

    func testJPEGCompositesOnStyleBackgroundOrWhite() throws {
        let noBackground = path("nobg.json")
        try Data(##"{"version":8,"sources":{},"layers":[]}"##.utf8).write(to: URL(fileURLWithPath: noBackground))
        let halfBlue = path("halfblue.json")
        try Data(##"{"version":8,"sources":{},"layers":[{"id":"bg","type":"background","paint":{"background-color":"rgba(0,0,255,0.5)"}}]}"##.utf8).write(to: URL(fileURLWithPath: halfBlue))
        XCTAssertEqual(run(["render", "-s", noBackground, "-o", path("w.jpg"), "-w", "16", "-h", "16", "--lon", "0", "--lat", "0", "--zoom", "0"]).code, 0)
        XCTAssertEqual(run(["render", "-s", halfBlue, "-o", path("b.jpg"), "-w", "16", "-h", "16", "--zoom", "0"]).code, 0)
        let white = try pillow(path("w.jpg"), pixels: [(8, 8)]).rgba[0]
        let blue = try pillow(path("b.jpg"), pixels: [(8, 8)]).rgba[0]
        XCTAssertTrue(close(white, [255, 255, 255, 255], tolerance: 2), "transparent → white matte: \(white)")
        XCTAssertTrue(close(blue, [0, 0, 255, 255], tolerance: 3), "half-transparent blue over the blue matte: \(blue)")
    }

    func testUnknownExtensionIsAnErrorAndWritesNothing() throws {
        let out = path("map.gif")
        let r = run(["render", "-s", exampleStyle, "-o", out, "-w", "16", "-h", "16"])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "glmap: \(out): unknown image extension \".gif\" (glmap writes .png, .jpg, .jpeg or .webp; or name the format with --format png|jpeg|webp)\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [])
    }

    func testFormatFlagAndItsErrors() throws {
        let r = run(["render", "-s", exampleStyle, "-o", "-", "-w", "16", "-h", "16", "--format", "jpeg"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(Array(r.stdout.prefix(2)), [0xFF, 0xD8])
        let mismatch = run(["render", "-s", exampleStyle, "-o", path("a.png"), "--format", "webp"])
        XCTAssertEqual(mismatch.code, 2); XCTAssertTrue(mismatch.stderr.contains("--format webp disagrees"), mismatch.stderr)
        let q = run(["render", "-s", exampleStyle, "-o", path("a.jpg"), "--quality", "0"])
        XCTAssertEqual(q.code, 2); XCTAssertTrue(q.stderr.contains("--quality expects 1 to 100"), q.stderr)
        let pngQ = run(["render", "-s", exampleStyle, "-o", path("a.png"), "--quality", "80"])
        XCTAssertEqual(pngQ.code, 2); XCTAssertTrue(pngQ.stderr.contains("not png"), pngQ.stderr)
        let ll = run(["render", "-s", exampleStyle, "-o", path("a.jpg"), "--lossless"])
        XCTAssertEqual(ll.code, 2); XCTAssertTrue(ll.stderr.contains("--lossless applies to WebP only"), ll.stderr)
        let bad = run(["render", "-s", exampleStyle, "-o", path("a"), "--format", "gif"])
        XCTAssertEqual(bad.code, 2); XCTAssertTrue(bad.stderr.contains("--format expects png, jpeg or webp"), bad.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [])
    }

    func testFramesTakeEachOutputsExtension() throws {
        let frames = path("frames.jsonl")
        let lines = ["a.png", "b.jpg", "c.webp"].map { #"{"output":"\#(path($0))","zoom":10}"# }.joined(separator: "\n")
        try Data(lines.utf8).write(to: URL(fileURLWithPath: frames))
        let r = run(["render", "-s", exampleStyle, "--frames", frames, "-w", "32", "-h", "32", "--quiet"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try pillow(path("a.png"), pixels: []).format, "PNG")
        XCTAssertEqual(try pillow(path("b.jpg"), pixels: []).format, "JPEG")
        XCTAssertEqual(try pillow(path("c.webp"), pixels: []).format, "WEBP")
        let badFrames = path("bad.jsonl")
        try Data(#"{"output":"\#(path("x.png"))"}\#n{"output":"\#(path("y.bmp"))"}"#.utf8).write(to: URL(fileURLWithPath: badFrames))
        let bad = run(["render", "-s", exampleStyle, "--frames", badFrames, "--quiet"])
        XCTAssertEqual(bad.code, 2)
        XCTAssertTrue(bad.stderr.contains("bad.jsonl:2:") && bad.stderr.contains("unknown image extension \".bmp\""), bad.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("x.png")), "nothing is rendered before the whole file is checked")
    }

    func testTilesInWebPAndJPEG() throws {
        let dir = path("tiles")
        let r = run(["tiles", "-s", exampleStyle, "-z", "0-1", "-o", dir, "--format", "webp", "--quiet", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let p = try pillow(dir + "/1/1/0.webp", pixels: [(0, 0)])
        XCTAssertEqual(p.format, "WEBP"); XCTAssertEqual(p.width, 256)
        let mb = path("t.mbtiles")
        let m = run(["tiles", "-s", exampleStyle, "-z", "0-1", "-o", mb, "--format", "jpeg", "--quality", "80", "--quiet", "--backend", "cpu"])
        XCTAssertEqual(m.code, 0, m.stderr)
        let archive = try TileArchiveReader.open(mb)
        XCTAssertEqual(archive.metadata["format"], "jpg")
        let data = try XCTUnwrap(archive.tile(TileAddress(z: 1, x: 0, y: 1)))
        XCTAssertEqual(Array(data.prefix(2)), [0xFF, 0xD8])
    }
}
