// CollisionIndex — contract
// Input: the view, then per symbol its collision box (tile units, relative to the anchor) or its
// line label's collision circles (from the glyphs projected along the line), with the tile's
// matrix, the text/icon scale and alignment. Output: GL JS's `CollisionIndex` answers: the box's
// screen rectangle (viewport + 100 px padding on every side) or the circles, whether they fit
// (inside the grid, not behind the near field: perspective ratio ≥ 0.6, not hitting what an
// earlier symbol of a colliding group inserted, per overlap mode) and whether they are off screen;
// then `insert` records placed symbols in the grid (or the ignored grid for ignore-placement).
// Grid: 25-px cells over (width + 200) × (height + 200) CSS px.
import Foundation
import GLMapCore

/// What the collision grid stores per box or circle (GL JS's `FeatureKey`).
public struct CollisionKey: Sendable {
    /// The bucket (tile × layer) instance.
    public var bucket: Int
    /// The feature index.
    public var featureIndex: Int
    /// The collision group (one per source unless cross-source collisions are on: 0).
    public var group: Int
}

/// A placed box: screen rectangle (grid coordinates) and the verdicts.
public struct PlacedBox: Sendable {
    /// x1, y1, x2, y2 in grid coordinates (screen CSS px + 100).
    public var box: [Double]
    /// Whether it can be placed.
    public var placeable: Bool
    /// Whether it lies outside the viewport (in the padding).
    public var offscreen: Bool
}

/// Placed collision circles: x, y, radius, 0 per circle (grid coordinates).
public struct PlacedCircles: Sendable {
    /// The circles.
    public var circles: [Double]
    /// Whether all lie outside the viewport.
    public var offscreen: Bool
    /// Whether one hit an earlier symbol.
    public var collisionDetected: Bool
}

/// GL JS's collision index for one frame (see the contract above).
public struct CollisionIndex: Sendable {
    /// Padding around the viewport in CSS px.
    public static let viewportPadding = 100.0
    let view: SymbolView
    var grid: GridIndex<CollisionKey>
    var ignoredGrid: GridIndex<CollisionKey>
    let screenRightBoundary: Double, screenBottomBoundary: Double
    let gridRightBoundary: Double, gridBottomBoundary: Double
    /// Labels whose perspective ratio is below this are not placed (near the horizon).
    let perspectiveRatioCutoff = 0.6

    /// An empty index for `view`.
    public init(view: SymbolView) {
        self.view = view
        let pad = CollisionIndex.viewportPadding
        grid = GridIndex(width: view.width + 2 * pad, height: view.height + 2 * pad, cellSize: 25)
        ignoredGrid = GridIndex(width: view.width + 2 * pad, height: view.height + 2 * pad, cellSize: 25)
        screenRightBoundary = view.width + pad
        screenBottomBoundary = view.height + pad
        gridRightBoundary = view.width + 2 * pad
        gridBottomBoundary = view.height + 2 * pad
    }

    /// `projectAndGetPerspectiveRatio` (Mercator's fast path).
    func projectAndGetPerspectiveRatio(_ m: Matrix4, _ x: Double, _ y: Double) -> (x: Double, y: Double, perspectiveRatio: Double, w: Double) {
        let p = m.transform(x, y, 0)
        let w = p.w
        return ((p.x / w + 1) / 2 * view.width + CollisionIndex.viewportPadding,
                (-p.y / w + 1) / 2 * view.height + CollisionIndex.viewportPadding,
                0.5 + 0.5 * (view.cameraToCenterDistance / w), w)
    }

    func isOffscreen(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Bool {
        x2 < CollisionIndex.viewportPadding || x1 >= screenRightBoundary || y2 < CollisionIndex.viewportPadding || y1 > screenBottomBoundary
    }

    func isInsideGrid(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Bool {
        x2 >= 0 && x1 < gridRightBoundary && y2 >= 0 && y1 < gridBottomBoundary
    }

    /// GL JS's `placeCollisionBox`.
    public func placeCollisionBox(_ box: SymbolCollisionBox, overlap: OverlapMode, textPixelRatio: Double, posMatrix: Matrix4,
                                  tileOverscaledZ: Int, pitchWithMap: Bool, rotateWithMap: Bool, translation: (x: Double, y: Double),
                                  group: ((CollisionKey) -> Bool)?, shift: LabelPoint? = nil) -> PlacedBox {
        let x = box.anchorX + translation.x, y = box.anchorY + translation.y
        let projected = projectAndGetPerspectiveRatio(posMatrix, x, y)
        let tileToViewport = textPixelRatio * projected.perspectiveRatio
        var r: [Double]
        if !pitchWithMap && !rotateWithMap {
            let px = projected.x + (shift.map { $0.x * tileToViewport } ?? 0)
            let py = projected.y + (shift.map { $0.y * tileToViewport } ?? 0)
            r = [px + box.x1 * tileToViewport, py + box.y1 * tileToViewport, px + box.x2 * tileToViewport, py + box.y2 * tileToViewport]
        } else {
            r = projectCollisionBox(box, tileToViewport: tileToViewport, posMatrix: posMatrix, tileOverscaledZ: tileOverscaledZ,
                                    pitchWithMap: pitchWithMap, rotateWithMap: rotateWithMap, translation: translation,
                                    projected: projected, shift: shift)
        }
        let unplaceable = projected.perspectiveRatio < perspectiveRatioCutoff || !isInsideGrid(r[0], r[1], r[2], r[3])
        if unplaceable || (overlap != .always && grid.hitTest(x1: r[0], y1: r[1], x2: r[2], y2: r[3], overlap: overlap, predicate: group)) {
            return PlacedBox(box: r, placeable: false, offscreen: false)
        }
        return PlacedBox(box: r, placeable: true, offscreen: isOffscreen(r[0], r[1], r[2], r[3]))
    }

    /// GL JS's `_projectCollisionBox`: the box's eight edge points projected (rotated or pitched
    /// labels), their bounding rectangle.
    func projectCollisionBox(_ box: SymbolCollisionBox, tileToViewport: Double, posMatrix: Matrix4, tileOverscaledZ: Int,
                             pitchWithMap: Bool, rotateWithMap: Bool, translation: (x: Double, y: Double),
                             projected: (x: Double, y: Double, perspectiveRatio: Double, w: Double), shift: LabelPoint?) -> [Double] {
        var east = LabelPoint(1, 0), south = LabelPoint(0, 1)
        let ax = box.anchorX + translation.x, ay = box.anchorY + translation.y
        if rotateWithMap && !pitchWithMap {
            let e = projectAndGetPerspectiveRatio(posMatrix, ax + 1, ay)
            let toEastX = e.x - projected.x, toEastY = e.y - projected.y
            let angle = atan(toEastY / toEastX) + (toEastX < 0 ? .pi : 0)
            east = LabelPoint(cos(angle), sin(angle))
            south = LabelPoint(-sin(angle), cos(angle))
        } else if !rotateWithMap && pitchWithMap {
            (east, south) = view.skewVectors
        }
        var baseX = projected.x, baseY = projected.y
        var multiplier = tileToViewport
        if pitchWithMap {
            baseX = ax
            baseY = ay
            multiplier = pow(2, -(view.zoom - Double(tileOverscaledZ)))
            if shift == nil {
                let distanceRatio = projected.w / view.cameraToCenterDistance
                multiplier *= min(max(0.5 + 0.5 * distanceRatio, 0), 4)
            }
        }
        if let s = shift {
            baseX += east.x * s.x * multiplier + south.x * s.y * multiplier
            baseY += east.y * s.x * multiplier + south.y * s.y * multiplier
        }
        let xMin = box.x1 * multiplier, xMax = box.x2 * multiplier, xHalf = (xMin + xMax) / 2
        let yMin = box.y1 * multiplier, yMax = box.y2 * multiplier, yHalf = (yMin + yMax) / 2
        let offsets = [(xMin, yMin), (xHalf, yMin), (xMax, yMin), (xMax, yHalf), (xMax, yMax), (xHalf, yMax), (xMin, yMax), (xMin, yHalf)]
        var points = offsets.map { (o: (Double, Double)) in
            LabelPoint(baseX + east.x * o.0 + south.x * o.1, baseY + east.y * o.0 + south.y * o.1)
        }
        if pitchWithMap {
            points = points.map { p in let q = projectAndGetPerspectiveRatio(posMatrix, p.x, p.y); return LabelPoint(q.x, q.y) }
        }
        var lo = LabelPoint(.infinity, .infinity), hi = LabelPoint(-.infinity, -.infinity)
        for p in points {
            lo = LabelPoint(min(lo.x, p.x), min(lo.y, p.y))
            hi = LabelPoint(max(hi.x, p.x), max(hi.y, p.y))
        }
        return [lo.x, lo.y, hi.x, hi.y]
    }

    /// GL JS's `placeCollisionCircles`: circles along the label's projected path.
    func placeCollisionCircles(overlap: OverlapMode, symbol: PlacedSymbolRecord, layout: SymbolTileLayout, fontSize: Double,
                               posMatrix: Matrix4, labelPlaneMatrix: Matrix4, pitchWithMap: Bool, group: ((CollisionKey) -> Bool)?,
                               circlePixelDiameter: Double, textPixelPadding: Double, translation: (x: Double, y: Double),
                               showCollisionCircles: Bool = false) -> PlacedCircles {
        var placed: [Double] = []
        let anchor = LabelPoint(symbol.anchorX, symbol.anchorY)
        let ratio = perspectiveRatio(view.cameraToCenterDistance, posMatrix.transform(anchor.x, anchor.y, 0).w)
        let labelPlaneFontSize = pitchWithMap ? fontSize / ratio : fontSize * ratio
        let fontScale = labelPlaneFontSize / GlyphConstants.oneEm
        var projection = LineProjection(posMatrix: posMatrix, labelPlaneMatrix: labelPlaneMatrix, pitchWithMap: pitchWithMap,
                                        width: view.width, height: view.height, translation: translation, tileAnchor: anchor,
                                        line: layout.lineVertices)
        let glyphs = layout.glyphOffsets[symbol.glyphStart..<(symbol.glyphStart + symbol.numGlyphs)]
        let firstAndLast = projection.placeFirstAndLast(fontScale: fontScale, glyphOffsets: glyphs, lineOffsetX: symbol.lineOffsetX * fontScale,
                                                        lineOffsetY: symbol.lineOffsetY * fontScale, flip: false, symbol: symbol, rotateToLine: false)
        var collisionDetected = false, inGrid = false, entirelyOffscreen = true
        let pad = CollisionIndex.viewportPadding
        if let fl = firstAndLast {
            let radius = circlePixelDiameter * 0.5 * ratio + textPixelPadding
            var path: [LabelPoint] = []
            for i in stride(from: fl.first.path.count - 1, through: 1, by: -1) { path.append(fl.first.path[i]) }
            for i in stride(from: 1, to: fl.last.path.count, by: 1) { path.append(fl.last.path[i]) }
            let circleDist = radius * 2.5
            if pitchWithMap {
                let inverse = labelPlaneMatrix.inverted ?? .identity
                var screen: [LabelPoint] = []
                var behind = false
                for p in path {
                    let back = project(p.x, p.y, inverse).point
                    let q = project(back.x, back.y, posMatrix)
                    if q.signedDistanceFromCamera <= 0 { behind = true }
                    screen.append(LabelPoint((q.point.x * 0.5 + 0.5) * view.width, (-q.point.y * 0.5 + 0.5) * view.height))
                }
                path = behind ? [] : screen
            }
            var segments: [[LabelPoint]] = []
            if !path.isEmpty {
                var lo = path[0], hi = path[0]
                for p in path.dropFirst() {
                    lo = LabelPoint(min(lo.x, p.x), min(lo.y, p.y))
                    hi = LabelPoint(max(hi.x, p.x), max(hi.y, p.y))
                }
                if lo.x >= -pad && hi.x <= screenRightBoundary && lo.y >= -pad && hi.y <= screenBottomBoundary {
                    segments = [path]
                } else if hi.x < -pad || lo.x > screenRightBoundary || hi.y < -pad || lo.y > screenBottomBoundary {
                    segments = []
                } else {
                    segments = LabelAnchors.clipLine([path.map { TileVector($0.x, $0.y) }], x1: -pad, y1: -pad,
                                                     x2: screenRightBoundary, y2: screenBottomBoundary).map { $0.map { LabelPoint($0.x, $0.y) } }
                }
            }
            for seg in segments {
                let interpolator = PathInterpolator(seg, padding: radius * 0.25)
                let numCircles = interpolator.length <= 0.5 * radius ? 1 : Int((interpolator.paddedLength / circleDist).rounded(.up)) + 1
                for i in 0..<numCircles {
                    let t = Double(i) / Double(max(numCircles - 1, 1))
                    let c = interpolator.lerp(t)
                    let cx = c.x + pad, cy = c.y + pad
                    placed += [cx, cy, radius, 0]
                    let x1 = cx - radius, y1 = cy - radius, x2 = cx + radius, y2 = cy + radius
                    entirelyOffscreen = entirelyOffscreen && isOffscreen(x1, y1, x2, y2)
                    inGrid = inGrid || isInsideGrid(x1, y1, x2, y2)
                    if overlap != .always && grid.hitTestCircle(x: cx, y: cy, radius: radius, overlap: overlap, predicate: group) {
                        collisionDetected = true
                        // The debug overlay shows every circle, so it keeps going.
                        if !showCollisionCircles { return PlacedCircles(circles: [], offscreen: false, collisionDetected: true) }
                    }
                }
            }
        }
        return PlacedCircles(circles: ((!showCollisionCircles && collisionDetected) || !inGrid || ratio < perspectiveRatioCutoff) ? [] : placed,
                             offscreen: entirelyOffscreen, collisionDetected: collisionDetected)
    }

    /// GL JS's `insertCollisionBox`.
    public mutating func insertCollisionBox(_ box: [Double], overlap: OverlapMode, ignorePlacement: Bool, key: CollisionKey) {
        if ignorePlacement {
            ignoredGrid.insert(key, overlap: overlap, x1: box[0], y1: box[1], x2: box[2], y2: box[3])
        } else {
            grid.insert(key, overlap: overlap, x1: box[0], y1: box[1], x2: box[2], y2: box[3])
        }
    }

    /// GL JS's `insertCollisionCircles`.
    public mutating func insertCollisionCircles(_ circles: [Double], overlap: OverlapMode, ignorePlacement: Bool, key: CollisionKey) {
        var k = 0
        while k + 2 < circles.count {
            if ignorePlacement {
                ignoredGrid.insertCircle(key, overlap: overlap, x: circles[k], y: circles[k + 1], radius: circles[k + 2])
            } else {
                grid.insertCircle(key, overlap: overlap, x: circles[k], y: circles[k + 1], radius: circles[k + 2])
            }
            k += 4
        }
    }
}

/// GL JS's `PathInterpolator`: points at fractions of a polyline's length, padded at both ends.
struct PathInterpolator {
    let points: [LabelPoint]
    var distances: [Double] = [0]
    let length: Double
    let padding: Double
    let paddedLength: Double

    init(_ points: [LabelPoint], padding: Double) {
        self.points = points
        for i in stride(from: 1, to: points.count, by: 1) { distances.append(distances[i - 1] + (points[i] - points[i - 1]).length) }
        length = distances[distances.count - 1]
        self.padding = min(padding, length * 0.5)
        paddedLength = length - self.padding * 2
    }

    func lerp(_ t: Double) -> LabelPoint {
        if points.count == 1 { return points[0] }
        let t = min(max(t, 0), 1)
        var current = 1
        var distCurrent = distances[current]
        let target = t * paddedLength + padding
        while distCurrent < target && current < distances.count - 1 {
            current += 1
            distCurrent = distances[current]
        }
        let prev = current - 1
        let segmentLength = distCurrent - distances[prev]
        let segmentT = segmentLength > 0 ? (target - distances[prev]) / segmentLength : 0
        return points[prev] * (1 - segmentT) + points[current] * segmentT
    }
}
