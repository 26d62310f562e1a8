import CFreeType
import Foundation

/// One face of a TrueType/OpenType font file, opened with FreeType: the source of local glyphs
/// (`LocalGlyphRasterizer`) and of written glyph PBFs (`GlyphRangeWriter`).
///
/// Threads: FreeType faces are not thread-safe; every use goes through this object's lock, so one
/// face may be shared between threads.
public final class FontFace: @unchecked Sendable {
    /// The font file.
    public let path: String
    /// The family name (`DejaVu Sans`).
    public let familyName: String
    /// The style name (`Bold`, `Book`, `Regular`).
    public let styleName: String
    /// Whether FreeType flags the face bold.
    public let isBold: Bool
    /// How many faces the file holds (more than 1 for a collection, `.ttc` / `.otc`).
    public let faceCount: Int

    private let library: FT_Library
    private let face: FT_Face
    private let lock = NSLock()

    /// The name a style's `text-font` would use: family and style (`DejaVu Sans Bold`), or the
    /// family alone for a regular face.
    public var name: String {
        let style = styleName.trimmingCharacters(in: .whitespaces)
        return style.isEmpty ? familyName : "\(familyName) \(style)"
    }

    /// Opens face `faceIndex` of the font file at `path`.
    public init(path: String, faceIndex: Int = 0) throws {
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else { throw FontFileError(path: path, message: "FreeType could not be initialised") }
        var f: FT_Face?
        let err = FT_New_Face(lib, path, faceIndex, &f)
        guard err == 0, let f else {
            FT_Done_FreeType(lib)
            let reason = [1: "cannot be opened", 2: "unknown file format", 3: "broken file", 6: "no such face in the file"][Int(err)]
            throw FontFileError(path: path, message: "not a font FreeType can open (FreeType error \(err)\(reason.map { ": " + $0 } ?? ""))")
        }
        guard f.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
            FT_Done_Face(f)
            FT_Done_FreeType(lib)
            throw FontFileError(path: path, message: "not a scalable (outline) font")
        }
        library = lib
        face = f
        self.path = path
        familyName = f.pointee.family_name.map { String(cString: $0) } ?? ""
        styleName = f.pointee.style_name.map { String(cString: $0) } ?? ""
        isBold = f.pointee.style_flags & FT_Long(FT_STYLE_FLAG_BOLD) != 0
        faceCount = max(1, Int(f.pointee.num_faces))
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// Whether the face maps `codePoint` to a glyph.
    public func hasGlyph(_ codePoint: UInt32) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return FT_Get_Char_Index(face, FT_ULong(codePoint)) != 0
    }

    /// Every code point the face maps to a glyph, ascending.
    public func codePoints() -> [UInt32] {
        lock.lock()
        defer { lock.unlock() }
        var result: [UInt32] = []
        var index: FT_UInt = 0
        var code = FT_Get_First_Char(face, &index)
        while index != 0 {
            if code <= 0x10FFFF { result.append(UInt32(code)) }
            code = FT_Get_Next_Char(face, code, &index)
        }
        return result.sorted()
    }

    /// The face's ascender at `pixelSize` px.
    public func ascender(pixelSize: Int) -> Double {
        lock.lock()
        defer { lock.unlock() }
        guard face.pointee.units_per_EM > 0 else { return 0 }
        return Double(face.pointee.ascender) * Double(pixelSize) / Double(face.pointee.units_per_EM)
    }

    /// A glyph rendered unhinted at `pixelSize` px: its anti-aliased coverage, where that bitmap
    /// sits relative to the pen (FreeType's bitmap_left/top), the exact outline bounds and the
    /// unhinted advance — what a browser's `measureText` and `fillText` give TinySDF.
    struct Rendered {
        var coverage: [UInt8]
        var width: Int
        var rows: Int
        var bitmapLeft: Int
        var bitmapTop: Int
        var xMin: Double, yMin: Double, xMax: Double, yMax: Double
        var advance: Double
        var hasOutline: Bool
    }

    /// Renders `codePoint` at `pixelSize` px, or nil when the face has no glyph for it.
    func render(_ codePoint: UInt32, pixelSize: Int) -> Rendered? {
        lock.lock()
        defer { lock.unlock() }
        let index = FT_Get_Char_Index(face, FT_ULong(codePoint))
        guard index != 0 else { return nil }
        guard FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize)) == 0 else { return nil }
        let flags = Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
        guard FT_Load_Glyph(face, index, flags) == 0, let slot = face.pointee.glyph else { return nil }
        let advance = Double(slot.pointee.linearHoriAdvance) / 65536
        var r = Rendered(coverage: [], width: 0, rows: 0, bitmapLeft: 0, bitmapTop: 0, xMin: 0, yMin: 0, xMax: 0, yMax: 0,
                         advance: advance, hasOutline: false)
        guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE, slot.pointee.outline.n_points > 0 else { return r }
        var box = FT_BBox()
        FT_Outline_Get_BBox(&slot.pointee.outline, &box)
        r.xMin = Double(box.xMin) / 64
        r.yMin = Double(box.yMin) / 64
        r.xMax = Double(box.xMax) / 64
        r.yMax = Double(box.yMax) / 64
        r.hasOutline = true
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return r }
        let bitmap = slot.pointee.bitmap
        let w = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        r.width = w
        r.rows = rows
        r.bitmapLeft = Int(slot.pointee.bitmap_left)
        r.bitmapTop = Int(slot.pointee.bitmap_top)
        guard w > 0, rows > 0, let buffer = bitmap.buffer, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else { return r }
        var coverage = [UInt8](repeating: 0, count: w * rows)
        for y in 0..<rows {
            let row = pitch >= 0 ? buffer + y * pitch : buffer + (rows - 1 - y) * (-pitch)
            for x in 0..<w { coverage[y * w + x] = row[x] }
        }
        r.coverage = coverage
        return r
    }
}
