import Foundation
import XCTest
import GLMapCore
import GLMapPNG
import GLMapTestSupport

/// A PNG whose IDAT was compressed in parallel pieces (ChunkedDeflate) decodes to the same pixels
/// in Pillow (zlib) and in headless Chromium (a browser's decoder), not only in libpng. The image is
/// opaque, so it is also the RGB form (colour type 2) these decoders read.
final class ParallelPNGDecodersTests: XCTestCase {
    /// An opaque 1024×1024 image (4 MiB of rows: four pieces) with flat areas, edges, gradients and noise (opaque, so a
    /// browser canvas returns the exact bytes).
    func image() -> StraightImage {
        var img = StraightImage(width: 1024, height: 1024)
        var s: UInt64 = 99
        for y in 0..<img.height {
            for x in 0..<img.width {
                let i = (y * img.width + x) * 4
                s = s &* 6364136223846793005 &+ 1442695040888963407
                let noisy = y > 800
                img.pixels[i] = noisy ? UInt8(s >> 56) : ((x / 50 + y / 40) % 2 == 0 ? 230 : 60)
                img.pixels[i + 1] = UInt8((x + y) & 255)
                img.pixels[i + 2] = noisy ? UInt8((s >> 48) & 255) : UInt8(y & 255)
                img.pixels[i + 3] = 255
            }
        }
        return img
    }

    /// FNV-1a over the RGBA bytes (the page computes the same).
    func fnv(_ bytes: [UInt8]) -> UInt32 {
        var h: UInt32 = 2166136261
        for b in bytes { h = (h ^ UInt32(b)) &* 16777619 }
        return h
    }

    func write(_ png: [UInt8]) throws -> URL {
        let dir = makeTempDir()
        let url = dir.appendingPathComponent("pieces.png")
        try Data(png).write(to: url)
        return url
    }

    func parallelPNG() throws -> (StraightImage, [UInt8]) {
        let img = image()
        let png = try PNGEncoder.encode(img, threads: 4)
        XCTAssertEqual(png, try PNGEncoder.encode(img, threads: 1), "the same bytes on any number of threads")
        return (img, png)
    }

    func testPillowDecodesIt() throws {
        let py = try OutsideTool.requirePython(["PIL"])
        let (img, png) = try parallelPNG()
        let url = try write(png)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let script = """
            import sys, zlib
            from PIL import Image
            im = Image.open(sys.argv[1]); im.load()
            assert im.mode == "RGB", im.mode   # opaque: written as RGB (colour type 2)
            im = im.convert("RGBA")
            sys.stdout.write("%d %d %d" % (im.width, im.height, zlib.crc32(im.tobytes())))
            """
        let r = OutsideTool.run(py, ["-c", script, url.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let crc = img.pixels.withUnsafeBytes { UInt32(truncatingIfNeeded: crc32ofBytes($0)) }
        XCTAssertEqual(String(decoding: r.stdout, as: UTF8.self), "1024 1024 \(crc)")
    }

    func testChromiumDecodesIt() throws {
        let chromium = try OutsideTool.requireCommand("chromium", package: "chromium")
        let (img, png) = try parallelPNG()
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A data: URL keeps the canvas untainted, so the page can read the decoded pixels back.
        let page = """
            <!doctype html><html><body><canvas id="c" width="1024" height="1024"></canvas><pre id="out">pending</pre><script>
            const img = new Image();
            img.onload = () => {
              const ctx = document.getElementById("c").getContext("2d", {colorSpace: "srgb"});
              ctx.drawImage(img, 0, 0);
              const d = ctx.getImageData(0, 0, 1024, 1024).data;
              let h = 2166136261;
              for (let i = 0; i < d.length; i++) { h = Math.imul(h ^ d[i], 16777619) >>> 0; }
              document.getElementById("out").textContent = "decoded " + img.naturalWidth + "x" + img.naturalHeight + " fnv " + h;
            };
            img.onerror = () => { document.getElementById("out").textContent = "decode error"; };
            img.src = "data:image/png;base64,\(Data(png).base64EncodedString())";
            </script></body></html>
            """
        let html = dir.appendingPathComponent("page.html")
        try Data(page.utf8).write(to: html)
        let r = OutsideTool.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--force-color-profile=srgb",
                                          "--virtual-time-budget=5000", "--user-data-dir=\(dir.path)/profile", "--dump-dom", html.absoluteString],
                               timeout: 120)
        let dom = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertTrue(dom.contains("decoded 1024x1024 fnv \(fnv(img.pixels))"), "Chromium: \(dom.suffix(300)) \(r.stderr.suffix(300))")
    }
}

/// zlib's CRC-32 (as Python's zlib.crc32 computes it).
private func crc32ofBytes(_ b: UnsafeRawBufferPointer) -> UInt {
    var table = [UInt32](repeating: 0, count: 256)
    for i in 0..<256 {
        var c = UInt32(i)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB88320 ^ (c >> 1) : c >> 1 }
        table[i] = c
    }
    var crc: UInt32 = 0xFFFFFFFF
    for byte in b { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return UInt(crc ^ 0xFFFFFFFF)
}
