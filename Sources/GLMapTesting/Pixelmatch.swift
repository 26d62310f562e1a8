// Pixelmatch: a port of the pixelmatch JavaScript library, version 7.1.0 (the version MapLibre's
// render-test harness locks), ISC licence, © Mapbox.
//
// Inputs:  two straight-alpha RGBA8 images of the same size; options as in pixelmatch 7.1.0.
// Outputs: the number of mismatching pixels; optionally a diff image drawn exactly as pixelmatch
//          draws its `output` buffer.
// Invariants: same arithmetic as the JavaScript (IEEE doubles, same operation order, `| 0`
//          truncation, the 48/207 background pattern chosen from the byte offset, the sign of the
//          delta telling whether the second image is darker), so counts equal the upstream ones.
//          Byte-identical pixels always match. Sizes must match exactly (an error, never a diff).
// Limits:  diff pixels are stored as JavaScript stores doubles into a `Uint8Array` (truncation,
//          modulo 256), i.e. pngjs/Node semantics, not a browser's clamped canvas array.
// Threading: stateless; safe to call concurrently.
// Users: the golden-image tests (ImageComparison), `glmap compare`, glmap-bench and the test suites.
import GLMapCore

/// Perceptual pixel comparison, an exact port of pixelmatch 7.1.0.
public enum Pixelmatch {
    /// pixelmatch's options, with its defaults.
    public struct Options: Sendable {
        /// Matching threshold in 0…1; smaller is more sensitive. A pixel differs when its YIQ
        /// squared distance exceeds `35215 * threshold²`.
        public var threshold: Double
        /// Count anti-aliased pixels as differences too (skip the anti-aliasing detector).
        public var includeAA: Bool
        /// Opacity of the first image's grey copy in the diff output.
        public var alpha: Double
        /// Diff colour of pixels ignored as anti-aliasing.
        public var aaColor: (UInt8, UInt8, UInt8)
        /// Diff colour of counted differences.
        public var diffColor: (UInt8, UInt8, UInt8)
        /// When set, diff colour of differences where the second image is darker.
        public var diffColorAlt: (UInt8, UInt8, UInt8)?
        /// Draw only the differences (other output pixels are left as they were).
        public var diffMask: Bool

        /// Options with pixelmatch's defaults unless given.
        public init(threshold: Double = 0.1, includeAA: Bool = false, alpha: Double = 0.1,
                    aaColor: (UInt8, UInt8, UInt8) = (255, 255, 0),
                    diffColor: (UInt8, UInt8, UInt8) = (255, 0, 0),
                    diffColorAlt: (UInt8, UInt8, UInt8)? = nil, diffMask: Bool = false) {
            (self.threshold, self.includeAA, self.alpha, self.aaColor) = (threshold, includeAA, alpha, aaColor)
            (self.diffColor, self.diffColorAlt, self.diffMask) = (diffColor, diffColorAlt, diffMask)
        }
    }

    /// Counts mismatching pixels between two straight-alpha RGBA8 images of equal size;
    /// optionally writes a diff image. Exact port of pixelmatch 7.1.0.
    ///
    /// When `diff` is non-nil it must have the images' size; it is drawn into like pixelmatch's
    /// `output` buffer (start from `StraightImage(width:height:)` for a fresh one).
    public static func compare(_ a: StraightImage, _ b: StraightImage, options: Options = Options(),
                               diff: inout StraightImage?) throws -> Int {
        guard a.width == b.width, a.height == b.height else {
            throw InputFailure("pixelmatch: image sizes do not match: \(a.width)×\(a.height) vs \(b.width)×\(b.height)")
        }
        guard var output = diff else {
            return run(a, b, options, nil)
        }
        guard output.width == a.width, output.height == a.height else {
            throw InputFailure("pixelmatch: diff image is \(output.width)×\(output.height), the images are \(a.width)×\(a.height)")
        }
        diff = nil // keep `output.pixels` uniquely referenced so it is written in place
        let count = output.pixels.withUnsafeMutableBufferPointer { run(a, b, options, $0.baseAddress!) }
        diff = output
        return count
    }

    /// Counts mismatching pixels without drawing a diff image.
    public static func compare(_ a: StraightImage, _ b: StraightImage, options: Options = Options()) throws -> Int {
        var none: StraightImage?
        return try compare(a, b, options: options, diff: &none)
    }

    // MARK: - The algorithm

    private static func run(_ a: StraightImage, _ b: StraightImage, _ options: Options,
                            _ output: UnsafeMutablePointer<UInt8>?) -> Int {
        let width = a.width, height = a.height
        let len = width * height
        if len == 0 { return 0 }
        return a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                let img1 = pa.baseAddress!, img2 = pb.baseAddress!

                // Fast path for identical images.
                var identical = true
                for i in 0..<len where pixel(img1, i) != pixel(img2, i) {
                    identical = false
                    break
                }
                if identical {
                    if let output, !options.diffMask {
                        for i in 0..<len { drawGrayPixel(img1, 4 * i, options.alpha, output) }
                    }
                    return 0
                }

                // 35215 is the largest possible value of the YIQ difference metric.
                let maxDelta = 35215 * options.threshold * options.threshold
                let aa = options.aaColor, dc = options.diffColor, alt = options.diffColorAlt ?? options.diffColor
                var count = 0
                for y in 0..<height {
                    for x in 0..<width {
                        let i = y * width + x
                        let pos = i * 4
                        // Squared YIQ distance, negative when the second image's pixel is darker.
                        let delta = pixel(img1, i) == pixel(img2, i) ? 0 : colorDelta(img1, img2, pos, pos, yOnly: false)
                        if abs(delta) > maxDelta {
                            let isAA = !options.includeAA &&
                                (antialiased(img1, img2, x, y, width, height) || antialiased(img2, img1, x, y, width, height))
                            if isAA {
                                // Anti-aliasing: drawn (not in a mask), not counted.
                                if let output, !options.diffMask { drawPixel(output, pos, aa.0, aa.1, aa.2) }
                            } else {
                                if let output {
                                    if delta < 0 {
                                        drawPixel(output, pos, alt.0, alt.1, alt.2)
                                    } else {
                                        drawPixel(output, pos, dc.0, dc.1, dc.2)
                                    }
                                }
                                count += 1
                            }
                        } else if let output, !options.diffMask {
                            drawGrayPixel(img1, pos, options.alpha, output)
                        }
                    }
                }
                return count
            }
        }
    }

    /// The four bytes of pixel `i` as one word (pixelmatch compares through a `Uint32Array` view).
    @inline(__always)
    private static func pixel(_ img: UnsafePointer<UInt8>, _ i: Int) -> UInt32 {
        UnsafeRawPointer(img).loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
    }

    /// Whether (x1, y1) of `img` looks like an anti-aliased pixel (Vysniauskas 2009): it has both
    /// a darker and a brighter neighbour, at most two equal ones, and the darkest or brightest
    /// neighbour has 3+ identical siblings in both images.
    static func antialiased(_ img: UnsafePointer<UInt8>, _ other: UnsafePointer<UInt8>,
                            _ x1: Int, _ y1: Int, _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let pos = y1 * width + x1
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0

        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                // Brightness delta between the centre pixel and this neighbour.
                let delta = colorDelta(img, img, pos * 4, (y * width + x) * 4, yOnly: true)
                if delta == 0 {
                    zeroes += 1
                    // More than two equal siblings: not anti-aliasing.
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta; minX = x; minY = y
                } else if delta > maxDelta {
                    maxDelta = delta; maxX = x; maxY = y
                }
            }
        }
        // Needs both a darker and a brighter neighbour.
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(img, minX, minY, width, height) && hasManySiblings(other, minX, minY, width, height)) ||
            (hasManySiblings(img, maxX, maxY, width, height) && hasManySiblings(other, maxX, maxY, width, height))
    }

    /// Whether (x1, y1) has 3+ identical neighbours (image borders count as one).
    static func hasManySiblings(_ img: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let value = pixel(img, y1 * width + x1)
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                if value == pixel(img, y * width + x) { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    /// YIQ colour difference (Kotsarenko & Ramos) between byte offsets `k` of `img1` and `m` of
    /// `img2`: squared distance, negative when the second pixel is darker; with `yOnly`, the signed
    /// brightness difference. Translucent pixels are composited over a per-offset background of
    /// 48 or 207 per channel first.
    @inline(__always)
    static func colorDelta(_ img1: UnsafePointer<UInt8>, _ img2: UnsafePointer<UInt8>,
                           _ k: Int, _ m: Int, yOnly: Bool) -> Double {
        let r1 = Int(img1[k]), g1 = Int(img1[k + 1]), b1 = Int(img1[k + 2]), a1 = Int(img1[k + 3])
        let r2 = Int(img2[m]), g2 = Int(img2[m + 1]), b2 = Int(img2[m + 2]), a2 = Int(img2[m + 3])
        let da = a1 - a2
        if r1 == r2 && g1 == g2 && b1 == b2 && da == 0 { return 0 }

        var dr = Double(r1 - r2), dg = Double(g1 - g2), db = Double(b1 - b2)
        if a1 < 255 || a2 < 255 {
            // Blend both pixels over the background pattern (integer products are exact, as in JS).
            let rb = 48 + 159 * (k % 2)
            let gb = 48 + 159 * (Int(Double(k) / 1.618033988749895) % 2)
            let bb = 48 + 159 * (Int(Double(k) / 2.618033988749895) % 2)
            dr = Double(r1 * a1 - r2 * a2 - rb * da) / 255
            dg = Double(g1 * a1 - g2 * a2 - gb * da) / 255
            db = Double(b1 * a1 - b2 * a2 - bb * da) / 255
        }

        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        if yOnly { return y }
        let i = dr * 0.59597799 - dg * 0.2741761 - db * 0.32180189
        let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y > 0 ? -delta : delta
    }

    @inline(__always)
    private static func drawPixel(_ output: UnsafeMutablePointer<UInt8>, _ pos: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8) {
        output[pos] = r
        output[pos + 1] = g
        output[pos + 2] = b
        output[pos + 3] = 255
    }

    /// The first image's brightness blended with white at `alpha` × the pixel's own alpha.
    @inline(__always)
    private static func drawGrayPixel(_ img: UnsafePointer<UInt8>, _ i: Int, _ alpha: Double, _ output: UnsafeMutablePointer<UInt8>) {
        let luma = Double(img[i]) * 0.29889531 + Double(img[i + 1]) * 0.58662247 + Double(img[i + 2]) * 0.11448223
        let value = toUint8(255 + (luma - 255) * alpha * Double(img[i + 3]) / 255)
        drawPixel(output, i, value, value, value)
    }

    /// JavaScript's conversion of a number stored into a `Uint8Array` (truncate, then modulo 256).
    @inline(__always)
    static func toUint8(_ value: Double) -> UInt8 {
        guard value.isFinite else { return 0 }
        var t = value.rounded(.towardZero).truncatingRemainder(dividingBy: 256)
        if t < 0 { t += 256 }
        return UInt8(t)
    }
}
