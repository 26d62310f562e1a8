import GLMapCore

/// How an icon stretched by `icon-text-fit` may change its aspect ratio (`textFitWidth`/`textFitHeight`).
public enum TextFit: String, Sendable {
    /// Fits the content box to the text, growing or shrinking (the default).
    case stretchOrShrink
    /// Fits the content box to the text, but keeps at least the content's aspect ratio when the
    /// other axis is proportional.
    case stretchOnly
    /// Follows the other axis to keep the content's aspect ratio.
    case proportional
}

/// An image of the style (a sprite entry or one added at run time) with its metadata (MapLibre's
/// `StyleImage`): pixels in straight alpha as GL JS reads them from a canvas, pixel ratio, SDF
/// flag, stretch zones, content box and text-fit rules.
public struct StyleImage: Equatable, Sendable {
    /// The pixels (straight alpha).
    public var data: StraightImage
    /// Image pixels per CSS pixel (a `@2x` sprite's images have 2).
    public var pixelRatio: Double
    /// Whether the image is a signed distance field tinted by `icon-color`.
    public var sdf: Bool
    /// Horizontal stretch zones in image pixels, `[start, end]` pairs.
    public var stretchX: [(Double, Double)]?
    /// Vertical stretch zones.
    public var stretchY: [(Double, Double)]?
    /// The box text may cover: left, top, right, bottom in image pixels.
    public var content: (Double, Double, Double, Double)?
    /// Horizontal `icon-text-fit` rule.
    public var textFitWidth: TextFit?
    /// Vertical `icon-text-fit` rule.
    public var textFitHeight: TextFit?
    /// Bumped by each update (GL JS's `version`).
    public var version: Int

    /// An image with metadata.
    public init(data: StraightImage, pixelRatio: Double = 1, sdf: Bool = false, stretchX: [(Double, Double)]? = nil,
                stretchY: [(Double, Double)]? = nil, content: (Double, Double, Double, Double)? = nil,
                textFitWidth: TextFit? = nil, textFitHeight: TextFit? = nil, version: Int = 0) {
        (self.data, self.pixelRatio, self.sdf, self.stretchX) = (data, pixelRatio, sdf, stretchX)
        (self.stretchY, self.content, self.textFitWidth) = (stretchY, content, textFitWidth)
        (self.textFitHeight, self.version) = (textFitHeight, version)
    }

    /// Whether two images have the same pixels and metadata.
    public static func == (a: StyleImage, b: StyleImage) -> Bool {
        func zones(_ z: [(Double, Double)]?) -> [Double]? { z.map { $0.flatMap { [$0.0, $0.1] } } }
        func box(_ c: (Double, Double, Double, Double)?) -> [Double]? { c.map { [$0.0, $0.1, $0.2, $0.3] } }
        return a.data == b.data && a.pixelRatio == b.pixelRatio && a.sdf == b.sdf && zones(a.stretchX) == zones(b.stretchX)
            && zones(a.stretchY) == zones(b.stretchY) && box(a.content) == box(b.content) && a.textFitWidth == b.textFitWidth
            && a.textFitHeight == b.textFitHeight && a.version == b.version
    }

    /// Why the metadata does not fit the image (GL JS's `ImageManager._validate`): stretch zones
    /// must ascend and lie inside the image, the content box inside it with left ≤ right and
    /// top ≤ bottom. Nil when valid.
    public func validationProblem() -> String? {
        func stretchValid(_ zones: [(Double, Double)]?, size: Int) -> Bool {
            guard let zones else { return true }
            var last = 0.0
            for (a, b) in zones {
                if !(a >= last) || !(b >= a) || !(Double(size) >= b) { return false }
                last = b
            }
            return true
        }
        var problems: [String] = []
        if !stretchValid(stretchX, size: data.width) { problems.append("invalid \"stretchX\" value") }
        if !stretchValid(stretchY, size: data.height) { problems.append("invalid \"stretchY\" value") }
        if let c = content {
            let w = Double(data.width), h = Double(data.height)
            let ok = c.0 >= 0 && c.0 <= w && c.1 >= 0 && c.1 <= h && c.2 >= 0 && c.2 <= w && c.3 >= 0 && c.3 <= h
                && c.2 >= c.0 && c.3 >= c.1
            if !ok { problems.append("invalid \"content\" value") }
        }
        return problems.isEmpty ? nil : problems.joined(separator: ", ")
    }

    /// `image` as a browser's 2D canvas hands it back (`getImageData` after `drawImage`): each
    /// pixel premultiplied to 8 bits and unpremultiplied again with Skia's rounding, which is how
    /// GL JS reads sprite sheets and `addImage` images. Opaque and fully transparent pixels keep
    /// their colour bytes only when opaque; transparent pixels become 0,0,0,0.
    public static func canvasRoundTrip(_ image: StraightImage) -> StraightImage {
        var px = image.pixels
        var i = 0
        while i + 3 < px.count {
            let a = Int(px[i + 3])
            if a == 0 {
                px[i] = 0; px[i + 1] = 0; px[i + 2] = 0
            } else if a < 255 {
                let scale = (255 << 24) / a
                for c in 0..<3 {
                    let prod = Int(px[i + c]) * a + 128
                    let premul = (prod + (prod >> 8)) >> 8
                    px[i + c] = UInt8(min(255, (premul * scale + (1 << 23)) >> 24))
                }
            }
            i += 4
        }
        return StraightImage(width: image.width, height: image.height, pixels: px)
    }
}
