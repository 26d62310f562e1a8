import Foundation
import GLMapCore
import GLMapPNG
import CICU

/// A source of glyphs drawn on this machine rather than loaded from glyph PBFs.
public protocol LocalGlyphSource: Sendable {
    /// The glyph of `codePoint` for the font stack `fontStack` (comma-joined font names), or nil
    /// when no local font has it.
    func glyph(codePoint: UInt32, fontStack: String) -> Glyph?
    /// Nil when the source has a font for `fontStack`; else why not, as a sentence (the default:
    /// every stack has one, as a browser always finds some font).
    func missingFont(fontStack: String) -> String?
}

extension LocalGlyphSource {
    /// Every stack has a font.
    public func missingFont(fontStack: String) -> String? { nil }
}

/// Draws glyphs from font files the way GL JS's local glyph path (`GlyphManager._drawGlyph` with
/// TinySDF) draws them from system fonts: used when a style has no `glyphs` URL or a range cannot
/// be loaded.
///
/// The glyph is rendered unhinted with FreeType at 24 × `textureScale` px, its coverage captured
/// in TinySDF's box (`ceil(ascent)` above the baseline, `ceil(right − left)` wide from the pen —
/// canvas' `actualBoundingBoxLeft` counts leftwards, so that is `ceil(xMax + xMin)` of the outline,
/// clipped to the canvas), and turned into an SDF with buffer 3 × scale, radius 8 × scale,
/// cutoff 0.25. Metrics follow GL JS: width, height and advance divided by the scale (0 becomes
/// 24), left 0.5, top `ceil(ascent)/scale − 27.5` (0 becomes −8), format characters (Cf) take no
/// width or advance, and a scale of 2 marks the glyph double-resolution (GL JS 5 draws every
/// local glyph at scale 2; scale 1 is the older 24 px path).
///
/// Face choice for a stack: a face whose `name` is one of the stack's fonts and has the glyph
/// (in stack order), else the first fallback face that has it, preferring bold faces for stacks
/// naming a bold/semibold/black weight, as a browser's CSS font matching would.
public struct LocalGlyphRasterizer: LocalGlyphSource {
    /// The faces, in fallback order.
    public let faces: [FontFace]
    /// 1 (24 px) or 2 (48 px, GL JS 5's local glyphs).
    public let textureScale: Int

    /// A rasterizer over `faces` (fallback order) at `textureScale` 1 or 2 (other values are clamped).
    public init(faces: [FontFace], textureScale: Int = 2) {
        self.faces = faces
        self.textureScale = min(2, max(1, textureScale))
    }

    /// The face that draws `codePoint` for `fontStack`, if any.
    public func face(for codePoint: UInt32, fontStack: String) -> FontFace? {
        let names = fontStack.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        for name in names {
            if let f = faces.first(where: { $0.name.lowercased() == name && $0.hasGlyph(codePoint) }) { return f }
        }
        let wantsBold = names.first.map(Self.namesBoldWeight) ?? false
        let candidates = faces.filter { $0.hasGlyph(codePoint) }
        return candidates.first(where: { $0.isBold == wantsBold }) ?? candidates.first
    }

    /// Whether a font name sniffs to a weight of 600 or more (GL JS's `_fontWeight`).
    static func namesBoldWeight(_ name: String) -> Bool {
        let words = name.lowercased()
        for heavy in ["semibold", "demibold", "bold", "black", "heavy"] where words.contains(heavy) { return true }
        return false
    }

    /// The glyph of `codePoint` drawn from the face chosen for `fontStack`.
    public func glyph(codePoint: UInt32, fontStack: String) -> Glyph? {
        guard let face = face(for: codePoint, fontStack: fontStack) else { return nil }
        return Self.tinySDFGlyph(face: face, codePoint: codePoint, textureScale: textureScale)
    }

    /// GL JS's TinySDF glyph of `codePoint` from `face` at `textureScale`.
    public static func tinySDFGlyph(face: FontFace, codePoint: UInt32, textureScale: Int) -> Glyph? {
        let scale = Double(textureScale)
        let fontSize = 24 * textureScale, buffer = 3 * textureScale
        let radius = 8 * scale, cutoff = 0.25
        let size = fontSize + buffer * 4
        guard let r = face.render(codePoint, pixelSize: fontSize) else { return nil }
        let glyphTop = r.hasOutline ? Int(r.yMax.rounded(.up)) : 0
        // measureText's actualBoundingBoxLeft is −xMin (positive leftwards of the pen), so TinySDF's
        // `right − left` is xMax + xMin: the box from the pen reaches the ink's right edge.
        let glyphWidth = r.hasOutline ? max(0, min(size - buffer, Int((r.xMax + r.xMin).rounded(.up)))) : 0
        let glyphHeight = r.hasOutline ? max(0, min(size - buffer, glyphTop + Int((-r.yMin).rounded(.up)))) : 0
        var coverage = [UInt8](repeating: 0, count: glyphWidth * glyphHeight)
        if glyphWidth > 0, glyphHeight > 0, r.width > 0 {
            let dy = glyphTop - r.bitmapTop
            for y in 0..<glyphHeight {
                let by = y - dy
                guard by >= 0, by < r.rows else { continue }
                for x in 0..<glyphWidth {
                    let bx = x - r.bitmapLeft
                    guard bx >= 0, bx < r.width else { continue }
                    coverage[y * glyphWidth + x] = r.coverage[by * r.width + bx]
                }
            }
        }
        let sdf = SignedDistanceField.make(coverage: coverage, glyphWidth: glyphWidth, glyphHeight: glyphHeight,
                                           buffer: buffer, radius: radius, cutoff: cutoff)
        let isControl = glmap_icu_is_format_char(codePoint) != 0
        func orDefault(_ v: Double, _ d: Double) -> Double { v == 0 || v.isNaN ? d : v }
        let metrics = GlyphMetrics(
            width: isControl ? 0 : orDefault(Double(glyphWidth) / scale, 24),
            height: orDefault(Double(glyphHeight) / scale, 24),
            left: 0.5,
            top: orDefault(Double(glyphTop) / scale - 27.5, -8),
            advance: isControl ? 0 : orDefault(r.advance / scale, 24),
            isDoubleResolution: textureScale == 2)
        return Glyph(id: codePoint, bitmap: sdf, metrics: metrics)
    }

    /// A glyph in glyph-server conventions from `face` at 24 px, for writing PBFs: integer
    /// metrics, the ink box of the rendered bitmap (`left` = FreeType's bitmap_left, `top` =
    /// bitmap_top − the face's ascender rounded up), an SDF with a 3-pixel border (radius 8,
    /// cutoff 0.25), the advance rounded.
    public static func pbfGlyph(face: FontFace, codePoint: UInt32) -> Glyph? {
        guard let r = face.render(codePoint, pixelSize: 24) else { return nil }
        let ascender = face.ascender(pixelSize: 24).rounded(.up)
        let w = r.coverage.isEmpty ? 0 : r.width, h = r.coverage.isEmpty ? 0 : r.rows
        let sdf = SignedDistanceField.make(coverage: r.coverage, glyphWidth: w, glyphHeight: h, buffer: GlyphConstants.pbfBorder,
                                           radius: 8, cutoff: 0.25)
        let metrics = GlyphMetrics(width: Double(w), height: Double(h), left: w == 0 ? 0 : Double(r.bitmapLeft),
                                   top: w == 0 ? -ascender : Double(r.bitmapTop) - ascender, advance: r.advance.rounded())
        return Glyph(id: codePoint, bitmap: sdf, metrics: metrics)
    }
}

/// Writes glyph range PBFs from font files (`glmap glyphs FONT… -o DIR`).
public enum GlyphRangeWriter {
    /// Every range that holds at least one of the faces' code points, as (first code point, PBF
    /// bytes), ascending. A code point takes its glyph from the first face that has it, so several
    /// faces make one combined font stack named `fontStack`. `only` limits the code points.
    public static func ranges(faces: [FontFace], fontStack: String, only: Set<UInt32>? = nil) -> [(rangeStart: UInt32, bytes: [UInt8])] {
        glyphRanges(faces: faces, only: only).map { range in
            (range.rangeStart, GlyphPBF.encode(fontStack: fontStack, rangeStart: range.rangeStart, glyphs: range.glyphs))
        }
    }

    /// The glyphs of every range, ascending by range and code point (see `ranges`).
    static func glyphRanges(faces: [FontFace], only: Set<UInt32>?) -> [(rangeStart: UInt32, glyphs: [Glyph])] {
        var byRange: [UInt32: [Glyph]] = [:]
        var seen = Set<UInt32>()
        for face in faces {
            for cp in face.codePoints() where !seen.contains(cp) && (only?.contains(cp) ?? true) {
                guard let g = LocalGlyphRasterizer.pbfGlyph(face: face, codePoint: cp) else { continue }
                seen.insert(cp)
                byRange[cp / GlyphConstants.rangeSize * GlyphConstants.rangeSize, default: []].append(g)
            }
        }
        return byRange.keys.sorted().map { start in (start, byRange[start]!.sorted { $0.id < $1.id }) }
    }

    /// Writes the ranges of `faces` (one font stack named `fontStack`) as
    /// `folder/fontStack/START-END.pbf`, each file whole or not at all (`AtomicFileWriter`),
    /// creating the folders; returns how many ranges and glyphs were written. A `/` in the
    /// stack's name becomes `-` in the folder name. Throws `IOFailure`.
    @discardableResult
    public static func write(faces: [FontFace], fontStack: String, to folder: String, only: Set<UInt32>? = nil) throws -> (ranges: Int, glyphs: Int) {
        let stackFolder = (folder as NSString).appendingPathComponent(fontStack.replacingOccurrences(of: "/", with: "-"))
        do {
            try FileManager.default.createDirectory(atPath: stackFolder, withIntermediateDirectories: true)
        } catch {
            throw IOFailure(path: stackFolder, message: "cannot create the folder (\(error.localizedDescription))")
        }
        let ranges = glyphRanges(faces: faces, only: only)
        for range in ranges {
            let bytes = GlyphPBF.encode(fontStack: fontStack, rangeStart: range.rangeStart, glyphs: range.glyphs)
            try AtomicFileWriter.write(bytes, to: (stackFolder as NSString).appendingPathComponent(fileName(rangeStart: range.rangeStart)))
        }
        return (ranges.count, ranges.reduce(0) { $0 + $1.glyphs.count })
    }

    /// The file name of a range (`0-255.pbf`).
    public static func fileName(rangeStart: UInt32) -> String { "\(rangeStart)-\(rangeStart + 255).pbf" }
}
