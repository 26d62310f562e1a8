import GLMapCore

/// Where a section sits vertically in a line taller than it (`format`'s `vertical-align`).
public enum VerticalAlign: String, Sendable {
    /// Bottom of the line (the default; the baseline for text of one size).
    case bottom
    /// Centred.
    case center
    /// Top of the line.
    case top
}

/// One section of an evaluated `text-field` (a `format` section, or the whole string): text with
/// optional overrides, or an image (MapLibre's `FormattedSection`).
public struct FormattedSection: Equatable, Sendable {
    /// The section's text (empty for an image section).
    public var text: String
    /// The image's name, for an image section.
    public var image: String?
    /// `font-scale`, when set.
    public var scale: Double?
    /// `text-font` override as a comma-joined font stack, when set.
    public var fontStack: String?
    /// `text-color` override, when set.
    public var textColor: Color?
    /// `vertical-align`, when set.
    public var verticalAlign: VerticalAlign?

    /// A section.
    public init(text: String, image: String? = nil, scale: Double? = nil, fontStack: String? = nil,
                textColor: Color? = nil, verticalAlign: VerticalAlign? = nil) {
        self.text = text
        self.image = image
        self.scale = scale
        self.fontStack = fontStack
        self.textColor = textColor
        self.verticalAlign = verticalAlign
    }

    /// An image section.
    public static func image(_ name: String, verticalAlign: VerticalAlign? = nil) -> FormattedSection {
        FormattedSection(text: "", image: name, verticalAlign: verticalAlign)
    }
}

/// An evaluated `text-field`: its sections in order (MapLibre's `Formatted`).
public struct FormattedText: Equatable, Sendable {
    /// The sections.
    public var sections: [FormattedSection]

    /// A formatted value of `sections`.
    public init(sections: [FormattedSection]) { self.sections = sections }

    /// A plain string as one section (`Formatted.fromString`).
    public init(_ text: String) { sections = [FormattedSection(text: text)] }

    /// The text of all sections joined (image sections contribute nothing).
    public var string: String { sections.map(\.text).joined() }

    /// Whether there is no text and no image.
    public var isEmpty: Bool { sections.allSatisfy { $0.text.isEmpty && $0.image == nil } }
}

/// `text-transform`.
public enum TextTransform: String, Sendable {
    /// Unchanged.
    case none
    /// Upper case.
    case uppercase
    /// Lower case.
    case lowercase
}

extension FormattedText {
    /// GL JS's `transformText`: each section's text upper- or lower-cased (full Unicode case
    /// mapping, as `toLocaleUpperCase` in an English locale), then Arabic letters turned into
    /// their presentation forms when `bidi` is given (the RTL plugin's `applyArabicShaping`).
    public func transformed(_ transform: TextTransform, bidi: Bidi?) -> FormattedText {
        var out = self
        for i in out.sections.indices {
            var text = out.sections[i].text
            switch transform {
            case .uppercase: text = Bidi.caseMapped(text, upper: true)
            case .lowercase: text = Bidi.caseMapped(text, upper: false)
            case .none: break
            }
            if let bidi { text = bidi.applyArabicShaping(text) }
            out.sections[i].text = text
        }
        return out
    }
}

/// GL JS's token replacement for `{name}` in legacy string `text-field`/`icon-image` values:
/// each `{key}` becomes the property's value as a string, or nothing when absent.
public enum TokenResolver {
    /// `text` with every `{key}` replaced through `value(key)`.
    public static func resolve(_ text: String, value: (String) -> String?) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest.index(after: open)
            guard let close = rest[after...].firstIndex(where: { $0 == "}" || $0 == "{" }), rest[close] == "}", close > after else {
                out += rest[...open]
                rest = rest[after...]
                continue
            }
            out += rest[..<open]
            out += value(String(rest[after..<close])) ?? ""
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
