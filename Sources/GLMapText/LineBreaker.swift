/// GL JS's balanced line breaking (`determineLineBreaks`): break opportunities after spaces and
/// word-breaking punctuation, between ideographs, around images and before `(`; each scored by
/// the squared difference of its line's width from the average line width (`text-max-width`
/// divides the total into `ceil(total / maxWidth)` lines), plus penalties (forced at `\n`, +150
/// for ideographic breaks in text with zero-width spaces, +50 for `(` ending or `)` starting a
/// line); the final line prefers being short. The least bad chain of breaks wins.
enum LineBreaker {
    static let breakable: Set<UInt32> = [0x0A, 0x20, 0x26, 0x29, 0x2B, 0x2D, 0x2F, 0xAD, 0xB7, 0x200B, 0x2010, 0x2013, 0x2027]
    static let breakableBefore: Set<UInt32> = [0x28]

    final class Break {
        let index: Int
        let x: Double
        let prior: Break?
        let badness: Double
        init(index: Int, x: Double, prior: Break?, badness: Double) { self.index = index; self.x = x; self.prior = prior; self.badness = badness }
    }

    static func advance(_ cp: UInt32, _ section: SectionOptions, glyphs: GlyphMap, images: [String: ImagePosition],
                        spacing: Double, layoutTextSize: Double) -> Double {
        if let name = section.imageName {
            guard let p = images[name] else { return 0 }
            return p.displaySize.width * section.scale * GlyphConstants.oneEm / layoutTextSize + spacing
        }
        guard let stack = section.fontStack, let g = glyphs[stack, cp] else { return 0 }
        return g.metrics.advance * section.scale + spacing
    }

    static func badness(_ lineWidth: Double, _ target: Double, _ penalty: Double, _ isLast: Bool) -> Double {
        let raggedness = (lineWidth - target) * (lineWidth - target)
        if isLast { return lineWidth < target ? raggedness / 2 : raggedness * 2 }
        return raggedness + abs(penalty) * penalty
    }

    static func penalty(_ cp: UInt32, _ next: UInt32, _ penalizableIdeographicBreak: Bool) -> Double {
        var p = 0.0
        if cp == 0x0A { p -= 10000 }
        if penalizableIdeographicBreak { p += 150 }
        if cp == 0x28 || cp == 0xFF08 { p += 50 }
        if next == 0x29 || next == 0xFF09 { p += 50 }
        return p
    }

    static func evaluate(_ index: Int, _ x: Double, _ target: Double, _ potential: [Break], _ penalty: Double, _ isLast: Bool) -> Break {
        var best: Break? = nil
        var bestBadness = badness(x, target, penalty, isLast)
        for b in potential {
            let value = badness(x - b.x, target, penalty, isLast) + b.badness
            if value <= bestBadness {
                best = b
                bestBadness = value
            }
        }
        return Break(index: index, x: x, prior: best, badness: bestBadness)
    }

    /// Break indices (code point offsets, the last one the length) of `input`.
    static func lineBreaks(_ input: TaggedString, sections: [SectionOptions], spacing: Double, maxWidth: Double,
                           glyphs: GlyphMap, images: [String: ImagePosition], layoutTextSize: Double) -> [Int] {
        var total = 0.0
        for i in 0..<input.count {
            total += advance(input.codePoints[i], sections[input.sectionIndex[i]], glyphs: glyphs, images: images,
                             spacing: spacing, layoutTextSize: layoutTextSize)
        }
        let lineCount = max(1, (total / maxWidth).rounded(.up))
        let target = total / lineCount
        let zeroWidthSpaces = input.hasZeroWidthSpaces
        var potential: [Break] = []
        var x = 0.0
        let n = input.count
        for i in 0..<n {
            let cp = input.codePoints[i]
            let section = sections[input.sectionIndex[i]]
            if !ScriptDetection.isWhitespace(cp) {
                x += advance(cp, section, glyphs: glyphs, images: images, spacing: spacing, layoutTextSize: layoutTextSize)
            }
            guard i < n - 1 else { continue }
            let ideographic = ScriptDetection.allowsIdeographicBreaking(cp)
            let next = input.codePoints[i + 1]
            if breakable.contains(cp) || ideographic || section.imageName != nil || (i < n - 2 && breakableBefore.contains(next)) {
                potential.append(evaluate(i + 1, x, target, potential, penalty(cp, next, ideographic && zeroWidthSpaces), false))
            }
        }
        var result: [Int] = []
        var b: Break? = evaluate(n, x, target, potential, 0, true)
        while let current = b {
            result.append(current.index)
            b = current.prior
        }
        return result.reversed()
    }
}
