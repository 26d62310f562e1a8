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
    /// that it shows at the centre of the padded area (the ground point there, as `Camera.fitting`
    /// places a padded fit; MapLibre also moves the vanishing point under pitch, glmap does not).
    func renderCamera(width: Double, height: Double, defaults d: Camera) -> Camera {
        var c = Camera(longitude: center?.longitude ?? d.longitude, latitude: center?.latitude ?? d.latitude,
                       zoom: zoom ?? d.zoom, bearing: bearing ?? d.bearing, pitch: pitch ?? d.pitch)
        if let p = padding, p != .zero {
            let dx = (p.left - p.right) / 2, dy = (p.top - p.bottom) / 2
            let view = ViewTransform(camera: c, width: width, height: height, constrain: false)
            if let moved = view.groundPoint(screenX: width / 2 - dx, screenY: height / 2 - dy) {
                c.longitude = ViewTransform.wrap(moved.lon)
                c.latitude = moved.lat
            }
        }
        return c
    }
}
