import Foundation

/// An axis-aligned box in unit-world coordinates.
public struct WorldBounds: Equatable, Sendable {
    /// Edges in unit-world coordinates (x east, y south; 0…1 on the primary world copy).
    public var minX, minY, maxX, maxY: Double
    /// A box from its edges.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }
    /// The empty box (extends with `add`).
    public static let empty = WorldBounds(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
    /// Whether nothing was added (min past max).
    public var isEmpty: Bool { minX > maxX }
    /// Extends the box to hold the point (x, y).
    public mutating func add(_ x: Double, _ y: Double) {
        if x < minX { minX = x }; if x > maxX { maxX = x }
        if y < minY { minY = y }; if y > maxY { maxY = y }
    }
    /// Extends the box to hold `other` (nothing when it is empty).
    public mutating func add(_ other: WorldBounds) {
        guard !other.isEmpty else { return }
        add(other.minX, other.minY); add(other.maxX, other.maxY)
    }
    /// Bounds of flat x,y coordinates.
    public mutating func add(flat coords: [Double]) {
        var i = 0
        while i + 1 < coords.count { add(coords[i], coords[i + 1]); i += 2 }
    }
}

/// World copies: at low zoom the map repeats side by side (MapLibre's `renderWorldCopies`).
/// Gives the matrices that place geometry of one copy on screen.
public enum WorldCopies {
    /// Unit-world x range of the ground visible in the viewport (pitch-aware).
    public static func visibleXRange(_ view: ViewTransform) -> (min: Double, max: Double) {
        guard let inv = view.projectionMatrix.inverted else { return (-1, 2) }
        var lo = Double.infinity, hi = -Double.infinity
        for (nx, ny) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1), (0, 1), (0, -1)] {
            let a = inv.transform(nx, ny, -1), b = inv.transform(nx, ny, 1)
            let p0 = (a.x / a.w, a.y / a.w, a.z / a.w), p1 = (b.x / b.w, b.y / b.w, b.z / b.w)
            var x = p1.0
            if (p0.2 > 0) != (p1.2 > 0), p1.2 != p0.2 {
                let t = p0.2 / (p0.2 - p1.2)
                x = p0.0 + (p1.0 - p0.0) * t
            }
            lo = min(lo, x); hi = max(hi, x)
        }
        return (lo / view.worldSize, hi / view.worldSize)
    }

    /// Integer world-copy offsets whose copy of `bounds` (padded by `marginPixels`) may be visible.
    public static func offsets(_ view: ViewTransform, bounds: WorldBounds, marginPixels: Double = 256) -> [Int] {
        guard !bounds.isEmpty else { return [] }
        let r = visibleXRange(view)
        let pad = marginPixels / view.worldSize
        let lo = Int(floor(r.min - bounds.maxX - pad)), hi = Int(ceil(r.max - bounds.minX + pad))
        if hi < lo { return [] }
        if hi - lo > 64 { return Array(max(lo, -32)...min(hi, 32)) }
        return Array(lo...hi)
    }

    /// A `*-translate` (CSS px) as world pixels: rotated with the bearing for the viewport anchor.
    public static func translation(_ view: ViewTransform, _ translate: (x: Double, y: Double),
                                   inViewport: Bool) -> (x: Double, y: Double) {
        guard inViewport && (translate.x != 0 || translate.y != 0) else { return translate }
        let a = view.camera.bearing * Double.pi / 180
        return (translate.x * cos(a) - translate.y * sin(a), translate.x * sin(a) + translate.y * cos(a))
    }

    /// Matrix from bucket-local coordinates (unit world minus `origin`) to clip space for world copy
    /// `copy`, with a translation in CSS pixels (`rotatesWithViewport`: the `viewport` anchor).
    public static func matrix(_ view: ViewTransform, origin: (x: Double, y: Double), copy: Int,
                              translate: (x: Double, y: Double) = (0, 0), translateInViewport: Bool = false) -> Matrix4 {
        let (tx, ty) = translation(view, translate, inViewport: translateInViewport)
        let w = view.worldSize
        return view.projectionMatrix
            * Matrix4.translation((origin.x + Double(copy)) * w + tx, origin.y * w + ty, 0)
            * Matrix4.scale(w, w, 1)
    }
}
