import XCTest
import GLMapCLI
@testable import GLMapServer
import GLMapCore

/// `glmap serve`'s flags: usage errors exit 2 before anything listens; a bad style exits 2.
final class ServeCommandTests: XCTestCase {
    func run(_ args: [String]) -> (code: Int32, stderr: String) {
        let box = Locked("")
        let io = CommandIO(readStdin: { [] }, writeStdout: { _ in }, writeStderr: { text in box.withLock { $0 += text } })
        return (GLMapCommand.run(["serve"] + args, io: io), box.value)
    }

    func testMissingStyleIsAUsageError() {
        let r = run([])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("missing --style"), r.stderr)
    }

    func testBadStyleIdIsAUsageError() {
        let r = run(["--style", "..=\(exampleStyle)"])
        XCTAssertEqual(r.code, 2)
        let s = run(["--style", "a b=\(exampleStyle)"])
        XCTAssertEqual(s.code, 2)
        XCTAssertTrue(s.stderr.contains("style id"), s.stderr)
    }

    func testDuplicateIdsAreAUsageError() {
        let r = run(["--style", exampleStyle, "--style", "style=\(exampleStyle)"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("two styles have the id \"style\""), r.stderr)
    }

    func testBadNumbersAreUsageErrors() {
        for args in [["--port", "70000"], ["--jobs", "0"], ["--timeout", "-1"], ["--cache", "x"], ["--max-size", "99999"], ["--backend", "vulkan"]] {
            XCTAssertEqual(run(["--style", exampleStyle] + args).code, 2, "\(args)")
        }
    }

    func testMetatileOutOfRangeIsAUsageError() {
        for n in ["0", "65"] {
            let r = run(["--style", exampleStyle, "--port", "0", "--metatile", n])
            XCTAssertEqual(r.code, 2, n)
            XCTAssertEqual(r.stderr, "glmap: --metatile expects 1…64, got \(n)\n", n)
        }
    }

    func testInvalidStyleExits2() throws {
        let d = makeTempDir(); defer { try? FileManager.default.removeItem(at: d) }
        let path = d.appendingPathComponent("bad.json").path
        try "{\"version\": 8, \"layers\": [".write(toFile: path, atomically: true, encoding: .utf8)
        let r = run(["--style", path, "--port", "0"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("invalid JSON"), r.stderr)
    }

    func testStyleIdFromTheFileName() throws {
        XCTAssertEqual(try ServerConfiguration.StyleEntry.parse("../shared/scenes/world.style.json").id, "world")
        XCTAssertEqual(try ServerConfiguration.StyleEntry.parse("maps/city.json").id, "city")
        XCTAssertEqual(try ServerConfiguration.StyleEntry.parse("dc=maps/x.json"), .init(id: "dc", path: "maps/x.json"))
    }
}
