/// The signed distance field MapLibre's TinySDF computes from an anti-aliased glyph coverage
/// mask: Felzenszwalb–Huttenlocher squared Euclidean distance transforms of the outside and the
/// inside, `255 − 255·(d/radius + cutoff)` rounded as `Math.round` and clamped to a byte.
enum SignedDistanceField {
    static let infinity = 1e20

    /// The SDF of a `glyphWidth`×`glyphHeight` coverage mask (bytes, 255 = inside) centred in a
    /// field with `buffer` pixels each side.
    static func make(coverage: [UInt8], glyphWidth: Int, glyphHeight: Int, buffer: Int, radius: Double, cutoff: Double) -> AlphaImage {
        let width = glyphWidth + 2 * buffer, height = glyphHeight + 2 * buffer
        let count = max(width * height, 0)
        guard glyphWidth > 0, glyphHeight > 0 else { return AlphaImage(width: width, height: height) }
        var outer = [Double](repeating: infinity, count: count)
        var inner = [Double](repeating: 0, count: count)
        for y in 0..<glyphHeight {
            for x in 0..<glyphWidth {
                let a = Double(coverage[y * glyphWidth + x]) / 255
                if a == 0 { continue }
                let j = (y + buffer) * width + x + buffer
                if a == 1 {
                    outer[j] = 0
                    inner[j] = infinity
                } else {
                    let d = 0.5 - a
                    outer[j] = d > 0 ? d * d : 0
                    inner[j] = d < 0 ? d * d : 0
                }
            }
        }
        let side = max(width, height)
        var f = [Double](repeating: 0, count: side)
        var z = [Double](repeating: 0, count: side + 1)
        var v = [Int](repeating: 0, count: side)
        transform(&outer, x0: 0, y0: 0, width: width, height: height, gridSize: width, &f, &v, &z)
        transform(&inner, x0: buffer, y0: buffer, width: glyphWidth, height: glyphHeight, gridSize: width, &f, &v, &z)
        var out = [UInt8](repeating: 0, count: count)
        for i in 0..<count {
            let d = outer[i].squareRoot() - inner[i].squareRoot()
            let value = (255 - 255 * (d / radius + cutoff) + 0.5).rounded(.down)
            out[i] = UInt8(max(0, min(255, value.isNaN ? 0 : value)))
        }
        return AlphaImage(width: width, height: height, pixels: out)!
    }

    /// 2-D squared distance transform of the block at (x0, y0): columns, then rows.
    private static func transform(_ data: inout [Double], x0: Int, y0: Int, width: Int, height: Int, gridSize: Int,
                                  _ f: inout [Double], _ v: inout [Int], _ z: inout [Double]) {
        for x in x0..<(x0 + width) { transform1D(&data, offset: y0 * gridSize + x, stride: gridSize, length: height, &f, &v, &z) }
        for y in y0..<(y0 + height) { transform1D(&data, offset: y * gridSize + x0, stride: 1, length: width, &f, &v, &z) }
    }

    /// 1-D squared distance transform (lower envelope of parabolas).
    private static func transform1D(_ grid: inout [Double], offset: Int, stride: Int, length: Int,
                                    _ f: inout [Double], _ v: inout [Int], _ z: inout [Double]) {
        guard length > 0 else { return }
        v[0] = 0
        z[0] = -infinity
        z[1] = infinity
        f[0] = grid[offset]
        var k = 0
        for q in Swift.stride(from: 1, to: length, by: 1) {
            f[q] = grid[offset + q * stride]
            let q2 = Double(q * q)
            var s: Double
            repeat {
                let r = v[k]
                s = (f[q] - f[r] + q2 - Double(r * r)) / Double(q - r) / 2
                if s <= z[k] {
                    k -= 1
                    if k > -1 { continue }
                }
                break
            } while true
            k += 1
            v[k] = q
            z[k] = s
            z[k + 1] = infinity
        }
        k = 0
        for q in 0..<length {
            while z[k + 1] < Double(q) { k += 1 }
            let r = v[k]
            let qr = Double(q - r)
            grid[offset + q * stride] = f[r] + qr * qr
        }
    }
}
