// RenderTestCase — one case of a render-test folder, in MapLibre's layout.
//
// Inputs:  folders given on the command line. A folder that holds `style.json` is one case; any
//          other folder is searched (recursively, sorted) for `style.json` files, and when it has a
//          `cases/` subfolder (the layout of ../shared/render-tests and ../shared/render-suite:
//          `cases/` beside the asset folders) the search starts there, so case names are
//          `<group>/<test>` as upstream names them.
// Outputs: cases sorted by name, each with all of `metadata.test` as GL JS's harness reads it
//          (run_render_tests.ts): width, height, pixelRatio, allowed, threshold (defaults 512, 512,
//          1, 0.00025, 0.1285), operations, collisionDebug, debug, showOverdrawInspector,
//          showPadding, fadeDuration, localIdeographFontFamily, crossSourceCollisions,
//          maxCanvasSize, maxPitch, description and the rest (kept as read), and the case's asset
//          root (`RenderSuite.assetRoot`), onto which its URLs are localized.
// Invariants: a style.json that cannot be read or whose `metadata.test` is malformed still becomes
//          a case, carrying the problem in `setupError` (it then fails on its own, hiding no other).
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
    /// `metadata.test.operations`: each `[name, arguments…]`, run in order after the style loads.
    public var operations: [JSONValue] = []
    /// `metadata.test.collisionDebug`: draw symbol collision boxes.
    public var collisionDebug = false
    /// `metadata.test.debug`: draw tile boundaries.
    public var debug = false
    /// `metadata.test.showOverdrawInspector`: draw overdraw instead of colours.
    public var showOverdrawInspector = false
    /// `metadata.test.showPadding`: draw the camera padding's outline.
    public var showPadding = false
    /// `metadata.test.fadeDuration` in ms (0 unless set; a still render places symbols once, unfaded).
    public var fadeDuration = 0.0
    /// `metadata.test.localIdeographFontFamily`: a CSS font family drawing CJK glyphs locally (nil: off, as the harness sets it).
    public var localIdeographFontFamily: String?
    /// `metadata.test.crossSourceCollisions` (true unless set): symbols of different sources collide.
    public var crossSourceCollisions = true
    /// `metadata.test.maxCanvasSize`: the largest drawing buffer, width and height (nil: the
    /// harness's map option, 8192 × 8192). A larger view lowers the pixel ratio to fit, as GL JS does.
    public var maxCanvasSize: [Double]?
    /// `metadata.test.reportWidth`/`reportHeight`: only this many device pixels from the image's
    /// bottom-left corner are compared (GL JS reads them with one `readPixels` from the origin).
    public var reportSize: (width: Int, height: Int)?
    /// `metadata.test.maxPitch` (GL JS's map default 60): larger pitches are clamped to it.
    public var maxPitch = 60.0
    /// `metadata.test.description`, when the case explains itself.
    public var testDescription: String?
    /// The whole `metadata.test` object as written (fields without a member above are kept here).
    public var metadataTest = JSONObject()
    /// The folder the case's `local://` URLs and operation files resolve against (`RenderSuite.assetRoot`).
    public var assetRoot: String

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
        assetRoot = RenderSuite.assetRoot(forCaseDirectory: directory)
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
        guard let testValue = json["metadata"]?["test"] else { return }
        guard let test = testValue.objectValue else {
            setupError = "\(file): metadata.test: expected an object, found \(testValue.kindName)"
            return
        }
        metadataTest = test
        func problem(_ key: String, _ expected: String) {
            if setupError == nil { setupError = "\(file): metadata.test.\(key): expected \(expected), found \(test[key].map(RenderSuite.brief) ?? "nothing")" }
        }
        func number(_ key: String, positive: Bool) -> Double? {
            guard let v = test[key] else { return nil }
            guard let n = v.numberValue, n.isFinite, positive ? n > 0 : n >= 0 else {
                problem(key, positive ? "a positive number" : "a non-negative number")
                return nil
            }
            return n
        }
        func flag(_ key: String) -> Bool? {
            guard let v = test[key], !v.isNull else { return nil }
            guard let b = v.boolValue else { problem(key, "true or false"); return nil }
            return b
        }
        if let w = number("width", positive: true) { width = Int(w) }
        if let h = number("height", positive: true) { height = Int(h) }
        if let r = number("pixelRatio", positive: true) { pixelRatio = r }
        if let a = number("allowed", positive: false) { allowed = a }
        if let t = number("threshold", positive: false) { threshold = t }
        if let ops = test["operations"] {
            if let list = ops.arrayValue, list.allSatisfy({ $0.arrayValue?.first?.stringValue != nil }) {
                operations = list
            } else {
                problem("operations", "an array of [name, arguments…] arrays")
            }
        }
        if let b = flag("collisionDebug") { collisionDebug = b }
        if let b = flag("debug") { debug = b }
        if let b = flag("showOverdrawInspector") { showOverdrawInspector = b }
        if let b = flag("showPadding") { showPadding = b }
        if let b = flag("crossSourceCollisions") { crossSourceCollisions = b }
        if let f = number("fadeDuration", positive: false) { fadeDuration = f }
        if let p = number("maxPitch", positive: false) { maxPitch = p }
        switch test["localIdeographFontFamily"] {
        case nil, .null?, .bool(false)?: break
        case .string(let family)?: localIdeographFontFamily = family
        default: problem("localIdeographFontFamily", "a font family name or false")
        }
        if let m = test["maxCanvasSize"], !m.isNull {
            if let a = m.arrayValue, a.count == 2, let w = a[0].numberValue, let h = a[1].numberValue, w > 0, h > 0 {
                maxCanvasSize = [w, h]
            } else {
                problem("maxCanvasSize", "[width, height]")
            }
        }
        if let w = number("reportWidth", positive: true), let h = number("reportHeight", positive: true) {
            reportSize = (Int(w), Int(h))
        } else if test["reportWidth"] != nil || test["reportHeight"] != nil {
            problem("reportWidth", "reportWidth and reportHeight, both positive numbers")
        }
        testDescription = test["description"]?.stringValue
    }

    /// The harness's canvas limit when `metadata.test` sets none (its map option `maxCanvasSize`).
    public static let defaultMaxCanvasSize = [8192.0, 8192.0]

    /// The pixel ratio GL JS draws at: `pixelRatio`, lowered so that the canvas fits the canvas
    /// limit (`maxCanvasSize`, default 8192 × 8192) on both sides.
    public var effectivePixelRatio: Double {
        let limit = maxCanvasSize ?? Self.defaultMaxCanvasSize
        let w = Double(width) * pixelRatio, h = Double(height) * pixelRatio
        let scale = min(w > limit[0] ? limit[0] / w : 1, h > limit[1] ? limit[1] / h : 1)
        return scale * pixelRatio
    }

    /// What `metadata.test` asks the harness to draw that glmap does not draw yet, one phrase each
    /// (a case asking for any of it fails with these as its reason).
    public var undrawnHarnessFeatures: [String] {
        var out: [String] = []
        if debug { out.append("metadata.test.debug (tile boundaries)") }
        if showOverdrawInspector { out.append("metadata.test.showOverdrawInspector") }
        if showPadding { out.append("metadata.test.showPadding (the padding outline)") }
        if let f = localIdeographFontFamily { out.append("metadata.test.localIdeographFontFamily \"\(f)\" (locally drawn CJK glyphs)") }
        if test("addFakeCanvas") { out.append("metadata.test.addFakeCanvas (canvas sources)") }
        if test("axonometric") || (metadataTest["skew"]?.arrayValue?.contains { ($0.numberValue ?? 0) != 0 } ?? false) {
            out.append("metadata.test.axonometric/skew (non-perspective cameras)")
        }
        return out
    }

    /// Cases are the same when they are the same folder under the same name.
    public static func == (a: RenderTestCase, b: RenderTestCase) -> Bool {
        a.name == b.name && a.directory == b.directory
    }

    /// Hashes the name and folder.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(directory)
    }

    /// Whether `metadata.test.key` is set to something other than false/null.
    private func test(_ key: String) -> Bool {
        guard let v = metadataTest[key] else { return false }
        return !(v.isNull || v == .bool(false))
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
