// Line atlas — contract
// Input: dash patterns (`line-dasharray`, lengths in line widths, ≥ 0) and whether the layer's caps
// are round. Output: an 8-bit signed-distance image, 256 texels wide, one row per butt/square
// pattern and 15 rows per round pattern, plus each pattern's `DashEntry` (centre row, row span,
// pattern length) for the vertex data. Semantics follow MapLibre's LineAtlas: the pattern is
// stretched over the 256 texels; a texel holds 128 + the signed distance (in texels) to the
// nearest dash edge, positive inside dashes, clamped to 0…255 and truncated; round patterns add
// half-disc caps of half a line width across 2·7 + 1 rows (row = position across the line).
// Butt patterns drop zero-length parts, merge neighbours of the same kind and join the first
// and last part when they are of the same kind (so odd-length patterns repeat seamlessly).
// Invariants: `pixels.count == width * height`; entries are deduplicated by (pattern, round).
// Limits: grows by rows without bound (MapLibre stops at 512 rows); a pattern of total length 0
// gets an all-zero row (nothing drawn) and reports width 0.

/// Where one dash pattern lies in a `LineAtlas`.
public struct DashEntry: Equatable, Sendable {
    /// Row of the pattern's centre line (0 = first row).
    public var y: Int
    /// Rows spanned from one edge of the line to the other (0 for butt caps, 14 for round).
    public var height: Int
    /// Total pattern length in line widths (sum of the dash array).
    public var width: Double

    /// An entry at centre row `y` spanning `height` rows, of a pattern `width` line widths long.
    public init(y: Int, height: Int, width: Double) {
        self.y = y; self.height = height; self.width = width
    }
}

/// The signed-distance dash patterns of one line layer (MapLibre's LineAtlas), pure data.
public struct LineAtlas: Sendable {
    /// Texels per row (MapLibre's atlas width).
    public static let width = 256
    /// Rows above and below the centre row of a round-cap pattern.
    public static let roundRows = 7

    /// Texels per row.
    public var width: Int { Self.width }
    /// Rows written so far.
    public private(set) var height = 0
    /// 8-bit distances, row-major, `width * height` bytes.
    public private(set) var pixels: [UInt8] = []
    private var entries: [Key: DashEntry] = [:]

    private struct Key: Hashable { var pattern: [Double]; var round: Bool }

    /// Creates an empty atlas.
    public init() {}

    /// The entry for a pattern, adding its rows on first use.
    public mutating func dash(_ pattern: [Double], round: Bool) -> DashEntry {
        let key = Key(pattern: pattern, round: round)
        if let e = entries[key] { return e }
        let e = add(pattern, round: round)
        entries[key] = e
        return e
    }

    /// A pattern's entries as drawn: negative and non-finite lengths count as 0.
    public static func entries(_ pattern: [Double]) -> [Double] {
        pattern.map { $0.isFinite ? max(0, $0) : 0 }
    }

    /// A pattern's length in line widths: the sum of its `entries` (`DashEntry.width`).
    public static func length(_ pattern: [Double]) -> Double {
        entries(pattern).reduce(0, +)
    }

    private struct Range { var left: Double; var right: Double; var isDash: Bool; var zeroLength: Bool }

    private mutating func add(_ pattern: [Double], round: Bool) -> DashEntry {
        let n = round ? Self.roundRows : 0
        let rows = 2 * n + 1
        let firstRow = height
        height += rows
        pixels.append(contentsOf: repeatElement(0, count: rows * Self.width))
        let dash = Self.entries(pattern)
        let length = dash.reduce(0, +)
        if length > 0 && !dash.isEmpty {
            let stretch = Double(Self.width) / length
            var ranges = Self.ranges(dash, stretch: stretch)
            if round {
                writeRound(ranges, stretch: stretch, n: n, firstRow: firstRow)
            } else {
                Self.collapse(&ranges, width: Double(Self.width))
                writeRegular(ranges, row: firstRow)
            }
        }
        return DashEntry(y: firstRow + n, height: 2 * n, width: length)
    }

    /// The pattern's parts in texels; an odd-length pattern's first dash starts before 0 so that
    /// it joins the last one.
    private static func ranges(_ dash: [Double], stretch: Double) -> [Range] {
        var out: [Range] = []
        out.reserveCapacity(dash.count)
        let odd = dash.count % 2 == 1
        var isDash = true
        out.append(Range(left: odd ? -dash[dash.count - 1] * stretch : 0, right: dash[0] * stretch,
                         isDash: true, zeroLength: dash[0] == 0))
        var sum = dash[0]
        for i in 1..<dash.count {
            isDash.toggle()
            let left = sum * stretch
            sum += dash[i]
            out.append(Range(left: left, right: sum * stretch, isDash: isDash, zeroLength: dash[i] == 0))
        }
        return out
    }

    /// Drops zero-length parts, merges neighbours of one kind, joins the ends when alike.
    private static func collapse(_ ranges: inout [Range], width: Double) {
        var i = ranges.count - 1
        while i >= 0 {
            if ranges[i].zeroLength {
                ranges.remove(at: i)
            } else if i + 1 < ranges.count && ranges[i + 1].isDash == ranges[i].isDash {
                ranges[i + 1].left = ranges[i].left
                ranges.remove(at: i)
            }
            i -= 1
        }
        guard let first = ranges.first, let last = ranges.last else { return }
        if first.isDash == last.isDash {
            let firstRight = first.right, lastLeft = last.left
            ranges[0].left = lastLeft - width
            ranges[ranges.count - 1].right = firstRight + width
        }
    }

    /// MapLibre's walk: one step to the next part when a texel passes the current part's end.
    @inline(__always)
    private static func advance(_ x: Int, _ index: inout Int, _ ranges: [Range]) {
        if Double(x) / ranges[index].right > 1 && index + 1 < ranges.count { index += 1 }
    }

    @inline(__always)
    private static func byte(_ signedDistance: Double) -> UInt8 {
        UInt8(min(255, max(0, signedDistance + 128)))  // truncates, as a Uint8Array store does
    }

    private mutating func writeRegular(_ ranges: [Range], row: Int) {
        guard !ranges.isEmpty else { return }
        let base = row * Self.width
        var index = 0
        for x in 0..<Self.width {
            Self.advance(x, &index, ranges)
            let r = ranges[index]
            let d = min(abs(Double(x) - r.left), abs(Double(x) - r.right))
            pixels[base + x] = Self.byte(r.isDash ? d : -d)
        }
    }

    private mutating func writeRound(_ ranges: [Range], stretch: Double, n: Int, firstRow: Int) {
        let halfStretch = stretch / 2
        for y in -n...n {
            let base = (firstRow + n + y) * Self.width
            let distMiddle = Double(y) / Double(n) * (halfStretch + 1)
            var index = 0
            for x in 0..<Self.width {
                Self.advance(x, &index, ranges)
                let r = ranges[index]
                let d = min(abs(Double(x) - r.left), abs(Double(x) - r.right))
                let signed: Double
                if r.isDash {
                    let distEdge = halfStretch - abs(distMiddle)
                    signed = (d * d + distEdge * distEdge).squareRoot()
                } else {
                    signed = halfStretch - (d * d + distMiddle * distMiddle).squareRoot()
                }
                pixels[base + x] = Self.byte(signed)
            }
        }
    }
}
