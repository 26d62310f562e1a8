import GLMapCore
import GLMapStyle

// The style's light through the typed API (the Mapbox Maps SDK's `setLight(_:)`): it shades
// fill-extrusion layers (colour, intensity, position, anchor).
extension Snapshotter {
    /// Sets the style's `light` from the typed `Light` (nil removes it: the spec defaults apply).
    public func setLight(_ light: Light?) throws(StyleError) {
        try setLight(properties: light?.styleJSONObject)
    }

    /// The style's `light` as the typed `Light` (nil when the style sets none, or sets it with a
    /// value the typed API cannot represent, such as a legacy function).
    public var light: Light? {
        guard let o = root["light"]?.objectValue else { return nil }
        return try? Light.decode(o, path: "light")
    }
}
