// KnownFailures — the list of cases expected to fail, with their reasons, and the pass floor.
//
// Format (Tests/GLMapTests/RenderConformance-known-failures.txt): one `case<TAB>reason` per line;
// `#` starts a comment line; blank lines are ignored; `floor<TAB>N` sets the least number of cases
// that must pass. A case listed without a reason, a floor that is not a whole number and a case
// listed twice are errors with the line number (the list is never read loosely).
import Foundation
import GLMapCore

/// Cases expected to fail (name → reason) and the least number of cases that must pass.
public struct KnownFailures: Sendable, Equatable {
    /// Case name → why it fails.
    public var reasons: [String: String]
    /// Least number of passing cases (0 when the file sets none).
    public var floor: Int

    /// An empty list.
    public init(reasons: [String: String] = [:], floor: Int = 0) {
        self.reasons = reasons
        self.floor = floor
    }

    /// Parses the file's text; `file` names it in errors.
    public init(parsing text: String, file: String = "known-failures") throws {
        reasons = [:]
        floor = 0
        var floorSeen = false
        // "\r\n" is one Character in Swift, and a newline like "\n".
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let where_ = "\(file):\(index + 1)"
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: "\t", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts[0] == "floor" {
                guard parts.count == 2, let n = Int(parts[1]), n >= 0 else {
                    throw InputFailure("\(where_): expected \"floor<TAB>N\" with N a whole number, got \"\(line)\"")
                }
                guard !floorSeen else { throw InputFailure("\(where_): a second floor line") }
                floorSeen = true
                floor = n
                continue
            }
            guard parts.count == 2, !parts[1].isEmpty else {
                throw InputFailure("\(where_): expected \"case<TAB>reason\" (a known failure needs its reason), got \"\(line)\"")
            }
            guard reasons[parts[0]] == nil else { throw InputFailure("\(where_): \(parts[0]) is listed twice") }
            reasons[parts[0]] = parts[1]
        }
    }

    /// Reads and parses the file at `path`.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputFailure("\(path): cannot read the known-failures file")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw InputFailure("\(path): not UTF-8 text") }
        try self.init(parsing: text, file: path)
    }
}
