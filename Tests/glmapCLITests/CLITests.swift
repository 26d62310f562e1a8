import Foundation
import XCTest
@testable import GLMapCLI
import GLMap
import GLMapPNG
import GLMapTestSupport

/// The `glmap` command line: exit codes, messages, stdin/stdout, and that failures leave no file.
final class CLITests: FolderTestCase {
    override var folderPrefix: String { "glmap-cli" }

    var exampleStyle: String { SharedData.exampleStyle }

    /// Runs the command in-process with captured streams.
    func run(_ args: [String], stdin: [UInt8] = []) -> (code: Int32, stdout: [UInt8], stderr: String) {
        let r = CommandLineRun(args, stdin: stdin)
        return (r.code, r.stdout, r.stderr)
    }

    func write(_ name: String, _ text: String) -> String { folder.write(name, text) }

    let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    func testRenderWritesPNG() throws {
        let out = tmp.appendingPathComponent("a.png").path
        let r = run(["render", "--style", exampleStyle, "--output", out, "-w", "64", "-h", "32", "-r", "2"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        XCTAssertEqual(Array(bytes.prefix(8)), pngSignature)
        // IHDR width and height (big endian) are 128 × 64 device pixels.
        XCTAssertEqual(Array(bytes[16..<24]), [0, 0, 0, 128, 0, 0, 0, 64])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
        XCTAssertEqual(leftovers, ["a.png"], "no temporary files left behind")
    }

    /// `--png-level small` (libdeflate) writes a smaller file than the default (igzip) of the same
    /// pixels; `fast` is the default's old name; anything else is a usage error naming the choices.
    func testPNGLevels() throws {
        func render(_ level: String?) throws -> [UInt8] {
            let out = tmp.appendingPathComponent("level-\(level ?? "none").png").path
            let r = run(["render", "--style", exampleStyle, "--output", out, "-w", "300", "-h", "200"] + (level.map { ["--png-level", $0] } ?? []))
            XCTAssertEqual(r.code, 0, r.stderr)
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        let plain = try render(nil), small = try render("small")
        XCTAssertEqual(try render("default"), plain)
        XCTAssertEqual(try render("fast"), plain)
        XCTAssertLessThan(small.count, plain.count)
        XCTAssertEqual(try PNGDecoder.decode(small), try PNGDecoder.decode(plain))
        let badOutput = tmp.appendingPathComponent("x.png").path
        let bad = run(["render", "--style", exampleStyle, "-o", badOutput, "--png-level", "9"])
        XCTAssertEqual(bad.code, 2)
        XCTAssertTrue(bad.stderr.contains("--png-level expects default or small, got \"9\""), bad.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: badOutput), "no file for a usage error")
    }

    func testStdinAndStdout() throws {
        let style = ##"{"version":8,"sources":{},"layers":[{"id":"bg","type":"background","paint":{"background-color":"#00ff00"}}]}"##
        let r = run(["render", "-s", "-", "-o", "-", "-w", "8", "-h", "8"], stdin: Array(style.utf8))
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(Array(r.stdout.prefix(8)), pngSignature)
    }

    func testUsageErrorsExitWith2() {
        XCTAssertEqual(run([]).code, 2)
        XCTAssertEqual(run(["paint"]).code, 2)
        let missingStyle = run(["render", "-o", tmp.appendingPathComponent("x.png").path])
        XCTAssertEqual(missingStyle.code, 2)
        XCTAssertTrue(missingStyle.stderr.contains("--style"), missingStyle.stderr)
        XCTAssertEqual(run(["render", "-s", exampleStyle, "--bogus"]).code, 2)
        let badNumber = run(["render", "-s", exampleStyle, "--zoom", "deep"])
        XCTAssertEqual(badNumber.code, 2)
        XCTAssertTrue(badNumber.stderr.contains("--zoom expects a number"), badNumber.stderr)
        XCTAssertEqual(run(["render", "-s", exampleStyle, "--width", "0"]).code, 2)
        XCTAssertEqual(run(["render", "-s", exampleStyle, "--pitch", "90"]).code, 2)
    }

    func testHelp() {
        let r = run(["render", "--help"])
        XCTAssertEqual(r.code, 0)
        let text = String(decoding: r.stdout, as: UTF8.self)
        for flag in ["--style", "--output", "--width", "--height", "--ratio", "--lon", "--lat", "--zoom", "--bearing", "--pitch", "-s,", "-h,"] {
            XCTAssertTrue(text.contains(flag), "help mentions \(flag)")
        }
    }

    func testInvalidJSONReportsLineAndColumnAndLeavesNoFile() {
        let style = write("bad.json", "{\n  \"version\": 8,\n  \"layers\": [ }\n")
        let out = tmp.appendingPathComponent("out.png").path
        let r = run(["render", "-s", style, "-o", out])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("bad.json"), r.stderr)
        XCTAssertTrue(r.stderr.contains("3:15"), "line:column of the stray brace: \(r.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testInvalidStyleListsJSONPaths() {
        let style = write("bad-style.json", """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [
           {"id": "a", "type": "line", "source": "s", "paint": {"line-width": "wide"}},
           {"id": "b", "type": "heatmapp", "source": "s"},
           {"id": "c", "type": "fill", "source": "nope", "paint": {"fill-colour": "red"}}
         ]}
        """)
        let out = tmp.appendingPathComponent("out.png").path
        let r = run(["render", "-s", style, "-o", out])
        XCTAssertEqual(r.code, 2)
        for needle in ["layers[0].paint.line-width", "layers[1].type", "layers[2].source", "layers[2].paint.fill-colour"] {
            XCTAssertTrue(r.stderr.contains(needle), "message names \(needle): \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testMissingStyleFileIsAnIOFailure() {
        let r = run(["render", "-s", tmp.appendingPathComponent("none.json").path, "-o", tmp.appendingPathComponent("o.png").path])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stderr.contains("none.json: no such file"), r.stderr)
    }

    func testUnwritableOutputFailsWithoutPartialFile() {
        let out = tmp.appendingPathComponent("missing-dir/out.png").path
        let r = run(["render", "-s", exampleStyle, "-o", out, "-w", "16", "-h", "16"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stderr.contains("missing-dir"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testFailedRenderKeepsExistingOutputUntouched() throws {
        let out = tmp.appendingPathComponent("keep.png").path
        FileManager.default.createFile(atPath: out, contents: Data("previous".utf8))
        let style = write("bad.json", "{}")
        XCTAssertEqual(run(["render", "-s", style, "-o", out]).code, 2)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "previous")
    }

    func testMissingSourceDataWarnsOrFailsWithStrict() throws {
        let style = write("missing-data.json", """
        {"version": 8, "sources": {"gone": {"type": "geojson", "data": "nowhere.geojson"}},
         "layers": [{"id": "bg", "type": "background"}, {"id": "f", "type": "fill", "source": "gone"}]}
        """)
        let out = tmp.appendingPathComponent("w.png").path
        let r = run(["render", "-s", style, "-o", out, "-w", "8", "-h", "8"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning") && r.stderr.contains("\"gone\""), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        let strictOut = tmp.appendingPathComponent("s.png").path
        let s = run(["render", "-s", style, "-o", strictOut, "--strict"])
        XCTAssertEqual(s.code, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: strictOut))
    }

    /// The real executable, as a user runs it: exit codes cross the process boundary.
    func testExecutableExitCodes() throws {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("glmap")
        guard FileManager.default.isExecutableFile(atPath: exe.path) else {
            return XCTFail("glmap executable not found next to the test bundle at \(exe.path); build it with swift build")
        }
        func runProcess(_ args: [String]) throws -> Int32 {
            let p = Process()
            p.executableURL = exe
            p.arguments = args
            p.standardError = FileHandle.nullDevice
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            return p.terminationStatus
        }
        XCTAssertEqual(try runProcess(["render", "-s", exampleStyle, "-o", tmp.appendingPathComponent("p.png").path, "-w", "32", "-h", "32"]), 0)
        XCTAssertEqual(try runProcess(["render"]), 2)
        XCTAssertEqual(try runProcess(["render", "-s", tmp.appendingPathComponent("none.json").path]), 1)
        XCTAssertEqual(try runProcess(["info"]), 0)
    }

    /// With glvnd finding no EGL vendor at all (even eglGetProcAddress returns NULL for the
    /// platform functions), `--backend auto` renders on the CPU, says so once, and exits 0;
    /// `--backend gpu` fails with exit 1 naming the EGL call.
    func testNoEGLFallsBackToTheCPU() throws {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("glmap")
        guard FileManager.default.isExecutableFile(atPath: exe.path) else { return XCTFail("glmap executable not found at \(exe.path)") }
        func run(_ args: [String]) throws -> (Int32, String) {
            var env = ProcessInfo.processInfo.environment
            env["__EGL_VENDOR_LIBRARY_FILENAMES"] = "/nonexistent.json"
            let r = OutsideTool.run(exe.path, args, environment: env)
            return (r.status, r.stderr)
        }
        let out = tmp.appendingPathComponent("cpu.png").path
        let (code, stderr) = try run(["render", "-s", exampleStyle, "-o", out, "-w", "64", "-h", "48"])
        XCTAssertEqual(code, 0, stderr)
        XCTAssertEqual(stderr.components(separatedBy: "rendering on the CPU").count - 1, 1, "said once: \(stderr)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        let (gpuCode, gpuErr) = try run(["render", "-s", exampleStyle, "-o", tmp.appendingPathComponent("gpu.png").path, "--backend", "gpu"])
        XCTAssertEqual(gpuCode, 1)
        XCTAssertTrue(gpuErr.contains("egl"), gpuErr)
        let (infoCode, _) = try run(["info"])
        XCTAssertEqual(infoCode, 0)
    }
}

/// SIGTERM / SIGINT in the middle of a batch: finished frames stay (and are valid PNGs), the frame
/// being written leaves no temporary file, and the exit code is 128 + the signal.
final class InterruptTests: XCTestCase {
    func testSignalMidBatchKeepsFinishedFramesAndRemovesTheUnfinishedOne() throws {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("glmap")
        guard FileManager.default.isExecutableFile(atPath: exe.path) else { return XCTFail("glmap executable not found at \(exe.path)") }
        for (sig, code) in [(SIGTERM, Int32(143)), (SIGINT, Int32(130))] {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-interrupt-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            var lines = ""
            for i in 0..<5000 {
                lines += #"{"zoom": \#(10 + Double(i % 30) / 10), "output": "\#(dir.path)/f\#(i).png"}"# + "\n"
            }
            let frames = dir.appendingPathComponent("frames.jsonl")
            try lines.write(to: frames, atomically: true, encoding: .utf8)
            let p = Process()
            p.executableURL = exe
            p.arguments = ["render", "-s", SharedData.exampleStyle,
                           "--frames", frames.path, "-w", "256", "-h", "256", "--quiet"]
            p.standardError = FileHandle.nullDevice
            try p.run()
            // Wait until some frames are finished, then interrupt.
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let done = (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.filter { $0.hasSuffix(".png") }.count ?? 0
                if done >= 5 { break }
                usleep(20_000)
            }
            kill(p.processIdentifier, sig)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, code, "exit code after signal \(sig)")
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            XCTAssertFalse(names.contains { $0.contains(".tmp-") }, "no temporary file left: \(names.filter { $0.contains(".tmp-") })")
            let pngs = names.filter { $0.hasSuffix(".png") }
            XCTAssertGreaterThanOrEqual(pngs.count, 5)
            XCTAssertLessThan(pngs.count, 5000, "interrupted before the end")
            for n in pngs {
                let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(n)))
                XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(n) is a complete PNG")
                XCTAssertEqual(Array(bytes.suffix(8).prefix(4)), Array("IEND".utf8), "\(n) ends with IEND")
            }
        }
    }
}
