import Foundation
import XCTest
@testable import GLMapCLI
import GLMap
import GLMapCore
import GLMapPNG

/// `render --bounds/--fit/--padding` (the view MapLibre Native's setBounds picks, drawn) and
/// `--source ID=FILE` overrides.
final class ViewAndSourceCLITests: XCTestCase {
    var tmp: URL!
    override func setUp() { tmp = makeTempDir() }
    override func tearDown() { try? FileManager.default.removeItem(at: tmp) }

    func run(_ args: [String], stdin: [UInt8] = []) -> (code: Int32, stdout: [UInt8], stderr: String) {
        var out: [UInt8] = [], err = ""
        let io = CommandIO(readStdin: { stdin }, writeStdout: { out += $0 }, writeStderr: { err += $0 })
        return (GLMapCommand.run(args, io: io), out, err)
    }

    func write(_ name: String, _ text: String) -> String {
        let p = tmp.appendingPathComponent(name).path
        XCTAssertTrue(FileManager.default.createFile(atPath: p, contents: Data(text.utf8)), "could not write \(p)")
        return p
    }

    /// A white background and a red box filling W,S,E,N of the `box` source.
    func boxStyle(_ w: Double, _ s: Double, _ e: Double, _ n: Double) -> String {
        write("box.json", """
        {"version":8,"sources":{"box":{"type":"geojson","data":{"type":"Polygon","coordinates":[[[\(w),\(s)],[\(e),\(s)],[\(e),\(n)],[\(w),\(n)],[\(w),\(s)]]]}},
         "other":{"type":"geojson","data":{"type":"Point","coordinates":[100,-40]}}},
         "layers":[{"id":"bg","type":"background","paint":{"background-color":"#ffffff"}},
                   {"id":"f","type":"fill","source":"box","paint":{"fill-color":"#ff0000","fill-antialias":false}},
                   {"id":"c","type":"circle","source":"other","paint":{"circle-radius":1}}]}
        """)
    }

    /// The red pixels' bounding box in the image.
    func redExtent(_ path: String) throws -> (minX: Int, minY: Int, maxX: Int, maxY: Int) {
        let img = try PNGDecoder.decode(contentsOf: path)
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<img.height { for x in 0..<img.width where pixel(img, x, y) == [255, 0, 0, 255] {
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        } }
        return (minX, minY, maxX, maxY)
    }

    func testBoundsFillTheViewWithPadding() throws {
        let style = boxStyle(-10, 35, 30, 60)
        let out = tmp.appendingPathComponent("b.png").path
        let r = run(["render", "-s", style, "-o", out, "-w", "200", "-h", "100", "--bounds", "-10,35,30,60", "--padding", "10", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let e = try redExtent(out)
        // The tighter axis spans the padded viewport (within a pixel), the other stays inside it.
        let fillsX = abs(e.minX - 10) <= 1 && abs(e.maxX - 189) <= 1
        let fillsY = abs(e.minY - 10) <= 1 && abs(e.maxY - 89) <= 1
        XCTAssertTrue(fillsX || fillsY, "red box at \(e)")
        XCTAssertTrue(e.minX >= 9 && e.maxX <= 190 && e.minY >= 9 && e.maxY <= 90, "red box at \(e) inside the padding")
    }

    func testFitOneSourceAndAllSources() throws {
        let style = boxStyle(5, 40, 15, 50)
        let out = tmp.appendingPathComponent("f.png").path
        XCTAssertEqual(run(["render", "-s", style, "-o", out, "-w", "128", "-h", "128", "--fit", "box", "--backend", "cpu"]).code, 0)
        let e = try redExtent(out)
        XCTAssertTrue((e.minX <= 1 && e.maxX >= 126) || (e.minY <= 1 && e.maxY >= 126), "the box fills the view: \(e)")
        // All sources: the point at 100°E, 40°S is in the box too, so the red box is small.
        XCTAssertEqual(run(["render", "-s", style, "-o", out, "-w", "128", "-h", "128", "--fit", "--backend", "cpu"]).code, 0)
        let all = try redExtent(out)
        XCTAssertLessThan(all.maxX - all.minX, 40, "fitting every source shows more than the box: \(all)")
        let unknown = run(["render", "-s", style, "-o", out, "--fit", "nope"])
        XCTAssertEqual(unknown.code, 2)
        XCTAssertTrue(unknown.stderr.contains("no source \"nope\" (its sources: box, other)"), unknown.stderr)
    }

    func testAntimeridianBoundsCenterOn180() throws {
        let style = write("am.json", ##"{"version":8,"sources":{"box":{"type":"geojson","data":{"type":"Polygon","coordinates":[[[170,-10],[190,-10],[190,10],[170,10],[170,-10]]]}}},"layers":[{"id":"bg","type":"background","paint":{"background-color":"#ffffff"}},{"id":"f","type":"fill","source":"box","paint":{"fill-color":"#ff0000","fill-antialias":false}}]}"##)
        let out = tmp.appendingPathComponent("am.png").path
        let r = run(["render", "-s", style, "-o", out, "-w", "100", "-h", "100", "--bounds", "170,-10,-170,10", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let e = try redExtent(out)
        XCTAssertTrue(e.minX <= 1 && e.maxX >= 98 && e.minY <= 1 && e.maxY >= 98, "a 20° square across 180° fills the view: \(e)")
    }

    func testViewFlagErrorsAndDefaultViewNote() throws {
        let style = boxStyle(0, 0, 1, 1)
        let out = tmp.appendingPathComponent("x.png").path
        let both = run(["render", "-s", style, "-o", out, "--bounds", "0,0,1,1", "--zoom", "3"])
        XCTAssertEqual(both.code, 2); XCTAssertTrue(both.stderr.contains("leave out --lon, --lat and --zoom"), both.stderr)
        let bad = run(["render", "-s", style, "-o", out, "--bounds", "0,0,1"])
        XCTAssertEqual(bad.code, 2); XCTAssertTrue(bad.stderr.contains("--bounds expects W,S,E,N"), bad.stderr)
        let room = run(["render", "-s", style, "-o", out, "-w", "20", "-h", "20", "--bounds", "0,0,1,1", "--padding", "10"])
        XCTAssertEqual(room.code, 2); XCTAssertTrue(room.stderr.contains("leaves no room"), room.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let note = run(["render", "-s", style, "-o", out, "-w", "8", "-h", "8"])
        XCTAssertEqual(note.code, 0)
        XCTAssertEqual(note.stderr, RenderCommand.defaultViewNote)
        let quiet = run(["render", "-s", style, "-o", out, "-w", "8", "-h", "8", "--zoom", "1"])
        XCTAssertEqual(quiet.stderr, "", "a view flag: no note")
    }

    func testSourceOverrideFromFileAndStdin() throws {
        let style = boxStyle(-170, -80, -160, -70)   // the style's box is far away…
        let green = write("replacement.geojson", #"{"type":"Polygon","coordinates":[[[-20,-20],[20,-20],[20,20],[-20,20],[-20,-20]]]}"#)
        let out = tmp.appendingPathComponent("s.png").path
        let r = run(["render", "-s", style, "-o", out, "-w", "64", "-h", "64", "--zoom", "1", "--source", "box=\(green)", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        var img = try PNGDecoder.decode(contentsOf: out)
        XCTAssertEqual(pixel(img, 32, 32), [255, 0, 0, 255], "…the override's box is drawn at the center")
        let stdin = Array(#"{"type":"Point","coordinates":[0,0]}"#.utf8)   // a point: the fill draws nothing
        let s = run(["render", "-s", style, "-o", out, "-w", "64", "-h", "64", "--zoom", "1", "--source", "box=-", "--backend", "cpu"], stdin: stdin)
        XCTAssertEqual(s.code, 0, s.stderr)
        img = try PNGDecoder.decode(contentsOf: out)
        XCTAssertEqual(pixel(img, 32, 32), [255, 255, 255, 255])
        // Both overrides at once, and fitting the overridden data.
        XCTAssertEqual(run(["render", "-s", style, "-o", out, "-w", "64", "-h", "64", "--source", "box=\(green)", "--source", "other=\(green)", "--fit", "--backend", "cpu"]).code, 0)
        img = try PNGDecoder.decode(contentsOf: out)
        XCTAssertEqual(pixel(img, 1, 32), [255, 0, 0, 255], "the fitted override fills the view")
    }

    func testSourceOverrideErrors() {
        let style = boxStyle(0, 0, 1, 1)
        let out = tmp.appendingPathComponent("e.png").path
        let unknown = run(["render", "-s", style, "-o", out, "--source", "roads=x.geojson"])
        XCTAssertEqual(unknown.code, 2)
        XCTAssertEqual(unknown.stderr, "glmap: --source roads=…: the style has no source \"roads\" (its sources: box, other)\n")
        let shape = run(["render", "-s", style, "-o", out, "--source", "box"])
        XCTAssertEqual(shape.code, 2); XCTAssertTrue(shape.stderr.contains("--source expects ID=FILE"), shape.stderr)
        let missing = run(["render", "-s", style, "-o", out, "--source", "box=/nonexistent/x.geojson"])
        XCTAssertEqual(missing.code, 1); XCTAssertTrue(missing.stderr.contains("no such file (--source box)"), missing.stderr)
        let stdinTwice = run(["render", "-s", "-", "-o", out, "--source", "box=-"])
        XCTAssertEqual(stdinTwice.code, 2)
        let badJSON = run(["render", "-s", style, "-o", out, "--source", "box=-"], stdin: Array("{".utf8))
        XCTAssertEqual(badJSON.code, 2); XCTAssertTrue(badJSON.stderr.contains("invalid JSON at 1:"), badJSON.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }
}
