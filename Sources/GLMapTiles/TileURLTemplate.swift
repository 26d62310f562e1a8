import Foundation
import GLMapCore

/// Fills tile URL templates as GL JS's `CanonicalTileID.url` does.
public enum TileURLTemplate {
    /// The URL of `tile`: the template `templates[(x + y) % count]` with {z} {x} {y} (the TMS row
    /// for `scheme` tms), {quadkey}, {bbox-epsg-3857} (whoots-js's arithmetic, numbers written as
    /// JavaScript writes them), {prefix} (x % 16 and y % 16 as hex digits) and {ratio} ("@2x" when
    /// `pixelRatio` > 1) replaced.
    public static func url(_ templates: [String], tile: CanonicalTileID, scheme: TileScheme = .xyz, pixelRatio: Double = 1) -> String {
        guard !templates.isEmpty else { return "" }
        let t = templates[(tile.x + tile.y) % templates.count]
        guard t.contains("{") else { return t }
        let y = scheme == .tms ? tile.tmsY : tile.y
        var s = t.replacingOccurrences(of: "{prefix}", with: String(tile.x % 16, radix: 16) + String(tile.y % 16, radix: 16))
        s = s.replacingOccurrences(of: "{z}", with: String(tile.z))
        s = s.replacingOccurrences(of: "{x}", with: String(tile.x))
        s = s.replacingOccurrences(of: "{y}", with: String(y))
        s = s.replacingOccurrences(of: "{ratio}", with: pixelRatio > 1 ? "@2x" : "")
        s = s.replacingOccurrences(of: "{quadkey}", with: tile.quadkey)
        if s.contains("{bbox-epsg-3857}") { s = s.replacingOccurrences(of: "{bbox-epsg-3857}", with: bbox(tile)) }
        return s
    }

    /// whoots-js's getTileBBox: "minX,minY,maxX,maxY" in EPSG:3857 metres.
    static func bbox(_ tile: CanonicalTileID) -> String {
        let y = Double(tile.tilesPerSide - tile.y - 1)
        func merc(_ px: Double, _ py: Double) -> (Double, Double) {
            let resolution = (2 * Double.pi * 6378137 / 256) / Double(tile.tilesPerSide)
            return (px * resolution - 2 * Double.pi * 6378137 / 2.0, py * resolution - 2 * Double.pi * 6378137 / 2.0)
        }
        let lo = merc(Double(tile.x) * 256, y * 256), hi = merc(Double(tile.x + 1) * 256, (y + 1) * 256)
        return [lo.0, lo.1, hi.0, hi.1].map { JSONValue.formatNumber($0 == 0 ? 0 : $0) }.joined(separator: ",")
    }
}

/// The part of the world a source has tiles for, tested as GL JS's TileBounds does.
public struct TileBounds: Sendable, Equatable {
    /// West, south, east, north in degrees (clamped to ±180, ±90).
    public var west: Double, south: Double, east: Double, north: Double

    /// Bounds from [west, south, east, north], clamped as GL JS clamps them.
    public init(_ b: [Double]) {
        west = Swift.max(-180, b[0]); south = Swift.max(-90, b[1]); east = Swift.min(180, b[2]); north = Swift.min(90, b[3])
    }

    /// Whether the tile's column and row fall inside the bounds' tile range at its zoom.
    public func contains(_ tile: CanonicalTileID) -> Bool {
        let n = Double(tile.tilesPerSide)
        func mx(_ lon: Double) -> Double { (180 + lon) / 360 }
        func my(_ lat: Double) -> Double { (180 - (180 / Double.pi * log(tan(Double.pi / 4 + lat * Double.pi / 360)))) / 360 }
        let minX = (mx(west) * n).rounded(.down), minY = (my(north) * n).rounded(.down)
        let maxX = (mx(east) * n).rounded(.up), maxY = (my(south) * n).rounded(.up)
        let x = Double(tile.x), y = Double(tile.y)
        return x >= minX && x < maxX && y >= minY && y < maxY
    }
}
