import Foundation
import XCTest
import GLMapCore
import GLMapPNG
@testable import GLMapServer

/// A Leaflet page (Debian's libjs-leaflet) showing the served tiles, opened in headless Chromium
/// (Debian's chromium) and screenshotted: the screenshot must be the four served tiles it shows.
final class LeafletChromiumTests: XCTestCase {
    func testLeafletPageShowsTheServedTiles() throws {
        let chromium = try tool("chromium", candidates: ["/usr/bin/chromium"], install: "apt-get install chromium (bash .ci/install-deps)")
        let leaflet = "/usr/share/javascript/leaflet"
        try requireFile("\(leaflet)/leaflet.js", install: "apt-get install libjs-leaflet (bash .ci/install-deps)")
        let s = try startServer(); defer { s.stop() }
        let dir = makeTempDir()
        // Centered on the corner shared by tiles 12/1171/1566 … 12/1172/1567, so a 512² map shows exactly those four.
        let corner = WebMercator.unproject(x: 1172.0 / 4096, y: 1567.0 / 4096)
        let page = """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8">
        <link rel="stylesheet" href="file://\(leaflet)/leaflet.css">
        <script src="file://\(leaflet)/leaflet.js"></script>
        <style>html, body, #map { margin: 0; padding: 0; width: 512px; height: 512px; overflow: hidden; }</style>
        </head><body><div id="map"></div>
        <script>
        var map = L.map('map', {zoomControl: false, attributionControl: false, fadeAnimation: false, zoomAnimation: false})
            .setView([\(corner.lat), \(corner.lon)], 12);
        L.tileLayer('\(s.base)/styles/dc/{z}/{x}/{y}.png', {tileSize: 256}).addTo(map);
        </script></body></html>
        """
        let html = dir.appendingPathComponent("index.html")
        try page.write(to: html, atomically: true, encoding: .utf8)
        let shot = dir.appendingPathComponent("screenshot.png")
        let r = try runTool(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-color-profile=srgb",
                                       "--user-data-dir=\(dir.appendingPathComponent("profile").path)",
                                       "--window-size=512,512", "--virtual-time-budget=10000", "--screenshot=\(shot.path)", html.absoluteString],
                            timeout: 120)
        XCTAssertEqual(r.code, 0, r.stderr)
        let image = try PNGDecoder.decode(contentsOf: shot.path)
        print("Leaflet screenshot: \(shot.path)")
        XCTAssertEqual([image.width, image.height], [512, 512])
        XCTAssertGreaterThanOrEqual(s.metrics.requests(status: 200), 4, "Chromium did not fetch the tiles")

        // The four served tiles stitched where Leaflet puts them.
        var expected = StraightImage(width: 512, height: 512)
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let t = try PNGDecoder.decode(try curl("\(s.base)/styles/dc/12/\(1171 + dx)/\(1566 + dy).png").body)
            for y in 0..<256 {
                for x in 0..<256 {
                    let src = (y * 256 + x) * 4, dst = ((dy * 256 + y) * 512 + dx * 256 + x) * 4
                    for c in 0..<4 { expected.pixels[dst + c] = t.pixels[src + c] }
                }
            }
        }
        var off = 0, colours: Set<[UInt8]> = []
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let d = (0..<3).map { abs(Int(image.pixels[i + $0]) - Int(expected.pixels[i + $0])) }.max()!
            if d > 24 { off += 1 }
            colours.insert(Array(image.pixels[i..<i + 3]))
        }
        XCTAssertGreaterThan(colours.count, 20, "the screenshot is nearly one colour: no map")
        XCTAssertLessThan(Double(off) / (512 * 512), 0.01, "\(off) screenshot pixels differ from the served tiles (\(shot.path))")
    }
}
