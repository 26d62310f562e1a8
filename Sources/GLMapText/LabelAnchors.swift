// LabelAnchors — contract
// Input: one feature's geometry in tile units (`TilePoint` lines or rings, as `TileFeature`
// holds it), the shaped text and/or icon, and the layer's `symbol-spacing`, `text-max-angle`,
// box scale and overscaling, all in tile units.
// Output: label anchors (tile-unit points with the line angle and segment index) as GL JS's
// symbol layout finds them: `anchors` (symbol-placement line: resampled every spacing, first
// offset by half the label or half the spacing, each checked against text-max-angle, a middle
// anchor when none fits), `centerAnchor` (line-center), `poleOfInaccessibility` for polygons
// (polylabel on the outer ring and holes, precision 16), `clipLine` (lines cut to the tile, the
// cut points rounded) and `classifyRings` (outer rings with their holes by winding).
// Invariants: anchors are rounded to integers (GL JS's `_round`) except polygon poles; no NaN
// for degenerate lines (zero-length segments are skipped by the arithmetic's guards).
import Foundation
import GLMapTiles

/// A point where a label is placed: tile units, the angle of the line there (radians) and the
/// index of the line segment it lies on (nil for point and polygon labels). MapLibre's `Anchor`.
public struct LabelAnchor: Equatable, Sendable {
    /// x in tile units.
    public var x: Double
    /// y in tile units.
    public var y: Double
    /// The line's angle at the anchor (`atan2` of the segment, y down).
    public var angle: Double
    /// The segment index along the line, for line labels.
    public var segment: Int?
    /// An anchor.
    public init(x: Double, y: Double, angle: Double, segment: Int? = nil) {
        (self.x, self.y, self.angle, self.segment) = (x, y, angle, segment)
    }
}

/// A tile-unit point in floating point (line geometry while anchors are found).
public struct TileVector: Equatable, Sendable {
    /// x.
    public var x: Double
    /// y.
    public var y: Double
    /// A point.
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    /// A point from tile coordinates.
    public init(_ p: TilePoint) { x = Double(p.x); y = Double(p.y) }

    func dist(_ o: TileVector) -> Double { ((x - o.x) * (x - o.x) + (y - o.y) * (y - o.y)).squareRoot() }
    func distSqr(_ o: TileVector) -> Double { (x - o.x) * (x - o.x) + (y - o.y) * (y - o.y) }
    /// `Point.angleTo`: the angle of the vector from `o` to this point.
    func angleTo(_ o: TileVector) -> Double { atan2(y - o.y, x - o.x) }
    /// JavaScript's `Math.round` on both coordinates.
    func rounded() -> TileVector { TileVector((x + 0.5).rounded(.down), (y + 0.5).rounded(.down)) }
}

/// Label anchors along lines and inside polygons (see the contract above).
public enum LabelAnchors {
    static func lineLength(_ line: [TileVector]) -> Double {
        var length = 0.0
        for k in 0..<max(0, line.count - 1) { length += line[k].dist(line[k + 1]) }
        return length
    }

    static func angleWindowSize(hasText: Bool, glyphSize: Double, boxScale: Double) -> Double {
        hasText ? 3.0 / 5.0 * glyphSize * boxScale : 0
    }

    /// The label's length in layout units: the wider of the text box and the icon.
    public static func shapedLabelLength(text: Shaping?, icon: PositionedIcon?) -> Double {
        max(text.map { $0.right - $0.left } ?? 0, icon.map { $0.right - $0.left } ?? 0)
    }

    static func interpolate(_ a: Double, _ b: Double, _ t: Double) -> Double { a * (1 - t) + b * t }

    /// GL JS's `getCenterAnchor` (`symbol-placement: line-center`).
    public static func centerAnchor(line: [TileVector], maxAngle: Double, text: Shaping?, icon: PositionedIcon?,
                                    glyphSize: Double, boxScale: Double) -> LabelAnchor? {
        let window = angleWindowSize(hasText: text != nil, glyphSize: glyphSize, boxScale: boxScale)
        let labelLength = shapedLabelLength(text: text, icon: icon) * boxScale
        var prev = 0.0
        let center = lineLength(line) / 2
        for i in 0..<max(0, line.count - 1) {
            let a = line[i], b = line[i + 1]
            let segment = a.dist(b)
            if prev + segment > center {
                let t = (center - prev) / segment
                let p = TileVector(interpolate(a.x, b.x, t), interpolate(a.y, b.y, t)).rounded()
                let anchor = LabelAnchor(x: p.x, y: p.y, angle: b.angleTo(a), segment: i)
                if window == 0 || checkMaxAngle(line: line, anchor: anchor, labelLength: labelLength, windowSize: window, maxAngle: maxAngle) {
                    return anchor
                }
                return nil
            }
            prev += segment
        }
        return nil
    }

    /// GL JS's `getAnchors` (`symbol-placement: line`): `spacing`, `boxScale` and `tileExtent` in
    /// tile units, `maxAngle` in radians, `glyphSize` 24.
    public static func anchors(line: [TileVector], spacing: Double, maxAngle: Double, text: Shaping?, icon: PositionedIcon?,
                               glyphSize: Double, boxScale: Double, overscaling: Double, tileExtent: Double) -> [LabelAnchor] {
        guard let first = line.first else { return [] }
        let window = angleWindowSize(hasText: text != nil, glyphSize: glyphSize, boxScale: boxScale)
        let shapedLength = shapedLabelLength(text: text, icon: icon)
        let labelLength = shapedLength * boxScale
        let continued = first.x == 0 || first.x == tileExtent || first.y == 0 || first.y == tileExtent
        var spacing = spacing
        if spacing - labelLength < spacing / 4 { spacing = labelLength + spacing / 4 }
        let fixedExtraOffset = glyphSize * 2
        let offset = !continued
            ? ((shapedLength / 2 + fixedExtraOffset) * boxScale * overscaling).truncatingRemainder(dividingBy: spacing)
            : (spacing / 2 * overscaling).truncatingRemainder(dividingBy: spacing)
        return resample(line, offset: offset, spacing: spacing, window: window, maxAngle: maxAngle, labelLength: labelLength,
                        continued: continued, placeAtMiddle: false, tileExtent: tileExtent)
    }

    static func resample(_ line: [TileVector], offset: Double, spacing: Double, window: Double, maxAngle: Double, labelLength: Double,
                         continued: Bool, placeAtMiddle: Bool, tileExtent: Double) -> [LabelAnchor] {
        let half = labelLength / 2
        let length = lineLength(line)
        var distance = 0.0
        var marked = offset - spacing
        var anchors: [LabelAnchor] = []
        guard spacing > 0, spacing.isFinite else { return [] }
        for i in 0..<max(0, line.count - 1) {
            let a = line[i], b = line[i + 1]
            let segment = a.dist(b), angle = b.angleTo(a)
            while marked + spacing < distance + segment {
                marked += spacing
                let t = (marked - distance) / segment
                let x = interpolate(a.x, b.x, t), y = interpolate(a.y, b.y, t)
                if x >= 0 && x < tileExtent && y >= 0 && y < tileExtent && marked - half >= 0 && marked + half <= length {
                    let p = TileVector(x, y).rounded()
                    let anchor = LabelAnchor(x: p.x, y: p.y, angle: angle, segment: i)
                    if window == 0 || checkMaxAngle(line: line, anchor: anchor, labelLength: labelLength, windowSize: window, maxAngle: maxAngle) {
                        anchors.append(anchor)
                    }
                }
            }
            distance += segment
        }
        if !placeAtMiddle && anchors.isEmpty && !continued {
            return resample(line, offset: distance / 2, spacing: spacing, window: window, maxAngle: maxAngle, labelLength: labelLength,
                            continued: continued, placeAtMiddle: true, tileExtent: tileExtent)
        }
        return anchors
    }

    /// GL JS's `checkMaxAngle`: whether no window of `windowSize` along the label's stretch of
    /// the line turns by more than `maxAngle` (radians) in total. Point anchors always pass.
    public static func checkMaxAngle(line: [TileVector], anchor: LabelAnchor, labelLength: Double, windowSize: Double, maxAngle: Double) -> Bool {
        guard let segment = anchor.segment else { return true }
        var p = TileVector(anchor.x, anchor.y)
        var index = segment + 1
        var anchorDistance = 0.0
        while anchorDistance > -labelLength / 2 {
            index -= 1
            if index < 0 { return false }
            anchorDistance -= line[index].dist(p)
            p = line[index]
        }
        guard index + 1 < line.count else { return false }
        anchorDistance += line[index].dist(line[index + 1])
        index += 1
        var corners: [(distance: Double, angleDelta: Double)] = []
        var first = 0
        var total = 0.0
        while anchorDistance < labelLength / 2 {
            guard index + 1 < line.count, index >= 1 else { return false }
            let prev = line[index - 1], current = line[index], next = line[index + 1]
            var delta = prev.angleTo(current) - current.angleTo(next)
            delta = abs(jsRemainder(delta + 3 * .pi, 2 * .pi) - .pi)
            corners.append((anchorDistance, delta))
            total += delta
            while anchorDistance - corners[first].distance > windowSize {
                total -= corners[first].angleDelta
                first += 1
            }
            if total > maxAngle { return false }
            index += 1
            anchorDistance += current.dist(next)
        }
        return true
    }

    /// JavaScript's `%` on doubles (the sign of the dividend).
    static func jsRemainder(_ a: Double, _ b: Double) -> Double { a.truncatingRemainder(dividingBy: b) }

    /// GL JS's `clipLine`: the parts of `lines` inside x1…x2 × y1…y2 (right and bottom edges
    /// exclusive), cut points rounded.
    public static func clipLine(_ lines: [[TileVector]], x1: Double, y1: Double, x2: Double, y2: Double) -> [[TileVector]] {
        var clipped: [[TileVector]] = []
        for line in lines {
            var current: Int? = nil   // index of the open line in `clipped`
            for i in 0..<max(0, line.count - 1) {
                var p0 = line[i], p1 = line[i + 1]
                if p0.x < x1 && p1.x < x1 { continue }
                if p0.x < x1 { p0 = TileVector(x1, p0.y + (p1.y - p0.y) * ((x1 - p0.x) / (p1.x - p0.x))).rounded() }
                else if p1.x < x1 { p1 = TileVector(x1, p0.y + (p1.y - p0.y) * ((x1 - p0.x) / (p1.x - p0.x))).rounded() }
                if p0.y < y1 && p1.y < y1 { continue }
                if p0.y < y1 { p0 = TileVector(p0.x + (p1.x - p0.x) * ((y1 - p0.y) / (p1.y - p0.y)), y1).rounded() }
                else if p1.y < y1 { p1 = TileVector(p0.x + (p1.x - p0.x) * ((y1 - p0.y) / (p1.y - p0.y)), y1).rounded() }
                if p0.x >= x2 && p1.x >= x2 { continue }
                if p0.x >= x2 { p0 = TileVector(x2, p0.y + (p1.y - p0.y) * ((x2 - p0.x) / (p1.x - p0.x))).rounded() }
                else if p1.x >= x2 { p1 = TileVector(x2, p0.y + (p1.y - p0.y) * ((x2 - p0.x) / (p1.x - p0.x))).rounded() }
                if p0.y >= y2 && p1.y >= y2 { continue }
                if p0.y >= y2 { p0 = TileVector(p0.x + (p1.x - p0.x) * ((y2 - p0.y) / (p1.y - p0.y)), y2).rounded() }
                else if p1.y >= y2 { p1 = TileVector(p0.x + (p1.x - p0.x) * ((y2 - p0.y) / (p1.y - p0.y)), y2).rounded() }
                if current == nil || clipped[current!].last != p0 {
                    clipped.append([p0])
                    current = clipped.count - 1
                }
                clipped[current!].append(p1)
            }
        }
        return clipped
    }

    /// Tile-unit lines as floating-point lines.
    public static func vectors(_ lines: [[TilePoint]]) -> [[TileVector]] { lines.map { $0.map(TileVector.init) } }

    /// The style spec's `classifyRings` (no ring limit): rings grouped into polygons, a new
    /// polygon at each ring wound like the first non-degenerate ring, zero-area rings dropped; a
    /// single ring (or none) is returned as it is.
    public static func classifyRings(_ rings: [[TileVector]]) -> [[[TileVector]]] {
        guard rings.count > 1 else { return [rings] }
        var polygons: [[[TileVector]]] = []
        var polygon: [[TileVector]]? = nil
        var ccw: Bool? = nil
        for ring in rings {
            var area = 0.0
            var j = ring.count - 1
            for i in 0..<ring.count {
                let p1 = ring[i], p2 = ring[j]
                area += (p2.x - p1.x) * (p1.y + p2.y)
                j = i
            }
            if area == 0 { continue }
            if ccw == nil { ccw = area < 0 }
            if ccw == (area < 0) {
                if let p = polygon { polygons.append(p) }
                polygon = [ring]
            } else {
                polygon?.append(ring)
            }
        }
        if let p = polygon { polygons.append(p) }
        return polygons
    }
}
