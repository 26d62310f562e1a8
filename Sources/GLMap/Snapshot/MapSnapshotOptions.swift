import Foundation

/// The size and pixel ratio of the images a `Snapshotter` draws.
public struct MapSnapshotOptions: Equatable, Sendable {
    /// Size in CSS pixels (whole numbers); the image is `size × pixelRatio` device pixels.
    public var size: CGSize
    /// Device pixels per CSS pixel: scales widths, radii and offsets (never resamples).
    public var pixelRatio: CGFloat

    /// Options for images of `size` CSS pixels at `pixelRatio`.
    public init(size: CGSize, pixelRatio: CGFloat = 1) {
        self.size = size
        self.pixelRatio = pixelRatio
    }
}
