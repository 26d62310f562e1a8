// Static image cameras — contract
// Input: a static route's view (center form, a lon/lat box, or `auto`), the image size in CSS px
// and, for `auto`, the scene. Output: `RenderOptions` for that image. A box is fitted with
// `fit(...)` (the box's Mercator extent inside the image less `padding` of each side, zoom
// clamped to 0…22, centered on the box's Mercator middle); `auto` fits the bounding box of every
// feature of every source the style's layers use, or shows the whole world when there is none.
// `fit` is the one place the fitting rule lives, so it can be swapped for the library's own.
import Foundation
import GLMap
import GLMapCore

/// Cameras for the static image routes.
public enum StaticCamera {
    /// Fraction of each side left empty around a fitted box (tileserver-gl's default padding).
    public static let padding = 0.1

    /// The camera (lon, lat, zoom) showing the unit-world box x0…x1, y0…y1 (y down) in width × height CSS px.
    public static func fit(x0: Double, y0: Double, x1: Double, y1: Double, width: Int, height: Int,
                           padding: Double = StaticCamera.padding) -> (lon: Double, lat: Double, zoom: Double) {
        let w = Double(width) * (1 - 2 * padding), h = Double(height) * (1 - 2 * padding)
        let dx = max(x1 - x0, 1e-12), dy = max(y1 - y0, 1e-12)
        let zoom = min(max(log2(min(w / (dx * WebMercator.tileSize), h / (dy * WebMercator.tileSize))), 0), 22)
        let c = WebMercator.unproject(x: (x0 + x1) / 2, y: (y0 + y1) / 2)
        return (c.lon, c.lat, zoom)
    }

    /// The unit-world bounding box of the scene's features (nil when it has none).
    public static func dataBounds(_ scene: Scene) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for features in scene.features.values {
            for f in features {
                let v = f.allVertices
                var i = 0
                while i + 1 < v.count {
                    x0 = min(x0, v[i]); x1 = max(x1, v[i])
                    y0 = min(y0, v[i + 1]); y1 = max(y1, v[i + 1])
                    i += 2
                }
            }
        }
        return x0 <= x1 && y0 <= y1 ? (x0, y0, x1, y1) : nil
    }

    /// The render options of a static image route.
    public static func options(_ view: ServerRoute.StaticView, width: Int, height: Int, scale: Int,
                               dataBounds: (x0: Double, y0: Double, x1: Double, y1: Double)?) -> RenderOptions {
        switch view {
        case let .center(lon, lat, zoom, bearing, pitch):
            return RenderOptions(width: width, height: height, ratio: Double(scale), longitude: lon, latitude: lat,
                                 zoom: zoom, bearing: bearing, pitch: pitch)
        case let .area(a, b, c, d):
            let nw = WebMercator.project(lon: a, lat: d), se = WebMercator.project(lon: c, lat: b)
            let f = fit(x0: nw.x, y0: nw.y, x1: se.x, y1: se.y, width: width, height: height)
            return RenderOptions(width: width, height: height, ratio: Double(scale), longitude: f.lon, latitude: f.lat,
                                 zoom: f.zoom, bearing: 0, pitch: 0)
        case .auto:
            let b = dataBounds ?? (0, 0, 1, 1)
            let f = fit(x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1, width: width, height: height)
            return RenderOptions(width: width, height: height, ratio: Double(scale), longitude: f.lon, latitude: f.lat,
                                 zoom: f.zoom, bearing: 0, pitch: 0)
        }
    }
}
