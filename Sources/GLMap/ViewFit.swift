// View fit — contract
// Input: a scene, a viewport, and what to fit: a longitude/latitude box, or the data of all the
// style's sources (or of one source). Output: `RenderOptions` whose camera shows it as MapLibre
// Native's `cameraForLatLngBounds` does (GLMapCore/CameraFit.swift: bearing and pitch respected,
// padding in CSS pixels, antimeridian boxes allowed), starting from the style's camera.
// Errors (invalid input): an unknown source (naming the sources that exist), a source with no
// features, padding that leaves no room.
import GLMapCore
import GLMapStyle

/// What `render --bounds` / `--fit` fits the view to.
public enum ViewFit: Equatable, Sendable {
    /// A longitude/latitude box.
    case bounds(LngLatBounds)
    /// The data of every source the style's layers draw (nil) or of one source.
    case data(source: String?)
}

extension Scene {
    /// The box around the loaded features of `sourceID` (nil: every loaded source).
    public func dataBounds(source sourceID: String? = nil) throws -> LngLatBounds {
        let ids: [String]
        if let sourceID {
            guard style.sources[sourceID] != nil else {
                throw InputFailure("--fit: the style has no source \"\(sourceID)\" (its sources: \(style.sources.keys.sorted().joined(separator: ", ")))")
            }
            ids = [sourceID]
        } else {
            ids = sourceBounds.keys.sorted()
        }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for id in ids {
            guard let b = sourceBounds[id], !b.isEmpty else { continue }
            minX = min(minX, b.minX); maxX = max(maxX, b.maxX); minY = min(minY, b.minY); maxY = max(maxY, b.maxY)
        }
        guard minX.isFinite, minY.isFinite else {
            let what = sourceID.map { "source \"\($0)\" has" } ?? "the style's sources have"
            throw InputFailure("--fit: \(what) no features to fit the view to")
        }
        let nw = WebMercator.unproject(x: minX, y: minY), se = WebMercator.unproject(x: maxX, y: maxY)
        return LngLatBounds(west: nw.lon, south: se.lat, east: se.lon, north: nw.lat)
    }

    /// `options` with its center and zoom chosen to fit `fit` (bearing and pitch: the options',
    /// else the style's).
    public func fitted(_ options: RenderOptions, to fit: ViewFit, padding: EdgeInsets = .zero) throws -> RenderOptions {
        let bounds: LngLatBounds
        switch fit {
        case .bounds(let b): bounds = b
        case .data(let id): bounds = try dataBounds(source: id)
        }
        let start = options.camera(default: style.camera)
        let camera = try Camera.fitting(bounds, width: Double(options.width), height: Double(options.height), padding: padding,
                                        bearing: start.bearing, pitch: start.pitch, from: start)
        var o = options
        o.longitude = camera.longitude
        o.latitude = camera.latitude
        o.zoom = camera.zoom
        return o
    }
}
