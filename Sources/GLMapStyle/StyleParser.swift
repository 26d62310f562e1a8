import GLMapCore

/// Walks a style's JSON, collecting every problem with its path (see `StyleDocument`'s contract).
struct StyleParser {
    var issues: [StyleIssue] = []
    /// What the spec allows but glmap does not draw (warnings).
    var skipped: [SkippedFeature] = []
    /// Sources skipped for their type: id → their index in `skipped`.
    var skippedSources: [String: Int] = [:]
    /// Vector, raster, raster-dem and image sources: loaded tile by tile by the scene.
    var tileSources: [String: TileSourceSpec] = [:]

    /// The style spec's layer types, in spec order (glmap draws every one).
    static let specLayerTypes = LayerType.allCases.map(\.rawValue)
    /// The style spec's source types, in spec order.
    static let specSourceTypes = SourceType.allCases.map(\.rawValue)
    /// The keys a layer object may have under the spec.
    static let layerKeys = StyleSpecification.layerKeys
    /// Expression operators that glmap does not evaluate: those of the spec it lacks
    /// (feature-state, collator, format, image, number-format, distance, heatmap-density,
    /// elevation, is-supported-script, …) and newer ones MapLibre has (split, join).
    static let unevaluatedOperators: Set<String> = Set(StyleSpecification.expressionOperators)
        .union(["split", "join"]).subtracting(StyleExpression.operators)
    /// Every operator name of the spec's expressions (an array starting with one is an expression).
    static let operatorNames: Set<String> = StyleExpression.operators.union(unevaluatedOperators)
    /// Operators that read an expression parameter only some properties provide, with the
    /// parameter (`heatmap-density` → `.heatmapDensity`).
    static let parameterOperators: [(name: String, parameter: ExpressionParameters)] = [
        ("feature-state", .featureState), ("line-progress", .lineProgress), ("heatmap-density", .heatmapDensity), ("elevation", .elevation),
    ]

    /// Every operator name used in `json` (an expression; `literal` contents are not looked into).
    static func operators(in json: JSONValue, into out: inout Set<String>) {
        guard case .array(let a) = json else {
            if case .object(let o) = json { for (_, v) in o.pairs { operators(in: v, into: &out) } }
            return
        }
        if case .string(let op)? = a.first {
            if op == "literal" { return }
            out.insert(op)
        }
        for e in a { operators(in: e, into: &out) }
    }

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
        let zoom = number(root["zoom"], path: "zoom", default: 0)   // no range in the spec (GL JS clamps the camera to −2…24)
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

        var rootObjects: [String: [String: PropertyValue]] = [:]
        for (key, table) in StyleParser.rootObjectTables {
            guard let v = root[key] else { continue }
            rootObjects[key] = rootObject(v, key: key, table: table, sources: root["sources"]?.objectValue)
        }

        var layers: [Layer] = [], allLayers: [Layer] = []
        if let l = root["layers"] {
            if let a = l.arrayValue.map(StyleDocument.derefLayers) {
                var seen = Set<String>()
                for (i, lv) in a.enumerated() {
                    let path = "layers[\(i)]"
                    guard let (layer, drawn) = parseLayer(lv, path: path, sources: sources, rawSources: root["sources"]?.objectValue) else { continue }
                    if !seen.insert(layer.id).inserted {
                        fail("\(path).id", "duplicate layer id \"\(layer.id)\"")
                    }
                    allLayers.append(layer)
                    if drawn { layers.append(layer) }
                }
            } else {
                fail("layers", "expected an array, found \(l.kindName)")
            }
        } else {
            fail("layers", "missing required property (expected an array)")
        }
        var doc = StyleDocument(center: center, zoom: zoom, bearing: bearing, pitch: pitch, sources: sources,
                                layers: layers, globalState: globalState, file: file)
        doc.allLayers = allLayers
        doc.tileSources = tileSources
        doc.rootObjects = rootObjects
        doc.name = root["name"]?.stringValue
        doc.sprite = root["sprite"]
        doc.hasCenter = root["center"] != nil
        doc.hasZoom = root["zoom"] != nil
        doc.glyphs = root["glyphs"]?.stringValue
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
        guard let sourceType = SourceType(rawValue: type) else {
            fail("\(path).type", "unknown source type \"\(type)\" (the style spec's source types are \(StyleParser.specSourceTypes.joined(separator: ", ")))"
                 + Suggestion.hint(for: type, among: StyleParser.specSourceTypes))
            return nil
        }
        let errorsBefore = issues.count
        sourceKeys(o, type: sourceType, path: path)
        guard sourceType == .geojson else {
            if issues.count == errorsBefore && sourceType != .video {
                // Loaded from tiles (files, archives, TileJSON, http) by the scene.
                tileSources[id] = TileSourceSpec(id: id, type: sourceType, json: o)
            } else if issues.count == errorsBefore {
                skippedSources[id] = skipped.count
                skipped.append(SkippedFeature(kind: "source", id: id, path: path, reason: "\(type) sources are not drawn by glmap"))
            }
            return nil
        }
        // The spec's checks of every key have spoken (once); what follows reads valid values.
        guard issues.count == errorsBefore else { return nil }
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
        clusterOptions(o, path: path, into: &source)
        switch o["promoteId"] {
        case nil, .null?: break
        case .string(let name)?: source.promoteId = name
        case .object(let byLayer)?:
            // A GeoJSON source has one layer, which MapLibre names "_geojsonTileLayer".
            source.promoteId = byLayer["_geojsonTileLayer"]?.stringValue
        default: break   // checked with the other keys (`sourceKeys`)
        }
        return source
    }

    /// `generateId`, `cluster` and its options, and the source's `filter`.
    mutating func clusterOptions(_ o: JSONObject, path: String, into source: inout Source) {
        func bool(_ key: String) -> Bool {
            guard let v = o[key] else { return false }
            guard let b = v.boolValue else { fail("\(path).\(key)", "expected boolean, found \(v.shortDescription)"); return false }
            return b
        }
        source.generateId = bool("generateId")
        source.cluster = bool("cluster")
        if let v = o["clusterRadius"] { source.clusterRadius = number(v, path: "\(path).clusterRadius", default: 50, min: 0) }
        if let v = o["clusterMaxZoom"] { source.clusterMaxZoom = number(v, path: "\(path).clusterMaxZoom", default: 0) }
        if let v = o["clusterMinPoints"] { source.clusterMinPoints = number(v, path: "\(path).clusterMinPoints", default: 2) }
        if let f = o["filter"] {
            switch FeatureFilter.compile(f) {
            case .success(let ff): source.filter = ff
            case .failure(let errs): for e in errs.errors { fail("\(path).filter\(e.key)", e.message) }
            }
        }
        if let cp = o["clusterProperties"] {
            guard let props = cp.objectValue else { fail("\(path).clusterProperties", "expected an object, found \(cp.shortDescription)"); return }
            let anySpec = PropertySpec(type: .value, kind: .dataDriven, zoomAllowed: false, interpolated: false)
            for (name, v) in props.pairs {
                let p = "\(path).clusterProperties.\(name)"
                guard case .array(let pair) = v, pair.count == 2 else { fail(p, "expected [operator, map expression]"); continue }
                // The reduce step is an operator name (applied to the accumulated value and the
                // mapped one) or an expression reading ["accumulated"] and ["get", name].
                let reduceJSON: JSONValue
                if case .string(let op) = pair[0] { reduceJSON = .array([.string(op), ["accumulated"], ["get", .string(name)]]) } else { reduceJSON = pair[0] }
                guard case .success(let map) = StyleExpression.compile(pair[1], spec: anySpec) else { fail("\(p)[1]", "invalid map expression"); continue }
                guard case .success(let reduce) = StyleExpression.compile(reduceJSON, spec: anySpec) else { fail("\(p)[0]", "invalid reduce expression"); continue }
                source.clusterProperties.append((name, map, reduce))
            }
        }
    }

    /// A layer and whether it is drawn, or nil when it is invalid (the problems are recorded) or
    /// left out (a filter glmap does not evaluate: a warning is recorded). A layer of a type glmap
    /// does not draw, or over a source it skips, is validated and compiled like the others and
    /// returned as not drawn (with its warning).
    mutating func parseLayer(_ v: JSONValue, path: String, sources: [String: Source], rawSources: JSONObject?) -> (Layer, drawn: Bool)? {
        guard let o = object(v, path: path) else { return nil }
        guard let id = requiredString(o, "id", path: path, missing: "missing layer id (expected a string)") else { return nil }
        // MapLibre's validateLayer accepts any other member (old styles carry `interactive`); glmap
        // ignores it too, with a warning that catches typos (`minzom`), an error under --strict.
        for key in o.keys where !StyleParser.layerKeys.contains(key) {
            skipped.append(SkippedFeature(kind: "layer", id: id, path: "\(path).\(key)",
                                          reason: "unknown layer property \"\(key)\"" + Suggestion.hint(for: key, among: StyleParser.layerKeys),
                                          consequence: "ignored"))
        }
        guard let type = layerType(o, id: id, path: path) else { return nil }
        var source: String?, sourceSkipped = false
        if type != .background {
            (source, sourceSkipped) = layerSource(o, type: type, id: id, path: path, sources: sources, rawSources: rawSources)
        }
        // Every layer type is drawn; a layer over a skipped source is left out with its source's warning.
        let drawn = !sourceSkipped
        let minzoom = number(o["minzoom"], path: "\(path).minzoom", default: 0, min: 0, max: 24)
        let maxzoom = number(o["maxzoom"], path: "\(path).maxzoom", default: 24, min: 0, max: 24)
        guard case .use(let filter) = layerFilter(o, id: id, path: path, warn: drawn) else { return nil }
        let (values, visible) = layerValues(o, type: type, id: id, path: path, warn: drawn)
        var layer = Layer(id: id, type: type, source: source, filter: filter, minzoom: minzoom, maxzoom: maxzoom,
                          isVisible: visible, values: values)
        layer.sourceLayer = o["source-layer"]?.stringValue
        layer.filterJSON = o["filter"]
        return (layer, drawn)
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

    /// `type`: a spec layer type, or nil after an error.
    mutating func layerType(_ o: JSONObject, id: String, path: String) -> LayerType? {
        let types = StyleParser.specLayerTypes
        guard let typeName = requiredString(o, "type", path: path,
                                            missing: "missing layer type (expected one of \(types.joined(separator: ", ")))") else {
            return nil
        }
        guard let type = LayerType(rawValue: typeName) else {
            fail("\(path).type", "unknown layer type \"\(typeName)\" (the style spec's layer types are \(types.joined(separator: ", ")))"
                 + Suggestion.hint(for: typeName, among: types))
            return nil
        }
        return type
    }

    /// `source` of a non-background layer: the source id, and whether it is a source glmap skips
    /// (the layer is then named in that source's warning).
    mutating func layerSource(_ o: JSONObject, type: LayerType, id: String, path: String, sources: [String: Source],
                              rawSources: JSONObject?) -> (String?, Bool) {
        guard let s = o["source"]?.stringValue else {
            fail("\(path).source", "missing required property (a \(type.rawValue) layer needs a source)")
            return (nil, false)
        }
        if let i = skippedSources[s] {
            skipped[i].layers.append(id)
            return (s, true)
        }
        if sources[s] == nil && rawSources?[s] == nil {
            fail("\(path).source", "source \"\(s)\" not found")
        } else if let sourceType = sources[s] != nil ? "geojson" : rawSources?[s]?["type"]?.stringValue,
                  let message = StyleParser.sourceMismatch(layer: type, id: id, sourceType: sourceType) {
            fail("\(path).source", message)
        }
        return (s, false)
    }

    /// The style spec's rule for a layer type on a source type (maplibre-style-spec's
    /// `validateLayer`: raster layers need raster pictures, hillshade and color-relief layers a
    /// raster-dem source, raster and raster-dem sources serve only those), nil when allowed.
    static func sourceMismatch(layer type: LayerType, id: String, sourceType: String) -> String? {
        if sourceType == "vector" && type == .raster { return "layer \"\(id)\" requires a raster source" }
        if sourceType != "raster-dem" && (type == .hillshade || type == .colorRelief) { return "layer \"\(id)\" requires a raster-dem source" }
        if sourceType == "raster" && type != .raster { return "layer \"\(id)\" requires a vector source" }
        if sourceType == "raster-dem" && type != .hillshade && type != .colorRelief {
            return "raster-dem source can only be used with layer type 'hillshade' or 'color-relief'."
        }
        return nil
    }

    /// `filter`: compiled, or skip the layer when it uses an operator glmap does not evaluate
    /// (`warn`: a drawn layer, which gets the warning; another keeps no filter).
    mutating func layerFilter(_ o: JSONObject, id: String, path: String, warn: Bool) -> LayerPart<FeatureFilter> {
        guard let f = o["filter"] else { return .use(nil) }
        if let op = StyleParser.unevaluatedOperator(in: f), FeatureFilter.isExpressionFilter(f) {
            guard warn else { return .use(nil) }
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

    /// The `layout` and `paint` properties, compiled, and `visibility`. `warn`: the layer is drawn,
    /// so what glmap leaves out of it is reported (a layer skipped whole has its one warning).
    mutating func layerValues(_ o: JSONObject, type: LayerType, id: String, path: String, warn: Bool) -> (values: [String: PropertyValue], visible: Bool) {
        var values: [String: PropertyValue] = [:]
        var visible = true
        let table = Dictionary(uniqueKeysWithValues: type.properties.map { ($0.name, $0) })
        for section in ["layout", "paint"] {
            guard let sv = o[section] else { continue }
            guard let so = object(sv, path: "\(path).\(section)") else { continue }
            for (name, value) in so.pairs {
                layerProperty(name, value, section: section, table: table, type: type, id: id, path: path, warn: warn,
                              values: &values, visible: &visible)
            }
        }
        return (values, visible)
    }

    /// One `layout`/`paint` member: compiled into `values`, `visibility` into `visible`, or
    /// recorded as an error or a skipped property.
    mutating func layerProperty(_ name: String, _ value: JSONValue, section: String, table: [String: StyleProperty],
                                type: LayerType, id: String, path: String, warn: Bool,
                                values: inout [String: PropertyValue], visible: inout Bool) {
        let typeName = type.rawValue
        let isLayout = section == "layout"
        let ppath = "\(path).\(section).\(name)"
        if !isLayout && name.hasSuffix("-transition") && table[String(name.dropLast(11))] != nil { return }
        guard let prop = table[name], prop.isLayout == isLayout else {
            if let p = table[name] {
                fail(ppath, "\"\(name)\" is a \(p.isLayout ? "layout" : "paint") property, not a \(section) property")
            } else {
                let names = table.values.filter { $0.isLayout == isLayout }.map(\.name).sorted()
                fail(ppath, "unknown property \"\(name)\" for a \(typeName) layer" + Suggestion.hint(for: name, among: names))
            }
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
        var used = Set<String>()
        StyleParser.operators(in: value, into: &used)
        if let message = parameterError(used, prop) { fail(ppath, message); return }
        if let op = StyleParser.unevaluatedOperator(in: value) {
            guard warn else { return }
            skipped.append(SkippedFeature(kind: "layer", id: id, path: ppath, reason: "\(name) uses \"\(op)\", which glmap does not evaluate",
                                          consequence: "the property is skipped (its default is drawn)"))
            return
        }
        guard let pv = compileValue(value, for: prop, path: ppath) else { return }
        values[name] = pv
    }

    /// The error for an expression reading a parameter its property does not provide (the
    /// property's `expression.parameters` in the spec), or nil.
    func parameterError(_ used: Set<String>, _ prop: StyleProperty) -> String? {
        for (op, parameter) in StyleParser.parameterOperators where used.contains(op) && !prop.spec.parameters.contains(parameter) {
            if parameter == .featureState {
                // As MapLibre's validator words it: feature-state reads the feature.
                return prop.isLayout ? "\"feature-state\" data expressions are not supported with layout properties."
                    : "data expressions not supported"
            }
            let allowed = LayerType.allCases.flatMap(\.properties).filter { $0.spec.parameters.contains(parameter) }.map(\.name)
            let list = allowed.count <= 1 ? "the \(allowed.first ?? "?") property" : "the properties \(allowed.joined(separator: ", "))"
            return "\"\(op)\" may only be used with \(list)"
        }
        return nil
    }

    /// Compiles a property value; constant values are also range-checked against the spec.
    mutating func compileValue(_ value: JSONValue, for prop: StyleProperty, path: String) -> PropertyValue? {
        // As in MapLibre, an array that does not start with an operator name is a constant
        // (e.g. `"fill-translate": [5, 5]`, `"line-dasharray": [2, 1]`), not an expression.
        // For array-valued properties, as in MapLibre, a first string that is no operator name starts
        // a constant too (`"text-font": ["Open Sans Regular"]`, `"text-variable-anchor": ["top"]`).
        var source = value
        if case .array(let a) = value {
            if let first = a.first?.stringValue {
                if prop.spec.type.isArrayLike && !StyleParser.operatorNames.contains(first) { source = .array(["literal", value]) }
            } else {
                source = .array(["literal", value])
            }
        }
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
        func checkEnum(_ allowed: [String], _ v: Value, _ p: String) {
            if case .string(let e) = v, !allowed.contains(e) {
                fail(p, "expected one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")), found \"\(e)\"")
            }
        }
        switch (prop.spec.type, v) {
        case (.enum(let allowed), _): checkEnum(allowed, v, path)
        case (.array(.enum(let allowed), _), .array(let a)): for (i, e) in a.enumerated() { checkEnum(allowed, e, "\(path)[\(i)]") }
        case (.padding, _) where Padding(evaluated: v) == nil:
            fail(path, "expected a number or an array of 1 to 4 numbers (CSS order), found \(v.shortDescription)")
        case (.numberArray, _) where [Double](evaluated: v) == nil:
            fail(path, "expected a number or an array of numbers, found \(v.shortDescription)")
        case (.colorArray, _) where [Color](evaluated: v) == nil:
            fail(path, "expected a color or an array of colors, found \(v.shortDescription)")
        case (.variableAnchorOffsetCollection, _) where VariableAnchorOffsetCollection(evaluated: v) == nil:
            fail(path, "expected an array of text anchors, each followed by an [x, y] offset, found \(v.shortDescription)")
        default: break
        }
        switch v {
        case .number(let n): check(n, path)
        case .array(let a): for (i, e) in a.enumerated() { if case .number(let n) = e { check(n, "\(path)[\(i)]") } }
        default: break
        }
    }

    /// The keys of a source of `type`: unknown ones are errors (except where the spec allows
    /// others: vector and raster sources; raster-dem sources, as MapLibre's validator checks
    /// them, do not), required ones must be there, and values must have the key's type. The keys
    /// a geojson source reads itself (`data`, zooms, `buffer`, …) are checked where they are read.
    mutating func sourceKeys(_ o: JSONObject, type: SourceType, path: String) {
        let table = Dictionary(uniqueKeysWithValues: type.properties.map { ($0.name, $0) })
        let readByGeoJSON: Set<String> = ["type", "data", "maxzoom", "lineMetrics", "tolerance", "buffer"]
        let othersAllowed = type.allowsOtherKeys && type != .rasterDEM
        for (key, value) in o.pairs {
            let kpath = "\(path).\(key)"
            guard let row = table[key] else {
                if !othersAllowed {
                    fail(kpath, "unknown property \"\(key)\" for a \(type.rawValue) source" + Suggestion.hint(for: key, among: table.keys.sorted()))
                }
                continue
            }
            if type == .geojson && readByGeoJSON.contains(key) { continue }
            if type == .rasterDEM, ["redFactor", "greenFactor", "blueFactor", "baseShift"].contains(key),
               o["encoding"]?.stringValue != "custom" {
                let encoding = o["encoding"].map { "\($0.shortDescription) encoding" } ?? "the default encoding"
                fail(kpath, "\"\(key)\" is only valid when \"encoding\" is \"custom\" (found \(encoding))")
                continue
            }
            if key == "promoteId" {
                let ok: Bool
                switch value {
                case .string, .null: ok = true
                case .object(let ids): ok = ids.pairs.allSatisfy { $0.value.stringValue != nil }
                default: ok = false
                }
                if !ok { fail(kpath, "expected a string or an object of strings (source layer → property), found \(value.shortDescription)") }
                continue
            }
            checkConstant(value, type: row.spec.type, spec: row.spec, path: kpath)
        }
        for row in type.properties where row.spec.required && o[row.name] == nil && !(type == .geojson && readByGeoJSON.contains(row.name)) {
            fail("\(path).\(row.name)", "missing required property")
        }
    }

    /// The root objects checked against their generated tables.
    static let rootObjectTables: [(key: String, table: [StyleProperty])] = [
        ("light", LightProperties.all), ("sky", SkyProperties.all), ("terrain", TerrainProperties.all),
        ("projection", ProjectionProperties.all), ("transition", TransitionProperties.all),
    ]

    /// A root object (`light`, `sky`, `terrain`, `projection`, `transition`): unknown keys are
    /// errors (as MapLibre's validator reports them), values are compiled for their rows (literals
    /// only where the spec takes no expressions), required keys must be there, and `terrain`'s
    /// source must be a source of the style. `projection.type` (a projection
    /// definition, which may interpolate between projections) is kept as written, unchecked.
    mutating func rootObject(_ v: JSONValue, key: String, table: [StyleProperty], sources: JSONObject?) -> [String: PropertyValue] {
        guard let o = object(v, path: key) else { return [:] }
        let rows = Dictionary(uniqueKeysWithValues: table.map { ($0.name, $0) })
        var values: [String: PropertyValue] = [:]
        for (name, value) in o.pairs {
            let path = "\(key).\(name)"
            if name.hasSuffix("-transition"), let row = rows[String(name.dropLast(11))], row.spec.transition { continue }
            guard let row = rows[name] else {
                fail(path, "unknown property \"\(name)\" for \(key)" + Suggestion.hint(for: name, among: rows.keys.sorted()))
                continue
            }
            if key == "projection" { continue }
            if row.spec.parameters.isEmpty {
                let before = issues.count
                checkConstant(value, type: row.spec.type, spec: row.spec, path: path)
                guard issues.count == before else { continue }
            }
            if let pv = compileValue(value, for: row, path: path) { values[name] = pv }
        }
        for row in table where row.spec.required && o[row.name] == nil {
            fail("\(key).\(row.name)", "missing required property")
        }
        if key == "terrain", let s = o["source"]?.stringValue, sources?[s] == nil {
            // GL JS's setTerrain refuses it ("cannot load terrain, because there exists no source").
            fail("terrain.source", "source \"\(s)\" not found")
        }
        return values
    }

    /// A JSON value that takes no expressions (a key of a source) against its spec type.
    mutating func checkConstant(_ v: JSONValue, type: PropertyType, spec: PropertySpec, path: String) {
        func expected(_ what: String) { fail(path, "expected \(what), found \(v.shortDescription)") }
        switch type {
        case .value: return
        case .number:
            guard let n = v.numberValue else { return expected("number") }
            if let min = spec.minimum, n < min { fail(path, "\(JSONValue.formatNumber(n)) is less than the minimum value \(JSONValue.formatNumber(min))") }
            if let max = spec.maximum, n > max { fail(path, "\(JSONValue.formatNumber(n)) is greater than the maximum value \(JSONValue.formatNumber(max))") }
        case .string, .formatted, .resolvedImage:
            if v.stringValue == nil { expected("string") }
        case .boolean:
            if v.boolValue == nil { expected("boolean") }
        case .color:
            if v.stringValue.flatMap({ Color(css: $0) }) == nil { expected("a color") }
        case .enum(let values):
            if !(v.stringValue.map(values.contains) ?? false) {
                expected("one of \(values.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
        case .array(let item, let length):
            guard let a = v.arrayValue else { return expected(length.map { "an array of \($0)" } ?? "an array") }
            if let length, a.count != length { fail(path, "expected an array of \(length), found \(a.count) items"); return }
            for (i, e) in a.enumerated() { checkConstant(e, type: item, spec: spec, path: "\(path)[\(i)]") }
        case .padding, .numberArray, .colorArray, .variableAnchorOffsetCollection:
            return
        }
    }
}

extension PropertyType {
    /// Whether values are arrays (or may be written as arrays): a literal array of strings is then
    /// a constant, not an expression.
    var isArrayLike: Bool {
        switch self {
        case .array, .padding, .numberArray, .colorArray, .variableAnchorOffsetCollection, .value: return true
        case .number, .string, .boolean, .color, .enum, .formatted, .resolvedImage: return false
        }
    }
}

extension Value {
    /// How a value is named in messages (`"wide"`, `12`, `an array`).
    var shortDescription: String {
        switch self {
        case .string(let s): return "\"\(s)\""
        case .number(let n): return JSONValue.formatNumber(n)
        case .boolean(let b): return b ? "true" : "false"
        case .null: return "null"
        case .color: return "a color"
        case .array: return "an array"
        case .object: return "an object"
        case .formatted: return "a formatted text"
        case .image: return "an image"
        }
    }
}

extension StyleDocument {
    /// The members a `ref` layer takes from the layer it names (the style spec's `deref`).
    public static let refProperties = ["type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout"]

    /// Layers with `ref` resolved as GL JS resolves them before validating (style-spec `derefLayers`):
    /// a layer naming another by `ref` takes that layer's `refProperties` and loses `ref`. A `ref`
    /// to no layer, or to a `ref` layer, is left for validation to report.
    public static func derefLayers(_ layers: [JSONValue]) -> [JSONValue] {
        var byID: [String: JSONObject] = [:]
        for l in layers { if let o = l.objectValue, let id = o["id"]?.stringValue, byID[id] == nil { byID[id] = o } }
        return layers.map { l in
            guard var o = l.objectValue, let ref = o["ref"]?.stringValue, let parent = byID[ref], parent["ref"] == nil else { return l }
            o["ref"] = nil
            for k in refProperties { if let v = parent[k] { o[k] = v } }
            return .object(o)
        }
    }
}
