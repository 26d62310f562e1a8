/// `glmap info`: the EGL platform and GL implementation glmap renders with.
public enum InfoCommand {
    public static func run(_ args: [String], io: CommandIO) throws -> Int32 {
        if args.contains("--help") {
            io.writeStdout(Array("usage: glmap info\n\nPrints the EGL platform, EGL and GL vendor/renderer/version, the Mesa version when present, and the maximum framebuffer size.\n".utf8))
            return 0
        }
        if let a = args.first { throw UsageError("unexpected argument \"\(a)\" (glmap info takes no options)") }
        let rows = try MapRenderer().backendInfo()
        let width = rows.map(\.0.count).max() ?? 0
        let text = rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n") + "\n"
        io.writeStdout(Array(text.utf8))
        return 0
    }
}
