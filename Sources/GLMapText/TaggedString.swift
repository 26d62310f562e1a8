/// Per-section options while shaping (GL JS's `SectionOptions`): text sections have a font
/// stack, image sections an image name; `scale` of an image section is changed while its line is
/// laid out, as GL JS mutates it.
struct SectionOptions {
    var scale: Double
    var verticalAlign: VerticalAlign
    var fontStack: String?
    var imageName: String?
}

/// Shaping input as GL JS's `TaggedString`: code points with the index of the section each came
/// from; images as Private Use Area characters from U+E000.
struct TaggedString {
    var codePoints: [UInt32]
    var sectionIndex: [Int]

    static let puaBegin: UInt32 = 0xE000
    static let puaEnd: UInt32 = 0xF8FF

    /// The tagged string of `text` and its sections (with default font stack `defaultFontStack`).
    static func make(_ text: FormattedText, defaultFontStack: String) -> (TaggedString, [SectionOptions]) {
        var s = TaggedString(codePoints: [], sectionIndex: [])
        var sections: [SectionOptions] = []
        var nextImage: UInt32? = nil
        for section in text.sections {
            if let image = section.image {
                guard !image.isEmpty else { continue }
                let code: UInt32
                if let n = nextImage {
                    guard n < puaEnd else { continue }
                    code = n + 1
                } else {
                    code = puaBegin
                }
                nextImage = code
                s.codePoints.append(code)
                sections.append(SectionOptions(scale: 1, verticalAlign: section.verticalAlign ?? .bottom, fontStack: nil, imageName: image))
                s.sectionIndex.append(sections.count - 1)
            } else {
                let stack = section.fontStack.flatMap { $0.isEmpty ? nil : $0 } ?? defaultFontStack
                let scale = section.scale.flatMap { $0 == 0 || $0.isNaN ? nil : $0 } ?? 1
                sections.append(SectionOptions(scale: scale, verticalAlign: section.verticalAlign ?? .bottom, fontStack: stack, imageName: nil))
                for scalar in section.text.unicodeScalars {
                    s.codePoints.append(scalar.value)
                    s.sectionIndex.append(sections.count - 1)
                }
            }
        }
        return (s, sections)
    }

    var count: Int { codePoints.count }

    var string: String {
        var out = String.UnicodeScalarView()
        for cp in codePoints { if let u = Unicode.Scalar(cp) { out.append(u) } }
        return String(out)
    }

    var hasZeroWidthSpaces: Bool { codePoints.contains(0x200B) }

    mutating func verticalizePunctuation() { codePoints = VerticalPunctuation.verticalize(codePoints) }

    /// Leading and trailing JavaScript white space removed.
    mutating func trim() {
        var start = 0, end = codePoints.count
        while start < end && ScriptDetection.isWhitespace(codePoints[start]) { start += 1 }
        while end > start && ScriptDetection.isWhitespace(codePoints[end - 1]) { end -= 1 }
        codePoints = Array(codePoints[start..<end])
        sectionIndex = Array(sectionIndex[start..<end])
    }

    func substring(_ start: Int, _ end: Int) -> TaggedString {
        TaggedString(codePoints: Array(codePoints[start..<end]), sectionIndex: Array(sectionIndex[start..<end]))
    }

    /// The UTF-16 offset of code point index `i`.
    func codeUnitIndex(_ i: Int) -> Int {
        codePoints[0..<min(i, codePoints.count)].reduce(0) { $0 + ($1 > 0xFFFF ? 2 : 1) }
    }
}
