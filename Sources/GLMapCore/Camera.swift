import Foundation

/// Where the map is looked at from: MapLibre's camera (center, zoom, bearing, pitch).
public struct Camera: Equatable, Sendable {
    /// Center longitude and latitude in degrees.
    public var longitude: Double
    /// Center latitude in degrees (projection clamps it to Web Mercator's ±85.0511°).
    public var latitude: Double
    /// Zoom level: the world is `512 · 2^zoom` CSS pixels wide.
    public var zoom: Double
    /// Rotation in degrees, clockwise from north (MapLibre's convention).
    public var bearing: Double
    /// Tilt in degrees from looking straight down (0…85).
    public var pitch: Double

    /// A camera; every part defaults to 0 (the world's centre at zoom 0, north up, looking straight down).
    public init(longitude: Double = 0, latitude: Double = 0, zoom: Double = 0, bearing: Double = 0, pitch: Double = 0) {
        (self.longitude, self.latitude, self.zoom, self.bearing) = (longitude, latitude, zoom, bearing)
        self.pitch = pitch
    }
}

extension Camera {
    /// MapLibre's camera constraint for a `width × height` CSS-pixel view: the world always covers
    /// the view vertically. A world shorter than the view is zoomed in until it is as tall and
    /// centred on the equator; otherwise a centre whose view would reach past ±85.05° moves just so
    /// far that the view's top or bottom edge meets the world's. Bearing and pitch do not enter
    /// (MapLibre Native's `TransformState::constrain` and GL JS's `getConstrained` use the view
    /// height alone). A view inside the world, like every tile's, is returned unchanged.
    public func constrained(width: Double, height: Double) -> Camera {
        guard height > 0, height.isFinite, zoom.isFinite, latitude.isFinite else { return self }
        var c = self
        var world = WebMercator.worldSize(zoom: zoom)
        var y = WebMercator.project(lon: longitude, lat: latitude).y * world
        // A hair of tolerance, so a tile's exact centre never moves by rounding.
        let slack = 1e-9 * max(1, world)
        if world < height - slack {
            c.zoom = zoom + log2(height / world)
            world = WebMercator.worldSize(zoom: c.zoom)
            y = world / 2
        } else if y < height / 2 - slack {
            y = height / 2
        } else if y > world - height / 2 + slack {
            y = world - height / 2
        } else {
            return self
        }
        c.latitude = WebMercator.unproject(x: 0, y: y / world).lat
        return c
    }
}

/// A camera looking at a viewport of `width × height` CSS pixels: the matrices that map world
/// coordinates to clip space and to CSS-pixel screen coordinates (y down), as MapLibre's
/// `Transform` builds them (vertical field of view 0.6435 rad ≈ 36.87°).
public struct ViewTransform: Sendable {
    /// The camera, its longitude wrapped into −180…180.
    public let camera: Camera
    /// Viewport width in CSS pixels.
    public let width: Double
    /// Viewport height in CSS pixels.
    public let height: Double
    /// MapLibre's vertical field of view in radians.
    public static let fieldOfView = 0.6435011087932844

    /// World size in CSS pixels at the camera's zoom.
    public let worldSize: Double
    /// The camera center in world pixels.
    public let centerX: Double
    /// The camera center in world pixels, y down from the north edge.
    public let centerY: Double
    /// Distance from the camera to the center of the viewport, in CSS pixels.
    public let cameraToCenterDistance: Double
    /// World pixels (z up, in pixels) → clip space.
    public let projectionMatrix: Matrix4

    /// `constrain`: apply MapLibre's camera constraint (`Camera.constrained`), as every drawn
    /// view does; `camera` then holds the constrained camera. Off only for measuring (camera fits).
    public init(camera: Camera, width: Double, height: Double, constrain: Bool = true) {
        // A longitude outside [-180, 180] is the same place on another world copy: wrap it
        // (exact remainder), so any finite longitude — even ±1e300 — gives a centre on this world.
        var camera = constrain ? camera.constrained(width: width, height: height) : camera
        if abs(camera.longitude) > 180 { camera.longitude = ViewTransform.wrap(camera.longitude) }
        self.camera = camera
        self.width = width
        self.height = height
        worldSize = WebMercator.worldSize(zoom: camera.zoom)
        let c = WebMercator.project(lon: camera.longitude, lat: camera.latitude)
        centerX = c.x * worldSize
        centerY = c.y * worldSize
        let fov = ViewTransform.fieldOfView
        let dist = 0.5 / tan(fov / 2) * height
        cameraToCenterDistance = dist
        let pitch = camera.pitch * Double.pi / 180
        let angle = -ViewTransform.wrap(camera.bearing) * Double.pi / 180

        let groundAngle = Double.pi / 2 + pitch
        let fovAboveCenter = fov * 0.5
        let topHalfSurfaceDistance = sin(fovAboveCenter) * dist /
            sin(min(max(Double.pi - groundAngle - fovAboveCenter, 0.01), Double.pi - 0.01))
        let furthestDistance = cos(Double.pi / 2 - pitch) * topHalfSurfaceDistance + dist
        let farZ = furthestDistance * 1.01
        let nearZ = height / 50

        var m = Matrix4.perspective(fovy: fov, aspect: width / height, near: nearZ, far: farZ)
        m = m * Matrix4.scale(1, -1, 1)
        m = m * Matrix4.translation(0, 0, -dist)
        m = m * Matrix4.rotationX(pitch)
        m = m * Matrix4.rotationZ(angle)
        m = m * Matrix4.translation(-centerX, -centerY, 0)
        projectionMatrix = m
    }

    /// Wraps a bearing into [-180, 180).
    public static func wrap(_ degrees: Double) -> Double {
        var d = (degrees + 180).truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        return d - 180
    }

    /// Projects world pixels to screen CSS pixels (x right, y down); nil behind the camera.
    public func screenPoint(worldX: Double, worldY: Double) -> (x: Double, y: Double)? {
        let p = projectionMatrix.transform(worldX, worldY, 0)
        guard p.w > 0 else { return nil }
        return ((p.x / p.w + 1) / 2 * width, (1 - p.y / p.w) / 2 * height)
    }

    /// Projects longitude/latitude to screen CSS pixels.
    public func screenPoint(lon: Double, lat: Double) -> (x: Double, y: Double)? {
        let u = WebMercator.project(lon: lon, lat: lat)
        return screenPoint(worldX: u.x * worldSize, worldY: u.y * worldSize)
    }
}
