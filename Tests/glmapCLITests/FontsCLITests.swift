import Foundation
import XCTest
@testable import GLMapCLI
import GLMap
import GLMapPNG
import GLMapTestSupport

/// `--fonts DIR` on `render`, `tiles` and `serve`: text of a style without `glyphs` drawn from the
/// folder's fonts; without it a warning; a folder that is not there is a usage error.
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
}
