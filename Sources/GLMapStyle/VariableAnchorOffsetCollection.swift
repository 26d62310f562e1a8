/// A `variableAnchorOffsetCollection` value (`text-variable-anchor-offset`): the anchors a label
/// may be placed at, in order of preference, each with its offset in ems.
public struct VariableAnchorOffsetCollection: PropertyValueType, Equatable {
    /// One anchor and the offset to use with it.
    public struct Entry: Equatable, Sendable {
        /// Where the label is anchored.
        public var anchor: TextAnchor
        /// [x, y] in ems (positive: right, down).
        public var offset: [Double]

        /// An anchor with its offset.
        public init(anchor: TextAnchor, offset: [Double]) { self.anchor = anchor; self.offset = offset }
    }

    /// The anchors in order of preference.
    public var entries: [Entry]

    /// A collection of the given entries.
    public init(entries: [Entry]) { self.entries = entries }

    /// An array alternating anchor names and [x, y] offsets (`["top", [0, 1], "left", [1, 0]]`).
    public init?(evaluated v: Value) {
        guard case .array(let a) = v, a.count % 2 == 0 else { return nil }
        var out: [Entry] = []
        var i = 0
        while i < a.count {
            guard let anchor = TextAnchor(evaluated: a[i]), case .array(let o) = a[i + 1], o.count == 2,
                  let x = o[0].number, let y = o[1].number else { return nil }
            out.append(Entry(anchor: anchor, offset: [x, y]))
            i += 2
        }
        entries = out
    }
}
