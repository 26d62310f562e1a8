// Tile addressing — contract
// XYZ ("slippy map") tiles: at zoom z the Web Mercator world is 2^z × 2^z tiles, x east from
// −180°, y south from +85.0511°. Inputs are checked (0 ≤ z ≤ 30, 0 ≤ x, y < 2^z). Outputs: the
// tile's bounds in degrees, its TMS row (MBTiles counts rows from the south) and its file name
// (`y.png`, or `y@2x.png` for pixel ratio 2). The camera that renders a tile is GLMap's
// (`Metatile.swift` in GLMapPyramid).
import Foundation
import GLMapCore

/// One XYZ tile.
public struct TileAddress: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Zoom level, 0…`maxZoom`.
    public let z: Int
    /// Column, 0…2^z − 1 from the west (antimeridian).
    public let x: Int
    /// Row, 0…2^z − 1 from the north (XYZ, not TMS).
    public let y: Int

    /// The deepest zoom accepted.
    public static let maxZoom = 30

    /// A tile; throws when z, x or y is out of range.
    public init(z: Int, x: Int, y: Int) throws {
        guard (0...TileAddress.maxZoom).contains(z) else { throw InputFailure("tile zoom must be between 0 and \(TileAddress.maxZoom), got \(z)") }
        let n = 1 << z
        guard (0..<n).contains(x), (0..<n).contains(y) else {
            throw InputFailure("tile \(z)/\(x)/\(y) does not exist: x and y must be between 0 and \(n - 1) at zoom \(z)")
        }
        self.z = z; self.x = x; self.y = y
    }

    package init(unchecked z: Int, _ x: Int, _ y: Int) { self.z = z; self.x = x; self.y = y }

    /// `z/x/y`.
    public var description: String { "\(z)/\(x)/\(y)" }

    /// Orders by zoom, then column, then row.
    public static func < (a: TileAddress, b: TileAddress) -> Bool { (a.z, a.x, a.y) < (b.z, b.x, b.y) }

    /// The MBTiles (TMS) row: rows counted from the south.
    public var tmsRow: Int { (1 << z) - 1 - y }

    /// The tile whose TMS row is `row`.
    public static func fromTMS(z: Int, x: Int, row: Int) throws -> TileAddress {
        try TileAddress(z: z, x: x, y: (1 << max(0, min(z, maxZoom))) - 1 - row)
    }

    /// West, south, east, north in degrees.
    public var bounds: (west: Double, south: Double, east: Double, north: Double) {
        let n = Double(1 << z)
        let nw = WebMercator.unproject(x: Double(x) / n, y: Double(y) / n)
        let se = WebMercator.unproject(x: Double(x + 1) / n, y: Double(y + 1) / n)
        return (nw.lon, se.lat, se.lon, nw.lat)
    }

    /// The tile containing a point at zoom `z` (latitudes clamped to Web Mercator's range).
    public static func containing(lon: Double, lat: Double, z: Int) -> TileAddress {
        let n = 1 << z
        let p = WebMercator.project(lon: min(max(lon, -180), 180),
                                    lat: min(max(lat, -WebMercator.maxLatitude), WebMercator.maxLatitude))
        let x = min(max(Int((p.x * Double(n)).rounded(.down)), 0), n - 1)
        let y = min(max(Int((p.y * Double(n)).rounded(.down)), 0), n - 1)
        return TileAddress(unchecked: z, x, y)
    }

    /// `y.png`, or `y@2x.png` (any ratio r ≠ 1 gives `@<r>x`); `fileExtension` replaces png.
    public func fileName(ratio: Double, fileExtension: String = "png") -> String {
        guard ratio != 1 else { return "\(y).\(fileExtension)" }
        let r = ratio == ratio.rounded() ? String(Int(ratio)) : String(ratio)
        return "\(y)@\(r)x.\(fileExtension)"
    }

    /// `dir/z/x/y.png` (with the ratio suffix; `fileExtension` replaces png).
    public func path(in directory: String, ratio: Double, fileExtension: String = "png") -> String {
        "\(directory)/\(z)/\(x)/\(fileName(ratio: ratio, fileExtension: fileExtension))"
    }
}
