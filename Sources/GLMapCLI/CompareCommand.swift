import Foundation
import GLMapCore
import GLMapPNG
import GLMapTesting

/// `glmap compare`: pixelmatch 7.1.0 between two PNGs under the render tests' rule.
public enum CompareCommand {
    static let options: [CommandLineArguments.Option] = [
        .init("threshold", help: "pixelmatch colour threshold 0…1, smaller is stricter (default 0.1285)"),
        .init("allowed", help: "largest accepted fraction of mismatching pixels (default 0.00025)"),
        .init("include-aa", value: false, help: "count anti-aliased pixels too (pixelmatch's includeAA)"),
        .init("diff", help: "write the diff image pixelmatch draws to this PNG"),
        .init("json", value: false, help: "print the result as one JSON object"),
        .init("help", value: false, help: "show this help"),
    ]

    static let help = """
    usage: glmap compare EXPECTED.png ACTUAL.png [--threshold 0.1285] [--allowed 0.00025]
                         [--include-aa] [--diff diff.png] [--json]

    Counts the pixels that differ between two images of the same size with pixelmatch 7.1.0 (as
    MapLibre's render tests call it: pixelmatch(actual, expected), anti-aliased pixels not counted
    unless --include-aa) and prints the count and its fraction of the image.

    options:
    \(CommandLineArguments.helpLines(options))

    exit codes: 0 the fraction is within --allowed, 1 beyond it (or the diff could not be written),
                2 unreadable input, different sizes or bad usage

    """

    /// Runs `glmap compare` with `args` (after the subcommand name); returns the exit code.
    public static func run(_ args: [String], io: CommandIO) throws -> Int32 {
        let (files, rest) = CommandLineArguments.splitPositionals(args, options: options)
        let a = try CommandLineArguments(rest, options: options)
        if a.flag("help") {
            io.writeStdout(Array(help.utf8))
            return 0
        }
        guard files.count == 2 else {
            throw UsageError("glmap compare takes two PNG files, EXPECTED and ACTUAL (got \(files.count)); see glmap compare --help")
        }
        let threshold = try a.double("threshold") ?? RenderTestCase.defaultThreshold
        let allowed = try a.double("allowed") ?? RenderTestCase.defaultAllowed
        guard (0...1).contains(threshold) else { throw UsageError("--threshold expects a number from 0 to 1, got \(threshold)") }
        guard (0...1).contains(allowed) else { throw UsageError("--allowed expects a fraction from 0 to 1, got \(allowed)") }
        let expected = try ImageComparison.load(files[0])
        let actual = try ImageComparison.load(files[1])
        let c = try ImageComparison.compare(actual, expected, threshold: threshold, includeAA: a.flag("include-aa"),
                                            firstName: "ACTUAL \(files[1])", secondName: "EXPECTED \(files[0])")
        if let diffPath = a.string("diff") { try PNGEncoder.write(c.diff, to: diffPath) }
        let pass = c.difference <= allowed
        let text: String
        if a.flag("json") {
            text = "{\"expected\":\(jsonString(files[0])),\"actual\":\(jsonString(files[1])),\"width\":\(actual.width),\"height\":\(actual.height),"
                + "\"mismatched\":\(c.mismatched),\"pixels\":\(c.pixels),\"difference\":\(c.difference),\"threshold\":\(threshold),"
                + "\"allowed\":\(allowed),\"includeAA\":\(a.flag("include-aa")),\"pass\":\(pass),"
                + "\"diff\":\(a.string("diff").map(jsonString) ?? "null")}\n"
        } else {
            text = String(format: "%ld of %ld pixels differ (%.6f), allowed %.6f: ", c.mismatched, c.pixels, c.difference, allowed)
                + (pass ? "match\n" : "MISMATCH\n")
        }
        io.writeStdout(Array(text.utf8))
        return pass ? 0 : 1
    }

    /// A JSON string literal (as `JSONValue` writes strings).
    static func jsonString(_ s: String) -> String { JSONValue.string(s).jsonText }
}
