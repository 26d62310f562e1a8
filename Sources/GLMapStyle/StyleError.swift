import GLMapCore

/// One problem found in a style, located by its JSON path.
public struct StyleIssue: Equatable, Sendable, CustomStringConvertible {
    /// JSON path such as `layers[3].paint.line-width` (empty for the root).
    public var path: String
    /// What was expected and what was found.
    public var message: String
    /// Creates an issue at a JSON path.
    public init(path: String, message: String) { self.path = path; self.message = message }
    /// `path: message`, or the message alone at the root.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// A style that cannot be used: every problem found, each with its JSON path; or a JSON syntax
/// error with line:column.
public struct StyleError: GLMapError, Equatable {
    /// The style file, when the style came from one.
    public var file: String?
    /// Every problem found, in document order.
    public var issues: [StyleIssue]
    /// Always `.invalidInput`: the style is bad input.
    public var kind: FailureKind { .invalidInput }

    /// Creates the error for a style file (nil: a style given as bytes or JSON) and its problems.
    public init(file: String?, issues: [StyleIssue]) { self.file = file; self.issues = issues }

    /// `file: issue`, or `file: N problems:` followed by one indented line per issue.
    public var description: String {
        let prefix = (file ?? "style") + ": "
        if issues.count == 1 { return prefix + issues[0].description }
        return prefix + "\(issues.count) problems:\n" + issues.map { "  " + $0.description }.joined(separator: "\n")
    }
}

extension JSONValue {
    /// How a value is named in messages: `"wide"`, `12`, `an object`, …
    var shortDescription: String {
        switch self {
        case .string(let s): return "\"\(s)\""
        case .number, .bool, .null: return jsonText
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
