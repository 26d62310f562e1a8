/// GL JS's `verticalizePunctuation`: punctuation replaced by its vertical presentation form in
/// vertical text, unless a neighbour is a rotated (Latin-like) character.
public enum VerticalPunctuation {
    /// Character → vertical form (GL JS's `verticalizedCharacterMap`).
    public static let map: [UInt32: UInt32] = {
        let pairs: [(Character, Character)] = [
            ("!", "︕"), ("#", "＃"), ("$", "＄"), ("%", "％"), ("&", "＆"), ("(", "︵"), (")", "︶"), ("*", "＊"),
            ("+", "＋"), (",", "︐"), ("-", "︲"), (".", "・"), ("/", "／"), (":", "︓"), (";", "︔"), ("<", "︿"),
            ("=", "＝"), (">", "﹀"), ("?", "︖"), ("@", "＠"), ("[", "﹇"), ("\\", "＼"), ("]", "﹈"), ("^", "＾"),
            ("_", "︳"), ("`", "｀"), ("{", "︷"), ("|", "―"), ("}", "︸"), ("~", "～"), ("¢", "￠"), ("£", "￡"),
            ("¥", "￥"), ("¦", "￤"), ("¬", "￢"), ("¯", "￣"), ("–", "︲"), ("—", "︱"), ("‘", "﹃"), ("’", "﹄"),
            ("“", "﹁"), ("”", "﹂"), ("…", "︙"), ("⋯", "︙"), ("‧", "・"), ("₩", "￦"), ("、", "︑"), ("。", "︒"),
            ("〈", "︿"), ("〉", "﹀"), ("《", "︽"), ("》", "︾"), ("「", "﹁"), ("」", "﹂"), ("『", "﹃"), ("』", "﹄"),
            ("【", "︻"), ("】", "︼"), ("〔", "︹"), ("〕", "︺"), ("〖", "︗"), ("〗", "︘"), ("！", "︕"), ("（", "︵"),
            ("）", "︶"), ("，", "︐"), ("－", "︲"), ("．", "・"), ("：", "︓"), ("；", "︔"), ("＜", "︿"), ("＞", "﹀"),
            ("？", "︖"), ("［", "﹇"), ("］", "﹈"), ("＿", "︳"), ("｛", "︷"), ("｜", "―"), ("｝", "︸"), ("｟", "︵"),
            ("｠", "︶"), ("｡", "︒"), ("｢", "﹁"), ("｣", "﹂"),
        ]
        var m: [UInt32: UInt32] = [:]
        for (a, b) in pairs { m[a.unicodeScalars.first!.value] = b.unicodeScalars.first!.value }
        return m
    }()

    /// The vertical form of `cp`, if it has one.
    public static func verticalForm(of cp: UInt32) -> UInt32? { map[cp] }

    /// `scalars` with punctuation verticalized where both neighbours allow it.
    public static func verticalize(_ scalars: [UInt32]) -> [UInt32] {
        var out = scalars
        for i in scalars.indices {
            guard let v = map[scalars[i]] else { continue }
            let nextOK = i + 1 >= scalars.count || !ScriptDetection.hasRotatedVerticalOrientation(scalars[i + 1]) || map[scalars[i + 1]] != nil
            let prevOK = i == 0 || !ScriptDetection.hasRotatedVerticalOrientation(scalars[i - 1]) || map[scalars[i - 1]] != nil
            if nextOK && prevOK { out[i] = v }
        }
        return out
    }
}
