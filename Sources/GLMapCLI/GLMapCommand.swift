import GLMap
import GLMapCore

/// The `glmap` command line: dispatches subcommands and maps errors to exit codes
/// (0 ok, 1 render or I/O failure, 2 invalid input or usage). Messages go to stderr.
public enum GLMapCommand {
    /// The top-level help: every subcommand in one line.
    public static let usage = """
    usage: glmap <command> [options]

    commands:
      render    render a style to a PNG, or many frames with --frames (see glmap render --help)
      tiles     render an XYZ tile pyramid to DIR/z/x/y.png or an MBTiles file (see glmap tiles --help)
      serve     serve tiles, static maps and TileJSON over HTTP (see glmap serve --help)
      glyphs    write glyph range PBFs from TrueType/OpenType fonts (see glmap glyphs --help)
      info      show the EGL/GL backend glmap would use
      compare   count the pixels that differ between two PNGs (pixelmatch 7.1.0; see glmap compare --help)
      test      run render-test folders against their expected images (see glmap test --help)
      help      glmap help COMMAND shows that command's options
      version   print glmap's version (also --version)

    """

    /// The subcommands `run` knows (for "did you mean").
    static let commands = ["render", "tiles", "serve", "glyphs", "info", "compare", "test", "help", "version"]

    /// Runs the command line (`args` excludes the program name) and returns the exit code.
    public static func run(_ args: [String], io: CommandIO = .process) -> Int32 {
        guard let command = args.first else {
            io.writeStderr(usage)
            return 2
        }
        let rest = Array(args.dropFirst())
        let code = dispatch(command, rest, io: io)
        if let failure = io.stdoutFailure() {
            io.writeStderr("glmap: \(failure)\n")
            return code == 0 ? 1 : code
        }
        return code
    }

    /// Runs one subcommand and maps its error to a message and an exit code.
    static func dispatch(_ command: String, _ rest: [String], io: CommandIO) -> Int32 {
        do {
            switch command {
            case "render": return try RenderCommand.run(rest, io: io)
            case "tiles": return try TilesCommand.run(rest, io: io)
            case "serve": return try ServeCommand.run(rest, io: io)
            case "glyphs": return try GlyphsCommand.run(rest, io: io)
            case "info": return try InfoCommand.run(rest, io: io)
            case "compare": return try CompareCommand.run(rest, io: io)
            case "test": return try TestCommand.run(rest, io: io)
            case "--help", "-h", "help":
                if let topic = rest.first, command == "help" {
                    guard commands.contains(topic), topic != "help" else {
                        throw UsageError("no help topic \"\(topic)\"" + Suggestion.hint(for: topic, among: commands) + "\n" + usage)
                    }
                    return dispatch(topic, ["--help"], io: io)
                }
                io.writeStdout(Array(usage.utf8))
                return 0
            case "--version", "version":
                io.writeStdout(Array((GLMapVersion.line + "\n").utf8))
                return 0
            default:
                throw UsageError("unknown command \"\(command)\"" + Suggestion.hint(for: command, among: commands) + "\n" + usage)
            }
        } catch let e as GLMapError {
            if InFlightFiles.interruptingSignal != nil { return 1 }   // the signal handler reports and exits
            io.writeStderr("glmap: \(e)\n")
            return e.kind.exitCode
        } catch {
            io.writeStderr("glmap: \(error)\n")
            return 1
        }
    }
}
