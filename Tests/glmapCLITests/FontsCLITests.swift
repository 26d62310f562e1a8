import Foundation
import XCTest
@testable import GLMapCLI
import GLMap
import GLMapPNG
import GLMapTestSupport

/// `--fonts DIR` on `render`, `tiles` and `serve`: text of a style without `glyphs` drawn from the
/// folder's fonts; without it a warning; a folder that is not there is a usage error. `glmap glyphs`:
/// glyph range PBFs written from fonts, which a style's `glyphs` URL then draws.
final class FontsCLITests: FolderTestCase {
    override var folderPrefix: String { "glmap-fonts-cli" }

    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    func run(_ args: [String]) -> CommandLineRun { CommandLineRun(args) }

    /// White background, black "Hello" in DejaVu Sans at the centre; no `glyphs`.
    var style: String {
        folder.write("style.json", """
        {"version":8,"center":[0,0],"zoom":2,
         "sources":{"p":{"type":"geojson","data":{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"name":"Hello"}}}},
         "layers":[{"id":"bg","type":"background","paint":{"background-color":"#ffffff"}},
                   {"id":"label","type":"symbol","source":"p","layout":{"text-field":["get","name"],"text-font":["DejaVu Sans Book"],"text-size":24},
                    "paint":{"text-color":"#000000"}}]}
        """)
    }

    func darkPixels(_ path: String) throws -> Int {
        let image = try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        var n = 0
        for y in 0..<image.height { for x in 0..<image.width where image[x, y].r < 200 { n += 1 } }
        return n
    }

    func testRenderDrawsTextFromTheFontsFolder() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.dejaVu), "DejaVu Sans (Debian fonts-dejavu-core) is not installed")
        let fonts = tmp.appendingPathComponent("fonts")
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.dejaVu, toPath: fonts.appendingPathComponent("DejaVuSans.ttf").path)
        let style = self.style
        let with = folder.path("with.png"), without = folder.path("without.png")
        let a = run(["render", "-s", style, "-o", with, "-w", "200", "-h", "100", "--fonts", fonts.path])
        XCTAssertEqual(a.code, 0, a.stderr)
        XCTAssertEqual(a.stderr, "", "no warnings: the folder has the stack's font")
        XCTAssertGreaterThan(try darkPixels(with), 150, "the label is drawn")
        let b = run(["render", "-s", style, "-o", without, "-w", "200", "-h", "100"])
        XCTAssertEqual(b.code, 0, b.stderr)
        XCTAssertEqual(try darkPixels(without), 0, "no text without fonts")
        XCTAssertTrue(b.stderr.contains("warning: font stack \"DejaVu Sans Book\": the style has no glyphs URL"), b.stderr)
        // A broken font file beside the good one: a warning naming it, the label still drawn.
        try Data(repeating: 0x5A, count: 1000).write(to: fonts.appendingPathComponent("broken.otf"))
        let c = run(["render", "-s", style, "-o", with, "-w", "200", "-h", "100", "--fonts", fonts.path])
        XCTAssertEqual(c.code, 0, c.stderr)
        XCTAssertTrue(c.stderr.contains("warning: font file \(fonts.path)/broken.otf: not a font"), c.stderr)
        XCTAssertGreaterThan(try darkPixels(with), 150)
    }

    func testAFontsFolderThatIsNotThereIsAUsageError() {
        let style = self.style
        let missing = folder.path("no-such-fonts")
        for args in [["render", "-s", style, "-o", folder.path("x.png")],
                     ["tiles", "-s", style, "--zoom", "0", "-o", folder.path("tiles")],
                     ["serve", "-s", style]] {
            let r = run(args + ["--fonts", missing])
            XCTAssertEqual(r.code, 2, "\(args[0]): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--fonts expects a folder of font files, but \(missing) does not exist"), r.stderr)
        }
        let file = run(["render", "-s", style, "-o", folder.path("x.png"), "--fonts", style])
        XCTAssertEqual(file.code, 2)
        XCTAssertTrue(file.stderr.contains("is a file"), file.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("x.png")))
    }

    func testHelpMentionsFonts() {
        for command in ["render", "tiles", "serve"] {
            let r = run([command, "--help"])
            XCTAssertEqual(r.code, 0)
            XCTAssertTrue(r.stdoutText.contains("[--fonts DIR]"), "\(command) usage")
            XCTAssertTrue(r.stdoutText.contains("--fonts"), "\(command) options")
        }
    }

    // MARK: glmap glyphs

    func testGlyphsWritesRangesAStyleDraws() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.dejaVu), "DejaVu Sans (Debian fonts-dejavu-core) is not installed")
        let out = folder.path("glyphs")
        let r = run(["glyphs", Self.dejaVu, "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("DejaVu Sans Book: "), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), ["DejaVu Sans Book"])
        let ranges = try FileManager.default.contentsOfDirectory(atPath: out + "/DejaVu Sans Book")
        XCTAssertTrue(ranges.contains("0-255.pbf") && ranges.contains("256-511.pbf"), "\(ranges)")
        XCTAssertTrue(ranges.allSatisfy { $0.hasSuffix(".pbf") && !$0.hasPrefix(".") }, "no temporary files: \(ranges)")
        // The style names the written ranges: the label is drawn from them, with no warning.
        let styled = folder.write("pbf.json", try String(contentsOfFile: style, encoding: .utf8)
            .replacingOccurrences(of: #"{"version":8,"#, with: #"{"version":8,"glyphs":"glyphs/{fontstack}/{range}.pbf","#))
        let png = folder.path("pbf.png")
        let rendered = run(["render", "-s", styled, "-o", png, "-w", "200", "-h", "100"])
        XCTAssertEqual(rendered.code, 0, rendered.stderr)
        XCTAssertEqual(rendered.stderr, "")
        XCTAssertGreaterThan(try darkPixels(png), 150)
    }

    func testGlyphsCombinesFontsIntoOneStack() throws {
        let bold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: bold), "DejaVu Sans Bold (Debian fonts-dejavu-core) is not installed")
        let out = folder.path("glyphs")
        let r = run(["glyphs", bold, Self.dejaVu, "--stack", "Sans Bold", "-o", out, "--quiet"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), ["Sans Bold"])
    }

    func testGlyphsRefusesBadInputBeforeWriting() throws {
        let out = folder.path("glyphs")
        let broken = folder.write("broken.ttf", String(repeating: "garbage ", count: 200))
        let r = run(["glyphs", broken, "-o", out])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("broken.ttf: not a font FreeType can open"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing written")
        XCTAssertEqual(run(["glyphs", "-o", out]).code, 2, "no fonts")
        XCTAssertEqual(run(["glyphs", Self.dejaVu]).code, 2, "no --output")
        XCTAssertEqual(run(["glyphs", folder.path("none.ttf"), "-o", out]).code, 2, "no such file")
        XCTAssertEqual(run(["glyphs", Self.dejaVu, "-o", out, "--stack", "A,B"]).code, 2, "a stack name with a comma")
        // A folder with only a broken font: a warning, then no usable fonts.
        let dir = tmp.appendingPathComponent("fonts")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(repeating: 1, count: 100).write(to: dir.appendingPathComponent("x.otf"))
        let d = run(["glyphs", dir.path, "-o", out])
        XCTAssertEqual(d.code, 2)
        XCTAssertTrue(d.stderr.contains("warning: font file \(dir.path)/x.otf"), d.stderr)
        XCTAssertTrue(d.stderr.contains("no usable fonts"), d.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let help = run(["glyphs", "--help"])
        XCTAssertEqual(help.code, 0)
        XCTAssertTrue(help.stdoutText.contains("usage: glmap glyphs FONT|DIR… --output DIR"))
        XCTAssertTrue(run(["help"]).stdoutText.contains("glyphs    write glyph range PBFs"))
    }
}
