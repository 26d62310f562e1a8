import GLMapCore

/// Walks a style's JSON, collecting every problem with its path (see `StyleDocument`'s contract).
struct StyleParser {
    var issues: [StyleIssue] = []
    /// What the spec allows but glmap does not draw (warnings).
    var skipped: [SkippedFeature] = []
    /// Sources skipped for their type: id → their index in `skipped`.
    var skippedSources: [String: Int] = [:]

    /// The style spec's layer types, and those glmap draws.
    static let specLayerTypes = ["background", "fill", "line", "symbol", "circle", "heatmap", "fill-extrusion", "raster", "hillshade", "color-relief"]
    /// The style spec's source types.
    static let specSourceTypes = ["vector", "raster", "raster-dem", "geojson", "image", "video"]
    /// The keys a layer object may have under the spec.
    static let layerKeys = ["id", "type", "metadata", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout", "paint"]
    /// Expression operators of the spec that glmap does not evaluate.
    static let unevaluatedOperators: Set<String> = ["feature-state", "collator", "resolved-locale", "format", "image", "number-format",
                                                    "distance", "heatmap-density", "elevation", "split", "join"]

    /// The first operator of `json` (an expression) that glmap does not evaluate, if any.
    static func unevaluatedOperator(in json: JSONValue) -> String? {
        guard case .array(let a) = json else { return nil }
        if case .string(let op)? = a.first {
            if op == "literal" { return nil }
            if unevaluatedOperators.contains(op) { return op }
        }
        for e in a { if let op = unevaluatedOperator(in: e) { return op } }
        return nil
    }

    mutating func fail(_ path: String, _ message: String) {
        issues.append(StyleIssue(path: path, message: message))
    }

    mutating func parseRoot(_ json: JSONValue, file: String?) -> StyleDocument? {
        guard let root = json.objectValue else {
            fail("", "expected an object, found \(json.kindName)")
            return nil
        }
        if let v = root["version"] {
            if v != .number(8) { fail("version", "expected 8, found \(v.shortDescription)") }
        } else {
            fail("version", "missing required property (expected 8)")
        }
        var center = (lon: 0.0, lat: 0.0)
        if let c = root["center"] {
            if let a = c.arrayValue, a.count == 2 || a.count == 3, let lon = a[0].numberValue, let lat = a[1].numberValue {
                if lat < -90 || lat > 90 {
                    fail("center", "latitude must be between -90 and 90, found \(JSONValue.formatNumber(lat))")
                }
                center = (lon, lat)
            } else {
                fail("center", "expected an array of two numbers [longitude, latitude], found \(c.shortDescription)")
            }
        }
        let zoom = number(root["zoom"], path: "zoom", default: 0, min: 0, max: 24)
        let bearing = number(root["bearing"], path: "bearing", default: 0)
        let pitch = number(root["pitch"], path: "pitch", default: 0, min: 0, max: 85)

        var globalState = JSONObject()
        if let s = root["state"] {
            if let o = s.objectValue {
                // Each entry is { "default": value } in the spec; a bare value is accepted as its own default.
                for (k, v) in o.pairs {
                    if let d = v.objectValue, let def = d["default"] { globalState[k] = def } else { globalState[k] = v }
                }
            } else {
                fail("state", "expected an object, found \(s.kindName)")
            }
        }

        var sources: [String: Source] = [:]
        if let s = root["sources"] {
            if let o = s.objectValue {
                for (id, v) in o.pairs {
                    if let src = parseSource(id: id, v, path: "sources.\(id)") { sources[id] = src }
                }
            } else {
                fail("sources", "expected an object, found \(s.kindName)")
            }
        } else {
            fail("sources", "missing required property (expected an object)")
        }

        var layers: [Layer] = []
        if let l = root["layers"] {
            if let a = l.arrayValue {
                var seen = Set<String>()
                for (i, lv) in a.enumerated() {
                    let path = "layers[\(i)]"
                    guard let layer = parseLayer(lv, path: path, sources: sources, rawSources: root["sources"]?.objectValue) else { continue }
                    if !seen.insert(layer.id).inserted {
                        fail("\(path).id", "duplicate layer id \"\(layer.id)\"")
                    }
                    layers.append(layer)
                }
            } else {
                fail("layers", "expected an array, found \(l.kindName)")
            }
        } else {
            fail("layers", "missing required property (expected an array)")
        }
        var doc = StyleDocument(center: center, zoom: zoom, bearing: bearing, pitch: pitch, sources: sources,
                                layers: layers, globalState: globalState, file: file)
        doc.name = root["name"]?.stringValue
        doc.hasCenter = root["center"] != nil
        doc.hasZoom = root["zoom"] != nil
        return doc
    }

    mutating func number(_ v: JSONValue?, path: String, default d: Double, min: Double? = nil, max: Double? = nil) -> Double {
        guard let v else { return d }
        guard let n = v.numberValue else {
            fail(path, "expected number, found \(v.shortDescription)")
            return d
        }
        if let min, n < min { fail(path, "\(JSONValue.formatNumber(n)) is less than the minimum value \(JSONValue.formatNumber(min))"); return d }
        if let max, n > max { fail(path, "\(JSONValue.formatNumber(n)) is greater than the maximum value \(JSONValue.formatNumber(max))"); return d }
        return n
    }

    mutating func parseSource(id: String, _ v: JSONValue, path: String) -> Source? {
        guard let o = object(v, path: path) else { return nil }
        guard let type = requiredString(o, "type", path: path, missing: "missing source type (expected \"geojson\")") else { return nil }
        guard type == "geojson" else {
            if StyleParser.specSourceTypes.contains(type) {
                skippedSources[id] = skipped.count
                skipped.append(SkippedFeature(kind: "source", id: id, path: path, reason: "\(type) sources are not drawn by glmap (it draws geojson sources)"))
            } else {
                fail("\(path).type", "unknown source type \"\(type)\" (the style spec's source types are \(StyleParser.specSourceTypes.joined(separator: ", ")))"
                     + Suggestion.hint(for: type, among: StyleParser.specSourceTypes))
            }
            return nil
        }
        let data: GeoJSONData
        switch o["data"] {
        case .string(let s)?: data = .reference(s)
        case .object(let obj)?: data = .inline(.object(obj))
        case nil: fail("\(path).data", "missing required property (expected GeoJSON or a file path)"); return nil
        case let other?:
            // Data that cannot be used empties the source (a warning), as a missing file does.
            data = .unusable("\(path).data: expected GeoJSON (an object) or a file path (a string), found \(other.shortDescription); the source is empty")
        }
        let maxzoom = number(o["maxzoom"], path: "\(path).maxzoom", default: 18, min: 0, max: 24)
        var lineMetrics = false
        if let lm = o["lineMetrics"] {
            if let b = lm.boolValue { lineMetrics = b } else { fail("\(path).lineMetrics", "expected boolean, found \(lm.shortDescription)") }
        }
        let tolerance = number(o["tolerance"], path: "\(path).tolerance", default: 0.375, min: 0)
        let buffer = number(o["buffer"], path: "\(path).buffer", default: 128, min: 0, max: 512)
        var source = Source(id: id, data: data, maxzoom: maxzoom, lineMetrics: lineMetrics, tolerance: tolerance, buffer: buffer)
        source.attribution = o["attribution"]?.stringValue
        return source
    }

    /// A layer, or nil when it is invalid (the problems are recorded) or skipped (a warning is
    /// recorded: a layer type, source or filter glmap does not draw).
    mutating func parseLayer(_ v: JSONValue, path: String, sources: [String: Source], rawSources: JSONObject?) -> Layer? {
        guard let o = object(v, path: path) else { return nil }
        guard let id = requiredString(o, "id", path: path, missing: "missing layer id (expected a string)") else { return nil }
        for key in o.keys where !StyleParser.layerKeys.contains(key) {
            fail("\(path).\(key)", "unknown layer property \"\(key)\"" + Suggestion.hint(for: key, among: StyleParser.layerKeys))
        }
        guard let type = layerType(o, id: id, path: path) else { return nil }
        var source: String?
        if type != .background {
            guard case .use(let s) = layerSource(o, type: type, id: id, path: path, sources: sources, rawSources: rawSources) else {
                return nil
            }
            source = s
        }
        let minzoom = number(o["minzoom"], path: "\(path).minzoom", default: 0, min: 0, max: 24)
        let maxzoom = number(o["maxzoom"], path: "\(path).maxzoom", default: 24, min: 0, max: 24)
        guard case .use(let filter) = layerFilter(o, id: id, path: path) else { return nil }
        let (values, visible) = layerValues(o, type: type, id: id, path: path)
        var layer = Layer(id: id, type: type, source: source, filter: filter, minzoom: minzoom, maxzoom: maxzoom,
                          isVisible: visible, values: values)
        layer.sourceLayer = o["source-layer"]?.stringValue
        return layer
    }

    /// What a layer member gives: a value to use (nil: none given or invalid), or "skip the layer".
    enum LayerPart<T> {
        case use(T?)
        case skipLayer
    }

    /// The object at `path`, or nil after recording "expected an object".
    mutating func object(_ v: JSONValue, path: String) -> JSONObject? {
        guard let o = v.objectValue else {
            fail(path, "expected an object, found \(v.kindName)")
            return nil
        }
        return o
    }

    /// The string member `key` of `o`, or nil after recording `missing` at `path.key`.
    mutating func requiredString(_ o: JSONObject, _ key: String, path: String, missing: String) -> String? {
        guard let s = o[key]?.stringValue else {
            fail("\(path).\(key)", missing)
            return nil
        }
        return s
    }

    /// `type`: a type glmap draws, or nil (a spec type glmap does not draw is a warning; anything
    /// else an error).
    mutating func layerType(_ o: JSONObject, id: String, path: String) -> LayerType? {
        let types = StyleParser.specLayerTypes
        guard let typeName = requiredString(o, "type", path: path,
                                            missing: "missing layer type (expected one of \(types.joined(separator: ", ")))") else {
            return nil
        }
        if let type = LayerType(rawValue: typeName) { return type }
        if types.contains(typeName) {
            skipped.append(SkippedFeature(kind: "layer", id: id, path: path, reason: "\(typeName) layers are not drawn by glmap"))
        } else {
            fail("\(path).type", "unknown layer type \"\(typeName)\" (the style spec's layer types are \(types.joined(separator: ", ")))"
                 + Suggestion.hint(for: typeName, among: types))
        }
        return nil
    }

    /// `source` of a non-background layer: the source id, or skip the layer when its source is
    /// one glmap skips (the layer is named in that source's warning).
    mutating func layerSource(_ o: JSONObject, type: LayerType, id: String, path: String, sources: [String: Source],
                              rawSources: JSONObject?) -> LayerPart<String> {
        guard let s = o["source"]?.stringValue else {
            fail("\(path).source", "missing required property (a \(type.rawValue) layer needs a source)")
            return .use(nil)
        }
        if let i = skippedSources[s] {
            skipped[i].layers.append(id)
            return .skipLayer
        }
        if sources[s] == nil && rawSources?[s] == nil {
            fail("\(path).source", "source \"\(s)\" not found")
        }
        return .use(s)
    }

    /// `filter`: compiled, or skip the layer when it uses an operator glmap does not evaluate.
    mutating func layerFilter(_ o: JSONObject, id: String, path: String) -> LayerPart<FeatureFilter> {
        guard let f = o["filter"] else { return .use(nil) }
        if let op = StyleParser.unevaluatedOperator(in: f), FeatureFilter.isExpressionFilter(f) {
            skipped.append(SkippedFeature(kind: "layer", id: id, path: "\(path).filter",
                                          reason: "its filter uses \"\(op)\", which glmap does not evaluate"))
            return .skipLayer
        }
        switch FeatureFilter.compile(f) {
        case .success(let ff): return .use(ff)
        case .failure(let errs):
            for e in errs.errors { fail("\(path).filter\(e.key)", e.message) }
            return .use(nil)
        }
    }

    /// The `layout` and `paint` properties, compiled, and `visibility`.
    mutating func layerValues(_ o: JSONObject, type: LayerType, id: String, path: String) -> (values: [String: PropertyValue], visible: Bool) {
        var values: [String: PropertyValue] = [:]
        var visible = true
        let table = Dictionary(uniqueKeysWithValues: type.properties.map { ($0.name, $0) })
        for section in ["layout", "paint"] {
            guard let sv = o[section] else { continue }
            guard let so = object(sv, path: "\(path).\(section)") else { continue }
            for (name, value) in so.pairs {
                layerProperty(name, value, section: section, table: table, type: type, id: id, path: path,
                              values: &values, visible: &visible)
            }
        }
        return (values, visible)
    }

    /// One `layout`/`paint` member: compiled into `values`, `visibility` into `visible`, or
    /// recorded as an error or a skipped property.
    mutating func layerProperty(_ name: String, _ value: JSONValue, section: String, table: [String: StyleProperty],
                                type: LayerType, id: String, path: String,
                                values: inout [String: PropertyValue], visible: inout Bool) {
        let typeName = type.rawValue
        let isLayout = section == "layout"
        let ppath = "\(path).\(section).\(name)"
        if !isLayout && name.hasSuffix("-transition") && table[String(name.dropLast(11))] != nil { return }
        if !isLayout && name == "\(typeName)-pattern" {
            skipped.append(SkippedFeature(kind: "layer", id: id, path: ppath, reason: "\(name) (image patterns) is not drawn by glmap",
                                          consequence: "the property is skipped"))
            return
        }
        guard let prop = table[name], prop.isLayout == isLayout else {
            if let p = table[name] {
                fail(ppath, "\"\(name)\" is a \(p.isLayout ? "layout" : "paint") property, not a \(section) property")
            } else {
                let names = table.values.filter { $0.isLayout == isLayout }.map(\.name).sorted()
                fail(ppath, "unknown property \"\(name)\" for a \(typeName) layer" + Suggestion.hint(for: name, among: names))
            }
            return
        }
        if let op = StyleParser.unevaluatedOperator(in: value) {
            skipped.append(SkippedFeature(kind: "layer", id: id, path: ppath, reason: "\(name) uses \"\(op)\", which glmap does not evaluate",
                                          consequence: "the property is skipped (its default is drawn)"))
            return
        }
        if prop == StyleProperty.visibility {
            switch value {
            case .string("visible"): visible = true
            case .string("none"): visible = false
            default: fail(ppath, "expected one of \"visible\", \"none\", found \(value.shortDescription)")
            }
            return
        }
        if let pv = compileValue(value, for: prop, path: ppath) { values[name] = pv }
    }

    /// Compiles a property value; constant values are also range-checked against the spec.
    mutating func compileValue(_ value: JSONValue, for prop: StyleProperty, path: String) -> PropertyValue? {
        // As in MapLibre, an array that does not start with an operator name is a constant
        // (e.g. `"fill-translate": [5, 5]`, `"line-dasharray": [2, 1]`), not an expression.
        var source = value
        if case .array(let a) = value, a.first?.stringValue == nil { source = .array(["literal", value]) }
        switch StyleExpression.compile(source, spec: prop.spec) {
        case .failure(let errs):
            for e in errs.errors { fail(path + e.key, e.message) }
            return nil
        case .success(let expr):
            if let c = expr.constantValue { checkRange(c, prop: prop, path: path) }
            return PropertyValue(json: value, expression: expr)
        }
    }

    mutating func checkRange(_ v: Value, prop: StyleProperty, path: String) {
        func check(_ n: Double, _ p: String) {
            if let min = prop.spec.minimum, n < min {
                fail(p, "\(JSONValue.formatNumber(n)) is less than the minimum value \(JSONValue.formatNumber(min))")
            }
            if let max = prop.spec.maximum, n > max {
                fail(p, "\(JSONValue.formatNumber(n)) is greater than the maximum value \(JSONValue.formatNumber(max))")
            }
        }
        if case .enum(let allowed) = prop.spec.type, case .string(let e) = v, !allowed.contains(e) {
            fail(path, "expected one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")), found \"\(e)\"")
        }
        switch v {
        case .number(let n): check(n, path)
        case .array(let a): for (i, e) in a.enumerated() { if case .number(let n) = e { check(n, "\(path)[\(i)]") } }
        default: break
        }
    }
}
