import Foundation

/// Web Mercator as MapLibre uses it. Units (written once, used everywhere):
/// - "unit world" coordinates: x, y in 0…1 across the whole world, y down (north at 0);
/// - "world pixels" at zoom z: unit × `worldSize(z)` where `worldSize(z) = 512 · 2^z` CSS pixels;
/// - device pixels = CSS pixels × ratio (the image is size × ratio; never resampled).
public enum WebMercator {
    /// Tile size of MapLibre's world at zoom 0, in CSS pixels.
    public static let tileSize = 512.0
    /// Latitudes are clamped to ±`maxLatitude` before projecting (MapLibre's limit).
    public static let maxLatitude = 85.051128779806604

    /// World width in CSS pixels at `zoom`.
    @inline(__always)
    public static func worldSize(zoom: Double) -> Double { tileSize * exp2(zoom) }

    /// Projects longitude/latitude (degrees) to unit-world x, y (y down). Latitude is clamped.
    @inline(__always)
    public static func project(lon: Double, lat: Double) -> (x: Double, y: Double) {
        let clamped = min(max(lat, -maxLatitude), maxLatitude)
        let x = (180 + lon) / 360
        let y = (180 - (180 / Double.pi) * log(tan(Double.pi / 4 + clamped * Double.pi / 360))) / 360
        return (x, y)
    }

    /// Inverse of `project`.
    public static func unproject(x: Double, y: Double) -> (lon: Double, lat: Double) {
        let lon = x * 360 - 180
        let y2 = 180 - y * 360
        let lat = 360 / Double.pi * atan(exp(y2 * Double.pi / 180)) - 90
        return (lon, lat)
    }
}
