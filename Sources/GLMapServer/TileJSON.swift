import Foundation
import GLMap
import GLMapCore
import GLMapStyle

/// TileJSON 3.0.0 documents for the served styles (raster PNG tiles, XYZ scheme).
public enum TileJSON {
    /// The document for style `id` at `tileSize` whose tile URLs start with `baseURL` ("http://host:port").
    public static func document(id: String, style: StyleDocument, tileSize: Int, baseURL: String, maxzoom: Int) -> String {
        let path = tileSize == 256 ? "/styles/\(id)" : "/styles/\(id)/\(tileSize)"
        // The style's zoom is MapLibre's (512-px world); a 256-px tile pyramid is one level deeper.
        let z = min(max(Int(style.zoom.rounded(.down)) + (tileSize == 256 ? 1 : 0), 0), maxzoom)
        let m = WebMercator.maxLatitude
        return """
        {"tilejson":"3.0.0","name":"\(id)","tiles":["\(baseURL)\(path)/{z}/{x}/{y}.png"],"scheme":"xyz","format":"png",\
        "tileSize":\(tileSize),"minzoom":0,"maxzoom":\(maxzoom),"bounds":[-180,\(-m),180,\(m)],\
        "center":[\(style.center.lon),\(style.center.lat),\(z)]}

        """
    }
}
