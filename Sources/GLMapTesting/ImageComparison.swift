// ImageComparison — the render tests' comparison rule over PNG files.
//
// Inputs:  straight-alpha RGBA images (or PNG files); pixelmatch 7.1.0's threshold and includeAA.
// Outputs: mismatching pixels, their fraction of the image's pixels, and the diff image pixelmatch
//          draws (grey copy of the first image, red differences, yellow anti-aliased pixels).
// Invariants: counts are exactly pixelmatch 7.1.0's (GLMapCore.Pixelmatch is the port); sizes must
//          match, a size mismatch is an error naming both sizes, never a diff; with several
//          expected images the smallest difference wins (MapLibre's rule).
import Foundation
import GLMapCore
import GLMapPNG

/// The outcome of comparing two images with pixelmatch.
public struct ImageComparison: Sendable {
    /// Mismatching pixels (anti-aliased ones excluded unless includeAA was set).
    public var mismatched: Int
    /// Pixels in the image (width × height).
    public var pixels: Int
    /// The diff image pixelmatch draws.
    public var diff: StraightImage

    /// `mismatched / pixels`, the figure compared with `allowed`.
    public var difference: Double { pixels == 0 ? 0 : Double(mismatched) / Double(pixels) }

    /// Compares `first` with `second` as `pixelmatch(first, second, diff, w, h, {threshold, includeAA})`.
    /// Throws `InputFailure` naming both sizes when they differ.
    public static func compare(_ first: StraightImage, _ second: StraightImage, threshold: Double = RenderTestCase.defaultThreshold,
                               includeAA: Bool = false, firstName: String = "the first image",
                               secondName: String = "the second image") throws -> ImageComparison {
        guard first.width == second.width, first.height == second.height else {
            throw InputFailure("image sizes differ: \(firstName) is \(first.width)×\(first.height), \(secondName) is \(second.width)×\(second.height)")
        }
        var diff: StraightImage? = StraightImage(width: first.width, height: first.height)
        let options = Pixelmatch.Options(threshold: threshold, includeAA: includeAA)
        let count = try Pixelmatch.compare(first, second, options: options, diff: &diff)
        return ImageComparison(mismatched: count, pixels: first.width * first.height, diff: diff!)
    }

    /// Decodes a PNG for comparison; any failure (missing, unreadable, not a PNG) is invalid input
    /// naming the file.
    public static func load(_ path: String) throws -> StraightImage {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw InputFailure("\(path): cannot read the file (missing or unreadable)")
        }
        do {
            return try PNGDecoder.decode(contentsOf: path)
        } catch {
            throw InputFailure("\(path): not a readable PNG: \(error)")
        }
    }
}

/// The best match of an actual image among a case's expected images.
public struct BestMatch: Sendable {
    /// The expected file that gave the smallest difference.
    public var expectedFile: String
    /// That file's image.
    public var expected: StraightImage
    /// The comparison with it.
    public var comparison: ImageComparison

    /// Compares `actual` with every file of `expectedFiles` (pixelmatch(actual, expected) as the
    /// render-test harness calls it) and keeps the smallest difference; nil when the list is empty.
    public static func find(actual: StraightImage, expectedFiles: [String], threshold: Double) throws -> BestMatch? {
        var best: BestMatch?
        for file in expectedFiles {
            let expected = try ImageComparison.load(file)
            let c = try ImageComparison.compare(actual, expected, threshold: threshold,
                                                firstName: "the rendered image",
                                                secondName: (file as NSString).lastPathComponent)
            if best == nil || c.difference < best!.comparison.difference {
                best = BestMatch(expectedFile: file, expected: expected, comparison: c)
            }
        }
        return best
    }
}
