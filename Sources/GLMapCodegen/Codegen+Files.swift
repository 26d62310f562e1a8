import Foundation

extension Codegen {
    /// What `write` changed: files written (new or different) and stale files removed.
    public struct WriteReport: Sendable {
        /// Paths written, relative to the root.
        public var changed: [String] = []
        /// Generated-folder `.swift` files the generator no longer makes, removed.
        public var removed: [String] = []
    }

    /// Writes `files` under the package `root` (only those whose contents differ) and removes the
    /// other `.swift` files of the output folders.
    public static func write(_ files: [GeneratedFile], root: String) throws -> WriteReport {
        var report = WriteReport()
        let fm = FileManager.default
        for f in files {
            let url = URL(fileURLWithPath: root).appendingPathComponent(f.path)
            if let old = fm.contents(atPath: url.path), old == Data(f.contents.utf8) { continue }
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(f.contents.utf8).write(to: url, options: .atomic)
            report.changed.append(f.path)
        }
        for stale in staleFiles(files, root: root) {
            try fm.removeItem(atPath: URL(fileURLWithPath: root).appendingPathComponent(stale).path)
            report.removed.append(stale)
        }
        return report
    }

    /// How the checked-in files under `root` differ from `files`: one line per file that is
    /// missing, differs (with its first differing line) or is a stale `.swift` file of an output
    /// folder. Empty when the checked-in code is what the generator makes.
    public static func differences(_ files: [GeneratedFile], root: String) -> [String] {
        var out: [String] = []
        for f in files {
            let path = URL(fileURLWithPath: root).appendingPathComponent(f.path).path
            guard let data = FileManager.default.contents(atPath: path) else { out.append("\(f.path): missing"); continue }
            let old = String(decoding: data, as: UTF8.self)
            guard old != f.contents else { continue }
            let a = old.split(separator: "\n", omittingEmptySubsequences: false)
            let b = f.contents.split(separator: "\n", omittingEmptySubsequences: false)
            let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            let have = i < a.count ? String(a[i]) : "(end of file)"
            let want = i < b.count ? String(b[i]) : "(end of file)"
            out.append("\(f.path):\(i + 1): differs from the generator's output: checked in `\(have)`, generated `\(want)`")
        }
        for stale in staleFiles(files, root: root) { out.append("\(stale): in a generated folder but not generated") }
        return out
    }

    /// `.swift` files of the output folders that are not among `files`.
    static func staleFiles(_ files: [GeneratedFile], root: String) -> [String] {
        let made = Set(files.map(\.path))
        var out: [String] = []
        for folder in outputFolders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: root).appendingPathComponent(folder).path)) ?? []
            for n in names.sorted() where n.hasSuffix(".swift") && !made.contains("\(folder)/\(n)") { out.append("\(folder)/\(n)") }
        }
        return out
    }
}
