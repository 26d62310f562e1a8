// RenderTestSession — one case drawn as GL JS's harness draws it: the style localized and loaded,
// `metadata.test.operations` applied in order through the Snapshotter's runtime styling API, one
// still frame read back.
//
// Inputs:  a RenderTestCase and the worker thread's MapRenderer.
// Outputs: the straight-alpha image, what the case asks for that glmap does not do (operations it
//          does not implement — "operation X not supported" — and what the final style or
//          `metadata.test` asks to draw that glmap stores but does not draw), and notes (an
//          operation the style API refused, which GL JS would also report and skip).
// Rules (run_render_tests.ts): the canvas is at most `maxCanvasSize` (default 8192²; a larger view
//          lowers the pixel ratio), and `reportWidth`/`reportHeight` keep only the image's
//          bottom-left corner. The map starts at 0, 0, zoom 0 and jumps to the style's camera when
//          it loads; a later `setStyle` moves the camera to the new style's only while no camera
//          change was made (GL JS's `transform.unmodified`). Zoom is clamped to GL JS's −2…22 and
//          pitch to `maxPitch` (60 unless set). A still frame has no time: `wait`, `idle` and
//          `sleep` only mark where a loading style takes effect; transitions and fades do not run
//          (`*-transition`, the root `transition` and `fadeDuration` have no effect).
import Foundation
import GLMap
import GLMapCore
import GLMapPNG

/// The outcome of drawing one case.
public struct RenderTestDrawing: Sendable {
    /// The frame, straight alpha, `width·ratio × height·ratio` device pixels.
    public var image: StraightImage
    /// What the case needs that glmap does not do; non-empty fails the case with these reasons.
    public var unsupported: [String]
    /// Operations the style API refused (GL JS reports those as errors and goes on), one line each.
    public var notes: [String]
}

/// Draws cases by the harness's rules; see the file's contract.
public struct RenderTestSession {
    /// The case.
    public let testCase: RenderTestCase
    private let snapshotter: Snapshotter
    private var camera = HarnessCamera()
    /// The camera of a style set by `setStyle`, applied at the next `wait` (or the end) when the
    /// camera is still unmodified.
    private var pendingStyleCamera: StyleCamera?
    private var unsupported: [String] = []
    private var notes: [String] = []

    /// A session for `c` drawing with `renderer` (used from this thread only).
    public init(_ c: RenderTestCase, renderer: MapRenderer) {
        testCase = c
        snapshotter = Snapshotter(options: MapSnapshotOptions(size: CGSize(width: c.width, height: c.height),
                                                              pixelRatio: CGFloat(c.effectivePixelRatio)),
                                  renderer: renderer)
        snapshotter.crossSourceCollisions = c.crossSourceCollisions
        snapshotter.showCollisionBoxes = c.collisionDebug
        // The harness's HTTP origin and URL forms inside loaded resources (TileJSON files name
        // their tiles as http://localhost:2900/…) map onto the suite's folder; never the network.
        let rules = RenderSuite.resourceRules(assetRoot: c.assetRoot)
        snapshotter.resourceOptions = ResourceLoaderOptions(
            rewrites: rules.rewrites.map { URLRewriteRule(prefix: $0.prefix, replacement: $0.replacement) },
            noContentMarkers: [rules.noContentMarker], offline: true)
    }

    /// Draws the case: style, operations, frame. Throws what makes the case an error (an invalid
    /// style, a render failure); operations glmap cannot do are reported in the drawing instead.
    public static func draw(_ c: RenderTestCase, renderer: MapRenderer) throws -> RenderTestDrawing {
        var session = RenderTestSession(c, renderer: renderer)
        return try session.run()
    }

    private mutating func run() throws -> RenderTestDrawing {
        let c = testCase
        if let problem = c.setupError { throw InputFailure(problem) }
        guard let data = FileManager.default.contents(atPath: c.styleFile) else {
            throw IOFailure(path: c.styleFile, message: "cannot read the file")
        }
        let style = RenderSuite.localizeStyle(try JSONParser.parse([UInt8](data)), assetRoot: c.assetRoot)
        try snapshotter.replaceStyle(json: style, file: c.styleFile)
        camera.jump(to: StyleCamera(style), maxPitch: c.maxPitch)
        for (i, op) in c.operations.enumerated() {
            apply(op, index: i)
        }
        settleStyleCamera()
        snapshotter.setCamera(to: camera.options)
        let snapshot: Snapshot
        do {
            snapshot = try snapshotter.snapshot()
        } catch let e as SnapshotError {
            throw RenderTestFailure(message: e.description)
        }
        var image = snapshot.image
        if let (w, h) = c.reportSize { image = RenderTestSession.bottomLeft(of: image, width: w, height: h) }
        var reasons = unsupported
        for f in snapshotter.undrawnStyleFeatures where !reasons.contains(f) { reasons.append("the style's \(f) (stored, not drawn by glmap yet)") }
        reasons += c.undrawnHarnessFeatures.map { "\($0): not drawn by glmap yet" }
        return RenderTestDrawing(image: image, unsupported: reasons, notes: notes)
    }

    /// The `width × height` pixels at the image's bottom-left corner (what GL JS's harness reads
    /// with `readPixels(0, 0, w, h)` for `reportWidth`/`reportHeight`), rows top to bottom; parts
    /// outside the image are transparent.
    static func bottomLeft(of image: StraightImage, width: Int, height: Int) -> StraightImage {
        var out = StraightImage(width: width, height: height)
        for y in 0..<height {
            let sy = image.height - height + y
            guard sy >= 0, sy < image.height else { continue }
            let n = min(width, image.width) * 4
            guard n > 0 else { continue }
            let src = sy * image.width * 4, dst = y * width * 4
            out.pixels.replaceSubrange(dst..<(dst + n), with: image.pixels[src..<(src + n)])
        }
        return out
    }

    /// A style's camera jump, applied once the style has loaded.
    private mutating func settleStyleCamera() {
        guard let pending = pendingStyleCamera else { return }
        pendingStyleCamera = nil
        if !camera.modified { camera.jump(to: pending, maxPitch: testCase.maxPitch) }
    }

    // MARK: operations

    private mutating func apply(_ op: JSONValue, index: Int) {
        guard let list = op.arrayValue, let name = list.first?.stringValue else { return }
        let args = Array(list.dropFirst())
        func arg(_ i: Int) -> JSONValue? { i < args.count ? args[i] : nil }
        do {
            switch name {
            case "wait", "idle", "sleep":
                settleStyleCamera()
            case "setPaintProperty":
                try snapshotter.setPaintProperty(for: try string(arg(0), name), property: try string(arg(1), name), value: arg(2))
            case "setLayoutProperty":
                try snapshotter.setLayoutProperty(for: try string(arg(0), name), property: try string(arg(1), name), value: arg(2))
            case "setFilter":
                try snapshotter.setLayerProperty(for: try string(arg(0), name), property: "filter", value: arg(1))
            case "addLayer":
                try addLayer(arg(0), before: arg(1)?.stringValue)
            case "removeLayer":
                try snapshotter.removeLayer(withId: try string(arg(0), name))
            case "moveLayer":
                try snapshotter.moveLayer(withId: try string(arg(0), name), to: arg(1)?.stringValue.map(LayerPosition.below) ?? .default)
            case "setLayerZoomRange":
                try snapshotter.setLayerZoomRange(for: try string(arg(0), name), minZoom: arg(1)?.numberValue, maxZoom: arg(2)?.numberValue)
            case "addSource":
                let source = RenderSuite.localizeSource(try object(arg(1), name), assetRoot: testCase.assetRoot)
                try snapshotter.addSource(withId: try string(arg(0), name), properties: source)
            case "removeSource":
                try snapshotter.removeSource(withId: try string(arg(0), name))
            case "setFeatureState":
                let target = try object(arg(0), name)
                try snapshotter.setFeatureState(sourceId: try string(target["source"], "\(name) source"),
                                                sourceLayerId: target["sourceLayer"]?.stringValue,
                                                featureId: try featureID(target["id"], name), state: try object(arg(1), name))
            case "removeFeatureState":
                let target = try object(arg(0), name)
                let id = try target["id"].map { try featureID($0, name) }
                try snapshotter.removeFeatureState(sourceId: try string(target["source"], "\(name) source"),
                                                   sourceLayerId: target["sourceLayer"]?.stringValue, featureId: id,
                                                   stateKey: arg(1)?.stringValue)
            case "setGlobalStateProperty":
                snapshotter.setGlobalStateProperty(try string(arg(0), name), value: arg(1))
            case "setCenter":
                guard let c = HarnessCamera.lngLat(arg(0)) else { throw InputFailure("setCenter: expected [lng, lat], found \(arg(0).map(RenderSuite.brief) ?? "nothing")") }
                camera.set(center: c)
            case "setZoom":
                camera.set(zoom: try number(arg(0), name))
            case "setBearing":
                camera.set(bearing: try number(arg(0), name))
            case "setPitch":
                camera.set(pitch: try number(arg(0), name), maxPitch: testCase.maxPitch)
            case "setPadding":
                camera.set(padding: try HarnessCamera.padding(arg(0)))
            case "jumpTo", "easeTo", "flyTo":
                // A still frame shows where an animation ends.
                try camera.move(try object(arg(0), name), maxPitch: testCase.maxPitch)
            case "setStyle":
                let style = try RenderSuite.styleForSetStyle(arg(0) ?? .null, assetRoot: testCase.assetRoot)
                try snapshotter.replaceStyle(json: style, file: testCase.styleFile)
                pendingStyleCamera = StyleCamera(style)
            case "setLight":
                try snapshotter.setLight(properties: arg(0)?.objectValue)
            case "setSky":
                try snapshotter.setSky(properties: arg(0)?.objectValue)
            case "setTerrain":
                try snapshotter.setTerrain(properties: arg(0)?.objectValue)
            case "setProjection":
                try snapshotter.setProjection(properties: arg(0)?.objectValue)
            case "addImage":
                let options = arg(2)?.objectValue ?? JSONObject()
                let image = StyleImage(image: try loadImage(arg(1), name), pixelRatio: options["pixelRatio"]?.numberValue ?? 1,
                                       sdf: options["sdf"]?.boolValue ?? false,
                                       stretchX: HarnessCamera.ranges(options["stretchX"]), stretchY: HarnessCamera.ranges(options["stretchY"]),
                                       content: options["content"]?.arrayValue?.compactMap(\.numberValue))
                try snapshotter.addImage(image, id: try string(arg(0), name))
            case "updateImage":
                try snapshotter.updateImage(withId: try string(arg(0), name), image: try loadImage(arg(1), name))
            case "removeImage":
                try snapshotter.removeImage(withId: try string(arg(0), name))
            default:
                unsupported.append("operation \(name) not supported")
            }
        } catch {
            notes.append("operation \(index + 1) (\(name)) failed: \(error)")
        }
    }

    /// A layer added by `addLayer`: an inline `source` object becomes a source named after the
    /// layer first, as GL JS does.
    private func addLayer(_ value: JSONValue?, before: String?) throws {
        var layer = try object(value, "addLayer")
        if case .object(let inline)? = layer["source"], let id = layer["id"]?.stringValue {
            try snapshotter.addSource(withId: id, properties: RenderSuite.localizeSource(inline, assetRoot: testCase.assetRoot))
            layer["source"] = .string(id)
        }
        try snapshotter.addLayer(with: layer, layerPosition: before.map(LayerPosition.below) ?? .default)
    }

    /// An image file of the asset root (`./image/marker.png`), decoded.
    private func loadImage(_ value: JSONValue?, _ op: String) throws -> StraightImage {
        let rel = try string(value, op)
        let path = ((RenderSuite.absolute(testCase.assetRoot)) as NSString).appendingPathComponent(rel)
        return try PNGDecoder.decode(contentsOf: path)
    }

    private func string(_ v: JSONValue?, _ op: String) throws -> String {
        guard let s = v?.stringValue else { throw InputFailure("\(op): expected a string, found \(v.map(RenderSuite.brief) ?? "nothing")") }
        return s
    }

    private func number(_ v: JSONValue?, _ op: String) throws -> Double {
        guard let n = v?.numberValue, n.isFinite else { throw InputFailure("\(op): expected a number, found \(v.map(RenderSuite.brief) ?? "nothing")") }
        return n
    }

    private func object(_ v: JSONValue?, _ op: String) throws -> JSONObject {
        guard let o = v?.objectValue else { throw InputFailure("\(op): expected an object, found \(v.map(RenderSuite.brief) ?? "nothing")") }
        return o
    }

    /// A feature id as GL JS passes it on: a string, or a number as JavaScript prints it.
    private func featureID(_ v: JSONValue?, _ op: String) throws -> String {
        switch v {
        case .string(let s)?: return s
        case .number(let n)?: return JSONValue.formatNumber(n)
        default: throw InputFailure("\(op): the feature id must be a string or a number, found \(v.map(RenderSuite.brief) ?? "nothing")")
        }
    }
}

/// Why a case could not be drawn (the Snapshotter's message).
struct RenderTestFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The camera a style asks for: only the members it sets.
struct StyleCamera {
    var center: (lon: Double, lat: Double)?
    var zoom: Double?
    var bearing: Double?
    var pitch: Double?

    init(_ style: JSONValue) {
        center = HarnessCamera.lngLat(style["center"])
        zoom = style["zoom"]?.numberValue
        bearing = style["bearing"]?.numberValue
        pitch = style["pitch"]?.numberValue
    }
}

/// GL JS's transform as far as a still frame needs it: values, clamps, and whether anything
/// changed since the map was made (`transform.unmodified`).
struct HarnessCamera {
    var lon = 0.0, lat = 0.0, zoom = 0.0, bearing = 0.0, pitch = 0.0
    var padding = EdgeInsets()
    /// Whether any value changed since the map was made.
    var modified = false

    /// GL JS's default zoom range.
    static let minZoom = -2.0, maxZoom = 22.0

    mutating func set(center c: (lon: Double, lat: Double)) {
        if c.lon != lon || c.lat != lat { lon = c.lon; lat = c.lat; modified = true }
    }

    mutating func set(zoom z: Double) {
        let v = min(max(z, Self.minZoom), Self.maxZoom)
        if v != zoom { zoom = v; modified = true }
    }

    mutating func set(bearing b: Double) {
        if b != bearing { bearing = b; modified = true }
    }

    mutating func set(pitch p: Double, maxPitch: Double) {
        let v = min(max(p, 0), maxPitch)
        if v != pitch { pitch = v; modified = true }
    }

    mutating func set(padding p: EdgeInsets) {
        if p != padding { padding = p; modified = true }
    }

    /// `jumpTo(style)`: the members the style sets.
    mutating func jump(to s: StyleCamera, maxPitch: Double) {
        if let c = s.center { set(center: c) }
        if let z = s.zoom { set(zoom: z) }
        if let b = s.bearing { set(bearing: b) }
        if let p = s.pitch { set(pitch: p, maxPitch: maxPitch) }
    }

    /// `jumpTo`/`easeTo`/`flyTo` options: center, zoom, bearing, pitch, padding.
    mutating func move(_ o: JSONObject, maxPitch: Double) throws {
        if let c = o["center"] {
            guard let ll = Self.lngLat(c) else { throw InputFailure("expected center [lng, lat], found \(RenderSuite.brief(c))") }
            set(center: ll)
        }
        if let z = o["zoom"]?.numberValue { set(zoom: z) }
        if let b = o["bearing"]?.numberValue { set(bearing: b) }
        if let p = o["pitch"]?.numberValue { set(pitch: p, maxPitch: maxPitch) }
        if let p = o["padding"] { set(padding: try Self.padding(p)) }
    }

    /// The Snapshotter's camera for these values.
    var options: CameraOptions {
        CameraOptions(center: LocationCoordinate2D(latitude: lat, longitude: lon), padding: padding, zoom: zoom,
                      bearing: bearing, pitch: pitch)
    }

    /// `[lng, lat]`, `{lng, lat}` or `{lon, lat}`.
    static func lngLat(_ v: JSONValue?) -> (lon: Double, lat: Double)? {
        if let a = v?.arrayValue, a.count >= 2, let lon = a[0].numberValue, let lat = a[1].numberValue { return (lon, lat) }
        if let o = v?.objectValue, let lon = (o["lng"] ?? o["lon"])?.numberValue, let lat = o["lat"]?.numberValue { return (lon, lat) }
        return nil
    }

    /// A padding: one number for every edge, or `{top, bottom, left, right}` (missing edges 0).
    static func padding(_ v: JSONValue?) throws -> EdgeInsets {
        if let n = v?.numberValue { return EdgeInsets(top: n, left: n, bottom: n, right: n) }
        guard let o = v?.objectValue else { throw InputFailure("expected a padding, found \(v.map(RenderSuite.brief) ?? "nothing")") }
        func edge(_ k: String) -> Double { o[k]?.numberValue ?? 0 }
        return EdgeInsets(top: edge("top"), left: edge("left"), bottom: edge("bottom"), right: edge("right"))
    }

    /// `[[from, to], …]` stretch ranges.
    static func ranges(_ v: JSONValue?) -> [[Double]] {
        (v?.arrayValue ?? []).compactMap { $0.arrayValue?.compactMap(\.numberValue) }
    }
}
