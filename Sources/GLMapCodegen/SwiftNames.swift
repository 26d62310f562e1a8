import Foundation
import GLMapCore

/// How spec names become Swift names and spec text becomes Swift source.
enum SwiftNames {
    /// Words written in capitals inside names (`raster-dem` → `RasterDEM`, `geojson` → `GeoJSON`).
    static let acronyms: [String: String] = ["dem": "DEM", "geojson": "GeoJSON", "url": "URL", "urls": "URLs"]

    /// Swift keywords a generated member name must escape.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "func", "import", "init", "inout", "internal", "let",
        "operator", "private", "protocol", "public", "static", "struct", "subscript", "typealias", "var", "break", "case",
        "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "switch", "where", "while", "as", "catch", "false", "is", "nil", "rethrows", "super", "self", "Self", "throw",
        "throws", "true", "try", "any", "some",
    ]

    /// The words of a spec name (`line-gap-width`, `text_field`, `tileSize` → line/gap/width, text/field, tile/size).
    static func words(_ name: String) -> [String] {
        var out: [String] = []
        var current = ""
        for c in name {
            if c == "-" || c == "_" || c == " " {
                if !current.isEmpty { out.append(current); current = "" }
            } else if c.isUppercase && !current.isEmpty && !(current.last?.isUppercase ?? false) {
                out.append(current); current = String(c)
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// `line-gap-width` → `lineGapWidth`, `tileSize` → `tileSize`, `viewport-y` → `viewportY`.
    static func lowerCamel(_ name: String) -> String {
        let w = words(name)
        guard let first = w.first else { return name }
        let head = first.lowercased()
        return head + w.dropFirst().map(capitalized).joined()
    }

    /// `fill-extrusion` → `FillExtrusion`, `raster-dem` → `RasterDEM`.
    static func upperCamel(_ name: String) -> String { words(name).map(capitalized).joined() }

    static func capitalized(_ word: String) -> String {
        if let a = acronyms[word.lowercased()] { return a }
        return word.prefix(1).uppercased() + word.dropFirst()
    }

    /// A member name, backticked when it is a keyword.
    static func member(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    /// The first sentence of a spec doc, on one line (a period followed by a space or the end),
    /// ending with a period.
    static func firstSentence(_ doc: String) -> String {
        let s = firstSentenceText(doc).trimmingCharacters(in: .whitespaces)
        guard let last = s.last else { return s }
        return ".!?".contains(last) ? s : s + "."
    }

    static func firstSentenceText(_ doc: String) -> String {
        let text = doc.split(whereSeparator: { $0 == "\n" }).joined(separator: " ")
        var out = ""
        var previous: Character?
        var inCode = false
        for c in text {
            if c == "`" { inCode.toggle() }
            if !inCode, (c == " "), let p = previous, p == "." || p == "!" || p == "?" {
                let lastWord = out.split(separator: " ").last.map(String.init) ?? ""
                if !["e.g.", "i.e.", "etc.", "vs."].contains(lastWord.lowercased()) { return out }
            }
            out.append(c)
            previous = c
        }
        return out
    }

    /// A Swift string literal of `s`.
    static func stringLiteral(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 { out += "\\u{\(String(c.value, radix: 16))}" } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }

    /// A `JSONValue` literal (the type is ExpressibleBy…Literal): `1.05`, `"butt"`, `[0, 0]`, `["a": true]`.
    static func jsonLiteral(_ v: JSONValue) -> String {
        switch v {
        case .null: return "nil"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return JSONValue.formatNumber(n)
        case .string(let s): return stringLiteral(s)
        case .array(let a): return "[" + a.map(jsonLiteral).joined(separator: ", ") + "]"
        case .object(let o):
            if o.isEmpty { return "[:]" }
            return "[" + o.pairs.map { "\(stringLiteral($0.key)): \(jsonLiteral($0.value))" }.joined(separator: ", ") + "]"
        }
    }

    /// Text safe inside a `///` comment line (no line breaks).
    static func docText(_ s: String) -> String {
        s.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }
}
