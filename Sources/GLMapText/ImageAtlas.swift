// ImageAtlas — contract
// Input: a tile's icon images and pattern images, each `(id, StyleImage)` in the order GL JS
// iterates them (`StyleImageStore.images(for:)` gives that order).
// Output: one RGBA image (straight alpha) with every image padded by 1 pixel — transparent for
// icons, wrapped from the opposite edge for patterns — and each image's `ImagePosition`, packed as
// GL JS's ImageAtlas: icons then patterns, potpack over (width + 2) × (height + 2) bins, the image at
// least 1×1. `premultipliedImage` is what a renderer uploads (GL JS uploads with
// UNPACK_PREMULTIPLY_ALPHA).
// Invariants: bins do not overlap and lie inside the image.
import GLMapCore

/// Where an image sits in an atlas, with the metadata layout reads (MapLibre's `ImagePosition`).
public struct ImagePosition: Equatable, Sendable {
    /// The padding around each image.
    public static let padding = 1
    /// The padded bin.
    public var paddedRect: AtlasRect
    /// Image pixels per CSS pixel.
    public var pixelRatio: Double
    /// The image's version when packed.
    public var version: Int
    /// The image's metadata (stretch zones, content, text fit, SDF flag); its pixels are in the atlas.
    public var image: StyleImage

    /// A position for `image` in `paddedRect`.
    public init(paddedRect: AtlasRect, image: StyleImage) {
        (self.paddedRect, self.pixelRatio, self.version) = (paddedRect, image.pixelRatio, image.version)
        self.image = image
    }

    /// Top-left of the image inside the bin.
    public var tl: (x: Int, y: Int) { (paddedRect.x + Self.padding, paddedRect.y + Self.padding) }
    /// Bottom-right of the image inside the bin.
    public var br: (x: Int, y: Int) { (paddedRect.x + paddedRect.w - Self.padding, paddedRect.y + paddedRect.h - Self.padding) }
    /// Size in CSS pixels: (bin − 2) / pixel ratio.
    public var displaySize: (width: Double, height: Double) {
        (Double(paddedRect.w - 2 * Self.padding) / pixelRatio, Double(paddedRect.h - 2 * Self.padding) / pixelRatio)
    }
    /// Horizontal stretch zones.
    public var stretchX: [(Double, Double)]? { image.stretchX }
    /// Vertical stretch zones.
    public var stretchY: [(Double, Double)]? { image.stretchY }
    /// Content box.
    public var content: (Double, Double, Double, Double)? { image.content }
    /// Horizontal text-fit rule.
    public var textFitWidth: TextFit? { image.textFitWidth }
    /// Vertical text-fit rule.
    public var textFitHeight: TextFit? { image.textFitHeight }
}

/// A tile's icon and pattern texture (see the contract above).
public struct ImageAtlas: Sendable {
    /// The atlas pixels, straight alpha.
    public var image: StraightImage
    /// Icon positions by id.
    public var iconPositions: [String: ImagePosition]
    /// Pattern positions by id.
    public var patternPositions: [String: ImagePosition]

    /// Packs `icons` then `patterns`.
    public init(icons: [(id: String, image: StyleImage)], patterns: [(id: String, image: StyleImage)] = []) {
        let pad = ImagePosition.padding
        let all = icons.map { ($0, false) } + patterns.map { ($0, true) }
        let packed = Potpack.pack(all.map { ($0.0.image.data.width + 2 * pad, $0.0.image.data.height + 2 * pad) })
        let width = max(packed.width, 1), height = max(packed.height, 1)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var iconPositions: [String: ImagePosition] = [:], patternPositions: [String: ImagePosition] = [:]
        for (i, entry) in all.enumerated() {
            let ((id, image), isPattern) = entry
            let bin = packed.positions[i]
            if isPattern { patternPositions[id] = ImagePosition(paddedRect: bin, image: image) } else {
                iconPositions[id] = ImagePosition(paddedRect: bin, image: image)
            }
            let src = image.data
            let x = bin.x + pad, y = bin.y + pad, w = src.width, h = src.height
            func copy(_ sx: Int, _ sy: Int, _ dx: Int, _ dy: Int, _ cw: Int, _ ch: Int) {
                guard cw > 0, ch > 0 else { return }
                for row in 0..<ch {
                    let s = ((sy + row) * w + sx) * 4, d = ((dy + row) * width + dx) * 4
                    pixels.replaceSubrange(d..<d + cw * 4, with: src.pixels[s..<s + cw * 4])
                }
            }
            copy(0, 0, x, y, w, h)
            if isPattern && w > 0 && h > 0 {
                copy(0, h - 1, x, y - 1, w, 1)   // top row from the bottom
                copy(0, 0, x, y + h, w, 1)       // bottom row from the top
                copy(w - 1, 0, x - 1, y, 1, h)   // left column from the right
                copy(0, 0, x + w, y, 1, h)       // right column from the left
            }
        }
        image = StraightImage(width: width, height: height, pixels: pixels)
        self.iconPositions = iconPositions
        self.patternPositions = patternPositions
    }

    /// The atlas premultiplied for upload, rounding as WebGL's UNPACK_PREMULTIPLY_ALPHA does
    /// (`(c · a + 127) / 255`, truncated).
    public var premultipliedImage: PremultipliedImage { image.premultiplied() }
}
