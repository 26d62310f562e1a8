import Foundation
import GLMapCore
import GLMapText

/// `glmap glyphs`: glyph range PBFs from font files, for a style's `glyphs` URL.
public enum GlyphsCommand {
    static let options: [CommandLineArguments.Option] = [
        .init("output", "o", help: "folder to write FONTSTACK/START-END.pbf into (created when needed)"),
        .init("stack", help: "write every font given as one combined font stack of this name (a character takes the first font's glyph that has it)"),
        .init("quiet", "q", value: false, help: "no summary on stderr"),
        .init("help", value: false, help: "show this help"),
    ]

    static let help = """
    usage: glmap glyphs FONT|DIR… --output DIR [--stack NAME] [--quiet]

    Writes the glyph ranges a style's "glyphs": ".../{fontstack}/{range}.pbf" names, from
    TrueType/OpenType fonts (.ttf .otf .ttc .otc; a folder is searched as --fonts searches it), as
    glyph servers make them: 24-px signed distance fields with a 3-px border (radius 8, cutoff 0.25),
    256 characters a file. Each face is its own font stack, named by family and style as text-font
    names it (DIR/Open Sans Semibold/0-255.pbf, DIR/DejaVu Sans Book/0-255.pbf); with --stack NAME
    the fonts make one combined stack. A file named on the command line that is not a usable font is
    an error; one in a folder is skipped with a warning. Each file is written whole or not at all.

    options:
    \(CommandLineArguments.helpLines(options))

    exit codes: 0 ok, 1 I/O failure, 2 invalid input or usage

    """

    /// Runs `glmap glyphs` with `args` (after the subcommand name); returns the exit code.
    public static func run(_ args: [String], io: CommandIO) throws -> Int32 {
        let (inputs, rest) = CommandLineArguments.splitPositionals(args, options: options)
        let a = try CommandLineArguments(rest, options: options)
        if a.flag("help") {
            io.writeStdout(Array(help.utf8))
            return 0
        }
        guard !inputs.isEmpty else { throw UsageError("glmap glyphs takes font files or folders of fonts; see glmap glyphs --help") }
        guard let output = a.string("output") else { throw UsageError("missing --output DIR (see glmap glyphs --help)") }
        let stack = a.string("stack")
        if let stack, stack.isEmpty || stack.contains(",") {
            throw UsageError("--stack expects one font stack name without commas, got \"\(stack)\"")
        }
        // Every input is opened before anything is written.
        var faces: [FontFace] = [], warnings: [String] = []
        for input in inputs {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDir) else {
                throw InputFailure("\(input): no such font file or folder")
            }
            if isDir.boolValue {
                var problems: [FontFileError] = []
                let files = FontFolder.fontFiles(in: input, problems: &problems)
                for file in files {
                    do { faces += try FontFolder.openFaces(file: file) } catch { problems.append(error) }
                }
                warnings += problems.map { "font file \($0)" }
                if files.isEmpty && problems.isEmpty { warnings.append("\(input): no .ttf, .otf, .ttc or .otc files") }
            } else {
                faces += try FontFolder.openFaces(file: input)   // a FontFileError: invalid input, exit 2
            }
        }
        for w in warnings { io.writeStderr("glmap: warning: \(w)\n") }
        guard !faces.isEmpty else { throw InputFailure("no usable fonts in \(inputs.joined(separator: ", "))") }
        var groups: [(name: String, faces: [FontFace])] = []
        if let stack {
            groups = [(stack, faces)]
        } else {
            for face in faces {
                if let earlier = groups.first(where: { $0.name == face.name }) {
                    io.writeStderr("glmap: warning: \(face.path): a second \"\(face.name)\" (after \(earlier.faces[0].path)) is skipped\n")
                    continue
                }
                groups.append((face.name, [face]))
            }
        }
        for group in groups {
            let written = try GlyphRangeWriter.write(faces: group.faces, fontStack: group.name, to: output)
            if !a.flag("quiet") {
                io.writeStderr("glmap: \(group.name): \(written.glyphs) glyphs in \(written.ranges) ranges → \((output as NSString).appendingPathComponent(group.name))\n")
            }
        }
        return 0
    }
}
