import GLMapCore

/// How a paint value varies, as MapLibre's program configuration tells them apart.
public enum PaintVariation: Sendable, Equatable {
    /// Neither zoom nor feature: one value.
    case constant
    /// Zoom only ("camera" function): one value per frame, evaluated at the frame's zoom.
    case camera
    /// Feature only ("source" function): one value per feature.
    case source
    /// Feature and zoom ("composite"): per feature, the values at the tile zoom z and z + 1, mixed
    /// per frame by the zoom curve's interpolation factor.
    case composite
}

/// What a layer's GPU-bound paint is computed from: its expressions and the zoom its features
/// were evaluated at. The GPU side keeps this with a bucket so a frame at another fractional zoom
/// only recomputes uniforms (camera values, composite mix factors) — no re-evaluation of features.
public struct PaintSource: Sendable {
    /// The layer's bound paint expressions by property name (unset ones absent: the spec default).
    public var expressions: [String: PropertyValue] = [:]
    /// The style's global state (camera values may read it).
    public var globalState: JSONObject = JSONObject()
    /// The integer zoom filters, layout and per-feature values were evaluated at (MapLibre's
    /// tile zoom: floor of the frame zoom).
    public var tileZoom: Double = 0

    /// An empty source: no bound expressions (every property at its spec default), tile zoom 0.
    public init() {}

    /// The GPU-bound paint values `layer` sets, with the style's global state and the tile zoom.
    public init(layer: Layer, globalState: JSONObject, tileZoom: Double) {
        for p in layer.type.properties where p.gpu != nil {
            if let v = layer.values[p.name] { expressions[p.name] = v }
        }
        self.globalState = globalState
        self.tileZoom = tileZoom
    }

    /// How a property varies (unset: constant).
    public func variation(_ p: StyleProperty) -> PaintVariation {
        guard let e = expressions[p.name]?.expression else { return .constant }
        switch (e.isFeatureConstant, e.isZoomConstant) {
        case (true, true): return .constant
        case (true, false): return .camera
        case (false, true): return .source
        case (false, false): return .composite
        }
    }

    /// A feature-constant property's value at `zoom` (the spec default when unset or failing).
    public func value(_ p: StyleProperty, zoom: Double) -> Value {
        if let e = expressions[p.name]?.expression {
            if let c = e.constantValue { if !c.isNaN { return c } } else if let v = try? e.evaluate(EvaluationContext(zoom: zoom, feature: nil, globalState: globalState)),
                                                                                v != .null, !v.isNaN { return v }
        }
        return StyleEvaluator.defaultValue(p)
    }

    /// A composite property's mix factor between the tile zoom and the next at frame `zoom`.
    public func mixFactor(_ p: StyleProperty, zoom: Double) -> Double {
        guard let e = expressions[p.name]?.expression else { return 0 }
        return e.interpolationFactor(zoom: zoom, lower: tileZoom, upper: tileZoom + 1)
    }
}
