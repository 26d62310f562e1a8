import Foundation

/// Finds the public declarations of Swift source text that have no `///` summary directly above.
///
/// A declaration is public when it says `public` or `open`, or when it is a member of a
/// `public extension` without its own access modifier, a requirement of a public protocol, or a
/// `case` of a public enum; a member of a non-public type, or anything inside a function body, is
/// not. Between the summary and the declaration only attribute lines (`@discardableResult`,
/// `@inlinable`, …) may stand; a `/** … */` block ending on the line above counts as a summary.
/// The scanner reads lines, tracking braces outside comments and string literals; it is a
/// line-based reading of the house style, not a Swift parser.
struct PublicDocumentationScanner {
    /// One public declaration without a summary.
    struct Finding: Equatable, CustomStringConvertible {
        /// The file as given to `scan`.
        var file: String
        /// The 1-based line of the declaration.
        var line: Int
        /// The declaration's line, trimmed.
        var text: String

        var description: String { "\(file):\(line): \(text)" }
    }

    /// What the scope opened by a `{` holds, as far as documentation goes.
    enum Scope {
        /// The file's top level.
        case file
        /// A public type (struct, class, actor); only members marked public or open count.
        case publicType
        /// A public enum: its `case`s count, and members marked public or open.
        case publicEnum
        /// A public protocol: every requirement counts.
        case publicProtocol
        /// A `public extension`: members without an access modifier count too.
        case publicExtension
        /// An extension without an access modifier: only members marked public or open count.
        case extensionScope
        /// A non-public type, a function body, an accessor, a closure: nothing inside counts.
        case closed
    }

    static let declarationKeywords: Set<String> = [
        "class", "struct", "enum", "protocol", "actor", "extension", "func", "init", "subscript",
        "var", "let", "typealias", "associatedtype", "case", "operator", "macro",
    ]
    static let modifierKeywords: Set<String> = [
        "public", "open", "internal", "fileprivate", "private", "package", "static", "final",
        "override", "mutating", "nonmutating", "convenience", "required", "lazy", "weak", "unowned",
        "indirect", "nonisolated", "dynamic", "prefix", "postfix", "infix", "optional", "consuming",
        "borrowing", "isolated", "distributed",
    ]
    static let restrictingAccess: Set<String> = ["internal", "fileprivate", "private", "package"]

    /// The declaration a line starts, if any: its keyword and its modifiers (attributes dropped).
    static func declaration(_ line: Substring) -> (keyword: String, modifiers: [String])? {
        var rest = line.drop(while: { $0 == " " || $0 == "\t" })
        var modifiers: [String] = []
        while !rest.isEmpty {
            if rest.first == "@" {
                // An attribute, with an optional parenthesised argument list.
                rest = rest.dropFirst().drop(while: { $0.isLetter || $0.isNumber || $0 == "_" })
                if rest.first == "(" {
                    var depth = 0
                    while let c = rest.first {
                        rest = rest.dropFirst()
                        if c == "(" { depth += 1 } else if c == ")" { depth -= 1; if depth == 0 { break } }
                    }
                }
                rest = rest.drop(while: { $0 == " " || $0 == "\t" })
                continue
            }
            let word = String(rest.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" }))
            if word.isEmpty { return nil }
            rest = rest.dropFirst(word.count)
            if modifierKeywords.contains(word) {
                // `private(set)`, `public(set)`: a setter's access, not the declaration's.
                if rest.hasPrefix("(set)") {
                    rest = rest.dropFirst(5)
                } else {
                    modifiers.append(word)
                }
                rest = rest.drop(while: { $0 == " " || $0 == "\t" })
                continue
            }
            if declarationKeywords.contains(word) {
                // `class func`, `class var`: `class` as a modifier.
                if word == "class" {
                    let next = rest.drop(while: { $0 == " " }).prefix(while: { $0.isLetter })
                    if ["func", "var", "let", "subscript", "override", "final"].contains(String(next)) {
                        modifiers.append(word)
                        rest = rest.drop(while: { $0 == " " })
                        continue
                    }
                }
                if word == "init" || word == "subscript" || word == "func" || rest.first == " " || rest.first == "\t" || rest.isEmpty || rest.first == "?" || rest.first == "!" || rest.first == "<" || rest.first == "(" {
                    return (word, modifiers)
                }
                return nil
            }
            return nil
        }
        return nil
    }

    /// Whether a declaration in `scope` with these modifiers is public.
    static func isPublic(keyword: String, modifiers: [String], in scope: Scope) -> Bool {
        let explicit = modifiers.contains("public") || modifiers.contains("open")
        let restricted = modifiers.contains(where: { restrictingAccess.contains($0) })
        switch scope {
        case .file, .publicType, .extensionScope:
            return explicit && keyword != "extension"
        case .publicEnum:
            return (explicit || (keyword == "case" && !restricted))
        case .publicProtocol:
            return true
        case .publicExtension:
            return !restricted
        case .closed:
            return false
        }
    }

    /// The scope a declaration opens with its `{`, if it is public.
    static func scope(opening keyword: String, isPublic: Bool, modifiers: [String]) -> Scope {
        switch keyword {
        case "struct", "class", "actor": return isPublic ? .publicType : .closed
        case "enum": return isPublic ? .publicEnum : .closed
        case "protocol": return isPublic ? .publicProtocol : .closed
        case "extension":
            if modifiers.contains("public") || modifiers.contains("open") { return .publicExtension }
            if modifiers.contains(where: { restrictingAccess.contains($0) }) { return .closed }
            return .extensionScope
        default: return .closed
        }
    }

    /// Whether the lines before `index` end in a doc comment, skipping attribute lines.
    static func isDocumented(_ lines: [Substring], before index: Int) -> Bool {
        var i = index - 1
        while i >= 0 {
            let t = lines[i].trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("@") { i -= 1; continue }
            if t.hasPrefix("///") { return true }
            if t.hasSuffix("*/") {
                // Walk up to the block's opening; a doc block opens with `/**`.
                var j = i
                while j >= 0 {
                    let u = lines[j].trimmingCharacters(in: .whitespaces)
                    if let r = u.range(of: "/*") { return u[r.lowerBound...].hasPrefix("/**") }
                    j -= 1
                }
                return false
            }
            return false
        }
        return false
    }

    /// The public declarations of `text` without a summary; `file` names them in the findings.
    /// `declarations` counts every public declaration seen.
    static func scan(_ text: String, file: String, declarations: inout Int) -> [Finding] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var stack: [Scope] = [.file]
        var pending: Scope? = nil
        var blockComment = 0
        var multilineString = false
        var findings: [Finding] = []
        for (index, line) in lines.enumerated() {
            let scope = stack.last ?? .file
            if blockComment == 0, !multilineString, let d = declaration(line) {
                let pub = isPublic(keyword: d.keyword, modifiers: d.modifiers, in: scope)
                if pub && d.keyword != "extension" {
                    declarations += 1
                    if !isDocumented(lines, before: index) {
                        findings.append(Finding(file: file, line: index + 1,
                                                text: line.trimmingCharacters(in: .whitespaces)))
                    }
                }
                let extensionPublic = d.keyword == "extension" && scope != .closed
                pending = Self.scope(opening: d.keyword, isPublic: pub || extensionPublic, modifiers: d.modifiers)
                if scope == .closed { pending = .closed }
            }
            // Braces outside comments and strings.
            let chars = Array(line)
            var i = 0
            var inString = false
            while i < chars.count {
                let c = chars[i]
                let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
                if blockComment > 0 {
                    if c == "*" && next == "/" { blockComment -= 1; i += 2; continue }
                    if c == "/" && next == "*" { blockComment += 1; i += 2; continue }
                    i += 1; continue
                }
                if multilineString {
                    if c == "\"" && next == "\"" && i + 2 < chars.count && chars[i + 2] == "\"" {
                        multilineString = false; i += 3; continue
                    }
                    if c == "\\" { i += 2; continue }
                    i += 1; continue
                }
                if inString {
                    if c == "\\" { i += 2; continue }
                    if c == "\"" { inString = false }
                    i += 1; continue
                }
                if c == "/" && next == "/" { break }
                if c == "/" && next == "*" { blockComment += 1; i += 2; continue }
                if c == "\"" {
                    if next == "\"" && i + 2 < chars.count && chars[i + 2] == "\"" {
                        multilineString = true; i += 3; continue
                    }
                    inString = true; i += 1; continue
                }
                if c == "{" {
                    stack.append(pending ?? .closed)
                    pending = nil
                } else if c == "}" {
                    if stack.count > 1 { stack.removeLast() }
                    pending = nil
                }
                i += 1
            }
        }
        return findings
    }

    /// Every `.swift` file under `folders` of `root`, scanned; `declarations` counts the public ones.
    static func scan(root: URL, folders: [String], declarations: inout Int) -> (files: Int, findings: [Finding]) {
        var findings: [Finding] = []
        var files = 0
        for top in folders {
            let dir = root.appendingPathComponent(top)
            guard let e = FileManager.default.enumerator(atPath: dir.path) else { continue }
            var paths: [String] = []
            for case let rel as String in e where rel.hasSuffix(".swift") { paths.append(rel) }
            for rel in paths.sorted() {
                let path = "\(top)/\(rel)"
                guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else { continue }
                files += 1
                findings += scan(text, file: path, declarations: &declarations)
            }
        }
        return (files, findings)
    }
}
