/// An 8-bit single-channel raster (rows top to bottom): a glyph's signed distance field, or the
/// glyph atlas (MapLibre's `AlphaImage`).
public struct AlphaImage: Equatable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height` bytes, row-major, top row first.
    public var pixels: [UInt8]

    /// An image over `pixels`; nil when the count is not `width * height` (MapLibre throws
    /// "mismatched image size" there).
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width >= 0, height >= 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A zeroed image.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        pixels = [UInt8](repeating: 0, count: self.width * self.height)
    }

    /// The byte at (x, y).
    public subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }

    /// Copies the `width`×`height` block at `source` of `from` to `destination` in this image, as
    /// MapLibre's `AlphaImage.copy` does; the block must lie inside both images.
    public mutating func copy(from src: AlphaImage, source: (x: Int, y: Int), destination: (x: Int, y: Int),
                              width w: Int, height h: Int) {
        guard w > 0, h > 0 else { return }
        precondition(source.x >= 0 && source.y >= 0 && source.x + w <= src.width && source.y + h <= src.height,
                     "copy source out of range")
        precondition(destination.x >= 0 && destination.y >= 0 && destination.x + w <= width && destination.y + h <= height,
                     "copy destination out of range")
        src.pixels.withUnsafeBufferPointer { s in
            pixels.withUnsafeMutableBufferPointer { d in
                for row in 0..<h {
                    let si = (source.y + row) * src.width + source.x
                    let di = (destination.y + row) * width + destination.x
                    (d.baseAddress! + di).update(from: s.baseAddress! + si, count: w)
                }
            }
        }
    }
}
