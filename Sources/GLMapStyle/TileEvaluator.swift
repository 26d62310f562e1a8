// Evaluation per tile — contract
// Input: a validated `Layer`, the features of one tile (the tile layer its `source-layer` names, or
// a GeoJSON tile's only layer) in 8192-unit tile coordinates, the tile's id and the frame zoom.
// Output: an `EvaluatedLayer` whose geometry is in the tile's own units (Double), as MapLibre's
// buckets read it: features that pass the filter (evaluated at the tile's zoom, its overscaled
// zoom), in sort-key order (stable), with their paint and layout values —
// - fill: every feature's rings grouped into polygons by winding (`classifyRings`, at most 500
//   rings a polygon: the largest holes are kept), points dropped (their rings have no area);
// - line: every line of a line feature, every ring of a polygon (closed);
// - circle: every point of every geometry that lies inside the tile square [0, 8192) — a point in
//   the buffer belongs to the neighbouring tile, which draws it.
// Zooms as MapLibre's buckets use them: filters and layout at the tile zoom; paint that reads only
// the zoom at the frame zoom; composite paint (feature and zoom) at the tile zoom and the next,
// mixed at the frame zoom (or at `compositeZoom`, for the GPU, which mixes itself).
// Never throws; a value that fails to evaluate falls back to the spec default (MapLibre's rule).
import GLMapCore
import GLMapGeoJSON
import GLMapTiles

extension StyleEvaluator {
    /// Evaluates `layer` over one tile's `features` (tile units), at the tile's overscaled zoom
    /// for filters and layout. Background layers ignore the tile.
    public func evaluate(_ layer: Layer, tile: OverscaledTileID, features: [TileFeature]) -> EvaluatedLayer {
        let (e, input) = onTile(layer, tile: tile, features: features)
        func stamped<T: TileStamped>(_ v: T) -> T { var v = v; v.tile = tile; return v }
        switch layer.type {
        case .background: return .background(e.evaluateBackground(layer))
        case .fill: return .fill(stamped(e.evaluateFill(layer, tile: input)))
        case .line: return .line(stamped(e.evaluateLine(layer, tile: input)))
        case .circle: return .circle(stamped(e.evaluateCircle(layer, tile: input)))
        case .fillExtrusion: return .fillExtrusion(stamped(e.evaluateFillExtrusion(layer, tile: input)))
        case .heatmap: return .heatmap(stamped(e.evaluateHeatmap(layer, tile: input)))
        case .symbol, .raster, .hillshade, .colorRelief:
            // Laid out from `filteredFeatures` (symbols, GLMapText's SymbolLayout) or sampled from
            // their tiles' pictures (raster-like, the scene's raster draws): nothing to draw here.
            return .fill(stamped(EvaluatedFillLayer(id: layer.id, antialias: false, translate: (0, 0), translateAnchor: .map, features: [])))
        }
    }

    /// The evaluator at `tile`'s overscaled zoom and the tile's input for `layer` (feature state
    /// found through the source's `promoteId`).
    func onTile(_ layer: Layer, tile: OverscaledTileID, features: [TileFeature]) -> (StyleEvaluator, TileInput) {
        var e = self
        e.tileZoomOverride = Double(tile.overscaledZ)
        var input = TileInput(tile: tile, features: features, needsGeometry: layer.needsGeometry)
        if let id = layer.source, featureStates.hasState(source: id) {
            let states = featureStates, promoteId = sources[id]?.promoteId, sourceLayer = layer.sourceLayer
            input.state = { f in
                let context = FeatureContext(id: f.id, properties: f.properties)
                guard let featureID = FeatureStates.geoJSONFeatureID(context, promoteId: promoteId) else { return JSONObject() }
                return states.state(source: id, sourceLayer: sourceLayer, featureID: featureID)
            }
        }
        return (e, input)
    }
}

/// An evaluated layer that records the tile it was evaluated on.
protocol TileStamped {
    var tile: OverscaledTileID? { get set }
}

extension EvaluatedFillLayer: TileStamped {}
extension EvaluatedLineLayer: TileStamped {}
extension EvaluatedCircleLayer: TileStamped {}
extension EvaluatedFillExtrusionLayer: TileStamped {}
extension EvaluatedHeatmapLayer: TileStamped {}

extension TileFeature {
    /// The feature's points inside the tile square (x0, y0, x1, y1, …): a point in the buffer
    /// belongs to its neighbour tile, as GL JS's circle and heatmap buckets keep it.
    func pointsInsideTile() -> [Double] {
        let extent = Int16(TileExtent.extent)
        var centers: [Double] = []
        for ring in geometry {
            for p in ring where p.x >= 0 && p.x < extent && p.y >= 0 && p.y < extent {
                centers.append(Double(p.x)); centers.append(Double(p.y))
            }
        }
        return centers
    }
}

/// Tile points as flat Double coordinates (x0, y0, x1, y1, …).
@inline(__always)
func flatCoordinates(_ ring: [TilePoint]) -> [Double] {
    var out = [Double]()
    out.reserveCapacity(ring.count * 2)
    for p in ring { out.append(Double(p.x)); out.append(Double(p.y)) }
    return out
}

/// A layer's filter as a tile's features are tested against it: read once per layer and tile,
/// not per feature; a legacy filter is evaluated on the feature's parts without a context.
struct TileFilter {
    enum Kind { case none, typeOnly, legacy, expression }
    let kind: Kind
    /// A type-only filter's results for Point, LineString, Polygon.
    let typeResults: (Bool, Bool, Bool)
    let legacy: LegacyFilter?

    init(_ layer: Layer) {
        var results = (true, true, true)
        var legacy: LegacyFilter?
        let kind: Kind
        if let f = layer.filter {
            if let p = f.result(forTypeOnly: .point), let l = f.result(forTypeOnly: .lineString),
               let g = f.result(forTypeOnly: .polygon) {
                kind = .typeOnly
                results = (p, l, g)
            } else if case .legacy(let l) = f.kind {
                kind = .legacy
                legacy = l
            } else {
                kind = .expression
            }
        } else {
            kind = .none
        }
        self.kind = kind
        self.typeResults = results
        self.legacy = legacy
    }
}

/// One tile's features as a layer reads them, with the contexts expressions see.
struct TileInput {
    let tile: OverscaledTileID
    let features: [TileFeature]
    let needsGeometry: Bool
    /// The runtime state of a feature (nil: no feature of the source has state).
    var state: (@Sendable (TileFeature) -> JSONObject)?

    init(tile: OverscaledTileID, features: [TileFeature], needsGeometry: Bool) {
        self.tile = tile
        self.features = features
        self.needsGeometry = needsGeometry
    }

    /// What expressions read from feature `f`: id, properties, geometry type (Point, LineString,
    /// Polygon: tile features carry no Multi* types), its runtime state and, for `within`, its
    /// geometry in longitude/latitude.
    func context(_ f: TileFeature) -> FeatureContext {
        var c = FeatureContext(id: f.id, properties: f.properties, geometryType: f.type.rawValue,
                               geometry: needsGeometry ? lonLatGeometry(f) : nil)
        if let state { c.state = state(f) }
        return c
    }

    /// The feature's geometry as GeoJSON in longitude/latitude (MultiPoint, MultiLineString or
    /// MultiPolygon by the number of parts, as GL JS's `toEvaluationFeature` builds it).
    func lonLatGeometry(_ f: TileFeature) -> Geometry {
        let c = tile.canonical
        func pos(_ p: TilePoint) -> Position {
            let ll = c.lonLat(x: Double(p.x), y: Double(p.y))
            return Position(ll.lon, ll.lat)
        }
        switch f.type {
        case .point:
            let points = f.geometry.flatMap { $0 }.map(pos)
            return points.count == 1 ? .point(points[0]) : .multiPoint(points)
        case .lineString:
            let lines = f.geometry.map { $0.map(pos) }
            return lines.count == 1 ? .lineString(lines[0]) : .multiLineString(lines)
        case .polygon:
            let polygons = TileRings.classify(f.geometry.map(flatCoordinates), maxRings: 0)
                .map { p in p.ringRanges.map { r in (r.lowerBound..<r.upperBound).map { i -> Position in
                    let ll = c.lonLat(x: p.coords[2 * i], y: p.coords[2 * i + 1])
                    return Position(ll.lon, ll.lat)
                } } }
            return polygons.count == 1 ? .polygon(polygons[0]) : .multiPolygon(polygons)
        }
    }
}

/// MapLibre's `classifyRings` over tile rings (flat x, y in tile units): rings grouped into
/// polygons by winding (see `RingClassification`), and with `maxRings` > 0 a polygon of more rings
/// keeps its outer ring and its `maxRings − 1` largest holes.
enum TileRings {
    static func classify(_ rings: [[Double]], maxRings: Int) -> [FlatPolygon] {
        var polygons = RingClassification.polygons(fromLines: rings)
        guard maxRings > 0 else { return polygons }
        for (i, p) in polygons.enumerated() where p.holeIndices.count + 1 > maxRings {
            let ranges = p.ringRanges
            let holes = ranges.dropFirst().sorted { a, b in
                abs(RingClassification.signedArea(Array(p.coords[(2 * a.lowerBound)..<(2 * a.upperBound)])))
                    > abs(RingClassification.signedArea(Array(p.coords[(2 * b.lowerBound)..<(2 * b.upperBound)])))
            }.prefix(maxRings - 1)
            var coords = Array(p.coords[(2 * ranges[0].lowerBound)..<(2 * ranges[0].upperBound)])
            var starts: [Int] = []
            for h in holes {
                starts.append(coords.count / 2)
                coords += p.coords[(2 * h.lowerBound)..<(2 * h.upperBound)]
            }
            polygons[i] = FlatPolygon(coords: coords, holeIndices: starts)
        }
        return polygons
    }

    /// MapLibre's `EARCUT_MAX_RINGS`: rings kept per fill polygon.
    static let earcutMaxRings = 500
}

extension Layer {
    /// Whether the layer's filter or a value reads feature geometry (`within`).
    var needsGeometry: Bool {
        (filter?.needsGeometry ?? false) || values.values.contains { FeatureFilter.readsGeometry($0.expression.root) }
    }
}

extension StyleEvaluator {
    /// Whether a tile feature passes the layer's filter at the tile zoom.
    func passes(_ layer: Layer, _ context: FeatureContext) -> Bool {
        guard let filter = layer.filter else { return true }
        return filter.evaluate(EvaluationContext(zoom: tileZoom, feature: context, globalState: globalState))
    }

    /// Whether feature `i` of the tile passes `filter` (the layer's, prepared once per tile):
    /// `passes(_:_:_:context:)` reading the feature's parts in place, so a feature that fails is
    /// never copied.
    @inline(__always)
    func passes(_ filter: TileFilter, _ layer: Layer, _ tile: TileInput, _ i: Int, context: inout FeatureContext?) -> Bool {
        switch filter.kind {
        case .none:
            return true
        case .typeOnly:
            switch tile.features[i].type {
            case .point: return filter.typeResults.0
            case .lineString: return filter.typeResults.1
            case .polygon: return filter.typeResults.2
            }
        case .legacy:
            return tile.features.withUnsafeBufferPointer { features in
                filter.legacy.unsafelyUnwrapped.evaluate(tileType: features[i].type, id: features[i].id,
                                                         properties: features[i].properties)
            }
        case .expression:
            return passes(layer, tile.features[i], tile, context: &context)
        }
    }

    /// Whether a feature passes, building its context only when the filter needs more than its
    /// type (and the context is then handed back for the values that need it).
    @inline(__always)
    func passes(_ layer: Layer, _ f: TileFeature, _ tile: TileInput, context: inout FeatureContext?) -> Bool {
        guard let filter = layer.filter else { return true }
        if let r = filter.result(forTypeOnly: f.type) { return r }
        // A legacy filter reads the feature's parts directly: no context for the features that
        // fail it (most of a tile's, for most layers: building and copying contexts was half of a
        // basemap tile's CPU time; Benchmarks/README.md, "Helsinki basemap").
        if case .legacy(let legacy) = filter.kind {
            return legacy.evaluate(tileType: f.type, id: f.id, properties: f.properties)
        }
        let c = tile.context(f)
        context = c
        return filter.evaluate(EvaluationContext(zoom: tileZoom, feature: c, globalState: globalState))
    }

    /// Calls `body` with each feature of the tile that passes `layer`'s filter, in tile order, and
    /// its context (an empty one when no value of the layer reads the feature). A feature that
    /// fails is never copied, nor is its context built when a legacy filter decides.
    @inline(__always)
    func forEachPassing(_ layer: Layer, _ tile: TileInput, _ body: (TileFeature, FeatureContext) -> Void) {
        let perFeature = layer.values.values.contains { !$0.expression.isFeatureConstant }
        let empty = FeatureContext()
        let filter = TileFilter(layer)
        // Features and the empty context are lent to `body` in place: copying a feature or a
        // context retains each of its parts (a point layer's evaluation was mostly retains).
        tile.features.withUnsafeBufferPointer { features in
            for i in features.indices {
                var context: FeatureContext?
                guard passes(filter, layer, tile, i, context: &context) else { continue }
                if !perFeature {
                    body(features[i], empty)
                } else if let context {
                    body(features[i], context)
                } else {
                    body(features[i], tile.context(features[i]))
                }
            }
        }
    }

    /// A `fill` layer over one tile: every passing feature's rings as polygons (tile units).
    func evaluateFill(_ layer: Layer, tile: TileInput) -> EvaluatedFillLayer {
        typealias P = FillProperties
        var items: [(key: Double?, item: EvaluatedFill)] = []
        let fillColorOf = colorGetter(P.fillColor, layer), opacityOf = numberGetter(P.fillOpacity, layer)
        let outlineOf = layer.values[P.fillOutlineColor.name] == nil ? nil : colorGetter(P.fillOutlineColor, layer)
        let patternOf = patternGetter(P.fillPattern, layer)
        forEachPassing(layer, tile) { f, c in
            let rings = f.geometry.map(flatCoordinates)
            let polygons = TileRings.classify(rings, maxRings: TileRings.earcutMaxRings)
            if polygons.isEmpty { return }
            let pattern = patternOf?(c)
            if patternOf != nil && pattern == nil { return }   // a missing image draws nothing
            let fillColor = fillColorOf(c)
            var fill = EvaluatedFill(polygons: polygons, color: fillColor, opacity: opacityOf(c),
                                     outlineColor: outlineOf?(c) ?? fillColor)
            fill.index = f.index
            fill.pattern = pattern
            fill.isPolygon = f.type == .polygon
            items.append((sortKey(P.fillSortKey, layer, c), fill))
        }
        var result = EvaluatedFillLayer(
            id: layer.id, antialias: value(P.fillAntialias, in: layer).boolean ?? true,
            translate: pair(P.fillTranslate, layer),
            translateAnchor: value(P.fillTranslateAnchor, layer),
            features: sorted(items))
        result.paint = PaintSource(layer: layer, globalState: globalState, tileZoom: tileZoom)
        if outlineOf == nil { result.paint.expressions[P.fillOutlineColor.name] = result.paint.expressions[P.fillColor.name] }
        if patternOf != nil {
            result.patterned = true
            result.patternOutline = outlineOf == nil
            result.patternAtlas = patternAtlas
        }
        return result
    }

    /// A `circle` layer over one tile: the points inside the tile square, in MapLibre's order
    /// (sort key, then tile order).
    func evaluateCircle(_ layer: Layer, tile: TileInput) -> EvaluatedCircleLayer {
        typealias P = CircleProperties
        var items: [(key: Double?, item: EvaluatedCircle)] = []
        let radiusOf = numberGetter(P.circleRadius, layer), colorOf = colorGetter(P.circleColor, layer)
        let blurOf = numberGetter(P.circleBlur, layer), opacityOf = numberGetter(P.circleOpacity, layer)
        let strokeWidthOf = numberGetter(P.circleStrokeWidth, layer), strokeColorOf = colorGetter(P.circleStrokeColor, layer)
        let strokeOpacityOf = numberGetter(P.circleStrokeOpacity, layer)
        forEachPassing(layer, tile) { f, c in
            let centers = f.pointsInsideTile()
            if centers.isEmpty { return }
            var circle = EvaluatedCircle(
                centers: centers, radius: radiusOf(c), color: colorOf(c), blur: blurOf(c), opacity: opacityOf(c),
                strokeWidth: strokeWidthOf(c), strokeColor: strokeColorOf(c), strokeOpacity: strokeOpacityOf(c))
            circle.index = f.index
            items.append((sortKey(P.circleSortKey, layer, c), circle))
        }
        var result = EvaluatedCircleLayer(
            id: layer.id, translate: pair(P.circleTranslate, layer),
            translateAnchor: value(P.circleTranslateAnchor, layer),
            pitchScale: value(P.circlePitchScale, layer), pitchAlignment: value(P.circlePitchAlignment, layer),
            features: sorted(items))
        result.paint = PaintSource(layer: layer, globalState: globalState, tileZoom: tileZoom)
        return result
    }

    /// A `line` layer over one tile: lines and polygon rings (closed) in tile units, with the
    /// values dashes need and the line-metrics clip of each GeoJSON piece.
    func evaluateLine(_ layer: Layer, tile: TileInput) -> EvaluatedLineLayer {
        typealias P = LineProperties
        let dashed = layer.values[P.lineDasharray.name] != nil
        let floorZoom = zoom.rounded(.down)
        // MapLibre's first frame has lastIntegerZoom = floor(zoom): between integer zooms it is
        // "zooming in" (from = the value at zoom − 1, scale 2), on one "zooming out" (zoom + 1,
        // 0.5). The "to" pattern is the value at the zoom itself.
        let zoomingIn = zoom > floorZoom
        var atFloor = self, atFrom = self
        atFloor.zoom = floorZoom
        atFrom.zoom = zoomingIn ? zoom - 1 : zoom + 1
        func pattern(_ e: StyleEvaluator, _ c: FeatureContext) -> [Double]? {
            guard let a = e.value(P.lineDasharray, in: layer, feature: c).array else { return nil }
            let numbers = a.compactMap(\.number)
            guard !numbers.isEmpty, numbers.count == a.count else { return nil }
            return numbers.map { $0.isFinite ? Swift.max(0, $0) : 0 }
        }
        var items: [(key: Double?, item: EvaluatedLine)] = []
        let layout = atTileZoom
        let joinOf = layout.getter(P.lineJoin, layer, layout.string), colorOf = colorGetter(P.lineColor, layer)
        let opacityOf = numberGetter(P.lineOpacity, layer), widthOf = numberGetter(P.lineWidth, layer)
        let gapWidthOf = numberGetter(P.lineGapWidth, layer), offsetOf = numberGetter(P.lineOffset, layer)
        let blurOf = numberGetter(P.lineBlur, layer)
        let patternOf = patternGetter(P.linePattern, layer)
        forEachPassing(layer, tile) { f, c in
            let closed = f.type == .polygon
            let parts = f.geometry.map { (coords: flatCoordinates($0), closed: closed) }
            var line = EvaluatedLine(
                parts: parts, join: LineJoin(rawValue: joinOf(c)) ?? .miter,
                color: colorOf(c), opacity: opacityOf(c), width: widthOf(c), gapWidth: gapWidthOf(c),
                offset: offsetOf(c), blur: blurOf(c), dasharray: nil)
            if let patternOf {
                // MapLibre's line_pattern: no dashes, no gradient; the image scaled to the floor width.
                guard let p = patternOf(c) else { return }   // a missing image draws nothing
                line.pattern = p
                line.floorWidth = atFloor.number(P.lineWidth, layer, c)
            } else if dashed, let to = pattern(self, c) {
                line.dasharray = to
                line.dasharrayFrom = pattern(atFrom, c) ?? to
                line.floorWidth = atFloor.number(P.lineWidth, layer, c)
            }
            // geojson-vt's line metrics: the piece's share of the whole line.
            if let s = f.properties["mapbox_clip_start"]?.numberValue, let e = f.properties["mapbox_clip_end"]?.numberValue {
                line.clip = (s, e)
            }
            line.index = f.index
            items.append((sortKey(P.lineSortKey, layer, c), line))
        }
        let gradient = layer.values[P.lineGradient.name]
        var result = EvaluatedLineLayer(
            id: layer.id, cap: layout.value(P.lineCap, layer),
            miterLimit: layout.number(P.lineMiterLimit, layer), roundLimit: layout.number(P.lineRoundLimit, layer),
            translate: pair(P.lineTranslate, layer),
            translateAnchor: value(P.lineTranslateAnchor, layer),
            gradient: gradient, features: sorted(items))
        result.zoom = zoom
        result.paint = PaintSource(layer: layer, globalState: globalState, tileZoom: tileZoom)
        result.sourceMaxzoom = layer.source.flatMap { sources[$0]?.maxzoom } ?? 18
        if let g = gradient, case .step = g.expression.root.op { result.gradientIsStep = true }
        result.dashFromScale = zoomingIn ? 2 : 0.5
        if patternOf != nil {
            result.patterned = true
            result.patternAtlas = patternAtlas
            result.gradient = nil
            result.gradientIsStep = false
        }
        return result
    }
}
