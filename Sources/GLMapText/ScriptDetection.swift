import CICU

/// The Unicode character classes GL JS's shaper and script detection use (its generated
/// `unicode_properties` sets, Unicode 16, and `script_detection`), as sorted code-point ranges,
/// plus ICU for script membership.
public enum ScriptDetection {
    static let usesLocalIdeographFontFamily: [ClosedRange<UInt32>] = [0x2EA...0x2EB, 0x1100...0x11FF, 0x2E80...0x2FDF, 0x3000...0x30FF, 0x3105...0x312F, 0x3131...0x318E, 0x31A0...0x4DBF, 0x4E00...0xA48C, 0xA490...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7C6, 0xD7CB...0xD7FB, 0xF900...0xFA6D, 0xFA70...0xFAD9, 0xFE10...0xFE1F, 0xFE30...0xFE4F, 0xFF00...0xFFEF, 0x16FE0...0x18CD5, 0x18CFF...0x18D1E, 0x18D80...0x18DF2, 0x1AFF0...0x1B2FB, 0x1F200...0x1F2FF, 0x20000...0x2A6DF, 0x2A700...0x2B81D, 0x2B820...0x2CEAD, 0x2CEB0...0x2EBE0, 0x2EBF0...0x2EE5D, 0x2F800...0x2FA1D, 0x30000...0x3134A, 0x31350...0x33479]
    static let allowsIdeographicBreaking: [ClosedRange<UInt32>] = [0x2EA...0x2EB, 0x2E80...0x2FDF, 0x2FF0...0x303F, 0x3041...0x3096, 0x309D...0x309F, 0x30A1...0x30FA, 0x30FD...0x30FF, 0x3105...0x312F, 0x31A0...0x4DBF, 0x4E00...0xA48C, 0xA490...0xA4C6, 0xF900...0xFA6D, 0xFA70...0xFAD9, 0xFE10...0xFE1F, 0xFE30...0xFE4F, 0xFF00...0xFFEF, 0x16FE0...0x18CD5, 0x18CFF...0x18D1E, 0x18D80...0x18DF2, 0x1AFF0...0x1B2FB, 0x1F200...0x1F2FF, 0x20000...0x2A6DF, 0x2A700...0x2B81D, 0x2B820...0x2CEAD, 0x2CEB0...0x2EBE0, 0x2EBF0...0x2EE5D, 0x2F800...0x2FA1D, 0x30000...0x3134A, 0x31350...0x33479]
    static let uprightVerticalOrientation: [ClosedRange<UInt32>] = [0x2EA...0x2EB, 0x1100...0x11FF, 0x1400...0x167F, 0x18B0...0x18F5, 0x2E80...0x2E99, 0x2E9B...0x2EF3, 0x2F00...0x2FD5, 0x2FF0...0x3007, 0x3012...0x3013, 0x3020...0x302F, 0x3031...0x303F, 0x3041...0x3096, 0x309D...0x30FB, 0x30FD...0x30FF, 0x3105...0x312F, 0x3131...0x318E, 0x3190...0xA48C, 0xA490...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xD7B0...0xD7C6, 0xD7CB...0xD7FB, 0xF900...0xFA6D, 0xFA70...0xFAD9, 0xFE10...0xFE1F, 0xFE30...0xFE48, 0xFE50...0xFE57, 0xFE5F...0xFE62, 0xFE67...0xFE6F, 0xFF00...0xFF07, 0xFF0A...0xFF0C, 0xFF0E...0xFF19, 0xFF1F...0xFF3A, 0xFF3C...0xFF3C, 0xFF3E...0xFF3E, 0xFF40...0xFF5A, 0xFFE0...0xFFE2, 0xFFE4...0xFFE7, 0x10980...0x1099F, 0x11580...0x115FF, 0x11A00...0x11ABF, 0x14400...0x1467F, 0x16FE0...0x16FE4, 0x16FF0...0x16FF6, 0x17000...0x18CD5, 0x18CFF...0x18D1E, 0x18D80...0x18DF2, 0x1AFF0...0x1AFF3, 0x1AFF5...0x1AFFB, 0x1AFFD...0x1AFFE, 0x1B000...0x1B122, 0x1B130...0x1B2FB, 0x1CEC0...0x1CFCF, 0x1D000...0x1D1FF, 0x1D2E0...0x1D37F, 0x1D800...0x1DAAF, 0x1F000...0x1F200, 0x1F300...0x1F7FF, 0x1F900...0x1FAFF, 0x20000...0x2A6DF, 0x2A700...0x2B81D, 0x2B820...0x2CEAD, 0x2CEB0...0x2EBE0, 0x2EBF0...0x2EE5D, 0x2F800...0x2FA1D, 0x30000...0x3134A, 0x31350...0x33479]
    static let neutralVerticalOrientation: [ClosedRange<UInt32>] = [0xA7...0xA7, 0xA9...0xA9, 0xAE...0xAE, 0xB1...0xB1, 0xBC...0xBE, 0xD7...0xD7, 0xF7...0xF7, 0x2016...0x2016, 0x2020...0x2021, 0x2030...0x2031, 0x203B...0x203C, 0x2042...0x2042, 0x2047...0x2049, 0x2051...0x2051, 0x2100...0x218F, 0x221E...0x221E, 0x2234...0x2235, 0x2300...0x2307, 0x230C...0x231F, 0x2324...0x2328, 0x232B...0x232B, 0x237D...0x239A, 0x23BE...0x23CD, 0x23CF...0x23CF, 0x23D1...0x23DB, 0x23E2...0x2422, 0x2424...0x24FF, 0x25A0...0x2619, 0x2620...0x2767, 0x2776...0x2793, 0x2B12...0x2B2F, 0x2B50...0x2B59, 0x2BB8...0x2BEB, 0x3000...0x303F, 0x30A0...0x30FF, 0xE000...0xF8FF, 0xFE30...0xFE6F, 0xFF00...0xFFEF, 0xFFFC...0xFFFD, 0xF0000...0x10FFFF]
    static let requiresComplexTextShaping: [ClosedRange<UInt32>] = [0x900...0xDFF, 0xF00...0x109F, 0x1780...0x17FF]

    static func contains(_ ranges: [ClosedRange<UInt32>], _ cp: UInt32) -> Bool {
        var lo = 0, hi = ranges.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if cp < ranges[mid].lowerBound { hi = mid - 1 } else if cp > ranges[mid].upperBound { lo = mid + 1 } else { return true }
        }
        return false
    }

    /// The ISO 15924 code of the code point's Script property (`Arab`, `Latn`, `Zyyy`), from ICU.
    public static func scriptCode(_ cp: UInt32) -> String {
        var buffer = [CChar](repeating: 0, count: 8)
        glmap_icu_script_code(cp, &buffer)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static let cursiveScripts: Set<String> = ["Arab", "Dupl", "Mong", "Ougr", "Syrc"]
    static let rtlScripts: Set<String> = [
        "Adlm", "Arab", "Armi", "Avst", "Chrs", "Cprt", "Egyp", "Elym", "Gara", "Hatr", "Hebr", "Hung", "Khar", "Lydi",
        "Mand", "Mani", "Mend", "Merc", "Mero", "Narb", "Nbat", "Nkoo", "Orkh", "Palm", "Phli", "Phlp", "Phnx", "Prti",
        "Rohg", "Samr", "Sarb", "Sogo", "Syrc", "Thaa", "Todr", "Yezi",
    ]

    /// JavaScript's `\s`: the characters `String.trim` and the shaper treat as white space.
    public static func isWhitespace(_ cp: UInt32) -> Bool {
        switch cp {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
        default: return false
        }
    }

    /// Whether a line may break after this character as in ideographic text.
    public static func allowsIdeographicBreaking(_ cp: UInt32) -> Bool { contains(allowsIdeographicBreaking, cp) }

    /// Whether the character stands upright in vertical text.
    public static func hasUprightVerticalOrientation(_ cp: UInt32) -> Bool { contains(uprightVerticalOrientation, cp) }

    /// Whether the character follows its neighbours' orientation in vertical text.
    public static func hasNeutralVerticalOrientation(_ cp: UInt32) -> Bool { contains(neutralVerticalOrientation, cp) }

    /// Whether the character is rotated in vertical text (neither upright nor neutral).
    public static func hasRotatedVerticalOrientation(_ cp: UInt32) -> Bool {
        !(hasUprightVerticalOrientation(cp) || hasNeutralVerticalOrientation(cp))
    }

    /// Whether GL JS's `localIdeographFontFamily` applies to the character.
    public static func usesLocalIdeographFontFamily(_ cp: UInt32) -> Bool { contains(usesLocalIdeographFontFamily, cp) }

    /// Whether the character is in a script that needs complex shaping glmap cannot do (Indic,
    /// Tibetan, Myanmar, Khmer blocks).
    public static func requiresComplexTextShaping(_ cp: UInt32) -> Bool { contains(requiresComplexTextShaping, cp) }

    /// Whether the character is Arabic script (`charInComplexShapingScript`).
    public static func isInComplexShapingScript(_ cp: UInt32) -> Bool { scriptCode(cp) == "Arab" }

    /// Whether the character is in a right-to-left script.
    public static func isInRTLScript(_ cp: UInt32) -> Bool { rtlScripts.contains(scriptCode(cp)) }

    /// Whether letter spacing may apply to the character (not a cursive script).
    public static func allowsLetterSpacing(_ cp: UInt32) -> Bool { !cursiveScripts.contains(scriptCode(cp)) }

    /// Whether every character allows letter spacing (`allowsLetterSpacing`).
    public static func allowsLetterSpacing(_ text: String) -> Bool { text.unicodeScalars.allSatisfy { allowsLetterSpacing($0.value) } }

    /// Whether some character stands upright in vertical text (`allowsVerticalWritingMode`).
    public static func allowsVerticalWritingMode(_ text: String) -> Bool {
        text.unicodeScalars.contains { hasUprightVerticalOrientation($0.value) }
    }

    /// Whether every character allows ideographic breaking.
    public static func allowsIdeographicBreaking(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { allowsIdeographicBreaking($0.value) }
    }

    /// Whether some character is in a right-to-left script (`stringContainsRTLText`).
    public static func containsRTLText(_ text: String) -> Bool { text.unicodeScalars.contains { isInRTLScript($0.value) } }

    /// Whether the character can be drawn (`charInSupportedScript`): not RTL unless bidi is
    /// available, and not a script needing complex shaping.
    public static func isInSupportedScript(_ cp: UInt32, canRenderRTL: Bool) -> Bool {
        if !canRenderRTL && isInRTLScript(cp) { return false }
        return !requiresComplexTextShaping(cp)
    }

    /// Whether every character can be drawn (`isStringInSupportedScript`).
    public static func isStringInSupportedScript(_ text: String, canRenderRTL: Bool) -> Bool {
        text.unicodeScalars.allSatisfy { isInSupportedScript($0.value, canRenderRTL: canRenderRTL) }
    }
}
