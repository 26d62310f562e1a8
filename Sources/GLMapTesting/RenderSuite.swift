// RenderSuite — the harness rules of MapLibre GL JS's render suite, as data and pure functions.
//
// Inputs:  a case folder (its asset root is found from it), style JSON, operation arguments.
// Outputs: the asset root (the folder whose glyphs/, sprites/, tiles/, tilesets/, data/, geojson/,
//          image/, styles/ and video/ the cases' URLs name), the style with every URL localized
//          onto it as `file://` URLs (GL JS's test/integration/lib/localize-urls.ts rules, never
//          the network), the rewrite rules a resource loader applies to URLs found inside loaded
//          resources (TileJSON names tiles as http://localhost:2900/…), and the suite's manifest
//          (each case's family: what it needs beyond background/fill/line/circle over GeoJSON).
// Invariants: localization only rewrites the members GL JS rewrites (sources' tiles, url, urls,
//          data; sprite and each url of a sprite array; glyphs), in the same order of rules
//          (`mapbox://` forms first, then `local://`); anything else is left as it is.
// Limits:  the real-world cases' tiles (http://localhost:2901/…, upstream's mvt-fixtures) are not
//          in the suite folder; they map to `mvt-fixtures/real-world/` under the asset root and
//          load as missing tiles.
import Foundation
import GLMapCore

/// The GL JS render suite's harness rules: asset root, URL localization, resource rules, manifest.
public enum RenderSuite {
    /// The asset folders the GL JS harness serves at http://localhost:2900/.
    public static let assetFolders = ["data", "geojson", "glyphs", "image", "sprites", "styles", "tiles", "tilesets", "video"]

    /// The asset root of a case: the nearest ancestor of `caseDirectory` that holds a `cases`
    /// folder the case lies in (the suite layout), else the nearest ancestor holding one of the
    /// asset folders, else the case's own folder. Absolute and standardized.
    public static func assetRoot(forCaseDirectory caseDirectory: String) -> String {
        let start = absolute(caseDirectory)
        let fm = FileManager.default
        var dir = start
        var isDir: ObjCBool = false
        for _ in 0..<4096 {
            let parent = (dir as NSString).deletingLastPathComponent
            if parent == dir || parent.isEmpty { break }
            if (dir as NSString).lastPathComponent == "cases" { return parent }
            dir = parent
        }
        dir = start
        for _ in 0..<4096 {
            let parent = (dir as NSString).deletingLastPathComponent
            if parent == dir || parent.isEmpty { break }
            dir = parent
            for folder in assetFolders where fm.fileExists(atPath: (dir as NSString).appendingPathComponent(folder), isDirectory: &isDir) && isDir.boolValue {
                return dir
            }
        }
        return start
    }

    /// An absolute, standardized path.
    static func absolute(_ path: String) -> String {
        let p = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        return (p as NSString).standardizingPath
    }

    /// The `file://` URL of the asset root, ending in "/".
    public static func rootURL(_ assetRoot: String) -> String {
        "file://" + absolute(assetRoot) + "/"
    }

    // MARK: Resource rules

    /// One URL rewrite: a URL starting with `prefix` has it replaced by `replacement`.
    public struct ResourceRule: Sendable, Equatable {
        /// What the URL starts with.
        public var prefix: String
        /// What replaces it.
        public var replacement: String
        /// A rule.
        public init(prefix: String, replacement: String) {
            self.prefix = prefix
            self.replacement = replacement
        }
    }

    /// What a resource loader applies for the suite: rewrites (first matching prefix wins) and the
    /// marker of paths that answer 204 No Content (an empty tile) instead of being read.
    public struct ResourceRules: Sendable, Equatable {
        /// URL rewrites, first match wins.
        public var rewrites: [ResourceRule]
        /// A request whose path contains this answers 204 No Content (`sparse-tileset/*204`).
        public var noContentMarker: String

        /// The URL after the first matching rewrite (unchanged when none matches).
        public func rewrite(_ url: String) -> String {
            for r in rewrites where url.hasPrefix(r.prefix) { return r.replacement + url.dropFirst(r.prefix.count) }
            return url
        }

        /// Whether the (rewritten) URL answers 204 No Content.
        public func isNoContent(_ url: String) -> Bool { url.contains(noContentMarker) }
    }

    /// The suite's rules for a loader, for cases under `assetRoot`: the harness's HTTP origin and
    /// `local://` onto the folder; `mapbox://` forms as the harness localizes them (the style's own
    /// members are already localized by `localizeStyle`, these catch URLs inside loaded resources).
    public static func resourceRules(assetRoot: String) -> ResourceRules {
        let root = rootURL(assetRoot)
        return ResourceRules(rewrites: [
            ResourceRule(prefix: "http://localhost:2900/", replacement: root),
            ResourceRule(prefix: "http://0.0.0.0:2900/", replacement: root),
            ResourceRule(prefix: "http://localhost:2901/", replacement: root + "mvt-fixtures/real-world/"),
            ResourceRule(prefix: "local://", replacement: root),
            ResourceRule(prefix: "mapbox://fonts/", replacement: root + "glyphs/"),
            ResourceRule(prefix: "mapbox://sprites/", replacement: root + "sprites/"),
            ResourceRule(prefix: "mapbox://", replacement: root + "tilesets/"),
        ], noContentMarker: "/sparse204/1-")
    }

    // MARK: URL localization (localize-urls.ts)

    /// `local://X` → the asset root's X.
    static func localURL(_ url: String, root: String) -> String {
        url.hasPrefix("local://") ? root + url.dropFirst("local://".count) : url
    }

    /// `mapbox://X` → `root` + `folder` + X (then `local://` as `localURL`).
    static func mapboxURL(_ url: String, root: String, folder: String) -> String {
        let u = url.hasPrefix("mapbox://") ? root + folder + url.dropFirst("mapbox://".count) : url
        return localURL(u, root: root)
    }

    /// A source's URLs localized: `tiles` (mapbox:// → tiles/), `url` and `urls` (mapbox:// →
    /// tilesets/), `data` when a string (local:// only).
    public static func localizeSource(_ source: JSONObject, assetRoot: String) -> JSONObject {
        let root = rootURL(assetRoot)
        var s = source
        if case .array(let tiles)? = s["tiles"] {
            s["tiles"] = .array(tiles.map { t in t.stringValue.map { .string(mapboxURL($0, root: root, folder: "tiles/")) } ?? t })
        }
        if case .array(let urls)? = s["urls"] {
            s["urls"] = .array(urls.map { u in u.stringValue.map { .string(mapboxURL($0, root: root, folder: "tilesets/")) } ?? u })
        }
        if case .string(let url)? = s["url"] { s["url"] = .string(mapboxURL(url, root: root, folder: "tilesets/")) }
        if case .string(let data)? = s["data"] { s["data"] = .string(localURL(data, root: root)) }
        return s
    }

    /// A style's URLs localized onto the asset root: every source (`localizeSource`), `sprite`
    /// (a string, or each `url` of an array; mapbox:// → the root), `glyphs` (mapbox://fonts →
    /// glyphs/). Other members are left as they are.
    public static func localizeStyle(_ style: JSONValue, assetRoot: String) -> JSONValue {
        guard case .object(var o) = style else { return style }
        let root = rootURL(assetRoot)
        if case .object(let sources)? = o["sources"] {
            var out = JSONObject()
            for (id, s) in sources.pairs { out[id] = s.objectValue.map { .object(localizeSource($0, assetRoot: assetRoot)) } ?? s }
            o["sources"] = .object(out)
        }
        switch o["sprite"] {
        case .string(let url)?:
            o["sprite"] = .string(mapboxURL(url, root: root, folder: ""))
        case .array(let sprites)?:
            o["sprite"] = .array(sprites.map { entry in
                guard var e = entry.objectValue, let url = e["url"]?.stringValue else { return entry }
                e["url"] = .string(mapboxURL(url, root: root, folder: ""))
                return .object(e)
            })
        default: break
        }
        if case .string(let glyphs)? = o["glyphs"] {
            let g = glyphs.hasPrefix("mapbox://fonts") ? root + "glyphs" + glyphs.dropFirst("mapbox://fonts".count) : glyphs
            o["glyphs"] = .string(localURL(g, root: root))
        }
        return .object(o)
    }

    /// The style a `setStyle` operation names: an object, or a `local://` URL of a style file under
    /// the asset root (read and parsed); either localized. Throws for an unreadable file, a
    /// non-local URL (the suite never uses the network) or a value of another kind.
    public static func styleForSetStyle(_ argument: JSONValue, assetRoot: String) throws -> JSONValue {
        switch argument {
        case .object:
            return localizeStyle(argument, assetRoot: assetRoot)
        case .string(let url) where url.hasPrefix("local://"):
            let path = (absolute(assetRoot) as NSString).appendingPathComponent(String(url.dropFirst("local://".count)))
            guard let data = FileManager.default.contents(atPath: path) else {
                throw IOFailure(path: path, message: "setStyle \(url): cannot read the style file")
            }
            do {
                return localizeStyle(try JSONParser.parse([UInt8](data)), assetRoot: assetRoot)
            } catch {
                throw InputFailure("setStyle \(url): \(path): \(error)")
            }
        default:
            throw InputFailure("setStyle: expected a style object or a local:// URL, found \(brief(argument))")
        }
    }

    /// A JSON value in a message: its text, cut to 80 characters.
    static func brief(_ v: JSONValue) -> String {
        let t = v.jsonText
        return t.count > 80 ? String(t.prefix(77)) + "..." : t
    }

    // MARK: Manifest

    /// One row of the suite's `manifest.tsv`.
    public struct ManifestEntry: Sendable, Equatable {
        /// Layer types the case uses.
        public var layerTypes: [String]
        /// Source types the case uses.
        public var sourceTypes: [String]
        /// Operation names the case runs.
        public var operations: [String]
        /// What the case needs beyond background/fill/line/circle over GeoJSON ("-": nothing).
        public var family: String
        /// Other traits (pitch, ratio, debug, glyphs, …).
        public var flags: [String]

        /// The family's parts (`layer:symbol`, `source:vector`, `operations`, …); empty for "-".
        /// `debug-overlay` is left out where the case's only overlay is the collision debug one
        /// (`collisionDebug`), which glmap draws; tile boundaries, overdraw and padding it does not.
        public var needs: [String] {
            let parts = family == "-" ? [] : family.split(separator: ",").map(String.init)
            let undrawn = ["debug", "showOverdrawInspector", "showPadding"]
            if flags.contains("collisionDebug") && !flags.contains(where: undrawn.contains) {
                return parts.filter { $0 != "debug-overlay" }
            }
            return parts
        }
    }

    /// The manifest of a suite: case name → entry. Empty when `assetRoot/manifest.tsv` is absent
    /// (a held-out part without one); throws for a malformed file.
    public static func manifest(assetRoot: String) throws -> [String: ManifestEntry] {
        let path = (absolute(assetRoot) as NSString).appendingPathComponent("manifest.tsv")
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw InputFailure("\(path): cannot read the manifest")
        }
        var out: [String: ManifestEntry] = [:]
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if i == 0 && cols.first == "case" { continue }
            guard cols.count >= 5 else { throw InputFailure("\(path):\(i + 1): expected 6 tab-separated columns, got \(cols.count)") }
            func list(_ s: String) -> [String] { s == "-" ? [] : s.split(separator: ",").map(String.init) }
            out[cols[0]] = ManifestEntry(layerTypes: list(cols[1]), sourceTypes: list(cols[2]), operations: list(cols[3]),
                                         family: cols[4], flags: cols.count > 5 ? list(cols[5]) : [])
        }
        return out
    }

    /// The family a case belongs to ("(no manifest)" when its suite has none or does not list it).
    public static func family(of c: RenderTestCase, manifest: [String: ManifestEntry]) -> String {
        manifest[c.name]?.family ?? "(no manifest)"
    }
}
