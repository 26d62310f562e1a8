// Evaluation stage — contract
// Input: a validated `Layer`, the projected features of its source, a zoom, the style's global
// state. Output: an `EvaluatedLayer`: the filter applied, features of a geometry the layer type
// cannot draw dropped (as MapLibre does: fill ← polygons and the parts of lines as rings, see
// `RingClassification`; points never (GL JS makes each point its own one-point ring); line ← lines and polygon rings;
// circle ← every vertex of any geometry), every paint/layout value evaluated per feature at that
// zoom, features ordered by sort key (stable). A value whose evaluation fails falls back to the
// property's spec default, as MapLibre does. Never throws.
// Zooms as MapLibre's buckets use them: filters and layout properties at the tile zoom
// floor(zoom); paint that reads only the zoom at the zoom itself; paint that reads the feature
// and the zoom ("composite") at the tile zoom z and z + 1, mixed by the zoom curve's
// interpolation factor at the zoom (or, for the GPU, at `compositeZoom` exactly: the GPU mixes).
import Foundation
import GLMapCore
import GLMapGeoJSON

/// Evaluates layers for one zoom.
public struct StyleEvaluator: Sendable {
    /// The frame's zoom; paint reads it as it is, filters and layout read `tileZoom`.
    public var zoom: Double
    /// The style's global state (`global-state` reads it).
    public var globalState: JSONObject
    /// The style's sources by id: line layers read `lineMetrics`, `maxzoom` and `buffer` from
    /// theirs. A layer whose source is not here gets maxzoom 18, buffer 128, and line metrics
    /// exactly when it sets `line-gradient` (which needs them).
    public var sources: [String: Source]
    /// When set, composite paint values are evaluated at exactly this zoom instead of mixed
    /// (the GPU path evaluates the tile zoom and the next one and mixes per frame).
    public var compositeZoom: Double?

    /// Creates an evaluator at `zoom` with the style's global state and sources.
    public init(zoom: Double, globalState: JSONObject = JSONObject(), sources: [String: Source] = [:]) {
        self.zoom = zoom
        self.globalState = globalState
        self.sources = sources
    }

    /// The zoom of the tile being evaluated (its overscaled zoom), when evaluating per tile.
    public var tileZoomOverride: Double?
    /// Features' runtime state by source (`feature-state` reads it).
    public var featureStates = FeatureStates()
    /// The style's light at the frame zoom (`fill-extrusion` layers are shaded by it).
    public var light = EvaluatedLight.default
    /// The images `*-pattern` values may name, in one atlas (an image not in it is missing:
    /// MapLibre draws nothing for it); nil: no images.
    public var patternAtlas: PatternAtlas?
    /// The atlas's images by name.
    public var patternImages: [String: PatternImage] { patternAtlas?.images ?? [:] }

    /// MapLibre's tile zoom for this zoom: filters and layout are evaluated there (the tile's
    /// overscaled zoom per tile, else floor(zoom)).
    public var tileZoom: Double { tileZoomOverride ?? zoom.rounded(.down) }

    /// This evaluator at the tile zoom (for filters and layout properties).
    var atTileZoom: StyleEvaluator { var e = self; e.zoom = tileZoom; return e }

    /// Evaluates a property for a feature (or none), falling back to the spec default.
    public func value(_ prop: StyleProperty, in layer: Layer, feature: FeatureContext? = nil) -> Value {
        if let pv = layer.values[prop.name] {
            // As GL JS: null and NaN results fall back to the default.
            if let c = pv.expression.constantValue { if !c.isNaN { return c } } else {
                let ctx = EvaluationContext(zoom: zoom, feature: feature, globalState: globalState)
                if let v = try? pv.expression.evaluate(ctx), v != .null, !v.isNaN { return v }
            }
        }
        return StyleEvaluator.defaultValue(prop)
    }

    /// A property's value read through its typed row: `value(LineProperties.lineWidth, layer)` is a
    /// `Double`, `value(LineProperties.lineCap, layer)` a `LineCap` (the spec default when unset,
    /// failing or not of the row's type; nil for an unset optional row such as a sort key).
    public func value<T>(_ key: PropertyKey<T>, _ layer: Layer, _ feature: FeatureContext? = nil) -> T {
        key.typed(value(key, in: layer, feature: feature))
    }

    /// A number property's value (the spec default when unset, failing or not a number).
    public func number(_ p: StyleProperty, _ l: Layer, _ f: FeatureContext? = nil) -> Double {
        value(p, in: l, feature: f).number ?? StyleEvaluator.defaultValue(p).number ?? 0
    }

    /// A colour property's value (the spec default when unset, failing or not a colour).
    public func color(_ p: StyleProperty, _ l: Layer, _ f: FeatureContext? = nil) -> Color {
        value(p, in: l, feature: f).color ?? StyleEvaluator.defaultValue(p).color ?? .black
    }

    /// A string or enum property's value (the spec default when unset, failing or not a string).
    public func string(_ p: StyleProperty, _ l: Layer, _ f: FeatureContext? = nil) -> String {
        value(p, in: l, feature: f).string ?? StyleEvaluator.defaultValue(p).string ?? ""
    }

    /// A per-feature getter that evaluates once when the layer's value does not read the feature
    /// (the common case: constants and zoom functions), so large sources skip the lookups.
    /// `read` is one of `number`, `color`, `string`.
    /// Composite values (feature and zoom) follow the contract above.
    func getter<T>(_ p: StyleProperty, _ l: Layer,
                   _ read: @escaping (StyleProperty, Layer, FeatureContext?) -> T) -> (FeatureContext) -> T {
        guard let e = l.values[p.name]?.expression, !e.isFeatureConstant else { let v = read(p, l, nil); return { _ in v } }
        return { read(p, l, $0) }
    }

    /// A per-feature paint getter (numbers and colours) with MapLibre's composite evaluation.
    func paintGetter<T>(_ p: StyleProperty, _ l: Layer, _ read: @escaping (StyleEvaluator) -> (StyleProperty, Layer, FeatureContext?) -> T,
                        mix: @escaping (T, T, Double) -> T) -> (FeatureContext) -> T {
        guard let e = l.values[p.name]?.expression, !e.isFeatureConstant, !e.isZoomConstant else {
            return getter(p, l, read(self))
        }
        var lower = self, upper = self
        if let z = compositeZoom {
            lower.zoom = z
            return getter(p, l, read(lower))
        }
        lower.zoom = tileZoom
        upper.zoom = tileZoom + 1
        let t = e.interpolationFactor(zoom: zoom, lower: tileZoom, upper: tileZoom + 1)
        let a = lower.getter(p, l, read(lower)), b = upper.getter(p, l, read(upper))
        if t == 0 { return a }
        return { c in mix(a(c), b(c), t) }
    }

    func numberGetter(_ p: StyleProperty, _ l: Layer) -> (FeatureContext) -> Double {
        paintGetter(p, l, { $0.number }, mix: { a, b, t in a + (b - a) * t })
    }

    func colorGetter(_ p: StyleProperty, _ l: Layer) -> (FeatureContext) -> Color {
        // Mixed as the GPU mixes: premultiplied components, linearly.
        paintGetter(p, l, { $0.color }, mix: { a, b, t in
            Color(premultipliedR: a.r + (b.r - a.r) * t, g: a.g + (b.g - a.g) * t, b: a.b + (b.b - a.b) * t, a: a.a + (b.a - a.a) * t)
        })
    }

    func pair(_ p: StyleProperty, _ l: Layer) -> (x: Double, y: Double) {
        let a = value(p, in: l).array ?? []
        guard a.count == 2, let x = a[0].number, let y = a[1].number else { return (0, 0) }
        return (x, y)
    }

    /// A property's spec default as a `Value` (colours parsed).
    public static func defaultValue(_ p: StyleProperty) -> Value {
        guard let d = p.spec.defaultValue else { return .null }
        return defaultValue(type: p.spec.type, json: d)
    }

    /// A spec default written as JSON, as a `Value` of the property type (colours parsed, also the
    /// items of a `colorArray`).
    public static func defaultValue(type: PropertyType, json d: JSONValue) -> Value {
        switch (type, d) {
        case (.color, .string(let s)), (.colorArray, .string(let s)):
            if let c = Color(css: s) { return .color(c) }
        case (.colorArray, .array(let a)):
            let colors = a.compactMap { $0.stringValue.flatMap { Color(css: $0) } }
            if colors.count == a.count { return .array(colors.map(Value.color)) }
        default: break
        }
        return Value(json: d)
    }

    /// Orders items by an optional numeric sort key, stably.
    func sorted<T>(_ items: [(key: Double?, item: T)]) -> [T] {
        guard items.contains(where: { $0.key != nil }) else { return items.map(\.item) }
        return items.enumerated().sorted { a, b in
            let ka = a.element.key ?? 0, kb = b.element.key ?? 0
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element.item)
    }

    func sortKey(_ p: StyleProperty, _ l: Layer, _ f: FeatureContext) -> Double? {
        l.values[p.name] == nil ? nil : atTileZoom.value(p, in: l, feature: f).number
    }

    /// A background layer's paint at the zoom.
    public func evaluateBackground(_ layer: Layer) -> EvaluatedBackground {
        var b = EvaluatedBackground(color: color(BackgroundProperties.backgroundColor, layer), opacity: number(BackgroundProperties.backgroundOpacity, layer))
        if let patternOf = patternGetter(BackgroundProperties.backgroundPattern, layer, wholeZooms: true) {
            b.patterned = true
            b.pattern = patternOf(FeatureContext())
            b.patternAtlas = patternAtlas
        }
        return b
    }
}
