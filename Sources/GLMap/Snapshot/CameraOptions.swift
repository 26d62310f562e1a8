import Foundation
import GLMapCore

#if !canImport(UIKit)
/// UIKit's name for edge insets, so code written for iOS compiles on Linux.
public typealias UIEdgeInsets = EdgeInsets
#endif

/// Where the camera looks: every field is optional, and unset ones keep the current value.
public struct CameraOptions: Equatable, Sendable {
    /// The geographic point at the centre of the (padded) view.
    public var center: LocationCoordinate2D?
    /// Insets that shift where `center` appears: it is the centre of the view less the padding.
    public var padding: EdgeInsets?
    /// Zoom level (0…24).
    public var zoom: Double?
    /// Bearing in degrees clockwise from north.
    public var bearing: LocationDirection?
    /// Pitch in degrees (0…85).
    public var pitch: Double?

    /// Camera options; unset fields keep the snapshotter's current value.
    public init(center: LocationCoordinate2D? = nil, padding: EdgeInsets? = nil, zoom: CGFloat? = nil,
                bearing: LocationDirection? = nil, pitch: CGFloat? = nil) {
        self.center = center
        self.padding = padding
        self.zoom = zoom.map(Double.init)
        self.bearing = bearing
        self.pitch = pitch.map(Double.init)
    }
}

extension CameraOptions {
    /// The camera glmap draws with for a view of `width × height` CSS pixels: `center` moved so
    /// that it shows at the centre of the padded area. The shift is exact at pitch 0; at a pitch
    /// the view is still centred on the moved point (MapLibre moves the vanishing point instead).
    func renderCamera(width: Double, height: Double, defaults d: Camera) -> Camera {
        var c = Camera(longitude: center?.longitude ?? d.longitude, latitude: center?.latitude ?? d.latitude,
                       zoom: zoom ?? d.zoom, bearing: bearing ?? d.bearing, pitch: pitch ?? d.pitch)
        if let p = padding, p != .zero {
            let dx = (p.left - p.right) / 2, dy = (p.top - p.bottom) / 2
            let a = c.bearing * .pi / 180
            let rx = cos(a) * dx - sin(a) * dy, ry = sin(a) * dx + cos(a) * dy
            let size = WebMercator.worldSize(zoom: c.zoom)
            let u = WebMercator.project(lon: c.longitude, lat: c.latitude)
            let moved = WebMercator.unproject(x: u.x - rx / size, y: u.y - ry / size)
            c.longitude = moved.lon
            c.latitude = moved.lat
        }
        return c
    }

    /// The camera that fits `coordinates` in a `width × height` view less `padding` at `bearing`
    /// (MapLibre's fitBounds: the bounds of the points in the rotated frame, zoom from the tighter
    /// axis, the centre shifted by half the padding difference). Pitch is passed through; the fit
    /// is computed looking straight down. Nil for no (or non-finite) coordinates or padding that
    /// leaves no room.
    static func fitting(_ coordinates: [LocationCoordinate2D], width: Double, height: Double, padding: EdgeInsets,
                        bearing: Double, pitch: Double, maxZoom: Double = 24) -> CameraOptions? {
        guard !coordinates.isEmpty, coordinates.allSatisfy({ $0.latitude.isFinite && $0.longitude.isFinite }),
              width.isFinite, height.isFinite, bearing.isFinite else { return nil }
        let a = bearing * .pi / 180
        let points = coordinates.map { c -> (Double, Double) in
            let u = WebMercator.project(lon: c.longitude, lat: c.latitude)
            return (u.x * WebMercator.tileSize, u.y * WebMercator.tileSize)
        }
        // Rotate into the screen frame (by -bearing), take the bounds there.
        let rotated = points.map { (cos(-a) * $0.0 - sin(-a) * $0.1, sin(-a) * $0.0 + cos(-a) * $0.1) }
        let minX = rotated.map(\.0).min()!, maxX = rotated.map(\.0).max()!
        let minY = rotated.map(\.1).min()!, maxY = rotated.map(\.1).max()!
        let availableX = width - padding.left - padding.right, availableY = height - padding.top - padding.bottom
        guard availableX > 0, availableY > 0 else { return nil }
        let scaleX = maxX > minX ? availableX / (maxX - minX) : .infinity
        let scaleY = maxY > minY ? availableY / (maxY - minY) : .infinity
        let zoom = min(max(log2(min(scaleX, scaleY)), 0), maxZoom)
        // Centre of the rotated bounds, back in the world frame (zoom-0 pixels).
        let cx = (minX + maxX) / 2, cy = (minY + maxY) / 2
        let wx = cos(a) * cx - sin(a) * cy, wy = sin(a) * cx + cos(a) * cy
        let center = WebMercator.unproject(x: wx / WebMercator.tileSize, y: wy / WebMercator.tileSize)
        return CameraOptions(center: LocationCoordinate2D(latitude: center.lat, longitude: center.lon),
                             padding: padding, zoom: CGFloat(zoom), bearing: bearing, pitch: CGFloat(pitch))
    }
}
