import CICU
import Foundation
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
        (self.text, self.image, self.scale, self.fontStack, self.textColor) = (text, image, scale, fontStack, textColor)
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

/// The `number-format` expression's formatting: what `Intl.NumberFormat` gives in a browser,
/// through the same ICU (decimal or currency style, fraction digit options resolved as
/// ECMA-402's SetNumberFormatDigitOptions, grouping, rounding half away from zero).
public enum NumberFormatting {
    /// `value` formatted for `locale` (nil: "en-US", a browser's usual default), as `currency`
    /// (ISO 4217) when given; nil when the fraction digit options are invalid (JavaScript throws
    /// a RangeError: minimum above maximum, or outside 0…100) or ICU fails.
    public static func format(_ value: Double, locale: String? = nil, currency: String? = nil,
                              minFractionDigits: Int? = nil, maxFractionDigits: Int? = nil) -> String? {
        let defaultMin: Int, defaultMax: Int
        if let currency {
            let d = Int(glmap_icu_currency_digits(currency))
            guard d >= 0 else { return nil }
            (defaultMin, defaultMax) = (d, d)
        } else {
            (defaultMin, defaultMax) = (0, 3)
        }
        if let m = minFractionDigits, !(0...100).contains(m) { return nil }
        if let m = maxFractionDigits, !(0...100).contains(m) { return nil }
        let minDigits = minFractionDigits ?? min(defaultMin, maxFractionDigits ?? defaultMin)
        let maxDigits = maxFractionDigits ?? max(defaultMax, minDigits)
        guard minDigits <= maxDigits else { return nil }
        let localeID = (locale ?? "en-US").replacingOccurrences(of: "-", with: "_")
        var dest = [UInt16](repeating: 0, count: 256)
        let n = localeID.withCString { loc in
            currency.map { c in c.withCString { glmap_icu_format_number(value, loc, $0, Int32(minDigits), Int32(maxDigits), &dest, 256) } }
                ?? glmap_icu_format_number(value, loc, nil, Int32(minDigits), Int32(maxDigits), &dest, 256)
        }
        guard n >= 0, n <= 256 else { return nil }
        return String(decoding: dest[0..<Int(n)], as: UTF16.self)
    }
}
