// Scene — contract
// A style with its sources loaded, decoded and projected once (Web Mercator unit world). Frames
// of the same scene (other cameras, sizes, ratios) reuse it: no re-parsing or re-projection.
// Sources that cannot be loaded are empty and listed in `warnings` (MapLibre draws nothing for
// them); with `strict`, loading throws the first such problem instead. What the style has that glmap
// does not draw (`StyleDocument.skipped`) is left out and reported in `warningMessages`; with
// `strict` it is a `StyleError` instead. Lines and rings are ranked
// for simplification once here and simplified per tile zoom when evaluated (Simplification.swift).
// Feature state set at run time (`StyleDocument.featureStates`) is attached here to each GeoJSON
// feature's context, where `feature-state` expressions read it.
// Limits: inputs are read under `InputLimits` (default `.default`). A style past a limit is a
// `StyleError` (exit 2); a source past one is a `SourceWarning` like any unloadable source.
import Foundation
import GLMapCore
import GLMapGeoJSON
import GLMapStyle
import GLMapTessellation

/// A parsed style plus its projected source data.
public final class Scene: Sendable {

    /// The parsed, validated style.
    public let style: StyleDocument
    /// Projected features per source id.
    public let features: [String: [ProjectedFeature]]
    /// Problems with source data that were tolerated.
    public let warnings: [SourceWarning]

    /// Loads the style's sources; `preloaded` gives features already decoded (the Swift API's
    /// `GeoJSONSource` data) by source id, used instead of the source's own `data`.
    public init(style: StyleDocument, preloaded: [String: GLMapGeoJSON.FeatureCollection] = [:], strict: Bool = false,
                limits: InputLimits = .default) throws {
        // What glmap would skip (symbol layers, vector sources, patterns…) is an error under strict.
        if strict && !style.skipped.isEmpty { throw SkippedFeature.strictError(style.skipped, file: style.file) }
        self.style = style
        let loader = SourceLoader(styleFile: style.file, limits: limits)
        var features: [String: [ProjectedFeature]] = [:]
        var warnings: [SourceWarning] = []
        // Only sources some layer uses are loaded.
        let used = Set(style.layers.compactMap(\.source))
        for id in style.sources.keys.sorted() where used.contains(id) {
            do {
                let collection = try preloaded[id] ?? loader.load(style.sources[id]!)
                do {
                    var projected = try ProjectedFeature.project(collection)
                    let source = style.sources[id]!
                    Simplification.rank(&projected, tolerance: source.tolerance, maxzoom: source.maxzoom)
                    if style.featureStates.hasState(source: id) {   // what `feature-state` reads
                        for i in projected.indices {
                            projected[i].context.state = style.featureStates.state(of: projected[i].context, in: source)
                        }
                    }
                    features[id] = projected
                } catch let e as InvalidGeometryError {
                    throw SourceWarning(sourceID: id, message: e.message)
                }
            } catch let w as SourceWarning {
                if strict { throw w }
                warnings.append(w)
                features[id] = []
            }
        }
        self.features = features
        self.warnings = warnings
    }

    /// Every warning to show, one line each: what of the style glmap skips (one line per reason,
    /// naming the layers or sources), then each source whose data could not be used.
    public var warningMessages: [String] {
        SkippedFeature.summaries(style.skipped) + warnings.map(\.description)
    }

    /// Loads a style file (or "-" for standard input) and its sources.
    public convenience init(styleFile path: String, strict: Bool = false, limits: InputLimits = .default) throws {
        try self.init(style: Scene.loadStyle(file: path, limits: limits), strict: strict, limits: limits)
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

    /// The style's layers evaluated for one zoom, in draw order (hidden layers skipped), the
    /// layers on all cores.
    public func evaluatedLayers(zoom: Double) -> [EvaluatedLayer] {
        let evaluator = StyleEvaluator(zoom: zoom, globalState: style.globalState, sources: style.sources)
        let (drawn, simplified) = drawnLayers(zoom: zoom)
        return concurrentMap(drawn, order: costliestFirst(drawn, simplified)) { layer in
            evaluator.evaluate(layer, features: layer.source.flatMap { simplified[$0] } ?? [])
        }
    }

    /// The layers drawn at `zoom`, tessellated for the GPU as MapLibre's buckets are: features,
    /// filters and layout at the tile zoom floor(zoom), composite paint at the tile zoom and the
    /// next (two evaluations of such layers), everything that reads only the zoom left to
    /// per-frame uniforms. The buckets therefore serve every frame whose `gpuKey` is the same.
    /// The layers are evaluated on all cores, then tessellated one by one (a large layer's
    /// features spread over the cores).
    public func gpuBuckets(zoom: Double) -> [Bucket] {
        gpuBuckets(zoom: zoom, emulation: [])
    }

    /// The same with MapLibre Native behaviours emulated (the differential harness only).
    package func gpuBuckets(zoom: Double, emulation: NativeEmulation) -> [Bucket] {
        var evaluator = StyleEvaluator(zoom: zoom, globalState: style.globalState, sources: style.sources)
        evaluator.compositeZoom = evaluator.tileZoom
        var upper = evaluator
        upper.compositeZoom = evaluator.tileZoom + 1
        let (drawn, simplified) = drawnLayers(zoom: zoom)
        let evaluated = concurrentMap(drawn, order: costliestFirst(drawn, simplified)) { [evaluator, upper] layer in
            let features = layer.source.flatMap { simplified[$0] } ?? []
            let composite = layer.type.properties.contains { p in
                guard p.gpu != nil, let e = layer.values[p.name]?.expression else { return false }
                return !e.isFeatureConstant && !e.isZoomConstant
            }
            return (evaluator.evaluate(layer, features: features), composite ? upper.evaluate(layer, features: features) : nil)
        }
        // One layer at a time: a large layer's tessellation spreads its features over the cores.
        return evaluated.map { Bucket.make($0.0, next: $0.1, emulation: emulation) }
    }

    /// The layers drawn at `zoom` in draw order, and the features of each source they read as
    /// drawn at that zoom (simplified once per source).
    private func drawnLayers(zoom: Double) -> ([GLMapStyle.Layer], [String: [ProjectedFeature]]) {
        let drawn = style.layers.filter { $0.isDrawn(atZoom: zoom) }
        var simplified: [String: [ProjectedFeature]] = [:]
        for layer in drawn { if let id = layer.source, simplified[id] == nil { simplified[id] = features(of: id, zoom: zoom) } }
        return (drawn, simplified)
    }

    /// Layer indices by the number of features they read, most first (the jobs' order).
    private func costliestFirst(_ layers: [GLMapStyle.Layer], _ features: [String: [ProjectedFeature]]) -> [Int] {
        let cost = layers.map { l in l.source.flatMap { features[$0]?.count } ?? 0 }
        return layers.indices.sorted { cost[$0] > cost[$1] }
    }

    /// Frames whose zooms have the same key can share `gpuBuckets`: the tile zoom, whether the
    /// zoom is an integer when a line is dashed (the dash cross-fade direction), and which layers
    /// with a fractional minzoom/maxzoom are drawn.
    public func gpuKey(zoom: Double) -> String {
        let z = zoom.rounded(.down)
        var key = "\(z)"
        if dashed && zoom == z { key += " integer" }
        for i in fractionalRangeLayers { key += style.layers[i].isDrawn(atZoom: zoom) ? " +\(i)" : " -\(i)" }
        return key
    }

    /// Whether any layer sets line-dasharray.
    private var dashed: Bool { style.layers.contains { $0.values[LineProperties.dasharray.name] != nil } }
    /// Layers whose minzoom or maxzoom is not an integer.
    private var fractionalRangeLayers: [Int] {
        style.layers.indices.filter { i in
            let l = style.layers[i]
            return (l.minzoom.isFinite && l.minzoom != l.minzoom.rounded(.down)) || (l.maxzoom.isFinite && l.maxzoom != l.maxzoom.rounded(.down))
        }
    }

    /// A source's features as drawn at `zoom`: simplified for its tile zoom (MapLibre's tolerance).
    public func features(of sourceID: String, zoom: Double) -> [ProjectedFeature] {
        guard let all = features[sourceID] else { return [] }
        guard let source = style.sources[sourceID] else { return all }
        let t = Simplification.tolerance(pixels: source.tolerance, zoom: zoom, maxzoom: source.maxzoom)
        guard t > 0, !all.allSatisfy({ $0.type == .point }) else { return all }   // points are never simplified
        return all.compactMap { $0.simplified(tolerance: t) }
    }
}
