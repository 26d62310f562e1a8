// DEM data — contract
// Input: a decoded raster-dem tile (square, RGBA) and its encoding. Output: GL JS's DEMData: the
// pixels laid into a (dim + 2)² grid with a 1-pixel border, the border filled from the nearest
// edge pixel (corners from the corner pixels) until `backfillBorder` copies the neighbouring
// tiles' edges in; elevations unpacked on demand as r·red + g·green + b·blue − baseShift in
// doubles; `min`/`max` over the tile's own pixels. A tile that is not square is refused, as GL JS
// refuses it.
import GLMapCore

/// A raster-dem tile's elevations, as GL JS's DEMData holds them (see the contract above).
public struct DEMData: Sendable {
    /// Side of the tile's own pixels.
    public let dim: Int
    /// Side of the padded grid (dim + 2).
    public let stride: Int
    /// The padded grid, RGBA8 (alpha as decoded), rows top to bottom.
    public private(set) var pixels: [UInt8]
    /// How the RGB values encode metres.
    public let encoding: DEMEncoding
    /// Lowest elevation of the tile's own pixels, in metres.
    public let min: Double
    /// Highest elevation of the tile's own pixels, in metres.
    public let max: Double

    /// Lays `image` into the padded grid and fills the border; throws unless it is square.
    public init(image: StraightImage, encoding: DEMEncoding) throws(RasterDecodeError) {
        guard image.width == image.height, image.width > 0 else {
            throw RasterDecodeError("a raster-dem tile must be square, this one is \(image.width)×\(image.height) pixels")
        }
        let dim = image.width, stride = dim + 2
        self.dim = dim
        self.stride = stride
        self.encoding = encoding
        var p = [UInt8](repeating: 0, count: stride * stride * 4)
        image.pixels.withUnsafeBufferPointer { src in
            p.withUnsafeMutableBufferPointer { dst in
                for y in 0..<dim {
                    let from = y * dim * 4, to = ((y + 1) * stride + 1) * 4
                    for i in 0..<(dim * 4) { dst[to + i] = src[from + i] }
                }
            }
        }
        func copy(_ x: Int, _ y: Int, from sx: Int, _ sy: Int) {
            let d = ((y + 1) * stride + x + 1) * 4, s = ((sy + 1) * stride + sx + 1) * 4
            for k in 0..<4 { p[d + k] = p[s + k] }
        }
        for i in 0..<dim {
            copy(-1, i, from: 0, i)
            copy(dim, i, from: dim - 1, i)
            copy(i, -1, from: i, 0)
            copy(i, dim, from: i, dim - 1)
        }
        copy(-1, -1, from: 0, 0)
        copy(dim, -1, from: dim - 1, 0)
        copy(-1, dim, from: 0, dim - 1)
        copy(dim, dim, from: dim - 1, dim - 1)
        pixels = p
        var lo = Double.greatestFiniteMagnitude, hi = -Double.greatestFiniteMagnitude
        for y in 0..<dim {
            for x in 0..<dim {
                let i = ((y + 1) * stride + x + 1) * 4
                let e = encoding.unpack(r: p[i], g: p[i + 1], b: p[i + 2])
                if e < lo { lo = e }
                if e > hi { hi = e }
            }
        }
        min = lo
        max = hi
    }

    /// The elevation in metres at x, y (−1…dim: the border included).
    public func elevation(x: Int, y: Int) -> Double {
        precondition(x >= -1 && x <= dim && y >= -1 && y <= dim, "DEM coordinates \(x), \(y) outside −1…\(dim)")
        let i = ((y + 1) * stride + x + 1) * 4
        return encoding.unpack(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2])
    }

    /// The shaders' unpack vector: red, green, blue factors and the base shift.
    public var unpackVector: [Double] { [encoding.redFactor, encoding.greenFactor, encoding.blueFactor, encoding.baseShift] }

    /// The padded grid as an image (stride × stride).
    public var paddedImage: StraightImage { StraightImage(width: stride, height: stride, pixels: pixels) }

    /// Copies the edge of `neighbour` (the tile dx, dy ∈ {−1, 0, 1} away) into this tile's border,
    /// as GL JS's backfillBorder; tiles of different sizes are left alone.
    public mutating func backfillBorder(from neighbour: DEMData, dx: Int, dy: Int) {
        guard neighbour.dim == dim, (-1...1).contains(dx), (-1...1).contains(dy), dx != 0 || dy != 0 else { return }
        var xMin = dx * dim, xMax = dx * dim + dim, yMin = dy * dim, yMax = dy * dim + dim
        if dx == -1 { xMin = xMax - 1 } else if dx == 1 { xMax = xMin + 1 }
        if dy == -1 { yMin = yMax - 1 } else if dy == 1 { yMax = yMin + 1 }
        let ox = -dx * dim, oy = -dy * dim
        for y in yMin..<yMax {
            for x in xMin..<xMax {
                let d = ((y + 1) * stride + x + 1) * 4, s = ((y + oy + 1) * stride + x + ox + 1) * 4
                for k in 0..<4 { pixels[d + k] = neighbour.pixels[s + k] }
            }
        }
    }
}
