// Bidi — contract
// What MapLibre's RTL text plugin (mapbox-gl-rtl-text, which GL JS's render-test harness loads,
// not lazily, for every case) does, through the system ICU: `applyArabicShaping` (u_shapeArabic,
// letters shaped, logical order), `processBidirectionalText` (one paragraph level from the first
// strong character, LTR by default; lines split at paragraph separators and at the given break
// offsets; each line in visual order with RTL runs reversed by code point, mirrored, bidi
// controls and ZWJ/ZWNJ removed) and `processStyledBidirectionalText` (the same, carrying each
// character's section index along).
// Offsets are UTF-16 code units, as the plugin's are. Never traps: ICU failures return the input
// as one line (the plugin returns its input or nothing).
import CICU

/// Bidirectional reordering and Arabic shaping (see the contract above). A value type with no
/// state: pass one to shaping to emulate GL JS with the RTL plugin loaded, or nil for GL JS
/// without it.
public struct Bidi: Sendable {
    /// The plugin's behaviour.
    public init() {}

    /// Arabic letters replaced by their contextual presentation forms (logical order kept).
    public func applyArabicShaping(_ text: String) -> String {
        let src = Array(text.utf16)
        guard !src.isEmpty else { return text }
        var capacity = src.count + 1
        for _ in 0..<2 {
            var dest = [UInt16](repeating: 0, count: capacity)
            let n = glmap_icu_shape_arabic(src, Int32(src.count), &dest, Int32(capacity))
            if n >= 0 && Int(n) <= capacity { return String(decoding: dest[0..<Int(n)], as: UTF16.self) }
            if n < 0 { capacity *= 2 } else { capacity = Int(n) + 1 }
        }
        return text
    }

    /// `text` split into lines at `lineBreaks` (ascending UTF-16 offsets) and at paragraph ends,
    /// each in visual order.
    public func processBidirectionalText(_ text: String, lineBreaks: [Int]) -> [String] {
        guard let (units, map, ends) = run(Array(text.utf16), lineBreaks) else { return [text] }
        _ = map
        var lines: [String] = []
        var start = 0
        for end in ends {
            lines.append(String(decoding: units[start..<end], as: UTF16.self))
            start = end
        }
        return lines
    }

    /// As `processBidirectionalText`, with `sectionIndices` (one per UTF-16 code unit of `text`)
    /// carried to the visual order: each line's text and its code units' section indices.
    public func processStyledBidirectionalText(_ text: String, sectionIndices: [Int], lineBreaks: [Int]) -> [(text: String, sectionIndices: [Int])] {
        let utf16 = Array(text.utf16)
        guard sectionIndices.count == utf16.count, let (units, map, ends) = run(utf16, lineBreaks) else {
            return [(text, sectionIndices)]
        }
        var lines: [(String, [Int])] = []
        var start = 0
        for end in ends {
            lines.append((String(decoding: units[start..<end], as: UTF16.self), map[start..<end].map { sectionIndices[$0] }))
            start = end
        }
        return lines
    }

    private func run(_ units: [UInt16], _ breaks: [Int]) -> ([UInt16], [Int], [Int])? {
        let breaks32 = breaks.map { Int32(clamping: $0) }
        var dest = [UInt16](repeating: 0, count: max(units.count, 1))
        var map = [Int32](repeating: 0, count: max(units.count, 1))
        var ends = [Int32](repeating: 0, count: units.count + breaks.count + 2)
        let lines = glmap_icu_bidi_lines(units, Int32(units.count), breaks32, Int32(breaks32.count), &dest, &map, &ends)
        guard lines >= 0 else { return nil }
        let endOffsets = ends[0..<Int(lines)].map { Int($0) }
        let total = endOffsets.last ?? 0
        return (Array(dest[0..<total]), map[0..<total].map { Int($0) }, endOffsets)
    }

    /// Full Unicode upper/lower case mapping (ICU, root locale).
    static func caseMapped(_ text: String, upper: Bool) -> String {
        let src = Array(text.utf16)
        guard !src.isEmpty else { return text }
        var capacity = src.count * 3 + 1
        for _ in 0..<2 {
            var dest = [UInt16](repeating: 0, count: capacity)
            let n = glmap_icu_case_map(src, Int32(src.count), upper ? 1 : 0, &dest, Int32(capacity))
            if n < 0 { return upper ? text.uppercased() : text.lowercased() }
            if Int(n) <= capacity { return String(decoding: dest[0..<Int(n)], as: UTF16.self) }
            capacity = Int(n) + 1
        }
        return text
    }
}
