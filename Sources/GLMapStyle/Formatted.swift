import GLMapCore

/// A `formatted` value (`text-field`): text in sections, each with its own scale, fonts, colour and
/// vertical alignment, or an image (the spec's `format` expression; a plain string, number or
/// boolean is one section of text).
public struct Formatted: PropertyValueType, Equatable {
    /// One run of text with its overrides (nil: the layer's value).
    public struct Section: Equatable, Sendable {
        /// The text.
        public var text: String
        /// `font-scale`: a factor of `text-size`.
        public var scale: Double?
        /// `text-font`: the font stack.
        public var fontStack: [String]?
        /// `text-color`.
        public var textColor: Color?
        /// An image instead of text (`["image", name]` in `format`).
        public var image: String? = nil
        /// `vertical-align` (`bottom`, `center`, `top`).
        public var verticalAlign: String? = nil

        /// A section of `text` with no overrides.
        public init(text: String, scale: Double? = nil, fontStack: [String]? = nil, textColor: Color? = nil) {
            self.text = text; self.scale = scale; self.fontStack = fontStack; self.textColor = textColor
        }
    }

    /// The sections in order.
    public var sections: [Section]

    /// A value of the given sections.
    public init(sections: [Section]) { self.sections = sections }

    /// The text of every section, joined.
    public var text: String { sections.map(\.text).joined() }

    /// Plain text (a string, number or boolean) as one section.
    public init?(evaluated v: Value) {
        switch v {
        case .formatted(let f): self = f
        case .string(let s): self.init(sections: [Section(text: s)])
        case .number(let n): self.init(sections: [Section(text: JSONValue.formatNumber(n))])
        case .boolean(let b): self.init(sections: [Section(text: b ? "true" : "false")])
        default: return nil
        }
    }
}
