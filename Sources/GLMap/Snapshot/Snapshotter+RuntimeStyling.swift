import Foundation
import GLMapCore
import GLMapStyle

// Runtime styling — the style changed in place after it was loaded, by style JSON (the Mapbox Maps
// SDK's names: setLayerProperty, addLayer(with:), moveLayer, addSource(withId:properties:),
// setFeatureState…; MapLibre's where Mapbox has none: setLayerZoomRange, setGlobalStateProperty,
// setSky, updateImage). Every change is validated with the whole style, as `addLayer` is: one
// that fails throws the style's errors and leaves the style as it was. What glmap stores but does
// not draw yet (sky, terrain, projections other than Mercator) is kept in the style and listed
// by `undrawnStyleFeatures`; images added at run time are drawn by patterns.
extension Snapshotter {
    /// Layer members that sit beside `paint` and `layout`, set by `setLayerProperty` as they are.
    static let layerMembers: Set<String> = ["filter", "minzoom", "maxzoom", "source", "source-layer", "metadata"]

    // MARK: Layers

    /// Adds a layer given as style JSON (`{"id": …, "type": …, …}`) at `layerPosition`; throws the
    /// style's errors for an invalid layer, a taken id or a missing neighbour.
    public func addLayer(with properties: JSONObject, layerPosition: LayerPosition = .default) throws(StyleError) {
        guard let id = properties["id"]?.stringValue else {
            throw StyleError(file: nil, issues: [StyleIssue(path: "id", message: "missing layer id (expected a string)")])
        }
        guard layerIndex(id) == nil else {
            throw StyleError(file: nil, issues: [StyleIssue(path: "", message: "a layer with id \"\(id)\" already exists")])
        }
        var newLayers = layers
        newLayers.insert(properties, at: try Snapshotter.insertionIndex(layerPosition, in: layers))
        try commit(sources: sources, layers: newLayers)
    }

    /// Moves a layer to `position` (`.above`/`.below` another layer, an index, or on top).
    public func moveLayer(withId id: String, to position: LayerPosition) throws(StyleError) {
        guard let from = layerIndex(id) else { throw Snapshotter.notFound("layer", id) }
        var newLayers = layers
        let layer = newLayers.remove(at: from)
        newLayers.insert(layer, at: try Snapshotter.insertionIndex(position, in: newLayers))
        try commit(sources: sources, layers: newLayers)
    }

    /// Where a layer goes for `position` among `layers`.
    static func insertionIndex(_ position: LayerPosition, in layers: [JSONObject]) throws(StyleError) -> Int {
        func index(_ id: String) throws(StyleError) -> Int {
            guard let i = layers.firstIndex(where: { $0["id"]?.stringValue == id }) else { throw Snapshotter.notFound("layer", id) }
            return i
        }
        switch position {
        case .default: return layers.count
        case .above(let id): return try index(id) + 1
        case .below(let id): return try index(id)
        case .at(let i):
            guard i >= 0, i <= layers.count else {
                throw StyleError(file: nil, issues: [StyleIssue(path: "", message: "layer position \(i) is outside 0…\(layers.count)")])
            }
            return i
        }
    }

    /// The layer as style JSON.
    public func layerProperties(for layerId: String) throws(StyleError) -> JSONObject {
        guard let i = layerIndex(layerId) else { throw Snapshotter.notFound("layer", layerId) }
        return layers[i]
    }

    /// Sets one property of a layer: a paint or layout property by name (`circle-radius`,
    /// `visibility`, `fill-color-transition`), or a layer member (`filter`, `minzoom`, `maxzoom`,
    /// `source`, `source-layer`). A nil or JSON null value removes it (the default applies again).
    /// Paint and layout are told apart by the layer type's property table; for a type glmap has
    /// no table for, use `setPaintProperty`/`setLayoutProperty`.
    public func setLayerProperty(for layerId: String, property: String, value: JSONValue?) throws(StyleError) {
        guard let i = layerIndex(layerId) else { throw Snapshotter.notFound("layer", layerId) }
        if Snapshotter.layerMembers.contains(property) {
            var layer = layers[i]
            layer[property] = value?.isNull == true ? nil : value
            try replaceLayer(at: i, with: layer)
            return
        }
        try setLayerProperty(at: i, section: section(of: property, in: layers[i]), property: property, value: value)
    }

    /// Sets several properties of a layer at once (each as `setLayerProperty` sets it), validated together.
    public func setLayerProperties(for layerId: String, properties: JSONObject) throws(StyleError) {
        guard let i = layerIndex(layerId) else { throw Snapshotter.notFound("layer", layerId) }
        var layer = layers[i]
        for (name, value) in properties.pairs {
            let v: JSONValue? = value.isNull ? nil : value
            if Snapshotter.layerMembers.contains(name) {
                layer[name] = v
            } else {
                let section = try section(of: name, in: layer)
                var part = layer[section]?.objectValue ?? JSONObject()
                part[name] = v
                layer[section] = .object(part)
            }
        }
        try replaceLayer(at: i, with: layer)
    }

    /// Sets a paint property (MapLibre's `setPaintProperty`); nil or null restores its default.
    public func setPaintProperty(for layerId: String, property: String, value: JSONValue?) throws(StyleError) {
        guard let i = layerIndex(layerId) else { throw Snapshotter.notFound("layer", layerId) }
        try setLayerProperty(at: i, section: "paint", property: property, value: value)
    }

    /// Sets a layout property (MapLibre's `setLayoutProperty`); nil or null restores its default.
    public func setLayoutProperty(for layerId: String, property: String, value: JSONValue?) throws(StyleError) {
        guard let i = layerIndex(layerId) else { throw Snapshotter.notFound("layer", layerId) }
        try setLayerProperty(at: i, section: "layout", property: property, value: value)
    }

    /// Sets the zooms a layer is drawn at (MapLibre's `setLayerZoomRange`); nil keeps a bound as it is.
    public func setLayerZoomRange(for layerId: String, minZoom: Double?, maxZoom: Double?) throws(StyleError) {
        guard let i = layerIndex(layerId) else { throw Snapshotter.notFound("layer", layerId) }
        var layer = layers[i]
        if let minZoom { layer["minzoom"] = .number(minZoom) }
        if let maxZoom { layer["maxzoom"] = .number(maxZoom) }
        try replaceLayer(at: i, with: layer)
    }

    private func setLayerProperty(at i: Int, section: String, property: String, value: JSONValue?) throws(StyleError) {
        var layer = layers[i]
        var part = layer[section]?.objectValue ?? JSONObject()
        part[property] = value?.isNull == true ? nil : value
        layer[section] = .object(part)
        try replaceLayer(at: i, with: layer)
    }

    private func replaceLayer(at i: Int, with layer: JSONObject) throws(StyleError) {
        var newLayers = layers
        newLayers[i] = layer
        try commit(sources: sources, layers: newLayers)
    }

    /// "paint" or "layout" for a property of `layer`: by the layer type's property table, else
    /// where the layer already sets it; `*-transition` is always paint.
    private func section(of property: String, in layer: JSONObject) throws(StyleError) -> String {
        if property == "visibility" { return "layout" }
        if property.hasSuffix("-transition") { return "paint" }
        let typeName = layer["type"]?.stringValue ?? ""
        if let type = GLMapStyle.LayerType(rawValue: typeName) {
            if let p = type.properties.first(where: { $0.name == property }) { return p.isLayout ? "layout" : "paint" }
            throw StyleError(file: nil, issues: [StyleIssue(path: "", message: "unknown property \"\(property)\" for a \(typeName) layer")])
        }
        for section in ["paint", "layout"] where layer[section]?[property] != nil { return section }
        throw StyleError(file: nil, issues: [StyleIssue(path: "", message:
            "cannot tell whether \"\(property)\" is a paint or a layout property of a \(typeName) layer (glmap has no property table for it); use setPaintProperty or setLayoutProperty")])
    }

    // MARK: Sources

    /// Adds a source given as style JSON (`{"type": "geojson", "data": …}`); throws when the id is
    /// taken or the source is invalid.
    public func addSource(withId id: String, properties: JSONObject) throws(StyleError) {
        guard !sourceExists(withId: id) else {
            throw StyleError(file: nil, issues: [StyleIssue(path: "sources.\(id)", message: "a source with id \"\(id)\" already exists")])
        }
        try commit(sources: sources + [(id, .json(properties))], layers: layers)
    }

    /// The source as style JSON (Swift-built GeoJSON written out).
    public func sourceProperties(for sourceId: String) throws(StyleError) -> JSONObject {
        guard let s = sources.first(where: { $0.id == sourceId }) else { throw Snapshotter.notFound("source", sourceId) }
        switch s.source {
        case .json(let o): return o
        case .typed(let t): return try Snapshotter.asStyleError { try t.styleJSONObject(placeholder: false) }
        }
    }

    /// Sets one member of a source (`data`, `maxzoom`, …); nil or null removes it.
    public func setSourceProperty(for sourceId: String, property: String, value: JSONValue?) throws(StyleError) {
        guard let i = sources.firstIndex(where: { $0.id == sourceId }) else { throw Snapshotter.notFound("source", sourceId) }
        var o = try sourceProperties(for: sourceId)
        o[property] = value?.isNull == true ? nil : value
        var newSources = sources
        newSources[i] = (sourceId, .json(o))
        try commit(sources: newSources, layers: layers)
    }

    /// Replaces a GeoJSON source's data with GeoJSON as JSON (MapLibre's `GeoJSONSource.setData`).
    public func updateGeoJSONSource(withId id: String, geoJSON: JSONValue) throws(StyleError) {
        guard let i = sources.firstIndex(where: { $0.id == id }) else { throw Snapshotter.notFound("source", id) }
        let o = try sourceProperties(for: id)
        guard o["type"]?.stringValue == "geojson" else {
            throw StyleError(file: nil, issues: [StyleIssue(path: "sources.\(id)", message: "source \"\(id)\" is not a geojson source")])
        }
        var updated = o
        updated["data"] = geoJSON
        var newSources = sources
        newSources[i] = (id, .json(updated))
        try commit(sources: newSources, layers: layers)
    }

    // MARK: Feature state

    /// The type of a source (`geojson`, `vector`, …), nil when it has none.
    private func sourceType(_ id: String) throws(StyleError) -> String? {
        guard let s = sources.first(where: { $0.id == id }) else {
            throw StyleError(file: nil, issues: [StyleIssue(path: "", message: "the source \"\(id)\" does not exist in the style")])
        }
        switch s.source {
        case .typed: return "geojson"
        case .json(let o): return o["type"]?.stringValue
        }
    }

    /// Merges `state` into a feature's state (what `feature-state` expressions read). A vector
    /// source needs `sourceLayerId`. Ids match as MapLibre matches them (`FeatureStates`).
    public func setFeatureState(sourceId: String, sourceLayerId: String? = nil, featureId: String, state: JSONObject) throws(StyleError) {
        if try sourceType(sourceId) == "vector" && sourceLayerId == nil {
            throw StyleError(file: nil, issues: [StyleIssue(path: "", message: "the sourceLayer parameter must be provided for vector source types")])
        }
        guard !featureId.isEmpty else {
            throw StyleError(file: nil, issues: [StyleIssue(path: "", message: "the feature id parameter must be provided")])
        }
        featureStates.set(source: sourceId, sourceLayer: sourceLayerId, featureID: .string(featureId), state: state)
    }

    /// Removes one key of a feature's state, the feature's whole state (`stateKey` nil), or every
    /// feature's state in the source (layer) when `featureId` is nil (a key then is an error).
    public func removeFeatureState(sourceId: String, sourceLayerId: String? = nil, featureId: String? = nil,
                                   stateKey: String? = nil) throws(StyleError) {
        if try sourceType(sourceId) == "vector" && sourceLayerId == nil {
            throw StyleError(file: nil, issues: [StyleIssue(path: "", message: "the sourceLayer parameter must be provided for vector source types")])
        }
        if featureId == nil && stateKey != nil {
            throw StyleError(file: nil, issues: [StyleIssue(path: "", message: "a feature id is required to remove its specific state property")])
        }
        featureStates.remove(source: sourceId, sourceLayer: sourceLayerId, featureID: featureId.map(JSONValue.string), stateKey: stateKey)
    }

    /// A feature's state (empty when none was set).
    public func featureState(sourceId: String, sourceLayerId: String? = nil, featureId: String) -> JSONObject {
        featureStates.state(source: sourceId, sourceLayer: sourceLayerId, featureID: .string(featureId))
    }

    // MARK: Global state

    /// Sets a value `global-state` expressions read, over the style's `state` default; nil or
    /// null goes back to that default (MapLibre's `setGlobalStateProperty`).
    public func setGlobalStateProperty(_ name: String, value: JSONValue?) {
        globalStateValues[name] = value?.isNull == true ? nil : value
    }

    /// The global state in effect: the style's `state` defaults with the values set over them.
    public var globalState: JSONObject {
        var state = document?.globalState ?? JSONObject()
        for (name, value) in globalStateValues.pairs { state[name] = value }
        return state
    }

    // MARK: Light, sky, terrain, projection

    /// Sets the style's `light` (nil removes it).
    public func setLight(properties: JSONObject?) throws(StyleError) { try setRootMember("light", properties) }
    /// Sets the style's `sky` (nil removes it).
    public func setSky(properties: JSONObject?) throws(StyleError) { try setRootMember("sky", properties) }
    /// Sets the style's `terrain` (nil removes it: the map is flat again).
    public func setTerrain(properties: JSONObject?) throws(StyleError) { try setRootMember("terrain", properties) }
    /// Sets the style's `projection` (`{"type": "globe"}`…; nil: Mercator).
    public func setProjection(properties: JSONObject?) throws(StyleError) { try setRootMember("projection", properties) }

    private func setRootMember(_ name: String, _ value: JSONObject?) throws(StyleError) {
        var newRoot = root
        newRoot[name] = value.map(JSONValue.object)
        try commit(root: newRoot, sources: sources, layers: layers)
    }

    // MARK: Images

    /// Adds an image for icons and patterns; throws when the id is taken (use `updateImage`).
    public func addImage(_ image: StyleImage, id: String) throws(StyleError) {
        guard images[id] == nil else {
            throw StyleError(file: nil, issues: [StyleIssue(path: "", message: "an image named \"\(id)\" already exists")])
        }
        images[id] = image
        scene = nil
    }

    /// Replaces the pixels of an image added earlier (same size, as MapLibre's `updateImage` requires).
    public func updateImage(withId id: String, image: StraightImage) throws(StyleError) {
        guard var existing = images[id] else { throw Snapshotter.notFound("image", id) }
        guard existing.image.width == image.width, existing.image.height == image.height else {
            throw StyleError(file: nil, issues: [StyleIssue(path: "", message:
                "the updated image \"\(id)\" must be \(existing.image.width)x\(existing.image.height) pixels, as it was, not \(image.width)x\(image.height)")])
        }
        existing.image = image
        images[id] = existing
        scene = nil
    }

    /// Removes an image added earlier.
    public func removeImage(withId id: String) throws(StyleError) {
        guard images.removeValue(forKey: id) != nil else { throw Snapshotter.notFound("image", id) }
        scene = nil
    }

    /// Whether an image with this id was added.
    public func imageExists(withId id: String) -> Bool { images[id] != nil }

    // MARK: What is stored but not drawn

    /// What the style holds that glmap stores but does not draw yet, one phrase each (empty when
    /// everything in it is drawn or left out with a warning): terrain, sky, a projection other
    /// than Mercator.
    public var undrawnStyleFeatures: [String] {
        var out: [String] = []
        if let t = root["terrain"], !t.isNull { out.append("terrain") }
        if let s = root["sky"], !s.isNull { out.append("sky") }
        if let p = root["projection"], !p.isNull, p["type"]?.stringValue != "mercator" {
            out.append("the \(p["type"]?.jsonText ?? p.jsonText) projection")
        }
        return out
    }
}
