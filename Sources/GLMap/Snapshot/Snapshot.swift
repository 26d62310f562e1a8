import Foundation
import GLMapCore
import GLMapPNG
import GLMapStyle

/// One rendered image.
public struct Snapshot: Sendable {
    /// The image, straight-alpha RGBA8, `width × height` device pixels, rows top to bottom.
    public let image: StraightImage
    /// Device pixels per CSS pixel the image was drawn at.
    public let pixelRatio: Double
    /// What was tolerated, as `glmap render` warns: style features glmap skips, unusable source data.
    public let warnings: [String]

    /// Width in device pixels.
    public var width: Int { image.width }
    /// Height in device pixels.
    public var height: Int { image.height }
    /// Straight-alpha RGBA bytes, 4 per pixel, rows top to bottom.
    public var pixels: [UInt8] { image.pixels }

    /// The image as PNG: the same bytes `glmap render` writes for the same style and camera (its
    /// default compression, one image's data compressed in pieces on all cores as the CLI does).
    public func pngData() throws -> Data {
        do {
            return Data(try PNGEncoder.encode(image, compression: .default, threads: PNGEncoder.allCores))
        } catch {
            throw SnapshotError(error)
        }
    }
}

/// Why a snapshot could not be made.
public enum SnapshotError: Error, Equatable, CustomStringConvertible {
    /// The style is invalid: every problem with its JSON path, worded as `glmap render` words them.
    case invalidStyle(StyleError)
    /// Size, pixel ratio or camera out of range.
    case invalidOptions(String)
    /// Drawing, reading back or encoding failed (the EGL/GL call or the encoder says why).
    case renderFailed(String)

    init(_ error: Error) {
        switch error {
        case let e as SnapshotError: self = e
        case let e as StyleError: self = .invalidStyle(e)
        case let e as GLMapError where e.kind == .invalidInput: self = .invalidOptions(e.description)
        default: self = .renderFailed("\(error)")
        }
    }

    /// The message: the style's JSON paths, or what was out of range or failed.
    public var description: String {
        switch self {
        case .invalidStyle(let e): return e.description
        case .invalidOptions(let m), .renderFailed(let m): return m
        }
    }
}

/// Lets an overlay handler draw on a snapshot before it is delivered.
public final class SnapshotOverlay {
    /// The image being delivered (straight-alpha RGBA8, device pixels); change its pixels to draw.
    public var image: StraightImage
    /// Device pixels per CSS pixel.
    public let pixelRatio: Double
    private let view: ViewTransform

    init(image: StraightImage, pixelRatio: Double, view: ViewTransform) {
        self.image = image
        self.pixelRatio = pixelRatio
        self.view = view
    }

    /// Where a coordinate lies in the image, in CSS pixels from the top left (nil behind the camera).
    public func pointForCoordinate(_ coordinate: LocationCoordinate2D) -> CGPoint? {
        guard let p = view.screenPoint(lon: coordinate.longitude, lat: coordinate.latitude) else { return nil }
        return CGPoint(x: p.x, y: p.y)
    }

    /// Sets the device pixels of `rect` (CSS pixels) to `color`, blended over what is there.
    public func fill(_ rect: CGRect, color: StyleColor) {
        let r = pixelRatio
        let x0 = max(0, Int((Double(rect.minX) * r).rounded())), x1 = min(image.width, Int((Double(rect.maxX) * r).rounded()))
        let y0 = max(0, Int((Double(rect.minY) * r).rounded())), y1 = min(image.height, Int((Double(rect.maxY) * r).rounded()))
        guard x0 < x1, y0 < y1 else { return }
        let a = color.alpha
        let src = [color.red, color.green, color.blue]
        for y in y0..<y1 {
            for x in x0..<x1 {
                let i = (y * image.width + x) * 4
                let da = Double(image.pixels[i + 3]) / 255
                let oa = a + da * (1 - a)
                for c in 0..<3 {
                    let dc = Double(image.pixels[i + c])
                    let v = oa > 0 ? (src[c] * a + dc * da * (1 - a)) / oa : 0
                    image.pixels[i + c] = UInt8(min(max(v.rounded(), 0), 255))
                }
                image.pixels[i + 3] = UInt8(min(max((oa * 255).rounded(), 0), 255))
            }
        }
    }
}
