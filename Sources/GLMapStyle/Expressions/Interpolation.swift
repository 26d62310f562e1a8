import Foundation
import GLMapCore

/// How `interpolate` maps an input between two stops to a factor in 0…1.
enum Interpolation {
    case linear
    case exponential(base: Double)
    case cubicBezier(UnitBezier)

    /// The interpolation factor of `input` between stop inputs `lower` and `upper`.
    func factor(_ input: Double, _ lower: Double, _ upper: Double) -> Double {
        switch self {
        case .linear:
            return Interpolation.exponentialFactor(input, base: 1, lower, upper)
        case .exponential(let base):
            return Interpolation.exponentialFactor(input, base: base, lower, upper)
        case .cubicBezier(let bezier):
            return bezier.solve(Interpolation.exponentialFactor(input, base: 1, lower, upper))
        }
    }

    /// Ratio of an exponential curve `a·base^x + b` through both stops (linear when base is 1).
    static func exponentialFactor(_ input: Double, base: Double, _ lower: Double, _ upper: Double) -> Double {
        let difference = upper - lower
        let progress = input - lower
        if difference == 0 { return 0 }
        if base == 1 { return progress / difference }
        return (Foundation.pow(base, progress) - 1) / (Foundation.pow(base, difference) - 1)
    }

    /// `a + t·(b − a)`, the specification's number interpolation.
    @inline(__always)
    static func number(_ a: Double, _ b: Double, _ t: Double) -> Double { a + t * (b - a) }
}

/// A CSS-style cubic Bézier easing curve from (0,0) to (1,1) with two control points.
struct UnitBezier {
    let cx, bx, ax, cy, by, ay: Double

    init(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) {
        cx = 3 * p1x
        bx = 3 * (p2x - p1x) - cx
        ax = 1 - cx - bx
        cy = 3 * p1y
        by = 3 * (p2y - p1y) - cy
        ay = 1 - cy - by
    }

    func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    func slopeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter whose x is `x`: Newton steps, then bisection if they stall.
    func solveX(_ x: Double, epsilon: Double = 1e-6) -> Double {
        if x < 0 { return 0 }
        if x > 1 { return 1 }
        var t = x
        for _ in 0..<8 {
            let err = sampleX(t) - x
            if Swift.abs(err) < epsilon { return t }
            let slope = slopeX(t)
            if Swift.abs(slope) < 1e-6 { break }
            t -= err / slope
        }
        var lo = 0.0, hi = 1.0
        t = x
        for _ in 0..<20 {
            let value = sampleX(t)
            if Swift.abs(value - x) < epsilon { break }
            if x > value { lo = t } else { hi = t }
            t = (hi - lo) * 0.5 + lo
        }
        return t
    }

    /// The eased value (y) at input `x`.
    func solve(_ x: Double) -> Double { sampleY(solveX(x)) }
}

/// The colour space `interpolate` works in for colours.
enum ColorInterpolationSpace {
    case rgb, hcl, lab
}

extension Value {
    /// Interpolates two values of an interpolatable type (number, colour, array of numbers).
    static func interpolate(_ a: Value, _ b: Value, _ t: Double, space: ColorInterpolationSpace) -> Value {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return .number(Interpolation.number(x, y, t))
        case (.color(let x), .color(let y)):
            return .color(ColorSpaces.interpolate(x, y, t, space: space))
        case (.array(let xs), .array(let ys)):
            var out: [Value] = []
            out.reserveCapacity(xs.count)
            for (i, x) in xs.enumerated() {
                let xn = x.number ?? .nan
                let yn = i < ys.count ? (ys[i].number ?? .nan) : .nan
                out.append(.number(Interpolation.number(xn, yn, t)))
            }
            return .array(out)
        default:
            return a
        }
    }
}
