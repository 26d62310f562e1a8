// SymbolProjection — contract
// Input: a view (GLMapCore's `ViewTransform`: CSS-pixel viewport, MapLibre's projection matrix),
// one tile's matrix (tile units → clip space, unfolded), a symbol's line vertices and glyph
// offsets (`SymbolTileLayout`). Output: what GL JS's `projection.ts` computes on the CPU: the
// label-plane matrices (`pitchedLabelPlaneMatrix`, `glCoordMatrix`), tile → label plane and clip
// projections, and glyphs placed along their projected line (first and last glyph, the path
// between them, per-glyph positions and angles, flipping for keep-upright, vertical switching).
// The label plane is screen CSS pixels for viewport-pitched labels and the tile plane rotated
// and scaled to CSS pixels for map-pitched ones. Used by placement (collision circles) and by
// both renderers' per-frame glyph positions — data, no rasterizing.
// Invariants: a vertex behind the camera is replaced by a point along its segment far enough to
// hold the glyph (GL JS's synthetic vertex); a label that does not fit its line gives nil.
import Foundation
import GLMapCore
import GLMapTiles

/// A 2-D point in a label plane.
public struct LabelPoint: Equatable, Sendable {
    /// x.
    public var x: Double
    /// y.
    public var y: Double
    /// A point.
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }

    @inline(__always) static func + (a: LabelPoint, b: LabelPoint) -> LabelPoint { LabelPoint(a.x + b.x, a.y + b.y) }
    @inline(__always) static func - (a: LabelPoint, b: LabelPoint) -> LabelPoint { LabelPoint(a.x - b.x, a.y - b.y) }
    @inline(__always) static func * (a: LabelPoint, k: Double) -> LabelPoint { LabelPoint(a.x * k, a.y * k) }
    var length: Double { (x * x + y * y).squareRoot() }
    var unit: LabelPoint { let l = length; return LabelPoint(x / l, y / l) }
    /// `Point.perp`: (−y, x).
    var perp: LabelPoint { LabelPoint(-y, x) }
    /// `Point.rotate(angle)`.
    func rotated(_ a: Double) -> LabelPoint {
        let c = cos(a), s = sin(a)
        return LabelPoint(c * x - s * y, s * x + c * y)
    }
}

/// A point projected with its perspective divisor.
public struct ProjectedPoint: Sendable {
    /// The projected point (clip space or label plane).
    public var point: LabelPoint
    /// The homogeneous w (distance from the camera; ≤ 0 behind it).
    public var signedDistanceFromCamera: Double
}

/// The view-wide values symbol projection reads (GL JS's transform, Mercator only).
public struct SymbolView: Sendable {
    /// The view.
    public let view: ViewTransform
    /// Viewport width, CSS px.
    public var width: Double { view.width }
    /// Viewport height, CSS px.
    public var height: Double { view.height }
    /// Bearing in radians (clockwise).
    public let bearingInRadians: Double
    /// Pitch in radians.
    public let pitchInRadians: Double
    /// The camera's distance to the centre, CSS px.
    public var cameraToCenterDistance: Double { view.cameraToCenterDistance }
    /// Zoom.
    public var zoom: Double { view.camera.zoom }
    /// Screen CSS px (y down) → clip space.
    public let pixelsToClipSpaceMatrix: Matrix4
    /// Clip space → screen CSS px.
    public let clipSpaceToPixelsMatrix: Matrix4

    /// The values of `view`.
    public init(_ view: ViewTransform) {
        self.view = view
        bearingInRadians = view.camera.bearing * .pi / 180
        pitchInRadians = view.camera.pitch * .pi / 180
        pixelsToClipSpaceMatrix = Matrix4.scale(1, -1, 1) * Matrix4.translation(-1, -1, 0) * Matrix4.scale(2 / view.width, 2 / view.height, 1)
        clipSpaceToPixelsMatrix = Matrix4.scale(view.width / 2, -view.height / 2, 1) * Matrix4.translation(1, -1, 0)
    }

    /// The matrix from `tile`'s units to clip space (world copy included, no clip fold).
    public func tileMatrix(_ tile: OverscaledTileID) -> Matrix4 {
        let scale = view.worldSize / Double(tile.canonical.tilesPerSide)
        let e = Double(TileExtent.extent)
        return view.projectionMatrix * Matrix4.translation(Double(tile.unwrappedX) * scale, Double(tile.canonical.y) * scale, 0)
            * Matrix4.scale(scale / e, scale / e, 1)
    }

    /// Tile units per CSS pixel of `tile` at the view's zoom (GL JS's `pixelsToTileUnits(tile, 1, zoom)`).
    public func pixelsToTileUnits(_ tile: OverscaledTileID) -> Double {
        Double(TileExtent.extent) / (512 * tile.overscaleFactor * exp2(zoom - Double(tile.overscaledZ)))
    }

    /// GL JS's `getTileSkewVectors` (no roll): the map's east and south as unit screen vectors.
    public var skewVectors: (east: LabelPoint, south: LabelPoint) {
        let cosPitch = cos(pitchInRadians), cosBearing = cos(bearingInRadians), sinBearing = sin(bearingInRadians)
        var south = LabelPoint(-sinBearing, cosBearing)
        var east = LabelPoint(cosBearing * cosPitch, sinBearing * cosPitch)
        south = south.length < 1e-9 ? LabelPoint(0, 0) : south * (1 / south.length)
        east = east.length < 1e-9 ? LabelPoint(0, 0) : east * (1 / east.length)
        return (east, south)
    }

    /// GL JS's `getPitchedLabelPlaneMatrix`: tile units → the map-pitched label plane (CSS px,
    /// turned with the viewport when labels do not rotate with the map).
    public func pitchedLabelPlaneMatrix(rotateWithMap: Bool, pixelsToTileUnits s: Double) -> Matrix4 {
        var m = Matrix4.identity
        if !rotateWithMap {
            let (east, south) = skewVectors
            let det = east.x * south.y - south.x * east.y
            if det != 0 {
                m.m[0] = south.y / det
                m.m[1] = -east.y / det
                m.m[4] = -south.x / det
                m.m[5] = east.x / det
            }
        }
        return m * Matrix4.scale(1 / s, 1 / s, 1)
    }

    /// GL JS's `getGlCoordMatrix`: the map-pitched label plane → tile units, or screen px → clip.
    public func glCoordMatrix(pitchWithMap: Bool, rotateWithMap: Bool, pixelsToTileUnits s: Double) -> Matrix4 {
        guard pitchWithMap else { return pixelsToClipSpaceMatrix }
        var m = Matrix4.identity
        if !rotateWithMap {
            let (east, south) = skewVectors
            m.m[0] = east.x
            m.m[1] = east.y
            m.m[4] = south.x
            m.m[5] = south.y
        }
        return m * Matrix4.scale(s, s, 1)
    }
}

/// `(x, y, 0, 1)` through `m` with the perspective divide (GL JS's `projectWithMatrix`).
@inline(__always)
func project(_ x: Double, _ y: Double, _ m: Matrix4) -> ProjectedPoint {
    let p = m.transform(x, y, 0)
    return ProjectedPoint(point: LabelPoint(p.x / p.w, p.y / p.w), signedDistanceFromCamera: p.w)
}

/// GL JS's `getPerspectiveRatio`.
@inline(__always)
func perspectiveRatio(_ cameraToCenterDistance: Double, _ signedDistance: Double) -> Double {
    0.5 + 0.5 * (cameraToCenterDistance / signedDistance)
}

/// One glyph placed along its line: label-plane point, angle and the path walked to it.
struct PlacedGlyph {
    var point: LabelPoint
    var angle: Double
    var path: [LabelPoint]
}

/// GL JS's `SymbolProjectionContext` with its projection cache, for one symbol.
struct LineProjection {
    let posMatrix: Matrix4
    let labelPlaneMatrix: Matrix4
    let pitchWithMap: Bool
    let width: Double, height: Double
    let translation: (x: Double, y: Double)
    let tileAnchor: LabelPoint
    let line: [SymbolLineVertex]
    var projections: [Int: LabelPoint] = [:]
    var offsets: [Int: LabelPoint] = [:]
    var cachedAnchor: LabelPoint?

    init(posMatrix: Matrix4, labelPlaneMatrix: Matrix4, pitchWithMap: Bool, width: Double, height: Double,
         translation: (x: Double, y: Double), tileAnchor: LabelPoint, line: [SymbolLineVertex]) {
        (self.posMatrix, self.labelPlaneMatrix, self.pitchWithMap) = (posMatrix, labelPlaneMatrix, pitchWithMap)
        (self.width, self.height, self.translation, self.tileAnchor) = (width, height, translation, tileAnchor)
        self.line = line
    }

    /// `projectTileCoordinatesToLabelPlane`.
    func toLabelPlane(_ x: Double, _ y: Double) -> ProjectedPoint {
        let tx = x + translation.x, ty = y + translation.y
        if pitchWithMap { return project(tx, ty, labelPlaneMatrix) }
        var p = project(tx, ty, posMatrix)
        p.point = LabelPoint((p.point.x * 0.5 + 0.5) * width, (-p.point.y * 0.5 + 0.5) * height)
        return p
    }

    /// `projectFromLabelPlaneToClipSpace`.
    func labelPlaneToClip(_ p: LabelPoint, inverse: Matrix4) -> LabelPoint {
        if pitchWithMap {
            let q = inverse.transform(p.x, p.y, 0)
            return project(q.x / q.w, q.y / q.w, posMatrix).point
        }
        return LabelPoint(p.x / width * 2 - 1, 1 - p.y / height * 2)
    }

    /// `projectTruncatedLineSegmentToLabelPlane`.
    func truncatedSegment(_ previousTile: LabelPoint, _ currentTile: LabelPoint, _ previousProjected: LabelPoint, _ minimumLength: Double) -> LabelPoint {
        let unitVertex = previousTile + (previousTile - currentTile).unit
        let projectedUnit = toLabelPlane(unitVertex.x, unitVertex.y).point
        let segment = previousProjected - projectedUnit
        return previousProjected + segment * (minimumLength / segment.length)
    }

    /// `projectLineVertexToLabelPlane`.
    mutating func vertex(_ index: Int, distanceFromAnchor: Double, previousVertex: LabelPoint, direction: Int, absOffsetX: Double) -> LabelPoint {
        if let p = projections[index] { return p }
        let v = line[index]
        let current = LabelPoint(v.x, v.y)
        let p = toLabelPlane(v.x, v.y)
        if p.signedDistanceFromCamera > 0 {
            projections[index] = p.point
            return p.point
        }
        let previousIndex = index - direction
        let previousTile = distanceFromAnchor == 0 ? tileAnchor : LabelPoint(line[previousIndex].x, line[previousIndex].y)
        return truncatedSegment(previousTile, current, previousVertex, absOffsetX - distanceFromAnchor + 1)
    }

    /// `findOffsetIntersectionPoint`.
    mutating func offsetIntersection(_ index: Int, _ prevToCurrentNormal: LabelPoint, _ current: LabelPoint, lineStart: Int, lineEnd: Int,
                                     offsetPrevious: LabelPoint, lineOffsetY: Double, distanceFromAnchor: Double, previousVertex: LabelPoint,
                                     direction: Int, absOffsetX: Double) -> LabelPoint {
        if let o = offsets[index] { return o }
        let offsetCurrent = current + prevToCurrentNormal
        if index + direction < lineStart || index + direction >= lineEnd {
            offsets[index] = offsetCurrent
            return offsetCurrent
        }
        let next = vertex(index + direction, distanceFromAnchor: distanceFromAnchor, previousVertex: previousVertex, direction: direction, absOffsetX: absOffsetX)
        let normal = LineProjection.offsetNormal(next - current, lineOffsetY, direction)
        let begin = current + normal, end = next + normal
        let r = LineProjection.intersection(offsetPrevious, offsetCurrent, begin, end) ?? offsetCurrent
        offsets[index] = r
        return r
    }

    /// `transformToOffsetNormal`.
    static func offsetNormal(_ segment: LabelPoint, _ offset: Double, _ direction: Int) -> LabelPoint {
        segment.unit.perp * (offset * Double(direction))
    }

    /// GL JS's `findLineIntersection` (nil for parallel lines).
    static func intersection(_ a1: LabelPoint, _ a2: LabelPoint, _ b1: LabelPoint, _ b2: LabelPoint) -> LabelPoint? {
        let aDX = a2.x - a1.x, aDY = a2.y - a1.y, bDX = b2.x - b1.x, bDY = b2.y - b1.y
        let denominator = bDY * aDX - bDX * aDY
        if denominator == 0 { return nil }
        let originDX = a1.x - b1.x, originDY = a1.y - b1.y
        let aInterpolation = (bDX * originDY - bDY * originDX) / denominator
        return LabelPoint(a1.x + aInterpolation * aDX, a1.y + aInterpolation * aDY)
    }

    /// `placeGlyphAlongLine`: the glyph `offsetX` along the line from the anchor (label plane).
    mutating func placeGlyph(offsetX: Double, lineOffsetX: Double, lineOffsetY: Double, flip: Bool, anchorSegment: Int,
                             lineStart: Int, lineEnd: Int, rotateToLine: Bool) -> PlacedGlyph? {
        let combinedOffsetX = flip ? offsetX - lineOffsetX : offsetX + lineOffsetX
        var direction = combinedOffsetX > 0 ? 1 : -1
        var angle = 0.0
        if flip {
            direction *= -1
            angle = .pi
        }
        if direction < 0 { angle += .pi }
        var currentIndex = direction > 0 ? lineStart + anchorSegment : lineStart + anchorSegment + 1
        let anchorPoint: LabelPoint
        if let a = cachedAnchor { anchorPoint = a } else {
            anchorPoint = toLabelPlane(tileAnchor.x, tileAnchor.y).point
            cachedAnchor = anchorPoint
        }
        var current = anchorPoint, previous = anchorPoint
        var offsetIntersectionPoint: LabelPoint?
        var offsetPrevious: LabelPoint?
        var distanceFromAnchor = 0.0, currentSegmentDistance = 0.0
        let absOffsetX = abs(combinedOffsetX)
        var path: [LabelPoint] = []
        var segment = LabelPoint(0, 0)
        while distanceFromAnchor + currentSegmentDistance <= absOffsetX {
            currentIndex += direction
            if currentIndex < lineStart || currentIndex >= lineEnd { return nil }
            distanceFromAnchor += currentSegmentDistance
            previous = current
            offsetPrevious = offsetIntersectionPoint
            current = vertex(currentIndex, distanceFromAnchor: distanceFromAnchor, previousVertex: previous, direction: direction, absOffsetX: absOffsetX)
            if lineOffsetY == 0 {
                path.append(previous)
                segment = current - previous
            } else {
                let prevToCurrent = current - previous
                let normal: LabelPoint
                if prevToCurrent.length == 0 {
                    let next = vertex(currentIndex + direction, distanceFromAnchor: distanceFromAnchor, previousVertex: previous,
                                      direction: direction, absOffsetX: absOffsetX)
                    normal = LineProjection.offsetNormal(next - current, lineOffsetY, direction)
                } else {
                    normal = LineProjection.offsetNormal(prevToCurrent, lineOffsetY, direction)
                }
                if offsetPrevious == nil { offsetPrevious = previous + normal }
                let oi = offsetIntersection(currentIndex, normal, current, lineStart: lineStart, lineEnd: lineEnd, offsetPrevious: offsetPrevious!,
                                            lineOffsetY: lineOffsetY, distanceFromAnchor: distanceFromAnchor, previousVertex: previous,
                                            direction: direction, absOffsetX: absOffsetX)
                offsetIntersectionPoint = oi
                path.append(offsetPrevious!)
                segment = oi - offsetPrevious!
            }
            currentSegmentDistance = segment.length
        }
        let t = (absOffsetX - distanceFromAnchor) / currentSegmentDistance
        let p = segment * t + (offsetPrevious ?? previous)
        let segmentAngle = angle + atan2(current.y - previous.y, current.x - previous.x)
        path.append(p)
        return PlacedGlyph(point: p, angle: rotateToLine ? segmentAngle : 0, path: path)
    }

    /// `placeFirstAndLastGlyph`.
    mutating func placeFirstAndLast(fontScale: Double, glyphOffsets: ArraySlice<Double>, lineOffsetX: Double, lineOffsetY: Double,
                                    flip: Bool, symbol: PlacedSymbolRecord, rotateToLine: Bool) -> (first: PlacedGlyph, last: PlacedGlyph)? {
        guard let firstOffset = glyphOffsets.first, let lastOffset = glyphOffsets.last else { return nil }
        let lineEnd = symbol.lineStart + symbol.lineLength
        guard let first = placeGlyph(offsetX: fontScale * firstOffset, lineOffsetX: lineOffsetX, lineOffsetY: lineOffsetY, flip: flip,
                                     anchorSegment: symbol.segment, lineStart: symbol.lineStart, lineEnd: lineEnd, rotateToLine: rotateToLine),
              let last = placeGlyph(offsetX: fontScale * lastOffset, lineOffsetX: lineOffsetX, lineOffsetY: lineOffsetY, flip: flip,
                                    anchorSegment: symbol.segment, lineStart: symbol.lineStart, lineEnd: lineEnd, rotateToLine: rotateToLine)
        else { return nil }
        return (first, last)
    }
}

/// What `placeGlyphsAlongLine` decided for a line label.
enum GlyphLinePlacement {
    /// Every glyph placed (label-plane point and angle per glyph).
    case placed([(LabelPoint, Double)])
    /// The label does not fit the line.
    case notEnoughRoom
    /// Keep-upright wants the vertical shaping instead.
    case useVertical
    /// Keep-upright wants the label flipped.
    case needsFlipping
}

extension LineProjection {
    /// `requiresOrientationChange`.
    static func orientationChange(_ writingMode: WritingMode, _ first: LabelPoint, _ last: LabelPoint, aspectRatio: Double) -> GlyphLinePlacement? {
        if writingMode == .horizontal {
            let rise = abs(last.y - first.y)
            let run = abs(last.x - first.x) * aspectRatio
            if rise > run { return .useVertical }
        }
        if writingMode == .vertical ? first.y < last.y : first.x > last.x { return .needsFlipping }
        return nil
    }

    /// `placeGlyphsAlongLine`.
    mutating func placeGlyphs(symbol: PlacedSymbolRecord, glyphOffsets: ArraySlice<Double>, fontSize: Double, flip: Bool, keepUpright: Bool,
                              inverse: Matrix4, aspectRatio: Double, rotateToLine: Bool) -> GlyphLinePlacement {
        let fontScale = fontSize / 24
        let lineOffsetX = symbol.lineOffsetX * fontScale, lineOffsetY = symbol.lineOffsetY * fontScale
        let lineEnd = symbol.lineStart + symbol.lineLength
        var placed: [(LabelPoint, Double)] = []
        if symbol.numGlyphs > 1 {
            guard let fl = placeFirstAndLast(fontScale: fontScale, glyphOffsets: glyphOffsets, lineOffsetX: lineOffsetX, lineOffsetY: lineOffsetY,
                                             flip: flip, symbol: symbol, rotateToLine: rotateToLine) else { return .notEnoughRoom }
            let firstPoint = labelPlaneToClip(fl.first.point, inverse: inverse)
            let lastPoint = labelPlaneToClip(fl.last.point, inverse: inverse)
            if keepUpright && !flip, let change = LineProjection.orientationChange(symbol.writingMode, firstPoint, lastPoint, aspectRatio: aspectRatio) {
                return change
            }
            placed.append((fl.first.point, fl.first.angle))
            let offsets = Array(glyphOffsets)
            for i in 1..<(offsets.count - 1) {
                guard let g = placeGlyph(offsetX: fontScale * offsets[i], lineOffsetX: lineOffsetX, lineOffsetY: lineOffsetY, flip: flip,
                                         anchorSegment: symbol.segment, lineStart: symbol.lineStart, lineEnd: lineEnd, rotateToLine: rotateToLine)
                else { return .notEnoughRoom }
                placed.append((g.point, g.angle))
            }
            placed.append((fl.last.point, fl.last.angle))
        } else {
            guard let offset = glyphOffsets.first else { return .notEnoughRoom }
            if keepUpright && !flip {
                let a = toLabelPlane(tileAnchor.x, tileAnchor.y).point
                let endIndex = symbol.lineStart + symbol.segment + 1
                guard endIndex < line.count else { return .notEnoughRoom }
                let end = LabelPoint(line[endIndex].x, line[endIndex].y)
                let projectedEnd = toLabelPlane(end.x, end.y)
                let b = projectedEnd.signedDistanceFromCamera > 0 ? projectedEnd.point : truncatedSegment(tileAnchor, end, a, 1)
                let ca = labelPlaneToClip(a, inverse: inverse), cb = labelPlaneToClip(b, inverse: inverse)
                if let change = LineProjection.orientationChange(symbol.writingMode, ca, cb, aspectRatio: aspectRatio) { return change }
            }
            guard let g = placeGlyph(offsetX: fontScale * offset, lineOffsetX: lineOffsetX, lineOffsetY: lineOffsetY, flip: flip,
                                     anchorSegment: symbol.segment, lineStart: symbol.lineStart, lineEnd: lineEnd, rotateToLine: rotateToLine)
            else { return .notEnoughRoom }
            placed.append((g.point, g.angle))
        }
        return .placed(placed)
    }
}
