import Foundation
import GLMapCore

/// An image added to the style at run time (`Snapshotter.addImage`), for icons and patterns.
public struct StyleImage: Equatable, Sendable {
    /// The image, straight-alpha RGBA8.
    public var image: StraightImage
    /// Image pixels per CSS pixel (2 for an @2x image).
    public var pixelRatio: Double
    /// Whether the image is a signed distance field, tinted by `icon-color` (`sdf`).
    public var sdf: Bool
    /// Horizontal ranges (image pixels) that stretch for `icon-text-fit`.
    public var stretchX: [[Double]]
    /// Vertical ranges (image pixels) that stretch for `icon-text-fit`.
    public var stretchY: [[Double]]
    /// The area text may cover for `icon-text-fit`: left, top, right, bottom in image pixels.
    public var content: [Double]?

    /// An image with its options (MapLibre's `addImage` options; defaults: ratio 1, not SDF).
    public init(image: StraightImage, pixelRatio: Double = 1, sdf: Bool = false, stretchX: [[Double]] = [],
                stretchY: [[Double]] = [], content: [Double]? = nil) {
        (self.image, self.pixelRatio, self.sdf, self.stretchX) = (image, pixelRatio, sdf, stretchX)
        (self.stretchY, self.content) = (stretchY, content)
    }
}
