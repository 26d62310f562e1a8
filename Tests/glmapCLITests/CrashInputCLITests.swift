import Foundation
import XCTest
@testable import GLMapCLI
import GLMap
import GLMapCore
import GLMapTestSupport

/// Inputs that used to crash glmap (Swift traps, aborts): each is now an exact message, a
/// documented exit code, and no file left behind.
final class CrashInputCLITests: FolderTestCase {
    override var folderPrefix: String { "glmap-crash" }

    var exampleStyle: String { SharedData.exampleStyle }
    var exe: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("glmap") }

    func run(_ args: [String], stdin: [UInt8] = []) -> (code: Int32, stdout: [UInt8], stderr: String) {
        let r = CommandLineRun(args, stdin: stdin)
        return (r.code, r.stdout, r.stderr)
    }

    func write(_ name: String, _ text: String) -> String { folder.write(name, text) }

    func files() -> [String] { folder.files() }

    /// Runs the real executable through /bin/sh so the test can close or redirect its streams.
    func shell(_ script: String) throws -> (code: Int32, stderr: String) {
        guard FileManager.default.isExecutableFile(atPath: exe.path) else {
            XCTFail("glmap executable not found next to the test bundle at \(exe.path); build it with swift build")
            return (-1, "")
        }
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        let r = OutsideTool.run("/bin/sh", ["-c", script, exe.path], environment: env, in: tmp)
        return (r.status, r.stderr)
    }

    // MARK: huge longitudes

    func testHugeLonFlagRenders() throws {
        for lon in ["1e21", "-1e21", "1e300", "-1e300"] {
            let out = tmp.appendingPathComponent("lon.png").path
            let r = run(["render", "-s", exampleStyle, "-o", out, "--lon", lon, "-w", "16", "-h", "16", "--backend", "cpu"])
            XCTAssertEqual(r.code, 0, "--lon \(lon): \(r.stderr)")
            XCTAssertEqual(r.stderr, "")
            XCTAssertEqual(files(), ["lon.png"])
            try FileManager.default.removeItem(atPath: out)
        }
    }

    func testHugeLonIsTheSameMapAsItsWrappedLongitude() throws {
        // 1e300 mod 360 lands somewhere on the world: it must draw exactly what that longitude draws.
        let wrapped = (1e300 + 180).truncatingRemainder(dividingBy: 360) - 180
        let a = run(["render", "-s", exampleStyle, "-o", "-", "--lon", "1e300", "-w", "16", "-h", "16", "--backend", "cpu"])
        let b = run(["render", "-s", exampleStyle, "-o", "-", "--lon", String(wrapped), "-w", "16", "-h", "16", "--backend", "cpu"])
        XCTAssertEqual(a.code, 0, a.stderr)
        XCTAssertEqual(a.stdout, b.stdout)
    }

    func testHugeStyleCenterRenders() {
        let style = write("center.json", """
        {"version": 8, "center": [1e300, 0], "zoom": 2,
         "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "c", "type": "circle", "source": "p"}]}
        """)
        for backend in ["cpu", "auto"] {
            let r = run(["render", "-s", style, "-o", tmp.appendingPathComponent("c.png").path, "-w", "16", "-h", "16", "--backend", backend])
            XCTAssertEqual(r.code, 0, r.stderr)
        }
        XCTAssertEqual(files(), ["c.png", "center.json"])
    }

    func testHugeLonInAFramesLineRenders() {
        let frames = write("f.jsonl", """
        {"lon": 1e300, "output": "\(tmp.path)/a.png"}
        {"lon": -1e21, "output": "\(tmp.path)/b.png"}
        """)
        let r = run(["render", "-s", exampleStyle, "--frames", frames, "-w", "16", "-h", "16", "--quiet", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(files(), ["a.png", "b.png", "f.jsonl"])
    }

    // MARK: one-character file names (Foundation's deletingLastPathComponent traps on them)

    func testOneCharacterOutputNameRenders() throws {
        // Found by the cli fuzz target: `-o _` crashed in NSString.deletingLastPathComponent.
        let r = try shell("exec \"$0\" render -s '\(exampleStyle)' -o _ -w 8 -h 8 --backend cpu")
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(files(), ["_"])
    }

    func testOneCharacterNamesInFramesAndTiles() throws {
        _ = write("f", #"{"output": "a"}"#)
        let frames = try shell("exec \"$0\" render -s '\(exampleStyle)' --frames f -w 8 -h 8 --backend cpu -q")
        XCTAssertEqual(frames.code, 0, frames.stderr)
        let tiles = try shell("exec \"$0\" tiles -s '\(exampleStyle)' -z 0 -o t --backend cpu -q")
        XCTAssertEqual(tiles.code, 0, tiles.stderr)
        XCTAssertEqual(files(), ["a", "f", "t"])
        XCTAssertEqual(PathText.directory(of: "a"), "")
        XCTAssertEqual(PathText.directory(of: "/a"), "/")
        XCTAssertEqual(PathText.directory(of: "d/e/"), "d")
        XCTAssertEqual(PathText.lastComponent(of: "d/e.png"), "e.png")
        XCTAssertEqual(PathText.pathExtension(of: "d/e.PNG"), "PNG")
        XCTAssertEqual(PathText.pathExtension(of: ".hidden"), "")
    }

    // MARK: frames "output": "-"

    func testFramesLineWritingStandardOutputIsRefused() {
        let frames = write("f.jsonl", #"{"output": "-"}"#)
        let r = run(["render", "-s", exampleStyle, "--frames", frames])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "glmap: \(frames):1: \"output\": \"-\" (standard output) is not allowed in a frames file: standard output holds one image, give each frame a file\n")
        XCTAssertEqual(r.stdout, [])
        XCTAssertEqual(files(), ["f.jsonl"])
    }

    // MARK: local:// with a relative style path

    func testLocalDataWithARelativeStylePath() throws {
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent("data"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent("styles"), withIntermediateDirectories: true)
        _ = write("data/p.geojson", #"{"type": "Point", "coordinates": [0, 0]}"#)
        _ = write("styles/s.json", """
        {"version": 8, "center": [0, 0], "zoom": 0, "sources": {"p": {"type": "geojson", "data": "local://data/p.geojson"}},
         "layers": [{"id": "c", "type": "circle", "source": "p"}]}
        """)
        // The real executable in tmp/styles with the relative path "s.json": the search climbs to tmp.
        let found = try shell("cd styles && exec \"$0\" render -s s.json -o out.png -w 8 -h 8 --backend cpu")
        XCTAssertEqual(found.code, 0, found.stderr)
        XCTAssertEqual(found.stderr, "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("styles/out.png").path))
        // A local:// file found nowhere up the folders is the usual missing-source warning, not a crash.
        _ = write("styles/t.json", """
        {"version": 8, "center": [0, 0], "zoom": 0, "sources": {"p": {"type": "geojson", "data": "local://nowhere/p.geojson"}},
         "layers": [{"id": "c", "type": "circle", "source": "p"}]}
        """)
        let missing = try shell("cd styles && exec \"$0\" render -s t.json -o out2.png -w 8 -h 8 --backend cpu")
        XCTAssertEqual(missing.code, 0, missing.stderr)
        XCTAssertEqual(missing.stderr, "glmap: warning: source \"p\": cannot read \(tmp.path)/styles/nowhere/p.geojson: file missing or unreadable\n")
    }

    func testRelativeDataInAStyleFromStandardInputSaysWhereItLooked() {
        let style = #"{"version": 8, "center": [0, 0], "zoom": 0, "sources": {"p": {"type": "geojson", "data": "not-here.geojson"}}, "layers": [{"id": "c", "type": "circle", "source": "p"}]}"#
        let cwd = FileManager.default.currentDirectoryPath
        let r = run(["render", "-s", "-", "-o", tmp.appendingPathComponent("o.png").path, "-w", "8", "-h", "8", "--backend", "cpu"], stdin: Array(style.utf8))
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "glmap: warning: source \"p\": cannot read \(cwd)/not-here.geojson: file missing or unreadable (the style came from standard input, so \"not-here.geojson\" resolves against the current folder \(cwd))\n")
        let strict = run(["render", "-s", "-", "-o", tmp.appendingPathComponent("s.png").path, "--strict"], stdin: Array(style.utf8))
        XCTAssertEqual(strict.code, 2)
        XCTAssertEqual(files(), ["o.png"])
    }

    // MARK: standard output that cannot be written

    func testClosedStandardOutputIsAnIOFailure() throws {
        let r = try shell("exec \"$0\" render -s '\(exampleStyle)' -o - -w 8 -h 8 --backend cpu >&-")
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.stderr, "glmap: standard output: cannot write: it is closed\n")
        XCTAssertEqual(files(), [])
    }

    func testClosedStandardOutputDoesNotMatterWhenWritingAFile() throws {
        let r = try shell("exec \"$0\" render -s '\(exampleStyle)' -o f.png -w 8 -h 8 --backend cpu >&-")
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(files(), ["f.png"])
    }

    func testFullDiskOnStandardOutputIsAnIOFailure() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { throw XCTSkip("/dev/full is missing") }
        let r = try shell("exec \"$0\" render -s '\(exampleStyle)' -o - -w 8 -h 8 --backend cpu >/dev/full")
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stderr.hasPrefix("glmap: standard output: cannot write: no space left on the device (0 of "), r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix(" bytes written)\n"), r.stderr)
    }

    func testHelpToAFullDiskIsAnIOFailure() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { throw XCTSkip("/dev/full is missing") }
        let r = try shell("exec \"$0\" render --help >/dev/full")
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stderr.hasPrefix("glmap: standard output: cannot write: no space left on the device"), r.stderr)
    }

    func testVanishedReaderOfStandardOutputIsAnIOFailure() throws {
        // A 1024² PNG is larger than a pipe's buffer; the reader opens the fifo and exits at once.
        let script = """
        mkfifo p; (exec 0<p; exit 0) & "$0" render -s '\(exampleStyle)' -o - -w 1024 -h 1024 --backend cpu >p; code=$?; wait; rm p; exit $code
        """
        let piped = try shell(script)
        XCTAssertEqual(piped.code, 1, piped.stderr)
        XCTAssertTrue(piped.stderr.hasPrefix("glmap: standard output: cannot write: the program reading it has exited (broken pipe)"), piped.stderr)
        XCTAssertEqual(files(), [])
    }
}
