import Foundation
import GLMapCore

/// CIE Lab / HCL conversions (D50 white point) used by `interpolate-lab` and `interpolate-hcl`,
/// with the constants of the style specification so results agree to the last digit.
enum ColorSpaces {
    static let xn = 0.96422, yn = 1.0, zn = 0.82521
    static let t0 = 4.0 / 29, t1 = 6.0 / 29
    static let t2 = 3 * t1 * t1, t3 = t1 * t1 * t1
    static let deg2rad = Double.pi / 180, rad2deg = 180 / Double.pi

    /// Straight sRGB (0…1) to Lab (L 0…100).
    static func rgbToLab(_ r: Double, _ g: Double, _ b: Double) -> (l: Double, a: Double, b: Double) {
        let rl = rgb2xyz(r), gl = rgb2xyz(g), bl = rgb2xyz(b)
        let y = xyz2lab((0.2225045 * rl + 0.7168786 * gl + 0.0606169 * bl) / yn)
        let x: Double, z: Double
        if rl == gl && gl == bl {
            x = y; z = y
        } else {
            x = xyz2lab((0.4360747 * rl + 0.3850649 * gl + 0.1430804 * bl) / xn)
            z = xyz2lab((0.0139322 * rl + 0.0971045 * gl + 0.7141733 * bl) / zn)
        }
        let l = 116 * y - 16
        return (l < 0 ? 0 : l, 500 * (x - y), 200 * (y - z))
    }

    /// Lab to straight sRGB, clipped to 0…1.
    static func labToRGB(_ l: Double, _ a: Double, _ b: Double) -> (Double, Double, Double) {
        var y = (l + 16) / 116
        var x = a.isNaN ? y : y + a / 500
        var z = b.isNaN ? y : y - b / 200
        y = yn * lab2xyz(y)
        x = xn * lab2xyz(x)
        z = zn * lab2xyz(z)
        return (xyz2rgb(3.1338561 * x - 1.6168667 * y - 0.4906146 * z),
                xyz2rgb(-0.9787684 * x + 1.9161415 * y + 0.033454 * z),
                xyz2rgb(0.0719453 * x - 0.2289914 * y + 1.4052427 * z))
    }

    /// Straight sRGB to HCL (hue in degrees, NaN for greys).
    static func rgbToHCL(_ r: Double, _ g: Double, _ b: Double) -> (h: Double, c: Double, l: Double) {
        let lab = rgbToLab(r, g, b)
        let c = (lab.a * lab.a + lab.b * lab.b).squareRoot()
        let h = jsRound(c * 10000) != 0 ? constrainAngle(atan2(lab.b, lab.a) * rad2deg) : .nan
        return (h, c, lab.l)
    }

    /// HCL to straight sRGB (NaN hue reads as 0).
    static func hclToRGB(_ h: Double, _ c: Double, _ l: Double) -> (Double, Double, Double) {
        let hr = h.isNaN ? 0 : h * deg2rad
        return labToRGB(l, cos(hr) * c, sin(hr) * c)
    }

    static func rgb2xyz(_ x: Double) -> Double {
        x <= 0.04045 ? x / 12.92 : Foundation.pow((x + 0.055) / 1.055, 2.4)
    }

    static func xyz2lab(_ t: Double) -> Double {
        t > t3 ? Foundation.pow(t, 1.0 / 3) : t / t2 + t0
    }

    static func lab2xyz(_ t: Double) -> Double {
        t > t1 ? t * t * t : t2 * (t - t0)
    }

    static func xyz2rgb(_ v: Double) -> Double {
        let x = v <= 0.00304 ? 12.92 * v : 1.055 * Foundation.pow(v, 1 / 2.4) - 0.055
        return x < 0 ? 0 : x > 1 ? 1 : x
    }

    static func constrainAngle(_ angle: Double) -> Double {
        var a = angle.truncatingRemainder(dividingBy: 360)
        if a < 0 { a += 360 }
        return a
    }

    /// JavaScript's Math.round (halves towards +∞).
    static func jsRound(_ x: Double) -> Double {
        let r = x.rounded(.down)
        return x - r >= 0.5 ? r + 1 : r
    }

    /// Interpolates two colours on their straight components in the given space; the result is
    /// premultiplied (a fully transparent result keeps its straight r, g, b).
    static func interpolate(_ from: Color, _ to: Color, _ t: Double, space: ColorInterpolationSpace) -> Color {
        let f = from.straight, g = to.straight
        switch space {
        case .rgb:
            return Color(r: Interpolation.number(f.r, g.r, t), g: Interpolation.number(f.g, g.g, t),
                         b: Interpolation.number(f.b, g.b, t), a: Interpolation.number(f.a, g.a, t))
        case .lab:
            let a = rgbToLab(f.r, f.g, f.b), b = rgbToLab(g.r, g.g, g.b)
            let rgb = labToRGB(Interpolation.number(a.l, b.l, t), Interpolation.number(a.a, b.a, t),
                               Interpolation.number(a.b, b.b, t))
            return Color(r: rgb.0, g: rgb.1, b: rgb.2, a: Interpolation.number(f.a, g.a, t))
        case .hcl:
            let a = rgbToHCL(f.r, f.g, f.b), b = rgbToHCL(g.r, g.g, g.b)
            var hue: Double
            var chroma: Double?
            if !a.h.isNaN && !b.h.isNaN {
                var dh = b.h - a.h
                if b.h > a.h && dh > 180 {
                    dh -= 360
                } else if b.h < a.h && a.h - b.h > 180 {
                    dh += 360
                }
                hue = a.h + t * dh
            } else if !a.h.isNaN {
                hue = a.h
                if b.l == 1 || b.l == 0 { chroma = a.c }
            } else if !b.h.isNaN {
                hue = b.h
                if a.l == 1 || a.l == 0 { chroma = b.c }
            } else {
                hue = .nan
            }
            let rgb = hclToRGB(hue, chroma ?? Interpolation.number(a.c, b.c, t), Interpolation.number(a.l, b.l, t))
            return Color(r: rgb.0, g: rgb.1, b: rgb.2, a: Interpolation.number(f.a, g.a, t))
        }
    }
}
