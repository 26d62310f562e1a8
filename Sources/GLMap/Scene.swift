// Scene — contract
// A style with its sources loaded and turned into tile producers once: a GeoJSON source becomes
// a `GeoJSONSourceIndex` (geojson-vt's tiling, or supercluster's for `cluster: true`, as MapLibre's
// worker does it); a vector source a `VectorTileSource` whose tiles are fetched (files, archives,
// TileJSON, http through the `ResourceLoader`) and decoded for each frame before drawing. Frames of the same
// scene (other cameras, sizes, ratios) reuse it: no re-parsing, re-projection or re-tiling.
// Raster, raster-dem and image sources are opened here and loaded per frame (Scene+Raster.swift).
// A frame is planned from the view: per source, the tiles MapLibre would cover the view with
// (`TileCover`); per drawn layer and tile, the layer evaluated over the tile's features and
// tessellated (`FramePlan`, for the GPU) or only evaluated (`ReferenceFrame`, for the CPU
// reference renderer). Tile buckets are cached across frames by tile, layer and what their
// content depends on, so a batch re-tessellates only tiles it has not drawn before.
// Sources that cannot be loaded are empty and listed in `warnings` (MapLibre draws nothing for
// them); with `strict`, loading throws the first such problem instead. What the style has that glmap
// does not draw (`StyleDocument.skipped`) is left out and reported in `warningMessages`; with
// `strict` it is a `StyleError` instead.
// Limits: inputs are read under `InputLimits` (default `.default`). A style past a limit is a
// `StyleError` (exit 2); a source past one is a `SourceWarning` like any unloadable source.
// Threads: a scene may be shared by renderers on several threads (its caches are locked).
import Foundation
import GLMapCore
import GLMapGeoJSON
import GLMapStyle
import GLMapTessellation
import GLMapTiles

/// A parsed style plus its sources, ready to be tiled for any view.
public final class Scene: Sendable {

    /// The parsed, validated style.
    public let style: StyleDocument
    /// The GeoJSON sources' tile indexes by source id.
    let geojson: [String: GeoJSONSourceIndex]
    /// The vector sources by id.
    let vector: [String: VectorTileSource]
    /// The raster, raster-dem and image sources, and the tiles frames loaded from them (Scene+Raster.swift).
    let rasters: SceneRasterSources
    /// Where URLs of the style's sources (and glyphs and sprites) are fetched from.
    public let loader: ResourceLoader
    /// Problems met while loading tiles for frames (a tile that could not be fetched or decoded),
    /// each once, in the order met.
    let tileWarnings = Locked<[String]>([])
    /// Unit-world bounds of each loaded source's data (empty box for an empty source).
    public let sourceBounds: [String: WorldBounds]
    /// Problems with source data that were tolerated.
    public let warnings: [SourceWarning]
    /// Tile buckets built for earlier frames.
    let buckets = Locked(TileBucketCache())
    /// Sprites and the pattern atlas by sprite scale (Scene+Images.swift), loaded by the first
    /// frame that needs them.
    let images = Locked(SceneImageCache())

    /// Images added at run time (`Snapshotter.addImage`), beside the sprite's (Scene+Images.swift).
    let runtimeImages: [String: StyleImage]

    /// Glyphs and images of symbol layers (Scene+Symbols.swift), loaded by the first frame that needs them.
    let symbolAssetCache = Locked(SymbolAssetCache())
    /// Whether symbols of different sources collide (GL JS's `crossSourceCollisions`, default true).
    let crossSourceCollisions: Bool
    /// Whether symbol layers draw their collision debug overlay (GL JS's `showCollisionBoxes`).
    let showCollisionBoxes: Bool

    /// Loads the style's sources; `preloaded` gives features already decoded (the Swift API's
    /// `GeoJSONSource` data) by source id, used instead of the source's own `data`.
    /// `resources`: how URLs are fetched (default: relative to the style file's folder, http(s)
    /// without a cache). `images` are images added at run time (patterns and icons may name them as
    /// they name the sprite's); `crossSourceCollisions` off keeps symbols of different sources from
    /// hiding each other; `showCollisionBoxes` draws symbol layers' collision boxes and circles over them.
    public init(style: StyleDocument, preloaded: [String: GLMapGeoJSON.FeatureCollection] = [:], strict: Bool = false,
                limits: InputLimits = .default, resources: ResourceLoaderOptions? = nil, images: [String: StyleImage] = [:],
                crossSourceCollisions: Bool = true, showCollisionBoxes: Bool = false) throws {
        runtimeImages = images
        self.crossSourceCollisions = crossSourceCollisions
        self.showCollisionBoxes = showCollisionBoxes
        // What glmap would skip (symbol layers, vector sources, patterns…) is an error under strict.
        if strict && !style.skipped.isEmpty { throw SkippedFeature.strictError(style.skipped, file: style.file) }
        self.style = style
        let loader = SourceLoader(styleFile: style.file, limits: limits)
        var options = resources ?? ResourceLoaderOptions()
        if options.base == nil { options.base = loader.baseDirectory }
        self.loader = ResourceLoader(options: options)
        var geojson: [String: GeoJSONSourceIndex] = [:]
        var vector: [String: VectorTileSource] = [:]
        var raster: [String: RasterTileSource] = [:], dem: [String: RasterDEMTileSource] = [:], images: [String: GLMapTiles.ImageSource] = [:]
        var bounds: [String: WorldBounds] = [:]
        var warnings: [SourceWarning] = []
        // Only sources some layer uses are loaded.
        let used = Set(style.layers.compactMap(\.source))
        for id in style.sources.keys.sorted() where used.contains(id) {
            let source = style.sources[id]!
            do {
                let collection = try preloaded[id] ?? loader.load(source)
                let box = try Scene.bounds(collection, source: id)
                do {
                    geojson[id] = try GeoJSONSourceIndex(collection, source: Scene.options(source, globalState: style.globalState))
                } catch let e as GeoJSONTilingError {
                    throw SourceWarning(sourceID: id, message: e.message)
                }
                bounds[id] = box
            } catch let w as SourceWarning {
                if strict { throw w }
                warnings.append(w)
                bounds[id] = .empty
            }
        }
        for id in style.tileSources.keys.sorted() where used.contains(id) {
            let spec = style.tileSources[id]!
            do {
                let description = try TileSourceDescription(id: id, json: spec.json)
                switch spec.type {
                case .vector:
                    let source = try VectorTileSource(description, loader: self.loader, limits: limits)
                    vector[id] = source
                    if let b = source.source.bounds { bounds[id] = Scene.bounds(b) }
                case .raster:
                    let source = try RasterTileSource(description, loader: self.loader, limits: limits)
                    raster[id] = source
                    if let b = source.source.bounds { bounds[id] = Scene.bounds(b) }
                case .rasterDEM:
                    let source = try RasterDEMTileSource(description, loader: self.loader, limits: limits)
                    dem[id] = source
                    if let b = source.source.bounds { bounds[id] = Scene.bounds(b) }
                case .image:
                    let source = try GLMapTiles.ImageSource(description, loader: self.loader, limits: limits)
                    images[id] = source
                    if let p = Scene.imagePlacement(source.coordinates) { bounds[id] = p.bounds }
                case .geojson, .video:
                    break   // GeoJSON sources are loaded above; video sources are skipped by the parser
                }
            } catch {
                let w = SourceWarning(sourceID: id, message: "\(error)")
                if strict { throw w }
                warnings.append(w)
            }
        }
        self.geojson = geojson
        self.vector = vector
        self.rasters = SceneRasterSources(raster: raster, dem: dem, images: images)
        self.sourceBounds = bounds
        self.warnings = warnings
    }

    /// Every warning to show, one line each: what of the style glmap skips (one line per reason,
    /// naming the layers or sources), each source whose data could not be used, then each tile
    /// that could not be loaded by the frames drawn so far.
    public var warningMessages: [String] {
        SkippedFeature.summaries(style.skipped) + warnings.map(\.description) + tileWarnings.value + imageWarnings + symbolWarnings
    }

    /// Tiles that could not be loaded by the frames drawn so far (fetch or decode failures), one
    /// line each, as `warningMessages` ends with them.
    public var tileWarningMessages: [String] { tileWarnings.value }

    /// A GeoJSON source's tiling options as GL JS derives them: geojson-vt's or supercluster's
    /// values, the source `filter` and `clusterProperties` as closures over the style's expressions.
    static func options(_ source: GLMapStyle.Source, globalState: JSONObject) -> GeoJSONSourceOptions {
        var o = GeoJSONSourceOptions(maxzoom: source.maxzoom, buffer: source.buffer, tolerance: source.tolerance,
                                     lineMetrics: source.lineMetrics, generateId: source.generateId, cluster: source.cluster,
                                     clusterRadius: source.clusterRadius, clusterMaxZoom: source.clusterMaxZoom,
                                     clusterMinPoints: source.clusterMinPoints)
        if let filter = source.filter {
            o.filter = { f in filter.evaluate(EvaluationContext(zoom: 0, feature: FeatureContext(f), globalState: globalState)) }
        }
        o.clusterProperties = source.clusterProperties.map { p in
            ClusterProperty(name: p.name, map: { properties in
                let v = try? p.map.evaluate(EvaluationContext(zoom: 0, feature: FeatureContext(properties: properties), globalState: globalState))
                return v?.jsonValue ?? .null
            }, reduce: { accumulated, properties in
                var ctx = EvaluationContext(zoom: 0, feature: FeatureContext(properties: properties), globalState: globalState)
                ctx.accumulated = accumulated
                return (try? p.reduce.evaluate(ctx))?.jsonValue ?? .null
            })
        }
        return o
    }

    /// The unit-world box of a longitude/latitude box.
    static func bounds(_ b: TileBounds) -> WorldBounds {
        let nw = WebMercator.project(lon: b.west, lat: b.north), se = WebMercator.project(lon: b.east, lat: b.south)
        return WorldBounds(minX: nw.x, minY: nw.y, maxX: se.x, maxY: se.y)
    }

    /// Loads a style file (or "-" for standard input) and its sources.
    public convenience init(styleFile path: String, strict: Bool = false, limits: InputLimits = .default) throws {
        try self.init(style: Scene.loadStyle(file: path, limits: limits), strict: strict, limits: limits)
    }

    /// Largest |longitude| accepted (degrees). Beyond it a Double no longer holds the position
    /// within a world to better than a millionth of a degree, so the source is refused.
    public static let maxLongitude = 1.0e6

    /// The unit-world box of a collection's positions (the projection of its extreme longitudes
    /// and latitudes: Web Mercator's x grows with longitude and y falls with latitude, so the
    /// corners are the only positions worth projecting), in one pass that also finds the first
    /// position that is not a usable coordinate (NaN, ±Infinity — possible when the model is
    /// built in code rather than decoded — or absurdly far out): then a message naming the feature.
    static func bounds(_ collection: GLMapGeoJSON.FeatureCollection, source id: String) throws(SourceWarning) -> WorldBounds {
        var west = Double.infinity, east = -Double.infinity, south = Double.infinity, north = -Double.infinity
        for (i, f) in collection.features.enumerated() {
            guard let g = f.geometry else { continue }
            var bad: GLMapGeoJSON.Position?
            g.forEachPosition { p in
                guard bad == nil else { return }
                guard p.lon.isFinite, p.lat.isFinite, abs(p.lon) <= maxLongitude else { bad = p; return }
                west = min(west, p.lon); east = max(east, p.lon)
                south = min(south, p.lat); north = max(north, p.lat)
            }
            if let p = bad {
                let named = f.id.map { " (id \($0.jsonText))" } ?? ""
                throw SourceWarning(sourceID: id, message: "feature \(i)\(named): position [\(p.lon), \(p.lat)] is not a usable coordinate (longitude and latitude must be finite numbers, |longitude| ≤ \(Int(maxLongitude)))")
            }
        }
        var b = WorldBounds.empty
        guard west <= east else { return b }
        let nw = WebMercator.project(lon: west, lat: north), se = WebMercator.project(lon: east, lat: south)
        b.add(nw.x, nw.y)
        b.add(se.x, se.y)
        return b
    }

    /// Reads and parses a style file (or "-" for standard input) without loading its sources.
    public static func loadStyle(file path: String, limits: InputLimits = .default) throws -> StyleDocument {
        let bytes: [UInt8]
        if path == "-" {
            bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } else {
            if let size = InputLimits.fileSize(atPath: path), size > limits.maxStyleFileBytes {
                throw Scene.styleTooLarge(size: size, file: path, limits: limits)
            }
            guard let d = FileManager.default.contents(atPath: path) else {
                var isDir: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
                throw IOFailure(path: path, message: exists ? (isDir.boolValue ? "is a directory, expected a style JSON file" : "cannot be read (permission denied?)") : "no such file")
            }
            bytes = [UInt8](d)
        }
        return try Scene.parseStyle(bytes, file: path == "-" ? nil : path, limits: limits)
    }

    /// Parses and validates style JSON bytes under `limits` (size, string length, nesting); the
    /// errors are `StyleError`s worded as `StyleDocument.parse` words them.
    public static func parseStyle(_ bytes: [UInt8], file: String?, limits: InputLimits = .default) throws -> StyleDocument {
        if bytes.count > limits.maxStyleFileBytes { throw styleTooLarge(size: bytes.count, file: file, limits: limits) }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes, limits: limits)
        } catch let e as JSONSyntaxError {
            throw StyleError(file: file, issues: [StyleIssue(path: "", message: "invalid JSON at \(e.line):\(e.column): \(e.message)")])
        }
        return try StyleDocument.parse(json: json, file: file)
    }

    /// The error for a style of `size` bytes, past `maxStyleFileBytes`.
    static func styleTooLarge(size: Int, file: String?, limits: InputLimits) -> StyleError {
        let message = InputLimits.fileSizeMessage(size: size, limit: limits.maxStyleFileBytes, name: "maxStyleFileBytes")
        return StyleError(file: file, issues: [StyleIssue(path: "", message: message)])
    }
}

extension GLMapGeoJSON.Geometry {
    /// Calls `body` with every position of the geometry, in order (no array of them is made).
    func forEachPosition(_ body: (GLMapGeoJSON.Position) -> Void) {
        switch self {
        case .point(let p): body(p)
        case .multiPoint(let ps), .lineString(let ps): for p in ps { body(p) }
        case .multiLineString(let ls), .polygon(let ls): for l in ls { for p in l { body(p) } }
        case .multiPolygon(let ps): for rings in ps { for l in rings { for p in l { body(p) } } }
        case .geometryCollection(let gs): for g in gs { g.forEachPosition(body) }
        }
    }
}
