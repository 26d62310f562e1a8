import GLMapCore

/// Something a style may contain under the spec but glmap does not draw or use (a video source,
/// an expression operator glmap does not evaluate, an unknown layer member): it is left out of the
/// render and reported once as a warning — never as an error, which is kept for what the spec forbids.
public struct SkippedFeature: Equatable, Sendable, CustomStringConvertible {
    /// "layer" or "source".
    public var kind: String
    /// The layer or source id.
    public var id: String
    /// The JSON path of what is skipped (`layers[3]`, `layers[2].paint.fill-pattern`).
    public var path: String
    /// What glmap does not do, e.g. "video sources are not drawn by glmap".
    public var reason: String
    /// What is left out ("skipped", "the property is skipped").
    public var consequence: String
    /// For a skipped source: the layers that use it (skipped with it, named in the same warning).
    public var layers: [String] = []

    /// Creates a warning for the layer or source `id` at `path`; `consequence` defaults to "skipped".
    public init(kind: String, id: String, path: String, reason: String, consequence: String = "skipped") {
        self.kind = kind; self.id = id; self.path = path; self.reason = reason; self.consequence = consequence
    }

    /// `layer 'l': its filter uses "distance", which glmap does not evaluate; skipped`.
    public var description: String { "\(kind) '\(id)': \(reason); \(consequence)\(layersText)" }

    /// ", with the layer 'roads'" / ", with its 3 layers 'a', 'b' and 'c'" (at most 6 names).
    var layersText: String {
        switch layers.count {
        case 0: return ""
        case 1: return ", with the layer '\(layers[0])' that uses it"
        default: return ", with the \(layers.count) layers that use it: \(SkippedFeature.list(layers, max: 6))"
        }
    }

    /// "'a', 'b' and 'c'" or "'a', 'b' and 5 more".
    static func list(_ names: [String], max: Int) -> String {
        var quoted = names.prefix(max).map { "'\($0)'" }
        let rest = names.count - quoted.count
        let last = rest > 0 ? "\(rest) more" : quoted.removeLast()
        return quoted.isEmpty ? last : "\(quoted.joined(separator: ", ")) and \(last)"
    }

    /// One line per reason, naming every layer or source it applies to (at most `maxNames`, then a count):
    /// `layers 'a', 'b' and 'c': unknown layer property "interactive"; ignored`.
    public static func summaries(_ list: [SkippedFeature], maxNames: Int = 6) -> [String] {
        var order: [String] = []
        var groups: [String: [SkippedFeature]] = [:]
        for s in list {
            let key = s.layers.isEmpty ? "\(s.kind)\u{0}\(s.reason)\u{0}\(s.consequence)" : "\(s.kind)\u{0}\(s.id)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(s)
        }
        return order.map { key in
            let g = groups[key]!
            if g.count == 1 { return g[0].description }
            return "\(g[0].kind)s \(SkippedFeature.list(g.map(\.id), max: maxNames)): \(g[0].reason); \(g[0].consequence)"
        }
    }

    /// The error `--strict` makes of these: each one at its JSON path.
    public static func strictError(_ list: [SkippedFeature], file: String?) -> StyleError {
        StyleError(file: file, issues: list.map {
            StyleIssue(path: $0.path, message: "\($0.kind) '\($0.id)': \($0.reason)\($0.layersText) (--strict refuses what glmap would skip)")
        })
    }
}
