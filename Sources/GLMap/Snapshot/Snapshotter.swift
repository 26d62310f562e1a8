// Snapshotter — contract
// The Swift API's headless map: a style manager (sources, layers in draw order, the style's JSON)
// plus a camera, drawn into images of `MapSnapshotOptions.size × pixelRatio` device pixels.
// Input: typed `GeoJSONSource`s and `Layer`s, or style JSON text. Swift-built GeoJSON
// (`.featureCollection`, `.feature`, `.geometry`) goes to the renderer as glmap's internal model,
// never through JSON text. Every change is validated at once as the whole style would be by
// `glmap render` (the same `StyleError`, JSON paths and wording; a style set from JSON text gets
// the CLI's line:column syntax errors too); a change that fails leaves the style as it was.
// Output: `Snapshot` (straight-alpha RGBA8 and the PNG `glmap render` writes for the same style).
// Threading: a Snapshotter owns one `MapRenderer`, hence one GL context; use it from one thread
// at a time (one Snapshotter per thread to draw in parallel). `start` draws on the calling thread
// and calls `completion` there before it returns. Nothing traps: bad input is a thrown error.
import Foundation
import GLMapCore
import GLMapGeoJSON
import GLMapStyle
import GLMapTiles

/// Draws maps headlessly from a style built in Swift (or set as JSON), one image per call.
public final class Snapshotter {
    /// Image size and pixel ratio.
    public var options: MapSnapshotOptions
    /// How the style's URLs are fetched (tiles, TileJSON, glyphs, sprites): rewrite rules, an
    /// HTTP cache folder, offline mode (nil: relative to the style file, no cache).
    public var resourceOptions: ResourceLoaderOptions? { didSet { scene = nil } }
    /// A folder of TrueType/OpenType fonts text is drawn from when the style has no `glyphs` URL
    /// or a glyph range cannot be loaded (`glmap render --fonts DIR`): `resourceOptions.fontsDirectory`.
    public var fontsDirectory: String? {
        get { resourceOptions?.fontsDirectory }
        set {
            var o = resourceOptions ?? ResourceLoaderOptions()
            o.fontsDirectory = newValue
            resourceOptions = o
        }
    }

    enum StoredSource {
        case typed(GeoJSONSource)
        case json(JSONObject)
    }

    /// Root members other than sources and layers (version, name, center, zoom, state, …).
    var root: JSONObject
    var sources: [(id: String, source: StoredSource)] = []
    var layers: [JSONObject] = []
    private var cameraOptions = CameraOptions()
    /// The validated style (nil until the first change: an empty style, camera at 0, 0, zoom 0).
    private(set) var document: StyleDocument?
    private var styleCamera: Camera { document?.camera ?? Camera() }
    /// The style file the style was loaded from: its sources' relative paths resolve against it.
    private var styleFile: String?
    var scene: Scene?
    /// The error of the last `styleJSON` assignment that failed; the next snapshot throws it.
    private var styleJSONError: StyleError?
    private let renderer: MapRenderer
    /// Feature state set at run time (`setFeatureState`), read by `feature-state` expressions.
    var featureStates = FeatureStates() { didSet { scene = nil } }
    /// Global state values set at run time (`setGlobalStateProperty`), over the style's `state`.
    var globalStateValues = JSONObject() { didSet { scene = nil } }
    /// Images added at run time (`addImage`), by id.
    var images: [String: StyleImage] = [:]
    /// Whether symbols of different sources hide each other (MapLibre's `crossSourceCollisions`
    /// map option; default true).
    public var crossSourceCollisions = true { didSet { scene = nil } }
    /// Whether symbol layers draw their collision boxes and circles over them (MapLibre's
    /// `showCollisionBoxes`; default false).
    public var showCollisionBoxes = false { didSet { scene = nil } }

    /// A snapshotter with an empty style (no sources, no layers), drawing with `backend`
    /// (`.auto`: the GPU through EGL when available, else the CPU reference renderer).
    public init(options: MapSnapshotOptions, backend: Backend = .auto) {
        self.options = options
        self.root = JSONObject([("version", 8)])
        self.renderer = MapRenderer(backend: backend)
    }

    /// A snapshotter with an empty style that draws with `renderer` (its GL context, so several
    /// snapshotters used one after another on one thread share one context). `renderer` must be
    /// used from one thread at a time, as a `MapRenderer` always is.
    public init(options: MapSnapshotOptions, renderer: MapRenderer) {
        self.options = options
        self.root = JSONObject([("version", 8)])
        self.renderer = renderer
    }

    // MARK: Style JSON

    /// The style as JSON text: sources (Swift-built data written out as GeoJSON) and layers.
    /// Setting it replaces the whole style; an invalid style keeps the old one and makes the next
    /// snapshot fail with the style's errors (`setStyleJSON` throws them instead).
    public var styleJSON: String {
        get { (try? rootJSON(placeholder: false).jsonText) ?? "" }
        set {
            do {
                try setStyleJSON(newValue)
            } catch let e as StyleError {
                styleJSONError = e
            } catch {
                styleJSONError = StyleError(file: nil, issues: [StyleIssue(path: "", message: "\(error)")])
            }
        }
    }

    /// Replaces the whole style with style JSON text; throws the style's errors (nothing changes then).
    /// Relative source paths resolve against the working directory.
    public func setStyleJSON(_ json: String) throws {
        try replaceStyle(Array(json.utf8), file: nil)
    }

    /// Replaces the whole style with a style file (as `glmap render --style` reads it): errors
    /// name the file, and relative source paths resolve against its directory.
    public func loadStyle(fromFile path: String) throws {
        if let size = InputLimits.fileSize(atPath: path), size > InputLimits.default.maxStyleFileBytes {
            throw Scene.styleTooLarge(size: size, file: path, limits: .default)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw IOFailure(path: path, message: "cannot be read (missing, a directory, or no permission)")
        }
        try replaceStyle([UInt8](data), file: path)
    }

    private func replaceStyle(_ bytes: [UInt8], file: String?) throws {
        let doc = try Scene.parseStyle(bytes, file: file)
        guard case .object(let o) = try JSONParser.parse(bytes) else { return }
        replaceStyle(o, document: doc, file: file)
    }

    /// Replaces the whole style with parsed style JSON (`file` names it in errors and anchors
    /// relative paths); throws the style's errors (nothing changes then).
    package func replaceStyle(json: JSONValue, file: String?) throws {
        if let issue = Snapshotter.nonFiniteNumber(in: json, path: "") { throw StyleError(file: file, issues: [issue]) }
        let doc = try StyleDocument.parse(json: json, file: file)
        guard case .object(let o) = json else { return }
        replaceStyle(o, document: doc, file: file)
    }

    /// Makes a validated style the current one; run-time state (feature and global state, images)
    /// starts afresh, as a new style in MapLibre does.
    private func replaceStyle(_ o: JSONObject, document doc: StyleDocument, file: String?) {
        var doc = doc
        var newRoot = JSONObject()
        var newSources: [(id: String, source: StoredSource)] = []
        var newLayers: [JSONObject] = []
        for (k, v) in o.pairs {
            switch k {
            case "sources":
                for (id, s) in v.objectValue?.pairs ?? [] { newSources.append((id, .json(s.objectValue ?? JSONObject()))) }
            case "layers":
                // Kept deref'd, as GL JS keeps its style's layers: run-time changes to a `ref`
                // layer change that layer alone.
                newLayers = StyleDocument.derefLayers(v.arrayValue ?? []).compactMap(\.objectValue)
            default:
                newRoot[k] = v
            }
        }
        root = newRoot; sources = newSources; layers = newLayers
        styleFile = file
        doc.file = file
        document = doc
        featureStates = FeatureStates()
        globalStateValues = JSONObject()
        images = [:]
        scene = nil
        styleJSONError = nil
    }

    /// The root style JSON; `placeholder` writes Swift-built data as an empty collection.
    private func rootJSON(placeholder: Bool, root: JSONObject? = nil, sources: [(id: String, source: StoredSource)]? = nil,
                          layers: [JSONObject]? = nil) throws -> JSONValue {
        var o = root ?? self.root
        var s = JSONObject()
        for (id, source) in sources ?? self.sources {
            switch source {
            case .typed(let t): s[id] = .object(try t.styleJSONObject(placeholder: placeholder))
            case .json(let j): s[id] = .object(j)
            }
        }
        o["sources"] = .object(s)
        o["layers"] = .array((layers ?? self.layers).map(JSONValue.object))
        return .object(o)
    }

    /// Validates a would-be style and makes it the current one (or throws and changes nothing).
    func commit(root newRoot: JSONObject? = nil, sources newSources: [(id: String, source: StoredSource)], layers newLayers: [JSONObject]) throws(StyleError) {
        let json = try Snapshotter.asStyleError { try rootJSON(placeholder: true, root: newRoot, sources: newSources, layers: newLayers) }
        if let issue = Snapshotter.nonFiniteNumber(in: json, path: "") {
            throw StyleError(file: nil, issues: [issue])
        }
        var doc = try Snapshotter.asStyleError { try StyleDocument.parse(json: json, file: nil) }
        doc.file = styleFile   // relative source paths resolve against the loaded style file
        if let newRoot { root = newRoot }
        sources = newSources
        layers = newLayers
        document = doc
        scene = nil
    }

    /// The first number that JSON cannot hold (NaN, ±infinity), located by its JSON path.
    static func nonFiniteNumber(in v: JSONValue, path: String) -> StyleIssue? {
        switch v {
        case .number(let n) where !n.isFinite:
            return StyleIssue(path: path, message: "expected a finite number, found \(JSONValue.formatNumber(n))")
        case .array(let a):
            for (i, e) in a.enumerated() { if let f = nonFiniteNumber(in: e, path: "\(path)[\(i)]") { return f } }
        case .object(let o):
            for (k, e) in o.pairs {
                if let f = nonFiniteNumber(in: e, path: path.isEmpty ? k : "\(path).\(k)") { return f }
            }
        default: break
        }
        return nil
    }

    /// `body`'s result, its errors as style errors: a `StyleError` as it is, another error (a
    /// source's data that cannot be read, say) as one issue worded by it.
    static func asStyleError<T>(_ body: () throws -> T) throws(StyleError) -> T {
        do { return try body() } catch let e as StyleError { throw e } catch {
            throw StyleError(file: nil, issues: [StyleIssue(path: "", message: "\(error)")])
        }
    }

    static func notFound(_ what: String, _ id: String) -> StyleError {
        StyleError(file: nil, issues: [StyleIssue(path: "", message: "no \(what) with id \"\(id)\"")])
    }

    // MARK: Sources

    /// Adds a GeoJSON source; throws when its id is taken or an option is invalid.
    public func addSource(_ source: GeoJSONSource) throws(StyleError) {
        guard !sourceExists(withId: source.id) else {
            throw StyleError(file: nil, issues: [StyleIssue(path: "sources.\(source.id)", message: "a source with id \"\(source.id)\" already exists")])
        }
        try commit(sources: sources + [(source.id, .typed(source))], layers: layers)
    }

    /// Replaces the data of a GeoJSON source.
    public func updateGeoJSONSource(withId id: String, data: GeoJSONSourceData) throws(StyleError) {
        guard let i = sources.firstIndex(where: { $0.id == id }) else { throw Snapshotter.notFound("source", id) }
        var source: GeoJSONSource
        switch sources[i].source {
        case .typed(let t): source = t
        case .json(let j):
            source = GeoJSONSource(id: id)
            source.maxzoom = j["maxzoom"]?.numberValue
            source.buffer = j["buffer"]?.numberValue
            source.tolerance = j["tolerance"]?.numberValue
            source.lineMetrics = j["lineMetrics"]?.boolValue
        }
        source.data = data
        var newSources = sources
        newSources[i] = (id, .typed(source))
        try commit(sources: newSources, layers: layers)
    }

    /// Removes a source; throws when no source has the id or a layer still uses it.
    public func removeSource(withId id: String) throws(StyleError) {
        guard sourceExists(withId: id) else { throw Snapshotter.notFound("source", id) }
        try commit(sources: sources.filter { $0.id != id }, layers: layers)
    }

    /// Whether a source has this id.
    public func sourceExists(withId id: String) -> Bool { sources.contains { $0.id == id } }

    /// The ids of all sources, in the order they were added.
    public var allSourceIdentifiers: [String] { sources.map(\.id) }

    // MARK: Layers

    /// Adds a layer at `layerPosition` (default: on top); throws the style's errors for an invalid
    /// value (`layers[i].paint.…`, as `glmap render` words them), a taken id or a missing neighbour.
    public func addLayer(_ layer: any Layer, layerPosition: LayerPosition = .default) throws(StyleError) {
        let index: Int
        switch layerPosition {
        case .default: index = layers.count
        case .above(let id):
            guard let i = layerIndex(id) else { throw Snapshotter.notFound("layer", id) }
            index = i + 1
        case .below(let id):
            guard let i = layerIndex(id) else { throw Snapshotter.notFound("layer", id) }
            index = i
        case .at(let i):
            guard i >= 0, i <= layers.count else {
                throw StyleError(file: nil, issues: [StyleIssue(path: "", message: "layer position \(i) is outside 0…\(layers.count)")])
            }
            index = i
        }
        var newLayers = layers
        newLayers.insert(layer.styleJSONObject, at: index)
        try commit(sources: sources, layers: newLayers)
    }

    /// Removes a layer; throws when no layer has the id.
    public func removeLayer(withId id: String) throws(StyleError) {
        guard let i = layerIndex(id) else { throw Snapshotter.notFound("layer", id) }
        var newLayers = layers
        newLayers.remove(at: i)
        try commit(sources: sources, layers: newLayers)
    }

    /// Whether a layer has this id.
    public func layerExists(withId id: String) -> Bool { layerIndex(id) != nil }

    /// The ids of all layers in draw order (bottom first).
    public var allLayerIdentifiers: [String] { layers.compactMap { $0["id"]?.stringValue } }

    /// The layer with this id as a typed layer of `type`.
    public func layer<T: Layer>(withId id: String, type: T.Type) throws -> T {
        guard let i = layerIndex(id) else { throw Snapshotter.notFound("layer", id) }
        return try T.decode(layers[i], path: "layers[\(i)]")
    }

    /// Changes a layer in place: `update` gets it as `type`; the result is validated like `addLayer`.
    public func updateLayer<T: Layer>(withId id: String, type: T.Type, update: (inout T) throws -> Void) throws {
        guard let i = layerIndex(id) else { throw Snapshotter.notFound("layer", id) }
        var layer = try T.decode(layers[i], path: "layers[\(i)]")
        try update(&layer)
        var newLayers = layers
        newLayers[i] = layer.styleJSONObject
        try commit(sources: sources, layers: newLayers)
    }

    func layerIndex(_ id: String) -> Int? { layers.firstIndex { $0["id"]?.stringValue == id } }

    // MARK: Camera

    /// Moves the camera; unset fields keep their value (initially the style's center, zoom, …).
    public func setCamera(to camera: CameraOptions) {
        if let c = camera.center { cameraOptions.center = c }
        if let p = camera.padding { cameraOptions.padding = p }
        if let z = camera.zoom { cameraOptions.zoom = z }
        if let b = camera.bearing { cameraOptions.bearing = b }
        if let p = camera.pitch { cameraOptions.pitch = p }
    }

    /// The camera now: set fields, and the style's own for the rest.
    public var cameraState: CameraOptions {
        let d = styleCamera
        return CameraOptions(center: cameraOptions.center ?? LocationCoordinate2D(latitude: d.latitude, longitude: d.longitude),
                             padding: cameraOptions.padding ?? .zero, zoom: CGFloat(cameraOptions.zoom ?? d.zoom),
                             bearing: cameraOptions.bearing ?? d.bearing, pitch: CGFloat(cameraOptions.pitch ?? d.pitch))
    }

    /// The camera that shows all `coordinates` inside the view less `padding` (nil: none), as the
    /// Mapbox Maps SDK's `camera(for:padding:bearing:pitch:)` does and MapLibre Native's
    /// `cameraForLatLngBounds` fits their bounding box (`Camera.fitting`, the fit `glmap render
    /// --bounds` uses): at `bearing` and `pitch` (default 0), zoom at most 24, the padding already
    /// applied to the centre (the result's `padding` is zero). An empty `CameraOptions` (every
    /// field nil, so `setCamera(to:)` changes nothing) when there are no finite coordinates, the
    /// padding leaves no room, or the box reaches past the horizon at that pitch.
    public func camera(for coordinates: [LocationCoordinate2D], padding: UIEdgeInsets?,
                       bearing: Double?, pitch: Double?) -> CameraOptions {
        guard coordinates.allSatisfy({ $0.latitude.isFinite && $0.longitude.isFinite }),
              let bounds = LngLatBounds.enclosing(coordinates.map { ($0.longitude, $0.latitude) }) else { return CameraOptions() }
        let w = Double(options.size.width), h = Double(options.size.height)
        let start = cameraOptions.renderCamera(width: w, height: h, defaults: styleCamera)
        guard let c = try? Camera.fitting(bounds, width: w, height: h, padding: padding ?? .zero, bearing: bearing ?? 0,
                                          pitch: pitch ?? 0, from: start) else { return CameraOptions() }
        return CameraOptions(center: LocationCoordinate2D(latitude: c.latitude, longitude: c.longitude), padding: .zero,
                             zoom: CGFloat(c.zoom), bearing: c.bearing, pitch: CGFloat(c.pitch))
    }

    /// `camera(for:padding:bearing:pitch:)` with no padding, bearing 0 and pitch 0.
    public func camera(for coordinates: [LocationCoordinate2D]) -> CameraOptions {
        camera(for: coordinates, padding: nil, bearing: nil, pitch: nil)
    }

    // MARK: Rendering

    /// Draws the style at the current camera.
    public func snapshot() throws -> Snapshot {
        try draw(overlayHandler: nil)
    }

    /// Draws the style, lets `overlayHandler` draw on top, and calls `completion` with the result
    /// (on the calling thread, before returning).
    public func start(overlayHandler: ((SnapshotOverlay) -> Void)? = nil,
                      completion: (Result<Snapshot, SnapshotError>) -> Void) {
        do {
            completion(.success(try draw(overlayHandler: overlayHandler)))
        } catch let e as SnapshotError {
            completion(.failure(e))
        } catch {
            completion(.failure(SnapshotError(error)))
        }
    }

    private func draw(overlayHandler: ((SnapshotOverlay) -> Void)?) throws -> Snapshot {
        if let e = styleJSONError { throw SnapshotError.invalidStyle(e) }
        let w = Double(options.size.width), h = Double(options.size.height)
        guard w.isFinite, h.isFinite, w == w.rounded(), h == h.rounded(), w >= 1, h >= 1, w <= 1e6, h <= 1e6 else {
            throw SnapshotError.invalidOptions("size must be whole CSS pixels of at least 1x1, got \(w)x\(h)")
        }
        let ratio = Double(options.pixelRatio)
        let camera = cameraOptions.renderCamera(width: w, height: h, defaults: styleCamera)
        let renderOptions = RenderOptions(width: Int(w), height: Int(h), ratio: ratio, longitude: camera.longitude,
                                          latitude: camera.latitude, zoom: camera.zoom, bearing: camera.bearing,
                                          pitch: camera.pitch)
        do {
            try renderOptions.validate()
            try MapRenderer.checkImageSize(renderOptions)
        } catch {
            throw SnapshotError(error)
        }
        let scene: Scene
        do {
            if document == nil { try commit(sources: sources, layers: layers) }
            scene = try self.scene ?? makeScene()
        } catch {
            throw SnapshotError(error)
        }
        self.scene = scene
        let image: StraightImage
        do {
            image = try renderer.render(scene, options: renderOptions).unpremultiplied()
        } catch {
            throw SnapshotError(error)
        }
        let warnings = scene.warningMessages
        guard let overlayHandler else { return Snapshot(image: image, pixelRatio: ratio, warnings: warnings) }
        let overlay = SnapshotOverlay(image: image, pixelRatio: ratio,
                                      view: ViewTransform(camera: camera, width: w, height: h))
        overlayHandler(overlay)
        return Snapshot(image: overlay.image, pixelRatio: ratio, warnings: warnings)
    }

    /// The scene for the current style: Swift-built source data handed over as the internal model.
    private func makeScene() throws -> Scene {
        var preloaded: [String: GLMapGeoJSON.FeatureCollection] = [:]
        for (id, source) in sources {
            if case .typed(let t) = source, let c = (t.data ?? .empty).collection { preloaded[id] = c }
        }
        guard var document else { throw SnapshotError.renderFailed("internal: no validated style") }
        document.featureStates = featureStates
        for (name, value) in globalStateValues.pairs { document.globalState[name] = value }
        return try Scene(style: document, preloaded: preloaded, resources: resourceOptions, images: images,
                         crossSourceCollisions: crossSourceCollisions, showCollisionBoxes: showCollisionBoxes)
    }
}
