import Foundation

/// What a label occupies for collision detection (MapLibre's `CollisionFeature`): one box for a
/// point-placed label, or — for a label along a line — the diameter of the circles placement
/// strings along it.
public struct CollisionFeature: Equatable, Sendable {
    /// A collision box relative to the anchor, in tile units (box scale applied, padding added).
    public struct Box: Equatable, Sendable {
        /// The anchor, tile units.
        public var anchorX: Double
        /// The anchor, tile units.
        public var anchorY: Double
        /// Left edge relative to the anchor.
        public var x1: Double
        /// Top edge.
        public var y1: Double
        /// Right edge.
        public var x2: Double
        /// Bottom edge.
        public var y2: Double
    }

    /// The box of a point label; nil along lines.
    public var box: Box?
    /// Along lines: the label's height in layout units (at least 10), nil when it has none.
    public var circleDiameter: Double?

    /// Padding in CSS order (top, right, bottom, left), tile units.
    public typealias Padding = (top: Double, right: Double, bottom: Double, left: Double)

    /// The collision feature of shaped text at `anchor`.
    public init(anchor: LabelAnchor, text: Shaping, boxScale: Double, padding: Padding, alignLine: Bool, rotate: Double) {
        self.init(anchor: anchor, top: text.top, bottom: text.bottom, left: text.left, right: text.right, collisionPadding: nil,
                  boxScale: boxScale, padding: padding, alignLine: alignLine, rotate: rotate)
    }

    /// The collision feature of an icon at `anchor` (its `collisionPadding` from icon-text-fit included).
    public init(anchor: LabelAnchor, icon: PositionedIcon, boxScale: Double, padding: Padding, alignLine: Bool, rotate: Double) {
        self.init(anchor: anchor, top: icon.top, bottom: icon.bottom, left: icon.left, right: icon.right,
                  collisionPadding: icon.collisionPadding, boxScale: boxScale, padding: padding, alignLine: alignLine, rotate: rotate)
    }

    init(anchor: LabelAnchor, top: Double, bottom: Double, left: Double, right: Double,
         collisionPadding: (top: Double, right: Double, bottom: Double, left: Double)?,
         boxScale: Double, padding: Padding, alignLine: Bool, rotate: Double) {
        if alignLine {
            var t = top, b = bottom
            if let c = collisionPadding {
                t -= c.top
                b += c.bottom
            }
            let height = b - t
            box = nil
            circleDiameter = height > 0 ? max(10, height) : nil
            return
        }
        var y1 = top * boxScale - padding.top
        var y2 = bottom * boxScale + padding.bottom
        var x1 = left * boxScale - padding.left
        var x2 = right * boxScale + padding.right
        if let c = collisionPadding {
            x1 -= c.left * boxScale
            y1 -= c.top * boxScale
            x2 += c.right * boxScale
            y2 += c.bottom * boxScale
        }
        if rotate != 0 {
            let r = rotate * .pi / 180
            let corners = [QuadPoint(x1, y1), QuadPoint(x2, y1), QuadPoint(x1, y2), QuadPoint(x2, y2)]
                .map { $0.rotated(sin: sin(r), cos: cos(r)) }
            x1 = corners.map(\.x).min()!
            x2 = corners.map(\.x).max()!
            y1 = corners.map(\.y).min()!
            y2 = corners.map(\.y).max()!
        }
        box = Box(anchorX: anchor.x, anchorY: anchor.y, x1: x1, y1: y1, x2: x2, y2: y2)
        circleDiameter = nil
    }

    /// Whether two features are the same.
    public static func == (a: CollisionFeature, b: CollisionFeature) -> Bool { a.box == b.box && a.circleDiameter == b.circleDiameter }
}

