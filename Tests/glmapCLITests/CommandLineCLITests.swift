import Foundation
import XCTest
@testable import GLMapCLI
import GLMap
import GLMapTestSupport

/// The command line itself: version, help topics, usage lines, and suggestions for mistypes.
final class CommandLineCLITests: XCTestCase {
    var exampleStyle: String { SharedData.exampleStyle }

    func run(_ args: [String]) -> (code: Int32, stdout: String, stderr: String) {
        let r = CommandLineRun(args)
        return (r.code, r.stdoutText, r.stderr)
    }

    func testVersion() {
        for args in [["--version"], ["version"]] {
            let r = run(args)
            XCTAssertEqual(r.code, 0)
            XCTAssertEqual(r.stdout, "glmap \(GLMapVersion.current)\n")
            XCTAssertEqual(r.stderr, "")
        }
        XCTAssertNotNil(GLMapVersion.current.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression))
    }

    func testInfoStartsWithTheVersion() {
        let r = run(["info", "--backend", "cpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("glmap version"), r.stdout)
        XCTAssertEqual(r.stdout.split(separator: "\n").first.map { $0.split(separator: " ").last.map(String.init) }, GLMapVersion.current)
    }

    func testHelpHonoursItsTopic() {
        for topic in ["render", "tiles", "info"] {
            let viaHelp = run(["help", topic])
            let viaFlag = run([topic, "--help"])
            XCTAssertEqual(viaHelp.code, 0)
            XCTAssertEqual(viaHelp.stdout, viaFlag.stdout)
            XCTAssertTrue(viaHelp.stdout.hasPrefix("usage: glmap \(topic)"), viaHelp.stdout)
        }
        XCTAssertEqual(run(["help"]).stdout, GLMapCommand.usage)
        let bad = run(["help", "rendr"])
        XCTAssertEqual(bad.code, 2)
        XCTAssertEqual(bad.stderr, "glmap: no help topic \"rendr\" (did you mean \"render\"?)\n" + GLMapCommand.usage + "\n")
    }

    /// Every option a command accepts appears in its usage lines (the text before "options:").
    func testUsageLinesListEveryOption() {
        for (topic, options) in [("render", RenderCommand.options), ("tiles", TilesCommand.options), ("info", InfoCommand.options)] {
            let help = run([topic, "--help"]).stdout
            let usage = help.components(separatedBy: "\n\n").first ?? ""
            for o in options {
                XCTAssertTrue(usage.contains("--\(o.long)"), "glmap \(topic)'s usage lines list --\(o.long):\n\(usage)")
            }
        }
    }

    func testMistypedLongOptionGetsASuggestion() {
        let r = run(["render", "--stlye", exampleStyle])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "glmap: unknown option --stlye (did you mean --style?)\n")
    }

    func testMistypedOptionWithValueGetsASuggestion() {
        XCTAssertEqual(run(["tiles", "--zom=3"]).stderr, "glmap: unknown option --zom (did you mean --zoom?)\n")
    }

    func testSingleDashLongOptionGetsASuggestion() {
        let r = run(["render", "-style", exampleStyle])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "glmap: unknown option -style: long options start with two dashes (did you mean --style?)\n")
    }

    func testUnrelatedOptionGetsNoSuggestion() {
        XCTAssertEqual(run(["render", "--frobnicate"]).stderr, "glmap: unknown option --frobnicate\n")
    }

    func testMistypedCommandGetsASuggestion() {
        let r = run(["rendr"])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "glmap: unknown command \"rendr\" (did you mean \"render\"?)\n" + GLMapCommand.usage + "\n")
    }

    func testJobsAreBounded() {
        // --jobs 1000000000 used to start a billion encoder threads.
        for command in [["render", "-s", exampleStyle, "-o", "/nonexistent/x.png"], ["tiles", "-s", exampleStyle, "-z", "0", "-o", "/nonexistent/t"]] {
            let r = run(command + ["--jobs", "1000000000"])
            XCTAssertEqual(r.code, 2)
            XCTAssertEqual(r.stderr, "glmap: --jobs expects 1 to 256 threads, got 1000000000\n")
        }
    }

    func testTilesMetatileOutOfRangeIsAUsageErrorAndWritesNothing() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-mt-\(UUID().uuidString)").path
        for n in ["0", "65", "x"] {
            let r = run(["tiles", "-s", exampleStyle, "-z", "0", "-o", out, "--metatile", n])
            XCTAssertEqual(r.code, 2, n)
            XCTAssertEqual(r.stderr, n == "x" ? "glmap: --metatile expects a whole number, got \"x\"\n" : "glmap: --metatile expects 1 to 64 tiles, got \(n)\n", n)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing written for --metatile \(n)")
        }
    }

    func testNoRawFoundationErrorText() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-cl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let plain = tmp.appendingPathComponent("plain").path
        FileManager.default.createFile(atPath: plain, contents: Data())
        // Tiles under a path whose parent is a file: the directory cannot be made.
        let r = run(["tiles", "-s", exampleStyle, "-z", "0", "-o", plain + "/t", "--backend", "cpu", "-q"])
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.stderr, "glmap: \(plain)/t: cannot create the tile directory: Not a directory\n")
        for args in [["render", "-s", plain + "/x.json"], ["render", "-s", exampleStyle, "-o", plain + "/x.png"],
                     ["render", "-s", exampleStyle, "--frames", plain + "/f.jsonl"], ["tiles", "-s", exampleStyle, "-z", "0", "-o", plain + "/a.mbtiles"]] {
            let e = run(args + ["--backend", "cpu"]).stderr
            XCTAssertFalse(e.contains("NSCocoaErrorDomain") || e.contains("Error Domain") || e.contains("The operation"), "\(args): \(e)")
        }
    }

    // MARK: repeated options, `--`, and the messages each said in one place

    func testARepeatedOptionIsAUsageError() {
        for (args, name) in [(["render", "-s", exampleStyle, "-s", exampleStyle], "style"),
                             (["render", "-s", exampleStyle, "--width", "8", "-w", "16"], "width"),
                             (["render", "-s", exampleStyle, "--quiet", "-q"], "quiet"),
                             (["tiles", "-s", exampleStyle, "-z", "0", "--zoom=1", "-o", "/nonexistent/t"], "zoom"),
                             (["info", "--backend", "cpu", "--backend=gpu"], "backend"),
                             (["compare", "a.png", "b.png", "--threshold", "0.1", "--threshold", "0.2"], "threshold")] {
            let r = run(args)
            XCTAssertEqual(r.code, 2, "\(args)")
            XCTAssertEqual(r.stderr, "glmap: option --\(name) is given more than once (give it once)\n", "\(args)")
        }
    }

    func testRepeatableOptionsStillRepeat() throws {
        let render = try CommandLineArguments(["--source", "a=1.json", "--source", "b=2.json"], options: RenderCommand.options)
        XCTAssertEqual(render.values("source"), ["a=1.json", "b=2.json"])
        let serve = try CommandLineArguments(["--style", "x.json", "-s", "y=z.json", "--port", "0"], options: ServeCommand.options)
        XCTAssertEqual(serve.values("style"), ["x.json", "y=z.json"])
    }

    /// `glmap serve` draws 4×4 metatiles by default, one tile per render without a cache (the
    /// other tiles of a metatile would be drawn for nothing), and what `--metatile` says always.
    func testServeMetatileFollowsTheCache() throws {
        func metatile(_ extra: [String]) throws -> Int {
            try ServeCommand.configuration(CommandLineArguments(["--style", "x.json"] + extra, options: ServeCommand.options)).metatile
        }
        XCTAssertEqual(try metatile([]), 4)
        XCTAssertEqual(try metatile(["--cache", "16"]), 4)
        XCTAssertEqual(try metatile(["--cache", "0"]), 1)
        XCTAssertEqual(try metatile(["--cache", "0", "--metatile", "4"]), 4)
        XCTAssertEqual(try metatile(["--metatile", "2"]), 2)
    }

    func testDoubleDashEndsTheOptions() throws {
        // Nothing after `--`: it is just the end of the options.
        let a = try CommandLineArguments(["--width", "8", "--"], options: RenderCommand.options)
        XCTAssertEqual(try a.int("width"), 8)
        // An operand after `--` (even one that looks like an option) is refused by commands without operands.
        for (args, operand) in [(["render", "-s", exampleStyle, "--", "-w"], "-w"), (["info", "--", "extra"], "extra")] {
            let r = run(args)
            XCTAssertEqual(r.code, 2, "\(args)")
            XCTAssertEqual(r.stderr, "glmap: unexpected argument \"\(operand)\" after -- (this command takes no operands)\n")
        }
        // Commands with operands take a file named like an option after `--`.
        let r = run(["compare", "--threshold", "0.1", "--", "-a.png", "-b.png"])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertEqual(r.stderr, "glmap: -a.png: cannot read the file (missing or unreadable)\n")
    }

    func testBackendIsCheckedAlikeEverywhere() {
        for args in [["render", "-s", exampleStyle, "-o", "/nonexistent/x.png"], ["tiles", "-s", exampleStyle, "-z", "0", "-o", "/nonexistent/t"],
                     ["info"], ["test", "/nonexistent"]] {
            let r = run(args + ["--backend", "opengl"])
            XCTAssertEqual(r.code, 2, "\(args)")
            XCTAssertEqual(r.stderr, "glmap: --backend expects auto, gpu or cpu, got \"opengl\"\n", "\(args)")
        }
    }

    func testMissingOutputFolderIsOneMessage() throws {
        let missing = "/nonexistent-glmap-\(UUID().uuidString)"
        let render = run(["render", "-s", exampleStyle, "-o", missing + "/x.png", "--backend", "cpu"])
        XCTAssertEqual(render.code, 1)
        XCTAssertEqual(render.stderr, "glmap: \(missing)/x.png: the directory \(missing) does not exist\n")
        let suite = SharedData.packageRoot.appendingPathComponent("Tests/FuzzRegressions").path
        let test = run(["test", suite, "--junit", missing + "/j.xml", "--backend", "cpu"])
        XCTAssertEqual(test.code, 1)
        XCTAssertEqual(test.stderr, "glmap: \(missing)/j.xml: the directory \(missing) does not exist\n")
    }
}
