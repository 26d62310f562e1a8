import GLMapCore

/// A glyph range that could not be used: the font stack, the range (`0-255`), the URL and why.
///
/// Costs only the text that needs the range (see `GlyphManager`); never the frame.
public struct GlyphRangeError: GLMapError, Equatable {
    /// The font stack as requested (`Open Sans Regular,Arial Unicode MS Regular`).
    public var fontStack: String
    /// The first code point of the 256-code-point range.
    public var rangeStart: UInt32
    /// The URL the range was requested from, when there was one.
    public var url: String?
    /// What went wrong (not found, a decoding failure at a byte offset, the loader's error).
    public var message: String
    /// Always `.renderOrIO`: a range is an asset the frame needs, not style input.
    public var kind: FailureKind { .renderOrIO }
    /// `glyph range "STACK" 0-255 (URL): message`.
    public var description: String {
        let end = rangeStart + 255
        return "glyph range \"\(fontStack)\" \(rangeStart)-\(end)" + (url.map { " (\($0))" } ?? "") + ": \(message)"
    }
    /// A failure of one range.
    public init(fontStack: String, rangeStart: UInt32, url: String?, message: String) {
        (self.fontStack, self.rangeStart, self.url, self.message) = (fontStack, rangeStart, url, message)
    }
}

/// Bytes that are not a glyph PBF (truncated, a bad wire type, a bitmap of the wrong size), with
/// the byte offset where decoding stopped.
public struct GlyphPBFError: GLMapError, Equatable {
    /// Byte offset in the input where the problem was found.
    public var offset: Int
    /// What was expected there.
    public var message: String
    /// Always `.invalidInput`.
    public var kind: FailureKind { .invalidInput }
    /// `glyph PBF at byte N: message`.
    public var description: String { "glyph PBF at byte \(offset): \(message)" }
    /// A decoding failure at `offset`.
    public init(offset: Int, message: String) { self.offset = offset; self.message = message }
}

/// A sprite (one entry of the style's `sprite`) that could not be used: its id, the URL and why.
/// Costs only that sprite's images, with a warning.
public struct SpriteError: GLMapError, Equatable {
    /// The sprite's id (`default` for a plain string `sprite`).
    public var spriteID: String
    /// The URL of the file at fault (`….json` or `….png`), when there was one.
    public var url: String?
    /// What went wrong: not found, a JSON path and what was expected there, a PNG that does not
    /// hold an image's rectangle.
    public var message: String
    /// Always `.renderOrIO`: a sprite is an asset the frame needs.
    public var kind: FailureKind { .renderOrIO }
    /// `sprite "ID" (URL): message`.
    public var description: String { "sprite \"\(spriteID)\"" + (url.map { " (\($0))" } ?? "") + ": \(message)" }
    /// A failure of one sprite.
    public init(spriteID: String, url: String?, message: String) {
        (self.spriteID, self.url, self.message) = (spriteID, url, message)
    }
}

/// An image added at run time (`addImage`/`updateImage`) that was refused: its id and why.
public struct StyleImageError: GLMapError, Equatable {
    /// The image id.
    public var imageID: String
    /// What is wrong (an invalid `stretchX`, `stretchY` or `content`, a size mismatch, a duplicate id).
    public var message: String
    /// Always `.invalidInput`.
    public var kind: FailureKind { .invalidInput }
    /// `image "ID": message`.
    public var description: String { "image \"\(imageID)\": \(message)" }
    /// A refused image.
    public init(imageID: String, message: String) { self.imageID = imageID; self.message = message }
}

/// A font file FreeType could not open or use.
public struct FontFileError: GLMapError, Equatable {
    /// The font file.
    public var path: String
    /// FreeType's error code and what was being done.
    public var message: String
    /// Always `.invalidInput`.
    public var kind: FailureKind { .invalidInput }
    /// `PATH: message`.
    public var description: String { "\(path): \(message)" }
    /// A failure of the font at `path`.
    public init(path: String, message: String) { self.path = path; self.message = message }
}

/// A font stack whose text cannot be drawn: the style has no `glyphs` URL (or the range failed)
/// and no local font is named for the stack. Costs only the text needing it, with a warning.
public struct FontStackError: GLMapError, Equatable {
    /// The font stack as requested (`Open Sans Semibold,Arial Unicode MS Bold`).
    public var fontStack: String
    /// Why no font draws it.
    public var message: String
    /// Always `.renderOrIO`: fonts are assets the frame needs, not style input.
    public var kind: FailureKind { .renderOrIO }
    /// `font stack "STACK": message`.
    public var description: String { "font stack \"\(fontStack)\": \(message)" }
    /// A stack without a font.
    public init(fontStack: String, message: String) { self.fontStack = fontStack; self.message = message }
}
