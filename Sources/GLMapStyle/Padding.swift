/// A `padding` value (`icon-padding`): space around a box in pixels, given as CSS writes it: one
/// number for every side, or 2, 3 or 4 (top, right, bottom, left).
public struct Padding: PropertyValueType, Equatable {
    /// Pixels above.
    public var top: Double
    /// Pixels to the right.
    public var right: Double
    /// Pixels below.
    public var bottom: Double
    /// Pixels to the left.
    public var left: Double

    /// A padding of the four sides.
    public init(top: Double, right: Double, bottom: Double, left: Double) {
        self.top = top; self.right = right; self.bottom = bottom; self.left = left
    }

    /// A number, or an array of 1 to 4 numbers (CSS order: [all], [vertical, horizontal],
    /// [top, horizontal, bottom], [top, right, bottom, left]).
    public init?(evaluated v: Value) {
        var n: [Double] = []
        switch v {
        case .number(let x): n = [x]
        case .array(let a):
            for item in a { guard case .number(let x) = item else { return nil }; n.append(x) }
        default: return nil
        }
        switch n.count {
        case 1: self.init(top: n[0], right: n[0], bottom: n[0], left: n[0])
        case 2: self.init(top: n[0], right: n[1], bottom: n[0], left: n[1])
        case 3: self.init(top: n[0], right: n[1], bottom: n[2], left: n[1])
        case 4: self.init(top: n[0], right: n[1], bottom: n[2], left: n[3])
        default: return nil
        }
    }
}
