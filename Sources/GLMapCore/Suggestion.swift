/// "Did you mean …?" for a mistyped name: the closest known name by edit distance.
public enum Suggestion {
    /// The candidate nearest to `word` (Levenshtein distance, case-insensitive), if it is close
    /// enough to be a typo: at most 2 edits, and fewer than half of the word's length.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let w = Array(word.lowercased())
        guard !w.isEmpty, w.count <= 64 else { return nil }
        var best: (String, Int)?
        for c in candidates {
            let d = distance(w, Array(c.lowercased()))
            if d <= 2, d * 2 < max(w.count, 2), best == nil || d < best!.1 { best = (c, d) }
        }
        return best?.0
    }

    /// `" (did you mean \"x\"?)"`, or "" when nothing is close. `quote` wraps the suggestion.
    public static func hint(for word: String, among candidates: [String], quote: String = "\"") -> String {
        guard let s = closest(to: word, among: candidates) else { return "" }
        return " (did you mean \(quote)\(s)\(quote)?)"
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
