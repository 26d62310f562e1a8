/// A rectangle in an atlas, in pixels (MapLibre's `Rect`): the padded bin an image or glyph got.
public struct AtlasRect: Equatable, Hashable, Sendable {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width.
    public var w: Int
    /// Height.
    public var h: Int
    /// A rectangle.
    public init(x: Int, y: Int, w: Int, h: Int) { self.x = x; self.y = y; self.w = w; self.h = h }
}

/// Mapbox's potpack: packs boxes into a near-square container the way GL JS's atlases do, so
/// every glyph and image lands where GL JS puts it (same texture coordinates, same sampling).
///
/// Boxes are placed tallest first (a stable sort: equal heights keep their input order), each in
/// the last free space that fits, into a container `max(ceil(sqrt(area / 0.95)), widest)` wide.
public enum Potpack {
    /// Positions for `sizes` (in input order) and the container's size (0×0 when empty).
    public static func pack(_ sizes: [(w: Int, h: Int)]) -> (positions: [AtlasRect], width: Int, height: Int) {
        var area = 0, maxWidth = 0
        for s in sizes {
            area += s.w * s.h
            maxWidth = max(maxWidth, s.w)
        }
        let order = sizes.indices.sorted { a, b in sizes[a].h != sizes[b].h ? sizes[a].h > sizes[b].h : a < b }
        let startWidth = max(Int((Double(area) / 0.95).squareRoot().rounded(.up)), maxWidth)
        struct Space { var x: Int; var y: Int; var w: Int; var h: Int }   // h == Int.max: unbounded
        var spaces = [Space(x: 0, y: 0, w: startWidth, h: Int.max)]
        var positions = sizes.map { AtlasRect(x: 0, y: 0, w: $0.w, h: $0.h) }
        var width = 0, height = 0
        for index in order {
            let box = sizes[index]
            var i = spaces.count - 1
            while i >= 0 {
                let space = spaces[i]
                if box.w > space.w || box.h > space.h { i -= 1; continue }
                positions[index].x = space.x
                positions[index].y = space.y
                height = max(height, space.y + box.h)
                width = max(width, space.x + box.w)
                if box.w == space.w && box.h == space.h {
                    let last = spaces.removeLast()
                    if i < spaces.count { spaces[i] = last }
                } else if box.h == space.h {
                    spaces[i].x += box.w
                    spaces[i].w -= box.w
                } else if box.w == space.w {
                    spaces[i].y += box.h
                    if spaces[i].h != Int.max { spaces[i].h -= box.h }
                } else {
                    spaces.append(Space(x: space.x + box.w, y: space.y, w: space.w - box.w, h: box.h))
                    spaces[i].y += box.h
                    if spaces[i].h != Int.max { spaces[i].h -= box.h }
                }
                break
            }
        }
        return (positions, width, height)
    }
}

/// JavaScript's property order for object keys: keys that are array indices (canonical decimal
/// integers below 2³² − 1) first, ascending, then the others in insertion order. GL JS iterates
/// its image and sprite dictionaries in this order, which decides atlas packing.
public enum JSKeyOrder {
    /// `keys` (insertion order, duplicates dropped after the first) in JavaScript property order.
    public static func ordered(_ keys: [String]) -> [String] {
        var seen = Set<String>()
        var indices: [(UInt64, String)] = []
        var others: [String] = []
        for k in keys where seen.insert(k).inserted {
            if let n = arrayIndex(k) { indices.append((n, k)) } else { others.append(k) }
        }
        return indices.sorted { $0.0 < $1.0 }.map(\.1) + others
    }

    static func arrayIndex(_ key: String) -> UInt64? {
        let utf8 = Array(key.utf8)
        guard !utf8.isEmpty, utf8.count <= 10, utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        if utf8.count > 1 && utf8[0] == 48 { return nil }
        guard let n = UInt64(key), n < 4_294_967_295 else { return nil }
        return n
    }
}
