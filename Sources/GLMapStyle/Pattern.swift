import GLMapCore

/// Where a pattern image lies in the pattern atlas (MapLibre's `ImagePosition` as the pattern
/// shaders read it): the image's pixels without the 1-pixel wrapped padding, in atlas pixels,
/// and how many image pixels make one CSS pixel.
public struct PatternImage: Sendable, Equatable {
    /// Left edge of the image in the atlas (pixels).
    public var x0: Double
    /// Top edge.
    public var y0: Double
    /// Right edge (exclusive).
    public var x1: Double
    /// Bottom edge (exclusive).
    public var y1: Double
    /// Image pixels per CSS pixel (2 for an `@2x` sprite's images).
    public var pixelRatio: Double

    /// An image at [x0, x1) × [y0, y1) of the atlas.
    public init(x0: Double, y0: Double, x1: Double, y1: Double, pixelRatio: Double) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
        self.pixelRatio = pixelRatio
    }

    /// The image's size in CSS pixels.
    public var displaySize: (width: Double, height: Double) {
        ((x1 - x0) / pixelRatio, (y1 - y0) / pixelRatio)
    }

    /// The four floats a `pattern_from`/`pattern_to` input holds: top-left and bottom-right.
    public var rect: [Float] { [Float(x0), Float(y0), Float(x1), Float(y1)] }
}

/// A `*-pattern` value cross-faded between zooms (MapLibre's `CrossFaded<ResolvedImage>`): the
/// image shown before (`from`) and after (`to`) the last integer zoom change. A still frame has
/// finished fading, so it shows `to` (at scale 1); `from` must exist too (else MapLibre draws nothing).
public struct EvaluatedPattern: Sendable, Equatable {
    /// The image faded from.
    public var from: PatternImage
    /// The image faded to.
    public var to: PatternImage

    /// A pattern fading from `from` to `to`.
    public init(from: PatternImage, to: PatternImage) {
        self.from = from
        self.to = to
    }
}

/// Every image patterns may read, packed into one atlas (premultiplied RGBA8, uploaded once per
/// scene and pixel ratio), with each image's place.
public struct PatternAtlas: Sendable {
    /// The atlas pixels, premultiplied as WebGL's UNPACK_PREMULTIPLY_ALPHA uploads them.
    public var image: PremultipliedImage
    /// The images by id.
    public var images: [String: PatternImage]
    /// Identifies this atlas across frames (the GPU keeps one upload per key).
    public var key: UInt64

    /// An atlas over `image` with `images` placed in it.
    public init(image: PremultipliedImage, images: [String: PatternImage], key: UInt64) {
        self.image = image
        self.images = images
        self.key = key
    }

    /// An atlas with no images.
    public static let empty = PatternAtlas(image: PremultipliedImage(width: 1, height: 1), images: [:], key: 0)
}

/// MapLibre's cross-fade parameters for a still frame at `zoom` (`getCrossfadeParameters` with the
/// fade finished): between integer zooms the map is "zooming in" (`from` drawn at scale 2), on one
/// "zooming out" (scale 0.5); `to` at scale 1; the mix is 1.
public struct CrossFade: Sendable, Equatable {
    /// Scale of the faded-from image.
    public var fromScale: Double
    /// Scale of the faded-to image (1).
    public var toScale: Double
    /// Mix between the two (1: the `to` image only).
    public var t: Double

    /// The parameters of a still frame at `zoom`.
    public init(zoom: Double) {
        fromScale = zoom > zoom.rounded(.down) ? 2 : 0.5
        toScale = 1
        t = 1
    }

    /// The zooms the `from` value is read at: one below (zooming in) or above (zooming out) the
    /// `to` zoom (MapLibre's `_calculate(min, mid, max)`).
    public static func fromZoom(frameZoom zoom: Double, toZoom: Double) -> Double {
        zoom > zoom.rounded(.down) ? toZoom - 1 : toZoom + 1
    }
}
