// FontFolder — contract
// Input: a folder of font files (`--fonts DIR`, `ResourceLoaderOptions.fontsDirectory`).
// Output: a `LocalGlyphSource` that draws the glyphs of a `text-font` font stack from the fonts
// whose names the stack lists, the files that could not be used (`fileWarnings`), and for a stack
// none of whose fonts is there, why (`missingFont`, which `GlyphManager` warns with once).
// Rules: every `.ttf`, `.otf`, `.ttc` and `.otc` file under the folder (sub-folders too, in path
// order; other files are ignored) is opened with FreeType, every face of a collection. A face is
// named as glyph servers name PBF font stacks: family and style (`Open Sans Semibold`,
// `DejaVu Sans Bold`); a regular face (style Regular, Book, Normal, Roman, Plain or none) also
// answers to the family alone and to `FAMILY Regular`. Names match ignoring case, spaces, `-`
// and `_` (so the PostScript-like `OpenSans-Semibold` matches too); of two faces with one name the
// first in path order wins. A font stack resolves font by font: a code point takes the glyph of
// the first of the stack's fonts that has it (there is no fallback to fonts the stack does not
// name). A stack none of whose fonts is in the folder draws nothing.
// Glyphs are GL JS's TinySDF glyphs (`LocalGlyphRasterizer.tinySDFGlyph`: 24 px × textureScale,
// buffer 3, radius 8, cutoff 0.25).
// Failures: a file FreeType cannot open (garbage, truncated past its tables), a face that is not
// scalable or whose glyphs cannot be loaded costs only itself, with a `FontFileError` warning; a
// folder that cannot be read is one warning and no fonts. Nothing traps on bad font bytes.
// Threads: any method from any thread (faces lock themselves; the rest is immutable).
import Foundation
import GLMapCore

/// The fonts of a folder, matched to font stacks by name (see the contract above).
public final class FontFolder: LocalGlyphSource {
    /// The folder.
    public let path: String
    /// The usable faces, in path order.
    public let faces: [FontFace]
    /// 1 (24 px) or 2 (48 px, GL JS 5's local glyphs).
    public let textureScale: Int
    /// Files (or the folder) that could not be used.
    public let fileWarnings: [FontFileError]
    private let byName: [String: FontFace]

    /// File name extensions read as fonts.
    public static let fontExtensions: Set<String> = ["ttf", "otf", "ttc", "otc"]
    /// Style names of a regular face (the family alone names it too).
    static let regularStyles: Set<String> = ["", "regular", "book", "normal", "roman", "plain", "standard"]

    /// Opens every font file under `path`; `textureScale` as `LocalGlyphRasterizer`'s.
    public init(path: String, textureScale: Int = 2) {
        self.path = path
        self.textureScale = min(2, max(1, textureScale))
        var faces: [FontFace] = [], problems: [FontFileError] = []
        for file in Self.fontFiles(in: path, problems: &problems) {
            do { faces += try Self.openFaces(file: file) } catch { problems.append(error) }
        }
        var byName: [String: FontFace] = [:]
        for face in faces {
            for name in Self.names(of: face) where byName[Self.key(name)] == nil { byName[Self.key(name)] = face }
        }
        self.faces = faces
        self.fileWarnings = problems
        self.byName = byName
    }

    /// The names a face answers to, as a `text-font` would spell them.
    public static func names(of face: FontFace) -> [String] {
        let family = face.familyName.trimmingCharacters(in: .whitespaces)
        let style = face.styleName.trimmingCharacters(in: .whitespaces)
        guard !family.isEmpty else { return [] }
        var names = [style.isEmpty ? family : "\(family) \(style)"]
        if regularStyles.contains(style.lowercased()) { names += [family, "\(family) Regular"] }
        return names
    }

    /// The key a name is matched by: lower case, without spaces, `-` and `_`.
    static func key(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { !CharacterSet.whitespaces.contains($0) && $0 != "-" && $0 != "_" }.map(Character.init))
    }

    /// The face named `font`, if the folder has one.
    public func face(named font: String) -> FontFace? { byName[Self.key(font)] }

    /// The faces of `fontStack`'s fonts the folder has, in stack order.
    public func faces(for fontStack: String) -> [FontFace] {
        fontStack.split(separator: ",").compactMap { face(named: String($0).trimmingCharacters(in: .whitespaces)) }
    }

    /// The glyph of `codePoint` from the first of `fontStack`'s fonts that has it.
    public func glyph(codePoint: UInt32, fontStack: String) -> Glyph? {
        for face in faces(for: fontStack) where face.hasGlyph(codePoint) {
            if let g = LocalGlyphRasterizer.tinySDFGlyph(face: face, codePoint: codePoint, textureScale: textureScale) { return g }
        }
        return nil
    }

    /// Nil when the folder has a font of `fontStack`; else why not (`GlyphManager` warns with it
    /// once per stack).
    public func missingFont(fontStack: String) -> String? {
        guard faces(for: fontStack).isEmpty else { return nil }
        let fonts = fontStack.split(separator: ",").map { "\"\($0.trimmingCharacters(in: .whitespaces))\"" }
        var known = faces.compactMap { Self.names(of: $0).first }
        var seen = Set<String>()
        known = known.filter { seen.insert($0).inserted }
        let list = known.isEmpty ? "it has no usable fonts"
            : "its fonts are " + known.prefix(8).joined(separator: ", ") + (known.count > 8 ? ", … (\(known.count) in all)" : "")
        return "no font in \(path) is named \(fonts.joined(separator: " or ")) (\(list)); text needing it is left out"
    }

    /// The usable faces of one font file (every face of a collection), or why it cannot be used.
    public static func openFaces(file: String) throws(FontFileError) -> [FontFace] {
        do {
            let first = try FontFace(path: file)
            var faces = [first]
            for index in 1..<max(1, min(first.faceCount, 256)) { faces.append(try FontFace(path: file, faceIndex: index)) }
            for face in faces { if let problem = problem(with: face) { throw problem } }
            return faces
        } catch let e as FontFileError {
            throw e
        } catch {
            throw FontFileError(path: file, message: "\(error)")
        }
    }

    /// The font files under `folder`, in path order (sub-folders too; links followed).
    public static func fontFiles(in folder: String, problems: inout [FontFileError]) -> [String] {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
            problems.append(FontFileError(path: folder, message: "not a folder of fonts (no such folder)"))
            return []
        }
        guard let walker = fm.enumerator(atPath: folder) else {
            problems.append(FontFileError(path: folder, message: "the folder cannot be read"))
            return []
        }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            guard fontExtensions.contains((relative as NSString).pathExtension.lowercased()) else { continue }
            let full = (folder as NSString).appendingPathComponent(relative)
            var dir: ObjCBool = false
            if fm.fileExists(atPath: full, isDirectory: &dir), !dir.boolValue { files.append(full) }
        }
        return files.sorted()
    }

    /// Why `face` cannot draw (not one glyph it maps loads), or nil.
    static func problem(with face: FontFace) -> FontFileError? {
        guard !face.familyName.isEmpty else { return FontFileError(path: face.path, message: "the font has no family name to match text-font by") }
        let probes: [UInt32] = [0x41, 0x61, 0x30, 0x20]
        guard let probe = probes.first(where: face.hasGlyph) ?? face.codePoints().first else {
            return FontFileError(path: face.path, message: "the font maps no characters")
        }
        guard face.render(probe, pixelSize: 24) != nil else {
            return FontFileError(path: face.path, message: "the glyphs of \"\(face.name)\" cannot be loaded (a truncated or damaged file)")
        }
        return nil
    }
}
