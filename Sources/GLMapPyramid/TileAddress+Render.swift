// The camera that draws an XYZ tile: centered on the tile, at zoom z for 512-px tiles and z − 1
// for 256-px tiles (a 256-px tile at z is the 512-px world at z − 1, as tileserver-gl renders it).
// The camera draws everything in the tile's viewport, so features crossing its edges are drawn
// on both sides, never cut.
import GLMap
import GLMapBatch
import Foundation
import GLMapArchives
import GLMapCore

extension TileAddress {
    /// The render options that draw this tile: `tileSize` CSS px (256 or 512) at `ratio`.
    public func renderOptions(tileSize: Int, ratio: Double) -> RenderOptions {
        let n = Double(1 << z)
        let center = WebMercator.unproject(x: (Double(x) + 0.5) / n, y: (Double(y) + 0.5) / n)
        // World = 512·2^zoom CSS px, and the tile must be tileSize px: zoom = z + log2(tileSize / 512).
        let zoom = Double(z) + log2(Double(tileSize) / 512)
        return RenderOptions(width: tileSize, height: tileSize, ratio: ratio, longitude: center.lon, latitude: center.lat,
                             zoom: zoom, bearing: 0, pitch: 0)
    }
}
