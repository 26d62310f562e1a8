import Foundation

/// `Math.sin`, `Math.log` and `Math.exp` as V8 computes them, so projections (and supercluster's
/// KD-tree) agree with GL JS to the bit.
///
/// V8 evaluates them with fdlibm's algorithms (Sun Microsystems' freely distributable libm, as
/// adapted in V8's `src/base/ieee754.cc`); glibc's differ from them in the last bit for
/// a few percent of arguments, which is enough to move a rounded tile coordinate now and then.
/// The same polynomial coefficients and the same order of operations are used here. Chrome builds
/// of V8 may take `sin` from glibc instead (`V8_USE_LIBM_TRIG_FUNCTIONS`); Node's does not.
/// `sin` follows fdlibm for |x| ≤ 2^19·π/2 (latitudes far past any real one) and falls back to the
/// platform's beyond.
enum JavaScriptMath {
    @inline(__always) private static func high(_ x: Double) -> Int32 { Int32(truncatingIfNeeded: x.bitPattern >> 32) }
    @inline(__always) private static func low(_ x: Double) -> UInt32 { UInt32(truncatingIfNeeded: x.bitPattern) }
    @inline(__always) private static func withHigh(_ x: Double, _ h: Int32) -> Double {
        Double(bitPattern: (UInt64(UInt32(bitPattern: h)) << 32) | (x.bitPattern & 0xFFFF_FFFF))
    }

    // MARK: sin

    /// Sine with fdlibm's reduction by π/2 and its kernels.
    static func sin(_ x: Double) -> Double {
        let ix = high(x) & 0x7FFF_FFFF
        if ix <= 0x3FE9_21FB { return kernelSin(x, 0, tailIsZero: true) }
        if ix >= 0x7FF0_0000 { return x - x }
        guard let (n, y0, y1) = reduce(x) else { return Foundation.sin(x) }
        switch n & 3 {
        case 0: return kernelSin(y0, y1, tailIsZero: false)
        case 1: return kernelCos(y0, y1)
        case 2: return -kernelSin(y0, y1, tailIsZero: false)
        default: return -kernelCos(y0, y1)
        }
    }

    /// sin on [−π/4, π/4] of x + y (y the tail of x): a degree-13 odd polynomial.
    private static func kernelSin(_ x: Double, _ y: Double, tailIsZero: Bool) -> Double {
        let s1 = -1.66666666666666324348e-01, s2 = 8.33333333332248946124e-03
        let s3 = -1.98412698298579493134e-04, s4 = 2.75573137070700676789e-06
        let s5 = -2.50507602534068634195e-08, s6 = 1.58969099521155010221e-10
        if high(x) & 0x7FFF_FFFF < 0x3E40_0000 { return x }   // |x| < 2^-27
        let z = x * x
        let v = z * x
        let r = s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)))
        if tailIsZero { return x + v * (s1 + z * r) }
        return x - ((z * (0.5 * y - v * r) - y) - v * s1)
    }

    /// cos on [−π/4, π/4] of x + y: a degree-14 even polynomial, with fdlibm's exact split of
    /// 1 − x²/2 past |x| = 0.3.
    private static func kernelCos(_ x: Double, _ y: Double) -> Double {
        let c1 = 4.16666666666666019037e-02, c2 = -1.38888888888741095749e-03
        let c3 = 2.48015872894767294178e-05, c4 = -2.75573143513906633035e-07
        let c5 = 2.08757232129817482790e-09, c6 = -1.13596475577881948265e-11
        let ix = high(x) & 0x7FFF_FFFF
        if ix < 0x3E40_0000 { return 1 }
        let z = x * x
        let r = z * (c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * c6)))))
        if ix < 0x3FD3_3333 { return 1 - (0.5 * z - (z * r - x * y)) }
        let qx = ix > 0x3FE9_0000 ? 0.28125 : Double(bitPattern: UInt64(UInt32(bitPattern: ix - 0x0020_0000)) << 32)
        let iz = 0.5 * z - qx
        let a = 1 - qx
        return a - (iz - (z * r - x * y))
    }

    /// High words of n·π/2 for n = 1…32 (a reduced argument near them needs more bits of π/2).
    private static let npio2High: [Int32] = [
        0x3FF9_21FB, 0x4009_21FB, 0x4012_D97C, 0x4019_21FB, 0x401F_6A7A, 0x4022_D97C,
        0x4025_FDBB, 0x4029_21FB, 0x402C_463A, 0x402F_6A7A, 0x4031_475C, 0x4032_D97C,
        0x4034_6B9C, 0x4035_FDBB, 0x4037_8FDB, 0x4039_21FB, 0x403A_B41B, 0x403C_463A,
        0x403D_D85A, 0x403F_6A7A, 0x4040_7E4C, 0x4041_475C, 0x4042_106C, 0x4042_D97C,
        0x4043_A28C, 0x4044_6B9C, 0x4045_34AC, 0x4045_FDBB, 0x4046_C6CB, 0x4047_8FDB,
        0x4048_58EB, 0x4049_21FB,
    ]

    /// x − n·π/2 as y0 + y1 with |y| ≲ π/4, and n; nil past 2^19·π/2 (fdlibm's large-argument path).
    private static func reduce(_ x: Double) -> (Int32, Double, Double)? {
        let invpio2 = 6.36619772367581382433e-01
        let pio2_1 = 1.57079632673412561417e+00, pio2_1t = 6.07710050650619224932e-11
        let pio2_2 = 6.07710050630396597660e-11, pio2_2t = 2.02226624879595063154e-21
        let pio2_3 = 2.02226624871116645580e-21, pio2_3t = 8.47842766036889956997e-32
        let hx = high(x)
        let ix = hx & 0x7FFF_FFFF
        if ix < 0x4002_D97C {   // |x| < 3π/4: n = ±1
            if hx > 0 {
                var z = x - pio2_1
                if ix != 0x3FF9_21FB {
                    let y0 = z - pio2_1t
                    return (1, y0, (z - y0) - pio2_1t)
                }
                z -= pio2_2
                let y0 = z - pio2_2t
                return (1, y0, (z - y0) - pio2_2t)
            }
            var z = x + pio2_1
            if ix != 0x3FF9_21FB {
                let y0 = z + pio2_1t
                return (-1, y0, (z - y0) + pio2_1t)
            }
            z += pio2_2
            let y0 = z + pio2_2t
            return (-1, y0, (z - y0) + pio2_2t)
        }
        guard ix <= 0x4139_21FB else { return nil }
        var t = abs(x)
        let n = Int32(t * invpio2 + 0.5)
        let fn = Double(n)
        var r = t - fn * pio2_1
        var w = fn * pio2_1t
        var y0: Double
        if n < 32 && ix != npio2High[Int(n) - 1] {
            y0 = r - w
        } else {
            let j = ix >> 20
            y0 = r - w
            var i = j - ((high(y0) >> 20) & 0x7FF)
            if i > 16 {
                t = r
                w = fn * pio2_2
                r = t - w
                w = fn * pio2_2t - ((t - r) - w)
                y0 = r - w
                i = j - ((high(y0) >> 20) & 0x7FF)
                if i > 49 {
                    t = r
                    w = fn * pio2_3
                    r = t - w
                    w = fn * pio2_3t - ((t - r) - w)
                    y0 = r - w
                }
            }
        }
        let y1 = (r - y0) - w
        return hx < 0 ? (-n, -y0, -y1) : (n, y0, y1)
    }

    // MARK: exp

    /// e^x: x = k·ln2 + r with |r| ≤ ½ln2 (ln2 in two parts), e^r from a degree-5 rational
    /// approximation, scaled by 2^k. Past the overflow/underflow thresholds: ∞ / 0.
    static func exp(_ value: Double) -> Double {
        let o = 7.09782712893383973096e+02, u = -7.45133219101941108420e+02
        let ln2Hi = 6.93147180369123816490e-01, ln2Lo = 1.90821492927058770002e-10
        let invln2 = 1.44269504088896338700e+00
        let p1 = 1.66666666666666019037e-01, p2 = -2.77777777770155933842e-03
        let p3 = 6.61375632143793436117e-05, p4 = -1.65339022054652515390e-06
        let p5 = 4.13813679705723846039e-08
        var x = value
        let hxSigned = high(x)
        let negative = hxSigned < 0
        let hx = hxSigned & 0x7FFF_FFFF
        if hx >= 0x4086_2E42 {   // |x| ≥ 709.78…, or not finite
            if hx >= 0x7FF0_0000 {
                if x.isNaN { return x + x }
                return negative ? 0 : x
            }
            if x > o { return .infinity }
            if x < u { return 0 }
        }
        var hi = 0.0, lo = 0.0
        var k: Int32 = 0
        if hx > 0x3FD6_2E42 {   // |x| > ½ln2
            if hx < 0x3FF0_A2B2 {   // and < 1.5·ln2
                if x == 1.0 { return 2.718281828459045 }
                hi = negative ? x + ln2Hi : x - ln2Hi
                lo = negative ? -ln2Lo : ln2Lo
                k = negative ? -1 : 1
            } else {
                k = Int32(invln2 * x + (negative ? -0.5 : 0.5))
                let t = Double(k)
                hi = x - t * ln2Hi
                lo = t * ln2Lo
            }
            x = hi - lo
        } else if hx < 0x3E30_0000 {   // |x| < 2^-28
            return 1 + x
        }
        let t = x * x
        let c = x - t * (p1 + t * (p2 + t * (p3 + t * (p4 + t * p5))))
        if k == 0 { return 1 - ((x * c) / (c - 2.0) - x) }
        let y = 1 - ((lo - (x * c) / (2.0 - c)) - hi)
        if k >= -1021 {
            if k == 1024 { return y * 2.0 * 8.988465674311579539e307 }
            return y * Double(bitPattern: UInt64(UInt32(bitPattern: 0x3FF0_0000 + (k << 20))) << 32)
        }
        return y * Double(bitPattern: UInt64(UInt32(bitPattern: 0x3FF0_0000 + ((k + 1000) << 20))) << 32) * 9.33263618503218878990e-302
    }

    // MARK: log

    /// Natural logarithm: x = 2^k·(1+f) with √2/2 < 1+f < √2, log(1+f) from s = f/(2+f) and a
    /// degree-14 polynomial, k·ln2 added in two parts.
    static func log(_ value: Double) -> Double {
        let ln2Hi = 6.93147180369123816490e-01, ln2Lo = 1.90821492927058770002e-10
        let two54 = 1.80143985094819840000e+16
        let lg1 = 6.666666666666735130e-01, lg2 = 3.999999999940941908e-01
        let lg3 = 2.857142874366239149e-01, lg4 = 2.222219843214978396e-01
        let lg5 = 1.818357216161805012e-01, lg6 = 1.531383769920937332e-01
        let lg7 = 1.479819860511658591e-01
        var x = value
        var hx = high(x)
        var k: Int32 = 0
        if hx < 0x0010_0000 {   // zero, negative or subnormal
            if (UInt32(bitPattern: hx & 0x7FFF_FFFF) | low(x)) == 0 { return -.infinity }
            if hx < 0 { return .nan }
            k -= 54
            x *= two54
            hx = high(x)
        }
        if hx >= 0x7FF0_0000 { return x + x }
        k += (hx >> 20) - 1023
        hx &= 0x000F_FFFF
        var i = (hx &+ 0x95F64) & 0x10_0000
        x = withHigh(x, hx | (i ^ 0x3FF0_0000))
        k += i >> 20
        let f = x - 1.0
        if (0x000F_FFFF & (2 &+ hx)) < 3 {   // |f| < 2^-20
            if f == 0 {
                if k == 0 { return 0 }
                let dk = Double(k)
                return dk * ln2Hi + dk * ln2Lo
            }
            let r = f * f * (0.5 - 0.33333333333333333 * f)
            if k == 0 { return f - r }
            let dk = Double(k)
            return dk * ln2Hi - ((r - dk * ln2Lo) - f)
        }
        let s = f / (2.0 + f)
        let dk = Double(k)
        let z = s * s
        i = hx &- 0x6147A
        let w = z * z
        let j = 0x6B851 &- hx
        let t1 = w * (lg2 + w * (lg4 + w * lg6))
        let t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)))
        i |= j
        let r = t2 + t1
        if i > 0 {
            let hfsq = 0.5 * f * f
            if k == 0 { return f - (hfsq - s * (hfsq + r)) }
            return dk * ln2Hi - ((hfsq - (s * (hfsq + r) + dk * ln2Lo)) - f)
        }
        if k == 0 { return f - s * (f - r) }
        return dk * ln2Hi - ((s * (f - r) - dk * ln2Lo) - f)
    }
}
