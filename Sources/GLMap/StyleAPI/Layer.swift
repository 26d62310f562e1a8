// Layer — the typed style layers (FillLayer, LineLayer, SymbolLayer, … one per layer type of the
// spec, generated into Generated/ by glmap-codegen) and the typed root objects (Light, Sky).
// Each type lists its typed properties with the property-table row each stands for
// (`properties`); encoding to style JSON and decoding from it (also through Codable) go through
// that list, so the JSON names, paint/layout placement and defaults come from glmap's property
// tables. A test checks that every table row has exactly one typed property named by its
// lowerCamelCase spec name.
import GLMapCore
import GLMapStyle

/// A typed style layer that a `Snapshotter` can add, update and draw.
public protocol Layer: Sendable {
    /// The layer's unique id in the style.
    var id: String { get set }
    /// The layer type (`fill`, `line`, `symbol`, …).
    var type: LayerType { get }
    /// The source id (nil for background layers).
    var source: String? { get set }
    /// The layer of a vector source to draw (`source-layer`; nil for GeoJSON sources and background layers).
    var sourceLayer: String? { get set }
    /// Which features are drawn.
    var filter: Exp? { get set }
    /// The lowest zoom at which the layer is drawn (inclusive).
    var minZoom: Double? { get set }
    /// The zoom from which the layer is no longer drawn (exclusive).
    var maxZoom: Double? { get set }
    /// `visibility` (layout): whether the layer is drawn: `.visible` (default) or `.none`.
    var visibility: Value<Visibility>? { get set }
    /// A layer with only an id (every property unset).
    init(id: String)
    /// Each typed property with the property-table row it stands for.
    static var properties: [LayerPropertyBinding<Self>] { get }
}

/// A typed property of a layer (or of a root object such as `Light`) bound to its row of
/// glmap's property table.
public struct LayerPropertyBinding<L> {
    /// The table row: spec name, paint or layout, type, default.
    public let property: StyleProperty
    let encode: (L) -> JSONValue?
    let decode: (inout L, JSONValue) -> Bool
    let clear: (inout L) -> Void

    /// Binds the typed property at `keyPath` to the table row `property`. With `scalarAsArray`,
    /// a single value in style JSON reads as an array of one (the spec's `padding`,
    /// `numberArray` and `colorArray` take either form).
    public init<T>(_ keyPath: WritableKeyPath<L, Value<T>?>, _ property: StyleProperty, scalarAsArray: Bool = false) {
        self.property = property
        encode = { $0[keyPath: keyPath]?.json }
        decode = { layer, json in
            var json = json
            if scalarAsArray, Value<T>(json: json) == nil, json.arrayValue == nil { json = .array([json]) }
            guard let v = Value<T>(json: json) else { return false }
            layer[keyPath: keyPath] = v
            return true
        }
        clear = { $0[keyPath: keyPath] = nil }
    }
}

extension Layer {
    /// A copy with `filter` set.
    public func filter(_ filter: Exp) -> Self { var l = self; l.filter = filter; return l }
    /// A copy with `minZoom` set.
    public func minZoom(_ zoom: Double) -> Self { var l = self; l.minZoom = zoom; return l }
    /// A copy with `maxZoom` set.
    public func maxZoom(_ zoom: Double) -> Self { var l = self; l.maxZoom = zoom; return l }
    /// A copy with `visibility` set.
    public func visibility(_ visibility: Visibility) -> Self { var l = self; l.visibility = .constant(visibility); return l }
    /// A copy with `source` set.
    public func source(_ source: String) -> Self { var l = self; l.source = source; return l }
    /// A copy with `sourceLayer` (`source-layer`) set.
    public func sourceLayer(_ sourceLayer: String) -> Self { var l = self; l.sourceLayer = sourceLayer; return l }

    /// The layer as a style JSON object (`id`, `type`, `source`, `filter`, zooms, `layout`, `paint`).
    var styleJSONObject: JSONObject {
        var o = JSONObject()
        o["id"] = .string(id)
        o["type"] = .string(type.rawValue)
        if let source { o["source"] = .string(source) }
        if let sourceLayer { o["source-layer"] = .string(sourceLayer) }
        if let filter { o["filter"] = filter.json }
        if let minZoom { o["minzoom"] = .number(minZoom) }
        if let maxZoom { o["maxzoom"] = .number(maxZoom) }
        var layout = JSONObject(), paint = JSONObject()
        for binding in Self.properties {
            guard let v = binding.encode(self) else { continue }
            if binding.property.isLayout { layout[binding.property.name] = v } else { paint[binding.property.name] = v }
        }
        if !layout.isEmpty { o["layout"] = .object(layout) }
        if !paint.isEmpty { o["paint"] = .object(paint) }
        return o
    }

    /// The layer as style JSON text.
    public var styleJSON: String { JSONValue.object(styleJSONObject).jsonText }

    /// Reads a typed layer from a (validated) style layer object; `path` names it in errors.
    static func decode(_ o: JSONObject, path: String) throws -> Self {
        func fail(_ key: String, _ message: String) -> StyleError {
            StyleError(file: nil, issues: [StyleIssue(path: "\(path).\(key)", message: message)])
        }
        guard case .string(let id)? = o["id"] else { throw fail("id", "expected a string") }
        guard o["type"]?.stringValue == Self(id: id).type.rawValue else {
            throw fail("type", "layer \"\(id)\" is a \(o["type"]?.stringValue ?? "?") layer, not \(Self(id: id).type.rawValue)")
        }
        var layer = Self(id: id)
        if case .string(let s)? = o["source"] { layer.source = s }
        if case .string(let s)? = o["source-layer"] { layer.sourceLayer = s }
        if let f = o["filter"] {
            guard let e = Exp(json: f) else { throw fail("filter", "a filter of \(f.shortText) is not representable as Exp") }
            layer.filter = e
        }
        if case .number(let z)? = o["minzoom"] { layer.minZoom = z }
        if case .number(let z)? = o["maxzoom"] { layer.maxZoom = z }
        let bindings = Self.properties
        for group in ["layout", "paint"] {
            guard case .object(let values)? = o[group] else { continue }
            for (name, v) in values.pairs {
                if name.hasSuffix("-transition") { continue }
                guard let b = bindings.first(where: { $0.property.name == name && $0.property.isLayout == (group == "layout") }) else {
                    throw fail("\(group).\(name)", "unknown property")
                }
                guard b.decode(&layer, v) else {
                    throw fail("\(group).\(name)", "\(v.shortText) is not representable as a typed value (a legacy function?)")
                }
            }
        }
        return layer
    }
}

extension Layer {
    /// Reads the layer from a decoder holding its style-JSON object (`Codable` conformance of the
    /// generated layer types).
    static func decodeLayer(from decoder: any Decoder) throws -> Self {
        let json = try JSONValue(from: decoder)
        guard case .object(let o) = json else {
            throw DecodingError.typeMismatch(JSONObject.self, .init(codingPath: decoder.codingPath, debugDescription: "a style layer is a JSON object, found \(json.shortText)"))
        }
        do {
            return try decode(o, path: decoder.codingPath.map(\.stringValue).joined(separator: "."))
        } catch let e as StyleError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: e.description, underlyingError: e))
        }
    }

    /// Writes the layer's style-JSON object to an encoder.
    func encodeLayer(to encoder: any Encoder) throws { try JSONValue.object(styleJSONObject).encode(to: encoder) }
}

extension JSONValue {
    /// A value shortened for messages.
    var shortText: String {
        let t = jsonText
        return t.count > 60 ? String(t.prefix(57)) + "…" : t
    }
}

/// Where `addLayer` puts a layer in the draw order.
public enum LayerPosition: Equatable, Sendable {
    /// On top of every layer.
    case `default`
    /// Just above the layer with this id.
    case above(String)
    /// Just below the layer with this id.
    case below(String)
    /// At this index in the draw order (0 is drawn first, at the bottom).
    case at(Int)
}
