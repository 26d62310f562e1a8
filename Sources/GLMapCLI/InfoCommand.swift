import GLMap
/// `glmap info`: the EGL platform and GL implementation glmap renders with.
public enum InfoCommand {
    /// The options this command accepts.
    public static let options: [CommandLineArguments.Option] = [.init("backend", help: "auto, gpu or cpu"), .init("help", value: false, help: "show this help")]

    /// Runs `glmap info` with `args` (after the subcommand name); returns the exit code.
    public static func run(_ args: [String], io: CommandIO) throws -> Int32 {
        if args.contains("--help") {
            io.writeStdout(Array("usage: glmap info [--backend auto|gpu|cpu]\n       glmap info --help\n\nPrints the glmap version, which backend auto picks and why, the EGL platform, EGL and GL vendor/renderer/version, the Mesa version when present, the maximum framebuffer size and the maximum image size (larger images are drawn in tiles up to it).\n".utf8))
            return 0
        }
        let a = try CommandLineArguments(args, options: options)
        let rows = [("glmap version", GLMapVersion.current)] + (try MapRenderer(backend: a.backend()).backendInfo())
        let width = rows.map(\.0.count).max() ?? 0
        let text = rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n") + "\n"
        io.writeStdout(Array(text.utf8))
        return 0
    }
}
