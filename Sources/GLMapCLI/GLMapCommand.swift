import GLMap
import GLMapCore

/// The `glmap` command line: dispatches subcommands and maps errors to exit codes
/// (0 ok, 1 render or I/O failure, 2 invalid input or usage). Messages go to stderr.
public enum GLMapCommand {
    public static let usage = """
    usage: glmap <command> [options]

    commands:
      render    render a style to a PNG, or many frames with --frames (see glmap render --help)
      tiles     render an XYZ tile pyramid to DIR/z/x/y.png or an MBTiles file (see glmap tiles --help)
      serve     serve tiles, static maps and TileJSON over HTTP (see glmap serve --help)
      info      show the EGL/GL backend glmap would use
      compare   count the pixels that differ between two PNGs (pixelmatch 7.1.0; see glmap compare --help)
      test      run render-test folders against their expected images (see glmap test --help)

    """

    /// Runs the command line (`args` excludes the program name) and returns the exit code.
    public static func run(_ args: [String], io: CommandIO = .process) -> Int32 {
        guard let command = args.first else {
            io.writeStderr(usage)
            return 2
        }
        let rest = Array(args.dropFirst())
        do {
            switch command {
            case "render": return try RenderCommand.run(rest, io: io)
            case "tiles": return try TilesCommand.run(rest, io: io)
            case "serve": return try ServeCommand.run(rest, io: io)
            case "info": return try InfoCommand.run(rest, io: io)
            case "compare": return try CompareCommand.run(rest, io: io)
            case "test": return try TestCommand.run(rest, io: io)
            case "--help", "help":
                io.writeStdout(Array(usage.utf8))
                return 0
            default:
                throw UsageError("unknown command \"\(command)\"\n" + usage)
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
