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

    /// MapLibre's tile zoom for this zoom: filters and layout are evaluated there.
    public var tileZoom: Double { zoom.rounded(.down) }

    /// This evaluator at the tile zoom (for filters and layout properties).
    var atTileZoom: StyleEvaluator { var e = self; e.zoom = tileZoom; return e }

    /// Evaluates a property for a feature (or none), falling back to the spec default.
    public func value(_ prop: StyleProperty, in layer: Layer, feature: FeatureContext? = nil) -> Value {
        if let pv = layer.values[prop.name] {
            if let c = pv.expression.constantValue { return c }
            let ctx = EvaluationContext(zoom: zoom, feature: feature, globalState: globalState)
            if let v = try? pv.expression.evaluate(ctx), v != .null { return v }
        }
        return StyleEvaluator.defaultValue(prop)
    }

    /// A property's value read through its typed row: `value(LineProperties.width, layer)` is a
    /// `Double`, `value(LineProperties.cap, layer)` a `LineCap` (the spec default when unset,
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

    /// Whether a feature passes the layer's filter.
    func passes(_ layer: Layer, _ f: ProjectedFeature) -> Bool {
        guard let filter = layer.filter else { return true }
        return filter.evaluate(EvaluationContext(zoom: tileZoom, feature: f.context, globalState: globalState))
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

    /// Evaluates one layer against its source's features.
    public func evaluate(_ layer: Layer, features: [ProjectedFeature]) -> EvaluatedLayer {
        switch layer.type {
        case .background:
            return .background(EvaluatedBackground(color: color(BackgroundProperties.color, layer),
                                                   opacity: number(BackgroundProperties.opacity, layer)))
        case .fill:
            return .fill(evaluateFill(layer, features: features))
        case .line:
            return .line(evaluateLine(layer, features: features))
        case .circle:
            return .circle(evaluateCircle(layer, features: features))
        case .symbol, .heatmap, .fillExtrusion, .raster, .hillshade, .colorRelief:
            // Not drawn yet (`LayerType.isDrawn`): such layers are never in `StyleDocument.layers`;
            // evaluated anyway, they draw nothing.
            return .fill(EvaluatedFillLayer(id: layer.id, antialias: false, translate: (0, 0), translateAnchor: .map, features: []))
        }
    }
}

extension StyleEvaluator {
    /// A `fill` layer: paint per feature, polygons (or closed lines) cut into the tiles MapLibre
    /// would draw them in, in sort-key order.
    func evaluateFill(_ layer: Layer, features: [ProjectedFeature]) -> EvaluatedFillLayer {
        typealias P = FillProperties
        var items: [(key: Double?, item: EvaluatedFill)] = []
        let fillColorOf = colorGetter(P.color, layer), opacityOf = numberGetter(P.opacity, layer)
        let outlineOf = layer.values[P.outlineColor.name] == nil ? nil : colorGetter(P.outlineColor, layer)
        let source = layer.source.flatMap { sources[$0] }
        var tiler = FillTiler(frameZoom: zoom, sourceMaxzoom: source?.maxzoom ?? 18, sourceBuffer: source?.buffer ?? 128)
        tiler.separateLines = source?.lineMetrics ?? false
        for f in features where f.type != .point && passes(layer, f) {
            let c = f.context
            let fillColor = fillColorOf(c)
            let lines = f.type == .lineString
            let polygons = lines ? tiler.classify(f.lines) : f.polygons
            if polygons.isEmpty && !lines { continue }
            var fill = EvaluatedFill(polygons: polygons, color: fillColor, opacity: opacityOf(c),
                                     outlineColor: outlineOf?(c) ?? fillColor)
            fill.tiles = lines ? tiler.tiles(lines: f.lines, shifts: f.lineShifts)
                : tiler.tiles(polygons: f.polygons, shifts: f.polygonShifts)
            if fill.tiles.isEmpty { continue }
            items.append((sortKey(P.sortKey, layer, c), fill))
        }
        var result = EvaluatedFillLayer(
            id: layer.id, antialias: value(P.antialias, in: layer).boolean ?? true,
            translate: pair(P.translate, layer),
            translateAnchor: value(P.translateAnchor, layer),
            features: sorted(items))
        result.paint = PaintSource(layer: layer, globalState: globalState, tileZoom: tileZoom)
        if outlineOf == nil { result.paint.expressions[P.outlineColor.name] = result.paint.expressions[P.color.name] }
        return result
    }
}

extension StyleEvaluator {
    /// A `circle` layer: paint per feature, points grouped by the tile that draws them (see
    /// `CircleTileGrid`), in MapLibre's drawing order.
    func evaluateCircle(_ layer: Layer, features: [ProjectedFeature]) -> EvaluatedCircleLayer {
        typealias P = CircleProperties
        let source = layer.source.flatMap { sources[$0] }
        let maxzoom = source?.maxzoom ?? 18
        let grid = CircleTileGrid(tiles: exp2(max(0, min(floor(zoom), maxzoom))))
        // Centres snapped to the tile grid (8192 units a tile side at the tile zoom), as the
        // circle bucket reads them from MapLibre's tiles: visible when the source is over-zoomed.
        let tiler = FillTiler(frameZoom: zoom, sourceMaxzoom: maxzoom, sourceBuffer: source?.buffer ?? 128)
        var items: [CircleTileGrid.Item] = []
        items.reserveCapacity(features.count)   // (no growth copies: 34,006 cities are 7 MB of items)
        let radiusOf = numberGetter(P.radius, layer), colorOf = colorGetter(P.color, layer)
        let blurOf = numberGetter(P.blur, layer), opacityOf = numberGetter(P.opacity, layer)
        let strokeWidthOf = numberGetter(P.strokeWidth, layer), strokeColorOf = colorGetter(P.strokeColor, layer)
        let strokeOpacityOf = numberGetter(P.strokeOpacity, layer)
        let sorting = layer.values[P.sortKey.name] != nil
        let buffer = (layer.source.flatMap { sources[$0]?.buffer } ?? 128) / 512
        for f in features {
            // MapLibre filters the tile's piece of a feature: a MultiPoint's `within` sees only the
            // points geojson-vt kept in that tile (its buffered square), so it is decided per tile.
            let perTile = layer.filter != nil && grid.perTileGeometry(f) != nil
            guard perTile || passes(layer, f) else { continue }
            let c = f.context
            let proto = EvaluatedCircle(
                centers: [], radius: radiusOf(c), color: colorOf(c), blur: blurOf(c), opacity: opacityOf(c),
                strokeWidth: strokeWidthOf(c), strokeColor: strokeColorOf(c), strokeOpacity: strokeOpacityOf(c))
            let key = sorting ? sortKey(P.sortKey, layer, c) : nil
            if f.type == .point && f.points.count == 2 {   // one position: one group, no grouping
                var e = proto
                e.centers = tiler.snap(f.points)
                items.append((key, grid.tile(f.points[0], f.points[1]), e))
                continue
            }
            for (t, centers) in grid.groups(f.allVertices) {
                if perTile, let piece = grid.perTileGeometry(f, tile: t, buffer: buffer) {
                    var clipped = f
                    clipped.context.geometry = piece
                    guard passes(layer, clipped) else { continue }
                }
                var e = proto
                e.centers = tiler.snap(centers)
                items.append((key, t, e))
            }
        }
        var result = EvaluatedCircleLayer(
            id: layer.id, translate: pair(P.translate, layer),
            translateAnchor: value(P.translateAnchor, layer),
            pitchScale: value(P.pitchScale, layer), pitchAlignment: value(P.pitchAlignment, layer),
            features: CircleTileGrid.drawingOrder(items, sorted: sorting))
        result.paint = PaintSource(layer: layer, globalState: globalState, tileZoom: tileZoom)
        return result
    }
}

/// MapLibre draws circles tile by tile (circles are not clipped to their tile, so each point is
/// drawn only by the tile that contains it), tiles in row-major order at the source's tile zoom,
/// features in source order within a tile, and sorts by circle-sort-key across tiles. Overlapping
/// circles in different tiles stack in that order, so glmap groups each feature's points by tile
/// and orders the groups the same way.
struct CircleTileGrid {
    /// One feature's points in one tile, with its sort key.
    typealias Item = (key: Double?, tile: Double, item: EvaluatedCircle)

    /// Tiles per side at the tile zoom.
    let tiles: Double

    /// The row-major index of the tile holding the unit-world point (x wrapped into the world).
    func tile(_ x: Double, _ y: Double) -> Double {
        var x = x.truncatingRemainder(dividingBy: 1)
        if x < 0 { x += 1 }
        let tx = min(tiles - 1, floor(x * tiles)), ty = min(tiles - 1, max(0, floor(y * tiles)))
        return ty.isFinite && tx.isFinite ? ty * tiles + tx : 0
    }

    /// The MultiPoint positions of `f` that geojson-vt hands tile `tile` (those inside its square
    /// widened by `buffer`, a fraction of the side), or without a tile the whole MultiPoint; nil
    /// when `f` is not a MultiPoint whose positions match its projected points one to one.
    func perTileGeometry(_ f: ProjectedFeature, tile: Double? = nil, buffer: Double = 0) -> Geometry? {
        guard f.type == .point, case .multiPoint(let positions)? = f.context.geometry,
              positions.count > 1, positions.count * 2 == f.points.count else { return nil }
        guard let tile else { return f.context.geometry }
        let tx = tile.truncatingRemainder(dividingBy: tiles), ty = (tile / tiles).rounded(.down)
        var kept: [Position] = []
        for (i, p) in positions.enumerated() {
            var x = f.points[2 * i].truncatingRemainder(dividingBy: 1)
            if x < 0 { x += 1 }
            let u = x * tiles - tx, v = f.points[2 * i + 1] * tiles - ty
            if u >= -buffer && u <= 1 + buffer && v >= -buffer && v <= 1 + buffer { kept.append(p) }
        }
        return .multiPoint(kept)
    }

    /// The points of `v` (x, y pairs) grouped by tile, groups in the order their first point comes.
    func groups(_ v: [Double]) -> [(tile: Double, centers: [Double])] {
        var groups: [Double: [Double]] = [:]
        var order: [Double] = []
        var i = 0
        while i + 1 < v.count {
            let t = tile(v[i], v[i + 1])
            if groups[t] == nil { order.append(t) }
            groups[t, default: []].append(contentsOf: [v[i], v[i + 1]])
            i += 2
        }
        return order.map { ($0, groups[$0]!) }
    }

    /// The circles in drawing order: by sort key, then tile, then source order (`sorted`), or by
    /// tile and source order within a tile.
    /// The order is found on indices and the circles are copied once, into an array of their
    /// exact count.
    static func drawingOrder(_ items: [Item], sorted sorting: Bool) -> [EvaluatedCircle] {
        if sorting {
            return items.indices.sorted { a, b in
                let ka = items[a].key ?? 0, kb = items[b].key ?? 0
                if ka != kb { return ka < kb }
                if items[a].tile != items[b].tile { return items[a].tile < items[b].tile }
                return a < b
            }.map { items[$0].item }
        }
        // Tile order, source order within a tile: a stable grouping, no comparison sort.
        var byTile: [Double: [Int]] = [:]
        for (i, item) in items.enumerated() { byTile[item.tile, default: []].append(i) }
        if byTile.count == 1 { return items.map(\.item) }
        var order: [Int] = []
        order.reserveCapacity(items.count)
        for t in byTile.keys.sorted() { order += byTile[t]! }
        return order.map { items[$0].item }
    }
}

extension StyleEvaluator {
    /// A `line` layer: paint per feature, plus the values dashes need (MapLibre evaluates the
    /// dash `floorwidth` at the integer zoom and cross-fades `line-dasharray` between its values
    /// at the zoom and one zoom level away).
    func evaluateLine(_ layer: Layer, features: [ProjectedFeature]) -> EvaluatedLineLayer {
        typealias P = LineProperties
        let dashed = layer.values[P.dasharray.name] != nil
        let floorZoom = zoom.rounded(.down)
        // MapLibre's first frame has lastIntegerZoom = floor(zoom): between integer zooms it is
        // "zooming in" (from = the value at zoom − 1, scale 2), on one "zooming out" (zoom + 1,
        // 0.5). The "to" pattern is the value at the zoom itself, not at floor(zoom)
        // (CrossFadedProperty.possiblyEvaluate in GL JS, CrossFadedPropertyEvaluator in Native).
        let zoomingIn = zoom > floorZoom
        var atFloor = self, atFrom = self
        atFloor.zoom = floorZoom
        atFrom.zoom = zoomingIn ? zoom - 1 : zoom + 1
        func pattern(_ e: StyleEvaluator, _ c: FeatureContext) -> [Double]? {
            guard let a = e.value(P.dasharray, in: layer, feature: c).array else { return nil }
            let numbers = a.compactMap(\.number)
            guard !numbers.isEmpty, numbers.count == a.count else { return nil }
            return numbers.map { $0.isFinite ? Swift.max(0, $0) : 0 }
        }
        var items: [(key: Double?, item: EvaluatedLine)] = []
        let layout = atTileZoom
        let joinOf = layout.getter(P.join, layer, layout.string), colorOf = colorGetter(P.color, layer)
        let opacityOf = numberGetter(P.opacity, layer), widthOf = numberGetter(P.width, layer)
        let gapWidthOf = numberGetter(P.gapWidth, layer), offsetOf = numberGetter(P.offset, layer)
        let blurOf = numberGetter(P.blur, layer)
        // Positions snapped to the tile grid (8192 units a tile side), as MapLibre's tiles hold them.
        let source = layer.source.flatMap { sources[$0] }
        let tiler = FillTiler(frameZoom: zoom, sourceMaxzoom: source?.maxzoom ?? 18, sourceBuffer: source?.buffer ?? 128)
        for f in features where f.type != .point && passes(layer, f) {
            let c = f.context
            var parts: [(coords: [Double], closed: Bool)] = []
            if f.type == .lineString {
                parts = f.lines.map { (tiler.snap($0), false) }
            } else {
                // Rings wound as geojson-vt winds them for every tile (outer one way, holes the
                // other): line-offset and the gap side follow that winding, not the file's.
                for poly in f.polygons {
                    for (k, r) in poly.ringRanges.enumerated() {
                        var ring = Array(poly.coords[(r.lowerBound * 2)..<(r.upperBound * 2)])
                        FillTiler.rewind(&ring, 0..<(ring.count / 2), outer: k == 0)
                        parts.append((tiler.snap(ring), true))
                    }
                }
            }
            var line = EvaluatedLine(
                parts: parts, join: LineJoin(rawValue: joinOf(c)) ?? .miter,
                color: colorOf(c), opacity: opacityOf(c), width: widthOf(c), gapWidth: gapWidthOf(c),
                offset: offsetOf(c), blur: blurOf(c), dasharray: nil)
            if dashed, let to = pattern(self, c) {
                line.dasharray = to
                line.dasharrayFrom = pattern(atFrom, c) ?? to
                line.floorWidth = atFloor.number(P.width, layer, c)
            }
            items.append((sortKey(P.sortKey, layer, c), line))
        }
        let gradient = layer.values[P.gradient.name]
        var result = EvaluatedLineLayer(
            id: layer.id, cap: layout.value(P.cap, layer),
            miterLimit: layout.number(P.miterLimit, layer), roundLimit: layout.number(P.roundLimit, layer),
            translate: pair(P.translate, layer),
            translateAnchor: value(P.translateAnchor, layer),
            gradient: gradient, features: sorted(items))
        result.zoom = zoom
        result.paint = PaintSource(layer: layer, globalState: globalState, tileZoom: tileZoom)
        result.lineMetrics = source?.lineMetrics ?? (gradient != nil)
        result.sourceMaxzoom = source?.maxzoom ?? 18
        result.sourceBuffer = source?.buffer ?? 128
        if let g = gradient, case .step = g.expression.root.op { result.gradientIsStep = true }
        result.dashFromScale = zoomingIn ? 2 : 0.5
        return result
    }
}
