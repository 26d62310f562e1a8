// Metatiles — contract
// Input: a tile, a metatile size N, the tile size (256 or 512 CSS px) and the pixel ratio.
// Output: the metatile holding the tile — the block of N × N tiles aligned on multiples of N
// (clamped to the tiles that exist: at z0 one tile, at z1 2 × 2) — the render options that draw
// it as one frame, and where each of its tiles lies in that frame. The frame is the block plus
// `margin` CSS px on each side (none above the world's top row or below its bottom one, where
// MapLibre's camera constraint would move the view; left and right it wraps onto the next world
// copy), so labels are placed once, with the labels just outside the block competing, and a
// label crossing a tile edge inside the block is drawn whole on both sides. Size 1 is the plain
// per-tile render: no margin, the frame is the tile.
// Camera: centred on the frame, at zoom z for 512-px tiles and z − 1 for 256-px tiles (a 256-px
// tile at z is the 512-px world at z − 1, as tileserver-gl renders it). Tile edges fall on whole
// device pixels, so cutting the frame resamples nothing.
// Invariants: a tile's bytes depend only on its address, N, the tile size and the ratio (never on
// the box or shard asked for), so `glmap tiles`, its shards, `--resume` and `glmap serve` agree.
// Labels crossing the edge between two metatiles are placed in two frames and may still differ
// there (the margin makes it rare); inside a metatile they never do.
// Limits: `size(_:tileSize:ratio:)` shrinks N until the frame fits `MapRenderer.maxImageSize`.
import GLMap
import GLMapBatch
import Foundation
import GLMapArchives
import GLMapCore

/// A block of tiles drawn as one frame and cut into its tiles (see the contract above).
public struct Metatile: Hashable, Sendable, CustomStringConvertible {
    /// Tile zoom.
    public let z: Int
    /// The block's tile columns and rows.
    public let columns: ClosedRange<Int>, rows: ClosedRange<Int>
    /// CSS px drawn around the block on each side (0 for size 1).
    public let margin: Int

    /// The size `glmap tiles` and `glmap serve` use unless `--metatile` says otherwise.
    public static let defaultSize = 4
    /// The largest `--metatile` accepted.
    public static let maxSize = 64
    /// CSS px of map drawn around a block of more than one tile, so labels just outside compete.
    public static let defaultMargin = 128

    /// The metatile of `size` × `size` tiles holding `tile`.
    public init(containing tile: TileAddress, size: Int) {
        precondition(size >= 1, "metatile size must be at least 1")
        let last = (1 << tile.z) - 1
        let x0 = tile.x / size * size, y0 = tile.y / size * size
        z = tile.z
        columns = x0...min(x0 + size - 1, last)
        rows = y0...min(y0 + size - 1, last)
        margin = size > 1 ? Metatile.defaultMargin : 0
    }

    /// The largest size ≤ `requested` whose frame fits `MapRenderer.maxImageSize` device pixels.
    public static func size(_ requested: Int, tileSize: Int, ratio: Double) -> Int {
        var n = max(1, requested)
        while n > 1 && Double(frameSide(size: n, tileSize: tileSize)) * ratio > Double(MapRenderer.maxImageSize) { n -= 1 }
        return n
    }

    /// The side in CSS px of the largest frame of a metatile of `size` (margins included).
    public static func frameSide(size: Int, tileSize: Int) -> Int { size * tileSize + (size > 1 ? 2 * defaultMargin : 0) }

    /// `z/x0-x1/y0-y1`.
    public var description: String { "\(z)/\(columns.lowerBound)-\(columns.upperBound)/\(rows.lowerBound)-\(rows.upperBound)" }

    /// The block's tiles, column by column (x, then y).
    public var tiles: [TileAddress] { columns.flatMap { x in rows.map { TileAddress(unchecked: z, x, $0) } } }

    /// The margins in CSS px: left and right always, none past the world's top or bottom edge.
    var margins: (left: Int, top: Int, right: Int, bottom: Int) {
        (margin, rows.lowerBound > 0 ? margin : 0, margin, rows.upperBound < (1 << z) - 1 ? margin : 0)
    }

    /// The render options that draw the whole frame: `tileSize` CSS px (256 or 512) a tile at `ratio`.
    public func renderOptions(tileSize: Int, ratio: Double) -> RenderOptions {
        let m = margins, ts = Double(tileSize)
        let world = ts * Double(1 << z)   // CSS px at the camera zoom
        let left = Double(columns.lowerBound) * ts - Double(m.left), right = Double(columns.upperBound + 1) * ts + Double(m.right)
        let top = Double(rows.lowerBound) * ts - Double(m.top), bottom = Double(rows.upperBound + 1) * ts + Double(m.bottom)
        let center = WebMercator.unproject(x: (left + right) / 2 / world, y: (top + bottom) / 2 / world)
        // World = 512·2^zoom CSS px, and a tile must be tileSize px: zoom = z + log2(tileSize / 512).
        let zoom = Double(z) + log2(ts / 512)
        return RenderOptions(width: Int(right - left), height: Int(bottom - top), ratio: ratio, longitude: center.lon, latitude: center.lat,
                             zoom: zoom, bearing: 0, pitch: 0)
    }

    /// Where `tile` (one of `tiles`) lies in the frame, in device pixels.
    public func crop(_ tile: TileAddress, tileSize: Int, ratio: Double) -> PixelRect {
        precondition(tile.z == z && columns.contains(tile.x) && rows.contains(tile.y), "tile \(tile) is not in metatile \(self)")
        let m = margins
        func device(_ css: Int) -> Int { Int((Double(css) * ratio).rounded()) }
        let side = device(tileSize)
        return PixelRect(x: device((tile.x - columns.lowerBound) * tileSize + m.left), y: device((tile.y - rows.lowerBound) * tileSize + m.top),
                         width: side, height: side)
    }
}

extension TileAddress {
    /// The render options that draw this tile alone (a metatile of size 1): `tileSize` CSS px (256 or 512) at `ratio`.
    public func renderOptions(tileSize: Int, ratio: Double) -> RenderOptions {
        Metatile(containing: self, size: 1).renderOptions(tileSize: tileSize, ratio: ratio)
    }
}
