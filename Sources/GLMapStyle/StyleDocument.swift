// Style stage — contract
// Input: a MapLibre/Mapbox style document (spec version 8) as JSON bytes or a parsed JSONValue.
// Output: a `StyleDocument` (camera defaults, GeoJSON sources, layers in draw order with compiled
// filters and property values), or a `StyleError` listing EVERY problem found, each with its JSON
// path and what was expected (JSON syntax errors carry line:column instead).
// Rules: root keys other than the checked ones (sprite, glyphs, metadata, font-faces…) are ignored;
// `light`, `sky`, `terrain`, `projection` and `transition` are checked against their generated
// tables (unknown keys and invalid values are errors) and kept in `rootObjects`. What the spec
// forbids is an error: layer types and source types outside the spec, unknown layer keys, unknown
// paint/layout properties, invalid values and filters. What the spec allows but glmap does not
// draw is a `SkippedFeature` in `skipped` (a warning; `--strict` makes it an error): symbol,
// raster, hillshade, heatmap, fill-extrusion and color-relief layers; vector, raster, raster-dem,
// image and video sources (with the layers using them); properties whose
// expressions use operators glmap does not evaluate (format, image, …); `feature-state` reads the
// `featureStates` set at run time. Layers
// glmap does not draw are still validated against the generated property tables like drawn
// ones and kept compiled in `allLayers`; `layers` holds the drawn ones. Source keys are checked
// against the generated source tables as MapLibre's validator checks them (unknown keys are
// errors except in vector and raster sources). An expression that reads a parameter its
// property does not provide (`feature-state` in a layout property, `heatmap-density` outside
// `heatmap-color`, per the spec's `expression.parameters`) is an error.
// `*-transition` paint keys are accepted and ignored. Validation never traps, whatever JSON value
// sits in whatever position.
// Evaluation per feature and zoom lives in `StyleEvaluator`.
import GLMapCore

/// A parsed and validated style (MapLibre style spec v8).
public struct StyleDocument: Sendable {
    /// `center` as [longitude, latitude] (default [0, 0]).
    public var center: (lon: Double, lat: Double)
    /// `zoom` (default 0).
    public var zoom: Double
    /// `bearing` in degrees clockwise from north (default 0).
    public var bearing: Double
    /// `pitch` in degrees from looking straight down (default 0).
    public var pitch: Double
    /// The GeoJSON sources by id (sources glmap skips are not here).
    public var sources: [String: Source]
    /// The layers glmap draws, in draw order (first is drawn first, at the bottom).
    public var layers: [Layer]
    /// Every valid layer in draw order, also those glmap does not draw (over a source it skips, a
    /// video source): validated and compiled like the drawn ones, reported with their source in
    /// `skipped`. `layers` is the drawn subset.
    public var allLayers: [Layer] = []
    /// The root `light`, `sky`, `terrain` and `transition` objects the style sets, validated against
    /// their generated tables (`LightProperties`, …) and compiled: object name → property name →
    /// value (unset properties: the spec default). `projection` is validated for its keys only.
    public var rootObjects: [String: [String: PropertyValue]] = [:]
    /// The vector, raster, raster-dem and image sources by id (loaded tile by tile by a scene).
    public var tileSources: [String: TileSourceSpec] = [:]
    /// The root `state` object: default values for `global-state`.
    public var globalState: JSONObject
    /// The style's `glyphs` URL template (`…/{fontstack}/{range}.pbf`), nil when absent.
    public var glyphs: String? = nil
    /// Feature state set at run time (`feature-state` reads it); empty in a parsed style.
    public var featureStates = FeatureStates()
    /// The style file path, if it came from one (sources' relative paths resolve against it).
    public var file: String?
    /// What the spec allows but glmap leaves out of the render (reported as warnings).
    public var skipped: [SkippedFeature] = []
    /// The style's `name`, if it has one.
    public var name: String? = nil
    /// The style's `sprite` as written (a URL, or an array of `{id, url}`), nil when absent.
    public var sprite: JSONValue? = nil
    /// Whether the style gives `center` / `zoom` itself (else the defaults [0, 0] and 0 apply).
    public var hasCenter = false
    /// Whether the style gives `zoom` itself.
    public var hasZoom = false

    /// The camera the style asks for.
    public var camera: Camera {
        Camera(longitude: center.lon, latitude: center.lat, zoom: zoom, bearing: bearing, pitch: pitch)
    }

    /// Parses and validates style JSON bytes; `file` names the source in messages and anchors relative paths.
    public static func parse(_ bytes: [UInt8], file: String? = nil) throws -> StyleDocument {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch let e as JSONSyntaxError {
            throw StyleError(file: file, issues: [StyleIssue(path: "", message: "invalid JSON at \(e.line):\(e.column): \(e.message)")])
        }
        return try parse(json: json, file: file)
    }

    /// Validates an already-parsed style.
    public static func parse(json: JSONValue, file: String? = nil) throws -> StyleDocument {
        var parser = StyleParser()
        let doc = parser.parseRoot(json, file: file)
        if !parser.issues.isEmpty || doc == nil {
            throw StyleError(file: file, issues: parser.issues)
        }
        var result = doc!
        result.skipped = parser.skipped
        return result
    }
}
