// GlyphManager — contract
// Input: the style's `glyphs` URL template (`…/{fontstack}/{range}.pbf`, or none), a fetch closure
// that turns a URL into bytes (nil: not found; a thrown error: the loader failed), optionally a
// `LocalGlyphSource` (font files) and, per tile, the glyphs symbol layout needs: font stack →
// code points (`GlyphDependencies`).
// Output: a `GlyphMap` (font stack → code point → `Glyph`), stacks in the order first asked for,
// and the warnings collected so far (`warnings`: one `GlyphRangeError` per stack and range that
// could not be loaded; `fontStackWarnings`: one `FontStackError` per stack whose glyphs had to be
// local but no local font is named for it, or there is no local source and no `glyphs` URL;
// `warningMessages`: both, in the order met).
// Rules, as GL JS's GlyphManager: a font stack is requested as ONE URL with the comma-joined font
// names in `{fontstack}` (only the first `{fontstack}` and `{range}` are replaced, as JS's
// `String.replace` does; the loader percent-encodes for HTTP); a range is 256 code points
// (`{range}` = `0-255`); every glyph of a loaded range is cached. When the combined stack's URL
// is not found and the stack names several fonts, each font is fetched on its own and a code point
// takes the glyph of the first font that has it. A range that cannot be loaded (not found, the
// loader throws, bytes that are not a glyph PBF) is warned about once and, as GL JS 5 does, its
// glyphs are drawn by the local source when there is one; without one they are missing and the
// shaper leaves those characters out. With no `glyphs` URL every glyph is local (or missing), and
// with `localIdeographs` (GL JS's localIdeographFontFamily) so is every CJK character. Order: the
// PBF range first when the style names glyphs, the local source after (or alone).
// Threads: every method may be called from any thread (one lock; fetches happen under it, so a
// range is loaded once).
import GLMapCore

/// Loads bytes for a URL: nil when there is nothing there (an HTTP 404, a missing file); throws
/// for a failure that is not "not found". glmap's `ResourceLoader` provides one.
public typealias ResourceFetch = @Sendable (String) throws -> [UInt8]?

/// The glyphs a tile needs: font stack → code points, stacks in the order first added.
public struct GlyphDependencies: Equatable, Sendable {
    /// Font stacks in the order first added.
    public private(set) var fontStacks: [String] = []
    /// Code points per font stack.
    public private(set) var codePoints: [String: Set<UInt32>] = [:]

    /// No glyphs.
    public init() {}

    /// Adds `codePoint` for `fontStack`.
    public mutating func add(_ codePoint: UInt32, fontStack: String) {
        if codePoints[fontStack] == nil { fontStacks.append(fontStack); codePoints[fontStack] = [] }
        codePoints[fontStack]!.insert(codePoint)
    }

    /// Adds every code point of `text` for `fontStack`, and, when `verticalize` is set, the
    /// vertical form of each character that has one (GL JS's `calculateGlyphDependencies` for
    /// text along lines or vertical placement of text that allows vertical writing).
    public mutating func add(text: String, fontStack: String, verticalize: Bool = false) {
        for scalar in text.unicodeScalars {
            add(scalar.value, fontStack: fontStack)
            if verticalize, let v = VerticalPunctuation.verticalForm(of: scalar.value) { add(v, fontStack: fontStack) }
        }
    }

    /// Whether nothing was added.
    public var isEmpty: Bool { fontStacks.isEmpty }
}

/// Glyphs by font stack and code point, with the stacks' order (the glyph atlas packs in it).
public struct GlyphMap: Sendable {
    /// Font stacks in the order they were requested.
    public var fontStacks: [String] = []
    /// Glyphs per stack; a code point without a glyph is absent.
    public var glyphs: [String: [UInt32: Glyph]] = [:]

    /// An empty map.
    public init() {}

    /// The glyph of `codePoint` in `fontStack`.
    public subscript(fontStack: String, codePoint: UInt32) -> Glyph? { glyphs[fontStack]?[codePoint] }

    /// Sets the glyphs of a stack (appending the stack to the order when new).
    public mutating func set(_ stackGlyphs: [UInt32: Glyph], for fontStack: String) {
        if glyphs[fontStack] == nil { fontStacks.append(fontStack) }
        glyphs[fontStack] = stackGlyphs
    }
}

/// Loads glyph ranges and caches them per font stack (see the contract above).
public final class GlyphManager: Sendable {
    /// The `glyphs` URL template, or nil when the style has none.
    public let urlTemplate: String?
    private let fetch: ResourceFetch?
    private let local: (any LocalGlyphSource)?
    private let localIdeographs: Bool
    private let state = Locked(State())

    private struct Entry {
        var glyphs: [UInt32: Glyph?] = [:]
        var loadedRanges: [UInt32: Bool] = [:]   // range index → loaded (true) or failed (false)
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var warnings: [GlyphRangeError] = []
        var stackWarnings: [FontStackError] = []
        var messages: [String] = []
    }

    /// A manager for the style's `glyphs` template, loading through `fetch`, drawing missing
    /// glyphs with `local` when given. `localIdeographs` is GL JS's `localIdeographFontFamily`:
    /// CJK ideographs, kana, hangul and their punctuation are always drawn by `local`.
    public init(urlTemplate: String?, fetch: ResourceFetch?, local: (any LocalGlyphSource)? = nil, localIdeographs: Bool = false) {
        self.urlTemplate = urlTemplate?.isEmpty == true ? nil : urlTemplate
        self.fetch = fetch
        self.local = local
        self.localIdeographs = localIdeographs && local != nil
    }

    /// The warnings so far: one per font stack and range that could not be loaded.
    public var warnings: [GlyphRangeError] { state.value.warnings }
    /// The warnings so far about font stacks no local font draws: one per stack.
    public var fontStackWarnings: [FontStackError] { state.value.stackWarnings }
    /// Every warning so far, range and font stack ones, in the order met.
    public var warningMessages: [String] { state.value.messages }

    /// The URL of range `rangeIndex` (code points 256·i … 256·i + 255) of `fontStack`.
    public static func url(template: String, fontStack: String, rangeIndex: UInt32) -> String {
        let start = rangeIndex * GlyphConstants.rangeSize
        return replacingFirst("{range}", with: "\(start)-\(start + 255)",
                              in: replacingFirst("{fontstack}", with: fontStack, in: template))
    }

    static func replacingFirst(_ token: String, with replacement: String, in s: String) -> String {
        guard let r = s.range(of: token) else { return s }
        return s.replacingCharacters(in: r, with: replacement)
    }

    /// The glyphs of `dependencies`, loading what is not cached.
    public func glyphs(for dependencies: GlyphDependencies) -> GlyphMap {
        var map = GlyphMap()
        for stack in dependencies.fontStacks {
            var out: [UInt32: Glyph] = [:]
            for cp in dependencies.codePoints[stack]!.sorted() {
                if let g = glyph(cp, fontStack: stack) { out[cp] = g }
            }
            map.set(out, for: stack)
        }
        return map
    }

    /// The glyph of `codePoint` in `fontStack`, loading its range when needed.
    public func glyph(_ codePoint: UInt32, fontStack: String) -> Glyph? {
        state.withLock { state -> Glyph? in
            if let cached = state.entries[fontStack]?.glyphs[codePoint] { return cached }
            guard urlTemplate != nil, fetch != nil, !(localIdeographs && ScriptDetection.usesLocalIdeographFontFamily(codePoint)) else {
                let g = localGlyph(codePoint, fontStack: fontStack, state: &state)
                state.entries[fontStack, default: Entry()].glyphs[codePoint] = .some(g)
                return g
            }
            let range = codePoint / GlyphConstants.rangeSize
            if state.entries[fontStack]?.loadedRanges[range] == nil {
                load(range: range, fontStack: fontStack, state: &state)
            }
            if let cached = state.entries[fontStack]?.glyphs[codePoint] { return cached }
            if state.entries[fontStack]?.loadedRanges[range] == false {
                // The range failed: draw this glyph locally (GL JS 5), or leave it out.
                let g = localGlyph(codePoint, fontStack: fontStack, state: &state)
                state.entries[fontStack, default: Entry()].glyphs[codePoint] = .some(g)
                return g
            }
            state.entries[fontStack, default: Entry()].glyphs[codePoint] = .some(nil)
            return nil
        }
    }

    /// The local source's glyph, warning once per stack when no local font is named for it (or
    /// there is no local source and no `glyphs` URL).
    private func localGlyph(_ codePoint: UInt32, fontStack: String, state: inout State) -> Glyph? {
        func warn(_ message: String) {
            guard !state.stackWarnings.contains(where: { $0.fontStack == fontStack }) else { return }
            let w = FontStackError(fontStack: fontStack, message: message)
            state.stackWarnings.append(w)
            state.messages.append(w.description)
        }
        guard let local else {
            if urlTemplate == nil { warn("the style has no glyphs URL and no fonts folder is given (--fonts DIR, fontsDirectory); text needing it is left out") }
            return nil
        }
        if let why = local.missingFont(fontStack: fontStack) { warn(why); return nil }
        return local.glyph(codePoint: codePoint, fontStack: fontStack)
    }

    private func load(range: UInt32, fontStack: String, state: inout State) {
        guard let template = urlTemplate, let fetch else { return }
        let url = Self.url(template: template, fontStack: fontStack, rangeIndex: range)
        var entry = state.entries[fontStack] ?? Entry()
        defer { state.entries[fontStack] = entry }
        func store(_ glyphs: [Glyph]) {
            for g in glyphs where entry.glyphs[g.id] == nil { entry.glyphs[g.id] = .some(g) }
        }
        func fail(_ message: String, url: String?) {
            entry.loadedRanges[range] = false
            let drawnLocally = local.map { $0.missingFont(fontStack: fontStack) == nil } ?? false
            let w = GlyphRangeError(fontStack: fontStack, rangeStart: range * GlyphConstants.rangeSize, url: url,
                                    message: message + (drawnLocally ? "; its glyphs are drawn from local fonts" : "; text needing it is left out"))
            state.warnings.append(w)
            state.messages.append(w.description)
        }
        do {
            if let bytes = try fetch(url) {
                store(try GlyphPBF.decode(bytes))
                entry.loadedRanges[range] = true
                return
            }
        } catch let error as GlyphPBFError {
            return fail("not a glyph PBF: \(error)", url: url)
        } catch {
            return fail("could not be loaded: \(error)", url: url)
        }
        // Not found as a combined stack: try the stack's fonts one by one.
        let fonts = fontStack.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
        guard fonts.count > 1 else { return fail("not found", url: url) }
        var any = false
        var problems: [String] = []
        for font in fonts {
            let fontURL = Self.url(template: template, fontStack: font, rangeIndex: range)
            do {
                guard let bytes = try fetch(fontURL) else { problems.append("\(fontURL): not found"); continue }
                store(try GlyphPBF.decode(bytes))
                any = true
            } catch {
                problems.append("\(fontURL): \(error)")
            }
        }
        if any {
            entry.loadedRanges[range] = true
        } else {
            fail("not found, nor any of its fonts alone (\(problems.joined(separator: "; ")))", url: url)
        }
    }
}
