// Static image cameras — contract
// Input: a static route's view (center form, a lon/lat box, or `auto`), the image size in CSS px
// and, for `auto`, the scene. Output: `RenderOptions` for that image. A box is fitted with
// `fit(...)`, which is GLMapCore's `Camera.fitting` (MapLibre Native's cameraForLatLngBounds: the
// box inside the image less `padding` of each side, zoom clamped to 0…22); `auto` fits the
// bounding box of every feature of every source the style's layers use, or shows the whole world
// when there is none.
import Foundation
import GLMap
import GLMapCore

/// Cameras for the static image routes.
public enum StaticCamera {
    /// Fraction of each side left empty around a fitted box (tileserver-gl's default padding).
    public static let padding = 0.1

    /// The camera (lon, lat, zoom) showing the unit-world box x0…x1, y0…y1 (y down) in width × height
    /// CSS px with `padding` of each side left empty: MapLibre Native's cameraForLatLngBounds
    /// (`Camera.fitting`, GLMapCore/CameraFit.swift), zoom clamped to 0…22.
    public static func fit(x0: Double, y0: Double, x1: Double, y1: Double, width: Int, height: Int,
                           padding: Double = StaticCamera.padding) -> (lon: Double, lat: Double, zoom: Double) {
        let nw = WebMercator.unproject(x: x0, y: y0), se = WebMercator.unproject(x: x1, y: y1)
        let bounds = LngLatBounds(west: nw.lon, south: se.lat, east: se.lon, north: nw.lat)
        let w = Double(width), h = Double(height)
        let insets = GLMapCore.EdgeInsets(top: h * padding, left: w * padding, bottom: h * padding, right: w * padding)
        // The router only lets through sizes ≥ 1 px and padding < 50 %, so fitting cannot fail;
        // the world is the answer if it ever did.
        guard let c = try? Camera.fitting(bounds, width: w, height: h, padding: insets, zoomRange: 0...22) else { return (0, 0, 0) }
        return (c.longitude, c.latitude, c.zoom)
    }

    /// The unit-world bounding box of the scene's features (nil when it has none).
    public static func dataBounds(_ scene: Scene) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for b in scene.sourceBounds.values where !b.isEmpty {
            x0 = min(x0, b.minX); x1 = max(x1, b.maxX)
            y0 = min(y0, b.minY); y1 = max(y1, b.maxY)
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
