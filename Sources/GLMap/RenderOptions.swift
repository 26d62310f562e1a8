import GLMapCore

/// Size, pixel ratio and camera overrides for one frame. Unset camera fields come from the style.
public struct RenderOptions: Equatable, Sendable {
    /// Viewport size in CSS pixels; the image is `width·ratio × height·ratio` device pixels.
    public var width: Int
    /// Viewport height in CSS pixels.
    public var height: Int
    /// Device pixels per CSS pixel: scales widths, radii and offsets (never resamples).
    public var ratio: Double
    /// Camera centre longitude in degrees; nil takes the style's `center`.
    public var longitude: Double?
    /// Camera centre latitude in degrees; nil takes the style's `center`.
    public var latitude: Double?
    /// Zoom level; nil takes the style's `zoom`.
    public var zoom: Double?
    /// Bearing in degrees clockwise from north; nil takes the style's `bearing`.
    public var bearing: Double?
    /// Pitch in degrees, 0…85; nil takes the style's `pitch`.
    public var pitch: Double?

    /// Options for a 512 × 512 CSS-pixel frame at ratio 1 with the style's own camera, unless given.
    public init(width: Int = 512, height: Int = 512, ratio: Double = 1, longitude: Double? = nil, latitude: Double? = nil,
                zoom: Double? = nil, bearing: Double? = nil, pitch: Double? = nil) {
        (self.width, self.height, self.ratio, self.longitude) = (width, height, ratio, longitude)
        (self.latitude, self.zoom, self.bearing, self.pitch) = (latitude, zoom, bearing, pitch)
    }

    /// The camera: these overrides on top of the style's own center/zoom/bearing/pitch.
    public func camera(default d: Camera) -> Camera {
        Camera(longitude: longitude ?? d.longitude, latitude: latitude ?? d.latitude, zoom: zoom ?? d.zoom,
               bearing: bearing ?? d.bearing, pitch: pitch ?? d.pitch)
    }

    /// The camera the frame is drawn with: `camera(default:)` under MapLibre's camera constraint
    /// for this view's size (`Camera.constrained`), as `ViewTransform` applies it.
    public func drawnCamera(default d: Camera) -> Camera {
        camera(default: d).constrained(width: Double(width), height: Double(height))
    }

    /// The deepest camera zoom glmap renders (also the deepest tile zoom of `glmap tiles`).
    public static let maxZoom = 24
    /// The shallowest camera zoom (MapLibre's default `minZoom`: the world 128 px wide).
    public static let minZoom = -2

    /// Checks sizes and numbers (invalid input, exit code 2).
    public func validate() throws {
        guard width >= 1, height >= 1 else { throw InputFailure("width and height must be at least 1, got \(width)x\(height)") }
        guard ratio.isFinite, ratio > 0, ratio <= 16 else { throw InputFailure("ratio must be a number in (0, 16], got \(ratio)") }
        for (name, v) in [("lon", longitude), ("lat", latitude), ("zoom", zoom), ("bearing", bearing), ("pitch", pitch)] {
            if let v, !v.isFinite { throw InputFailure("\(name) must be a finite number") }
        }
        if let lat = latitude, abs(lat) > 90 { throw InputFailure("lat must be between -90 and 90, got \(lat)") }
        if let z = zoom, z < Double(RenderOptions.minZoom) || z > Double(RenderOptions.maxZoom) {
            throw InputFailure("zoom must be between \(RenderOptions.minZoom) and \(RenderOptions.maxZoom), got \(z)")
        }
        if let p = pitch, p < 0 || p > 85 { throw InputFailure("pitch must be between 0 and 85, got \(p)") }
    }
}
