import GLMapCore

extension SymbolLayout {
    /// GL JS's `mergeLines` (line placement): lines with the same text that meet end to start are
    /// joined (the first line of each feature only), so a label is placed along the longer line.
    /// Features without text are kept as they are; order is kept.
    static func mergeLines(_ features: [Feature]) -> [Feature] {
        var leftIndex: [String: Int] = [:], rightIndex: [String: Int] = [:]
        var merged: [Feature] = []
        var removed: Set<Int> = []

        func key(_ text: String, _ line: [TileVector], onRight: Bool) -> String {
            let p = onRight ? line[line.count - 1] : line[0]
            return "\(text):\(JSONValue.formatNumber(p.x)):\(JSONValue.formatNumber(p.y))"
        }
        func mergeFromRight(_ leftKey: String, _ rightKey: String, _ line: [TileVector]) -> Int {
            let i = rightIndex.removeValue(forKey: leftKey)!
            rightIndex[rightKey] = i
            merged[i].geometry[0].removeLast()
            merged[i].geometry[0] += line
            return i
        }
        func mergeFromLeft(_ leftKey: String, _ rightKey: String, _ line: [TileVector]) -> Int {
            let i = leftIndex.removeValue(forKey: rightKey)!
            leftIndex[leftKey] = i
            merged[i].geometry[0].removeFirst()
            merged[i].geometry[0] = line + merged[i].geometry[0]
            return i
        }

        for feature in features {
            guard let text = feature.text?.string, !text.isEmpty, let line = feature.geometry.first, !line.isEmpty else {
                merged.append(feature)
                continue
            }
            let leftKey = key(text, line, onRight: false), rightKey = key(text, line, onRight: true)
            if let r = rightIndex[leftKey], let l = leftIndex[rightKey], r != l {
                let j = mergeFromLeft(leftKey, rightKey, line)
                let i = mergeFromRight(leftKey, rightKey, merged[j].geometry[0])
                leftIndex.removeValue(forKey: leftKey)
                rightIndex.removeValue(forKey: rightKey)
                rightIndex[key(text, merged[i].geometry[0], onRight: true)] = i
                removed.insert(j)
            } else if rightIndex[leftKey] != nil {
                _ = mergeFromRight(leftKey, rightKey, line)
            } else if leftIndex[rightKey] != nil {
                _ = mergeFromLeft(leftKey, rightKey, line)
            } else {
                merged.append(feature)
                leftIndex[leftKey] = merged.count - 1
                rightIndex[rightKey] = merged.count - 1
            }
        }
        return merged.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
    }
}
