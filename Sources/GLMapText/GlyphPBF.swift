// GlyphPBF — contract
// Input: the bytes of one glyph range (MapLibre/Mapbox "fontstack" protobuf: glyphs { repeated
// fontstack stacks = 1 }, fontstack { name = 1, range = 2, repeated glyph = 3 }, glyph { id = 1,
// bitmap = 2, width = 3, height = 4, left = 5 (sint32), top = 6 (sint32), advance = 7 }).
// Output: the glyphs in file order, each with a bitmap of (width + 6) × (height + 6) bytes (an
// absent bitmap is zeros, as GL JS's AlphaImage makes it); `encode` writes the same format.
// Invariants: decoding never traps on any input; it throws `GlyphPBFError` with the byte offset for
// truncated fields, unknown wire types, a bitmap whose length does not match its width and height
// (GL JS throws "mismatched image size" there, losing the range), or a glyph over `maxGlyphPixels`.
// Unknown fields are skipped, as pbf does. `decode(encode(g)) == g` for glyphs with integer metrics.
// Limits: one range is small (a few hundred KB); nothing is streamed.

/// Reads and writes glyph range PBFs.
public enum GlyphPBF {
    /// The most bitmap pixels one glyph may declare (a 1024×1024 SDF): a larger width × height
    /// is an error rather than an allocation.
    public static let maxGlyphPixels = 1 << 20

    /// The glyphs of a range, in file order (a file may hold several font stacks; all are read).
    public static func decode(_ bytes: [UInt8]) throws -> [Glyph] {
        var reader = ProtobufReader(bytes)
        var glyphs: [Glyph] = []
        while !reader.atEnd {
            let (field, wireType) = try reader.key()
            if field == 1 && wireType == 2 {
                let bounds = try reader.lengthDelimited()
                var stack = ProtobufReader(bytes, start: bounds.lowerBound, end: bounds.upperBound)
                try readFontstack(&stack, into: &glyphs)
            } else {
                try reader.skip(wireType: wireType)
            }
        }
        return glyphs
    }

    private static func readFontstack(_ reader: inout ProtobufReader, into glyphs: inout [Glyph]) throws {
        while !reader.atEnd {
            let (field, wireType) = try reader.key()
            if field == 3 && wireType == 2 {
                let bounds = try reader.lengthDelimited()
                var g = ProtobufReader(reader.bytes, start: bounds.lowerBound, end: bounds.upperBound)
                glyphs.append(try readGlyph(&g))
            } else {
                try reader.skip(wireType: wireType)
            }
        }
    }

    private static func readGlyph(_ reader: inout ProtobufReader) throws -> Glyph {
        let start = reader.position
        var id: UInt64 = 0, width: UInt64 = 0, height: UInt64 = 0, advance: UInt64 = 0
        var left: Int64 = 0, top: Int64 = 0
        var bitmap: Range<Int>?
        while !reader.atEnd {
            let (field, wireType) = try reader.key()
            switch (field, wireType) {
            case (1, 0): id = try reader.varint()
            case (2, 2): bitmap = try reader.lengthDelimited()
            case (3, 0): width = try reader.varint()
            case (4, 0): height = try reader.varint()
            case (5, 0): left = try reader.signedVarint()
            case (6, 0): top = try reader.signedVarint()
            case (7, 0): advance = try reader.varint()
            default: try reader.skip(wireType: wireType)
            }
        }
        let border = UInt64(GlyphConstants.pbfBorder)
        guard width < 1 << 20, height < 1 << 20 else {
            throw GlyphPBFError(offset: start, message: "glyph \(id): size \(width)×\(height) is too large")
        }
        let w = Int(width + 2 * border), h = Int(height + 2 * border)
        guard w * h <= maxGlyphPixels else {
            throw GlyphPBFError(offset: start, message: "glyph \(id): \(w)×\(h) bitmap exceeds \(maxGlyphPixels) pixels")
        }
        let image: AlphaImage
        if let bitmap, !bitmap.isEmpty {
            guard bitmap.count == w * h, let decoded = AlphaImage(width: w, height: h, pixels: Array(reader.bytes[bitmap])) else {
                throw GlyphPBFError(offset: bitmap.lowerBound,
                                    message: "glyph \(id): bitmap has \(bitmap.count) bytes, \(w)×\(h) = \(w * h) expected (mismatched image size)")
            }
            image = decoded
        } else {
            image = AlphaImage(width: w, height: h)
        }
        let metrics = GlyphMetrics(width: Double(width), height: Double(height), left: Double(left), top: Double(top),
                                   advance: Double(advance))
        return Glyph(id: UInt32(truncatingIfNeeded: id), bitmap: image, metrics: metrics)
    }

    /// A glyph range PBF holding `glyphs` under one font stack named `fontStack`, for the range
    /// starting at `rangeStart` (`0-255`, …). Metrics are rounded to integers (the format's
    /// fields are integers); a glyph whose bitmap is all zeros with a zero-size ink box is written
    /// without a bitmap, as glyph servers do for spaces.
    public static func encode(fontStack: String, rangeStart: UInt32, glyphs: [Glyph]) -> [UInt8] {
        var stack = ProtobufWriter()
        stack.bytesField(1, Array(fontStack.utf8))
        stack.bytesField(2, Array("\(rangeStart)-\(rangeStart + 255)".utf8))
        for glyph in glyphs {
            var g = ProtobufWriter()
            g.varintField(1, UInt64(glyph.id))
            let empty = glyph.metrics.width == 0 && glyph.metrics.height == 0 && glyph.bitmap.pixels.allSatisfy { $0 == 0 }
            if !empty { g.bytesField(2, glyph.bitmap.pixels) }
            g.varintField(3, UInt64(integer(glyph.metrics.width, min: 0)))
            g.varintField(4, UInt64(integer(glyph.metrics.height, min: 0)))
            g.signedVarintField(5, integer(glyph.metrics.left, min: -(1 << 31)))
            g.signedVarintField(6, integer(glyph.metrics.top, min: -(1 << 31)))
            g.varintField(7, UInt64(integer(glyph.metrics.advance, min: 0)))
            stack.bytesField(3, g.bytes)
        }
        var file = ProtobufWriter()
        file.bytesField(1, stack.bytes)
        return file.bytes
    }

    /// `value` rounded to an integer in `min ... 2^31 − 1`; NaN is 0.
    private static func integer(_ value: Double, min: Int64) -> Int64 {
        guard value.isFinite else { return value.isNaN ? 0 : (value > 0 ? (1 << 31) - 1 : min) }
        return Swift.max(min, Swift.min((1 << 31) - 1, Int64(value.rounded())))
    }
}
