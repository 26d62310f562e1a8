// RenderTestCase — one case of a render-test folder, in MapLibre's layout.
//
// Inputs:  folders given on the command line. A folder that holds `style.json` is one case; any
//          other folder is searched (recursively, sorted) for `style.json` files, and when it has a
//          `cases/` subfolder (the layout of ../shared/render-tests: `cases/` + `data/`) the search
//          starts there, so case names are `<group>/<test>` as upstream names them.
// Outputs: cases sorted by name, each with `metadata.test`'s width, height, pixelRatio, allowed
//          and threshold (MapLibre's defaults 512, 512, 1, 0.00025, 0.1285 when absent).
// Invariants: a style.json that cannot be read or whose `metadata.test` is malformed still becomes
//          a case, carrying the problem in `setupError` (it then fails on its own, hiding no other).
//          `local://` data is resolved by `SourceLoader` (the style's folder, then its parents), as
//          the render tests resolve it against the folder that holds `data/`.
import Foundation
import GLMapCore

/// One render-test case: a folder with `style.json` and its expected images.
public struct RenderTestCase: Sendable, Hashable, CustomStringConvertible {
    /// The case id: its folder relative to the searched root (`circle-radius/literal`).
    public var name: String
    /// The case folder.
    public var directory: String
    /// Viewport in CSS pixels (`metadata.test.width`/`height`, default 512).
    public var width: Int, height: Int
    /// Device pixels per CSS pixel (`metadata.test.pixelRatio`, default 1).
    public var pixelRatio: Double
    /// Largest accepted mismatching fraction (`metadata.test.allowed`, default 0.00025).
    public var allowed: Double
    /// pixelmatch's colour threshold (`metadata.test.threshold`, default 0.1285).
    public var threshold: Double
    /// Why the case cannot run (unreadable style, malformed `metadata.test`); nil when it can.
    public var setupError: String?

    /// The case's `style.json`.
    public var styleFile: String { (directory as NSString).appendingPathComponent("style.json") }
    /// The JUnit class name: the first path component (the upstream group).
    public var group: String { name.split(separator: "/").first.map(String.init) ?? name }
    /// The case's name, `<group>/<test>`.
    public var description: String { name }

    /// MapLibre's render-test defaults.
    public static let defaultAllowed = 0.00025
    /// MapLibre's render-test default pixelmatch threshold.
    public static let defaultThreshold = 0.1285

    /// Creates a case from its folder, reading `metadata.test` from its style.json.
    public init(name: String, directory: String) {
        self.name = name
        self.directory = directory
        width = 512; height = 512; pixelRatio = 1
        allowed = Self.defaultAllowed; threshold = Self.defaultThreshold
        let file = styleFile
        guard let data = FileManager.default.contents(atPath: file) else {
            setupError = "\(file): cannot read the file"
            return
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse([UInt8](data))
        } catch {
            setupError = "\(file): \(error)"
            return
        }
        guard let test = json["metadata"]?["test"] else { return }
        func number(_ key: String, positive: Bool) -> Double? {
            guard let v = test[key] else { return nil }
            guard let n = v.numberValue, n.isFinite, positive ? n > 0 : n >= 0 else {
                if setupError == nil {
                    setupError = "\(file): metadata.test.\(key): expected a \(positive ? "positive" : "non-negative") number"
                }
                return nil
            }
            return n
        }
        if let w = number("width", positive: true) { width = Int(w) }
        if let h = number("height", positive: true) { height = Int(h) }
        if let r = number("pixelRatio", positive: true) { pixelRatio = r }
        if let a = number("allowed", positive: false) { allowed = a }
        if let t = number("threshold", positive: false) { threshold = t }
    }

    /// Every case below `roots`, sorted by name, keeping those whose name matches `filter` (a
    /// regular expression searched anywhere in the name). Throws for a root that does not exist.
    public static func discover(in roots: [String], filter: String? = nil) throws -> [RenderTestCase] {
        let regex: Regex<AnyRegexOutput>?
        if let filter {
            do { regex = try Regex(filter) } catch {
                throw InputFailure("--filter \"\(filter)\" is not a valid regular expression: \(error)")
            }
        } else {
            regex = nil
        }
        var found: [RenderTestCase] = []
        var seen = Set<String>()
        let fm = FileManager.default
        for root in roots {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: root, isDirectory: &isDir), isDir.boolValue else {
                throw InputFailure("\(root): not a folder (expected a render-test folder: <case>/style.json with expected*.png)")
            }
            let rootPath = (root as NSString).standardizingPath
            var candidates: [(name: String, dir: String)] = []
            if fm.fileExists(atPath: (rootPath as NSString).appendingPathComponent("style.json")) {
                candidates.append(((rootPath as NSString).lastPathComponent, rootPath))
            } else {
                var base = rootPath
                let cases = (rootPath as NSString).appendingPathComponent("cases")
                if fm.fileExists(atPath: cases, isDirectory: &isDir), isDir.boolValue { base = cases }
                guard let e = fm.enumerator(atPath: base) else { continue }
                while let rel = e.nextObject() as? String {
                    guard (rel as NSString).lastPathComponent == "style.json" else { continue }
                    let relDir = (rel as NSString).deletingLastPathComponent
                    guard !relDir.isEmpty else { continue }
                    candidates.append((relDir, (base as NSString).appendingPathComponent(relDir)))
                }
            }
            for c in candidates where !seen.contains(c.dir) {
                if let regex, !c.name.contains(regex) { continue }
                seen.insert(c.dir)
                found.append(RenderTestCase(name: c.name, directory: c.dir))
            }
        }
        return found.sorted { $0.name < $1.name || ($0.name == $1.name && $0.directory < $1.directory) }
    }

    /// The case's expected images (`expected.png`, `expected-*.png`…), sorted by file name.
    public func expectedImages() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.filter { $0.hasPrefix("expected") && $0.hasSuffix(".png") }.sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
    }
}
