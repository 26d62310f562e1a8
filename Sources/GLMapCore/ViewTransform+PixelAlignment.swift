import Foundation

extension ViewTransform {
    /// The shift in world pixels GL JS's `alignedProjMatrix` applies before projecting (raster,
    /// hillshade and color-relief tiles of a still frame are drawn with it): the fractional part
    /// of the centre's world position, plus half a pixel along each odd viewport dimension turned
    /// with the bearing, taken into −½…½, so that unrotated raster texels land on the pixel grid.
    /// Drawing with `translate` = this shift (map anchor) gives the aligned matrix.
    public var pixelAlignment: (x: Double, y: Double) {
        let xShift = width.truncatingRemainder(dividingBy: 2) / 2, yShift = height.truncatingRemainder(dividingBy: 2) / 2
        let bearing = camera.bearing * Double.pi / 180
        let c = cos(bearing), s = sin(-bearing)
        // JavaScript's Math.round: halves round up.
        let dx = centerX - (centerX + 0.5).rounded(.down) + c * xShift + s * yShift
        let dy = centerY - (centerY + 0.5).rounded(.down) + c * yShift + s * xShift
        return (dx > 0.5 ? dx - 1 : dx, dy > 0.5 ? dy - 1 : dy)
    }
}
