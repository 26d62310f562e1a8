import Foundation
import XCTest
import GLMapCore
import GLMapPNG
import GLMapStyle
@testable import GLMap
@testable import GLMapBatch
import GLMapCLI

/// Frames files (`glmap render --frames`): parsing, defaults, errors with line numbers, and the
/// batch run itself (every frame written, nothing written when a line is bad).
final class BatchFramesTests: XCTestCase {
    let defaults = RenderOptions(width: 64, height: 32, ratio: 1, zoom: 2)

    func parse(_ text: String) throws -> [FrameSpec] {
        try FramesFile.parse(Array(text.utf8), file: "f.jsonl", defaults: defaults, checkDirectories: false)
    }

    func testParsesFramesWithDefaults() throws {
        let frames = try parse("""
            {"lon": 10, "lat": 20, "zoom": 3.5, "output": "a.png"}

            {"width": 16, "height": 8, "ratio": 2, "bearing": 45, "pitch": 30, "output": "b.png"}\r
            """)
        XCTAssertEqual(frames.count, 2)
        XCTAssertEqual(frames[0].options.longitude, 10)
        XCTAssertEqual(frames[0].options.latitude, 20)
        XCTAssertEqual(frames[0].options.zoom, 3.5)
        XCTAssertEqual(frames[0].options.width, 64, "width from the defaults")
        XCTAssertEqual(frames[0].line, 1)
        XCTAssertEqual(frames[1].line, 3, "blank lines count")
        XCTAssertEqual(frames[1].options.zoom, 2, "zoom from the defaults")
        XCTAssertEqual(frames[1].options.width, 16)
        XCTAssertEqual(frames[1].options.ratio, 2)
        XCTAssertEqual(frames[1].options.bearing, 45)
        XCTAssertEqual(frames[1].options.pitch, 30)
        XCTAssertEqual(frames[1].output, "b.png")
    }

    func testBadLinesNameTheLine() {
        let cases: [(String, Int, String)] = [
            ("{\"output\":\"a.png\"}\n{\"zoom\": 3, \"output\": }\n", 2, "invalid JSON"),
            ("{\"output\":\"a.png\"}\n\n[1, 2]\n", 3, "expected a JSON object"),
            ("{\"zoom\": 3}\n", 1, "missing \"output\""),
            ("{\"output\":\"a.png\", \"zom\": 3}\n", 1, "unknown field \"zom\""),
            ("{\"output\":\"a.png\", \"zoom\": \"3\"}\n", 1, "\"zoom\" must be a number"),
            ("{\"output\":\"a.png\", \"width\": 10.5}\n", 1, "whole number"),
            ("{\"output\":\"a.png\", \"pitch\": 90}\n", 1, "pitch must be between"),
            ("{\"output\":\"a.png\"}\n{\"output\":\"a.png\"}\n", 2, "already written by line 1"),
        ]
        for (text, line, fragment) in cases {
            XCTAssertThrowsError(try parse(text), fragment) { error in
                guard let e = error as? FramesFileError else { return XCTFail("\(error) is not a FramesFileError") }
                XCTAssertEqual(e.line, line, e.description)
                XCTAssertTrue(e.description.contains(fragment), e.description)
                XCTAssertTrue(e.description.hasPrefix("f.jsonl:\(line): "), e.description)
                XCTAssertEqual(e.kind.exitCode, 2)
            }
        }
    }

    func testMissingDirectoryIsReported() {
        XCTAssertThrowsError(try FramesFile.parse(Array("{\"output\":\"/nonexistent-glmap/x.png\"}".utf8), file: "f", defaults: defaults)) {
            XCTAssertTrue("\($0)".contains("does not exist"), "\($0)")
        }
    }

    /// Runs the CLI in-process with captured streams.
    func run(_ args: [String]) -> (code: Int32, stderr: String) {
        var err = ""
        let io = CommandIO(readStdin: { [] }, writeStdout: { _ in }, writeStderr: { err += $0 })
        return (GLMapCommand.run(args, io: io), err)
    }

    func testRenderFramesWritesEveryFrame() throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let style = dir.appendingPathComponent("style.json").path
        try Data(##"{"version":8,"sources":{"p":{"type":"geojson","data":{"type":"Point","coordinates":[0,0]}}},"layers":[{"id":"bg","type":"background","paint":{"background-color":"#00ff00"}},{"id":"c","type":"circle","source":"p","paint":{"circle-radius":4,"circle-color":"#ff0000"}}]}"##.utf8).write(to: URL(fileURLWithPath: style))
        var lines: [String] = []
        for i in 0..<5 { lines.append("{\"zoom\": \(Double(i) * 0.5), \"output\": \"\(dir.path)/f\(i).png\"}") }
        lines.append("{\"width\": 10, \"height\": 6, \"ratio\": 2, \"output\": \"\(dir.path)/small.png\"}")
        let frames = dir.appendingPathComponent("frames.jsonl").path
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: frames))
        let r = run(["render", "--style", style, "--frames", frames, "-w", "32", "-h", "16", "--backend", "cpu", "--jobs", "2"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("6 frames"), "summary line: \(r.stderr)")
        for i in 0..<5 {
            let img = try PNGDecoder.decode(contentsOf: "\(dir.path)/f\(i).png")
            XCTAssertEqual([img.width, img.height], [32, 16])
            XCTAssertEqual(pixel(img, 16, 8), [255, 0, 0, 255], "the circle at the centre")
            XCTAssertEqual(pixel(img, 1, 1), [0, 255, 0, 255], "background")
        }
        let small = try PNGDecoder.decode(contentsOf: "\(dir.path)/small.png")
        XCTAssertEqual([small.width, small.height], [20, 12])
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        XCTAssertFalse(names.contains { $0.hasPrefix(".") }, "no temporary files: \(names)")

        // --quiet: nothing on stderr.
        XCTAssertEqual(run(["render", "--style", style, "--frames", frames, "-w", "8", "-h", "8", "--backend", "cpu", "--quiet"]).stderr, "")
    }

    func testBadFramesLineWritesNothing() throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let style = dir.appendingPathComponent("style.json").path
        try Data(##"{"version":8,"sources":{},"layers":[{"id":"bg","type":"background","paint":{"background-color":"#00ff00"}}]}"##.utf8).write(to: URL(fileURLWithPath: style))
        let frames = dir.appendingPathComponent("frames.jsonl").path
        try Data("{\"output\": \"\(dir.path)/a.png\"}\n{\"output\": \"\(dir.path)/b.png\", \"zoom\": 99}\n".utf8).write(to: URL(fileURLWithPath: frames))
        let r = run(["render", "--style", style, "--frames", frames, "--backend", "cpu"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("frames.jsonl:2: zoom must be between"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["frames.jsonl", "style.json"])
    }

    func testTileBucketsAreBuiltOncePerTileAndTileZoom() throws {
        let style = ##"{"version":8,"sources":{"p":{"type":"geojson","data":{"type":"Point","coordinates":[0.5,0.5]}}},"layers":[{"id":"c","type":"circle","source":"p","paint":{"circle-radius":["interpolate",["linear"],["zoom"],0,1,10,10]}}]}"##
        let scene = try Scene(style: StyleDocument.parse(Array(style.utf8), file: nil))
        let gpu = try BatchRenderer(scene: scene, backend: .gpu)
        // An 8-px view at zooms 3.1 and 3.9 around (0.5°, 0.5°) shows the same z3 tile: one bucket;
        // the zoom curve is a uniform.
        _ = try gpu.render(RenderOptions(width: 8, height: 8, longitude: 0.5, latitude: 0.5, zoom: 3.1))
        _ = try gpu.render(RenderOptions(width: 8, height: 8, longitude: 0.5, latitude: 0.5, zoom: 3.9))
        XCTAssertEqual(gpu.evaluations, 1)
        // Zoom 4 covers the view with a z4 tile: built anew.
        _ = try gpu.render(RenderOptions(width: 8, height: 8, longitude: 0.5, latitude: 0.5, zoom: 4))
        XCTAssertEqual(gpu.evaluations, 2)
    }
}
