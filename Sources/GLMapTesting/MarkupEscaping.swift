/// Text escaped for the reports' markup: XML (JUnit) and HTML (the HTML report). The markup
/// characters become entities; XML also keeps newlines and tabs in attribute values (as character
/// references) and replaces the characters XML 1.0 forbids with U+FFFD.
enum MarkupEscaping {
    /// XML 1.0 attribute or element text.
    static func xml(_ s: String) -> String {
        escape(s, entities: xmlEntities) { u in u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF }
    }

    /// HTML attribute or element text.
    static func html(_ s: String) -> String {
        escape(s, entities: htmlEntities) { _ in false }
    }

    private static let htmlEntities: [Unicode.Scalar: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;",
    ]

    private static let xmlEntities: [Unicode.Scalar: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;", "\n": "&#10;", "\t": "&#9;",
    ]

    /// `s` with each scalar in `entities` replaced and each `forbidden` one turned into U+FFFD.
    private static func escape(_ s: String, entities: [Unicode.Scalar: String],
                               forbidden: (Unicode.Scalar) -> Bool) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            if let entity = entities[u] {
                out += entity
            } else if forbidden(u) {
                out.unicodeScalars.append("\u{FFFD}")
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
