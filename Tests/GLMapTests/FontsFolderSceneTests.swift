import Foundation
import Testing
import GLMapCore
import GLMapTestSupport
import GLMap

/// Text of a style without `glyphs`, drawn from a fonts folder (`ResourceLoaderOptions.fontsDirectory`,
/// `Snapshotter.fontsDirectory`, `--fonts DIR`) on both backends; without the folder, or without a
/// font for the stack, the text is left out with a warning; a broken font file costs only itself.
@Suite struct FontsFolderSceneTests {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// A folder holding DejaVu Sans and a file of garbage bytes named like a font.
    static func fontsFolder() throws -> URL {
        try SharedData.require("DejaVu Sans (Debian fonts-dejavu-core)", at: URL(fileURLWithPath: dejaVu))
        let dir = makeTempDir()
        try FileManager.default.copyItem(atPath: dejaVu, toPath: dir.appendingPathComponent("DejaVuSans.ttf").path)
        try Data(repeating: 0xA5, count: 2048).write(to: dir.appendingPathComponent("broken.ttf"))
        return dir
    }

    /// A white background and black 24-px text "Hello" at the view's centre, in `font`; no `glyphs`.
    static func style(font: String) -> String {
        """
        {"version":8,"center":[0,0],"zoom":2,
         "sources":{"p":{"type":"geojson","data":{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"name":"Hello"}}}},
         "layers":[{"id":"bg","type":"background","paint":{"background-color":"#ffffff"}},
                   {"id":"label","type":"symbol","source":"p",
                    "layout":{"text-field":["get","name"],"text-font":["\(font)"],"text-size":24},
                    "paint":{"text-color":"#000000"}}]}
        """
    }

    static func scene(font: String, fonts: URL?) throws -> Scene {
        let document = try Scene.parseStyle(Array(style(font: font).utf8), file: nil)
        return try Scene(style: document, resources: fonts.map { ResourceLoaderOptions(fontsDirectory: $0.path) })
    }

    /// Pixels darker than the white background inside the label's box (image centre ± 50 × 20 px),
    /// and outside it.
    static func ink(_ image: StraightImage) -> (inside: Int, outside: Int) {
        var inside = 0, outside = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y].r < 200 {
                if abs(x - image.width / 2) <= 50 && abs(y - image.height / 2) <= 20 { inside += 1 } else { outside += 1 }
            }
        }
        return (inside, outside)
    }

    static let options = RenderOptions(width: 200, height: 100)

    @Test(arguments: [Backend.gpu, Backend.cpu])
    func textIsDrawnFromTheFontsFolder(backend: Backend) throws {
        let fonts = try Self.fontsFolder()
        defer { try? FileManager.default.removeItem(at: fonts) }
        let scene = try Self.scene(font: "DejaVu Sans Book", fonts: fonts)
        let image = try MapRenderer(backend: backend).render(scene, options: Self.options).unpremultiplied()
        let ink = Self.ink(image)
        #expect(ink.inside > 150, "the label \"Hello\" is drawn (\(ink.inside) dark pixels)")
        #expect(ink.outside == 0, "nothing else")
        // The broken file costs only itself, with a warning naming it; the stack has its font.
        let warnings = scene.warningMessages
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("broken.ttf") == true, "\(warnings)")
        #expect(!warnings.contains { $0.contains("font stack") }, "\(warnings)")
    }

    @Test func bothBackendsDrawTheSameLabel() throws {
        let fonts = try Self.fontsFolder()
        defer { try? FileManager.default.removeItem(at: fonts) }
        // "DejaVu Sans" and "DejaVu Sans Regular" name the Book face too.
        for font in ["DejaVu Sans", "DejaVu Sans Regular"] {
            let scene = try Self.scene(font: font, fonts: fonts)
            let gpu = try MapRenderer(backend: .gpu).render(scene, options: Self.options).unpremultiplied()
            let cpu = try MapRenderer(backend: .cpu).render(scene, options: Self.options).unpremultiplied()
            let a = Self.ink(gpu).inside, b = Self.ink(cpu).inside
            #expect(a > 150 && b > 150, "\(font): \(a) and \(b) dark pixels")
            #expect(abs(a - b) <= max(a, b) / 5, "\(font): the backends agree on the label's ink (\(a) vs \(b))")
        }
    }

    @Test(arguments: [Backend.gpu, Backend.cpu])
    func withoutTheFontsFolderNoTextIsDrawnAndItWarns(backend: Backend) throws {
        let scene = try Self.scene(font: "DejaVu Sans Book", fonts: nil)
        let image = try MapRenderer(backend: backend).render(scene, options: Self.options).unpremultiplied()
        #expect(Self.ink(image) == (0, 0))
        let warnings = scene.warningMessages
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.hasPrefix("font stack \"DejaVu Sans Book\": the style has no glyphs URL") == true, "\(warnings)")
    }

    @Test(arguments: [Backend.gpu, Backend.cpu])
    func aStackWithoutAFontIsLeftOutWithOneWarning(backend: Backend) throws {
        let fonts = try Self.fontsFolder()
        defer { try? FileManager.default.removeItem(at: fonts) }
        let scene = try Self.scene(font: "Open Sans Semibold", fonts: fonts)
        let image = try MapRenderer(backend: backend).render(scene, options: Self.options).unpremultiplied()
        #expect(Self.ink(image) == (0, 0), "no other font stands in")
        let stackWarnings = scene.warningMessages.filter { $0.hasPrefix("font stack \"Open Sans Semibold\": no font in ") }
        #expect(stackWarnings.count == 1, "\(scene.warningMessages)")
        #expect(stackWarnings.first?.contains("DejaVu Sans Book") == true, "names the fonts there: \(stackWarnings)")
    }

    @Test func theSnapshotterTakesAFontsDirectory() throws {
        let fonts = try Self.fontsFolder()
        defer { try? FileManager.default.removeItem(at: fonts) }
        let s = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: 200, height: 100)), backend: .cpu)
        s.styleJSON = Self.style(font: "DejaVu Sans Book")
        let without = try s.snapshot()
        #expect(Self.ink(without.image) == (0, 0))
        #expect(without.warnings.contains { $0.contains("no glyphs URL") }, "\(without.warnings)")
        s.fontsDirectory = fonts.path
        #expect(s.resourceOptions?.fontsDirectory == fonts.path)
        let with = try s.snapshot()
        #expect(Self.ink(with.image).inside > 150)
        #expect(!with.warnings.contains { $0.contains("font stack") }, "\(with.warnings)")
    }
}
