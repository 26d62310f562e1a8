import Foundation
import XCTest
@testable import GLMapCLI
import GLMap
import GLMapTestSupport

/// Input limits through the command line, at their default values: exact message, exit code 2,
/// and no output file left.
final class InputLimitsCLITests: FolderTestCase {
    override var folderPrefix: String { "glmap-limits" }
    var output: String { tmp.appendingPathComponent("out.png").path }

    func run(_ args: [String], stdin: [UInt8] = []) -> (code: Int32, stderr: String) {
        let r = CommandLineRun(args, stdin: stdin)
        return (r.code, r.stderr)
    }

    func write(_ name: String, _ text: String) -> String { folder.write(name, text) }

    /// A sparse file of `size` bytes (only its size is ever looked at).
    func sparseFile(_ name: String, size: Int) throws -> String {
        let p = tmp.appendingPathComponent(name).path
        FileManager.default.createFile(atPath: p, contents: nil)
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: p))
        try h.truncate(atOffset: UInt64(size))
        try h.close()
        return p
    }

    /// Renders `style` to `out.png` and checks the failure: exit 2, `message` on stderr, no output.
    func assertRejected(_ style: String, _ message: String, strict: Bool = false,
                        file: StaticString = #filePath, line: UInt = #line) {
        let r = run(["render", "-s", style, "-o", output, "-w", "16", "-h", "16"] + (strict ? ["--strict"] : []))
        XCTAssertEqual(r.code, 2, file: file, line: line)
        XCTAssertEqual(r.stderr, "glmap: \(message)\n", file: file, line: line)
        XCTAssertEqual(try? FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasSuffix(".png") || $0.contains(".tmp") },
                       [], "no output left", file: file, line: line)
    }

    func testStyleNestingDepth() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let style = write("style.json", #"{"version":8,"sources":{},"layers":[],"x":"# + deep + "}")
        assertRejected(style, "\(style): invalid JSON at 1:554: nesting deeper than 512 levels (limit InputLimits.maxNestingDepth)")
    }

    func testStyleStringLength() {
        let long = String(repeating: "a", count: (8 << 20) + 1)
        let style = write("style.json", #"{"version":8,"sources":{},"layers":[],"name":""# + long + #""}"#)
        assertRejected(style, "\(style): invalid JSON at 1:46: string longer than 8388608 bytes (limit InputLimits.maxStringBytes)")
    }

    func testStyleFileSize() throws {
        let style = try sparseFile("style.json", size: (64 << 20) + 1)
        assertRejected(style, "\(style): file is 67108865 bytes, more than 67108864 bytes (limit InputLimits.maxStyleFileBytes)")
    }

    func testStyleNonFiniteNumbers() {
        let nan = write("nan.json", #"{"version":8,"zoom":NaN,"sources":{},"layers":[]}"#)
        assertRejected(nan, "\(nan): invalid JSON at 1:21: expected a JSON value, found 'N'")
        let big = write("big.json", #"{"version":8,"zoom":1e999,"sources":{},"layers":[]}"#)
        assertRejected(big, "\(big): invalid JSON at 1:21: number 1e999 is out of range (it overflows a double to infinity)")
        // Standard input has no file name.
        let r = run(["render", "-s", "-", "-o", output], stdin: Array(#"{"version":8,"zoom":-1e400}"#.utf8))
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "glmap: style: invalid JSON at 1:21: number -1e400 is out of range (it overflows a double to infinity)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    /// A style drawing circles from the GeoJSON file `data`.
    func circleStyle(data: String) -> String {
        write("style.json", #"{"version":8,"sources":{"s":{"type":"geojson","data":""# + data
              + #""}},"layers":[{"id":"c","type":"circle","source":"s"}]}"#)
    }

    func testSourceOverALimitIsAWarningOrWithStrictExit2() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let data = write("deep.geojson", #"{"type":"Point","coordinates":[1,2],"bbox":"# + deep + "}")
        let style = circleStyle(data: data)
        let message = "source \"s\": invalid GeoJSON: \(data):1:555: bbox: nesting deeper than 512 levels (limit InputLimits.maxNestingDepth)"
        assertRejected(style, message, strict: true)
        // Without --strict the source is empty, as MapLibre leaves a source whose data fails to load.
        let r = run(["render", "-s", style, "-o", output, "-w", "16", "-h", "16"])
        XCTAssertEqual(r.code, 0)
        XCTAssertEqual(r.stderr, "glmap: warning: \(message)\n" + RenderCommand.defaultViewNote)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output))
    }

    func testGeoJSONFileSize() throws {
        let data = try sparseFile("big.geojson", size: (512 << 20) + 1)
        assertRejected(circleStyle(data: data),
                       "source \"s\": \(data): file is 536870913 bytes, more than 536870912 bytes (limit InputLimits.maxGeoJSONFileBytes)",
                       strict: true)
    }
}
