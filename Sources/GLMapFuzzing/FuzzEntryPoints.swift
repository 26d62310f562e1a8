// Fuzz entry points — contract
// Input: arbitrary bytes (at most `maxInputSize`; larger inputs are ignored and return at once).
// Output: nothing of use; each function drives one production stage the way the CLI does and
// either returns or throws that stage's typed error (a `GLMapError`, `JSONSyntaxError` from the
// shared JSON parser included) — the "clear error" path. Anything else — a trap, an overflow, an
// out-of-bounds access, a hang, a stack overflow — is a bug the fuzzer reports.
// Invariants checked (a violation traps with `preconditionFailure` naming it, so the fuzzer
// reports it): every bucket/tessellator index < its vertex count, no NaN in any vertex buffer,
// the byte and tree GeoJSON decoders agree on whether a document is valid and on its collection.
// Used by the libFuzzer executables in Tests/Fuzz and by the regression tests over
// Tests/FuzzRegressions (crash inputs found by fuzzing, kept so they stay fixed).
// Threads: no shared mutable state; call from any thread.
import Foundation
import GLMap
import GLMapArchives
import GLMapCLI
import GLMapCore
import GLMapGeoJSON
import GLMapStyle
import GLMapTessellation
import GLMapText
import GLMapTiles

/// One function per fuzz target; each runs a production stage on arbitrary bytes.
public enum FuzzEntryPoints {
    /// Inputs larger than this (1 MiB) are ignored.
    public static let maxInputSize = 1 << 20

    /// Decodes bytes as GeoJSON (byte decoder), checks the tree decoder gives the same
    /// collection when both accept it, and projects the features.
    ///
    /// Acceptance itself is not compared: with a duplicated member (`{"type":"","type":"Point",…}`)
    /// the byte decoder checks every occurrence while the JSON tree keeps only the last one.
    public static func geojson(_ bytes: [UInt8]) throws {
        guard bytes.count <= maxInputSize else { return }
        let fromBytes = Result { try GeoJSONDecoder.decode(bytes, file: "fuzz.geojson") }
        if let json = try? JSONParser.parse(bytes) {
            // Both entry points must agree: on the collection, and on whether the document is valid.
            switch (fromBytes, Result { try GeoJSONDecoder.decode(json, path: "data") }) {
            case (.success(let a), .success(let b)):
                check(a == b, "byte and tree GeoJSON decoders give different collections")
            case (.success, .failure), (.failure, .success):
                check(false, "byte and tree GeoJSON decoders disagree on whether the document is valid")
            case (.failure, .failure):
                break
            }
        }
        // Tiled as a GeoJSON source is: the root tile and one tile deep inside.
        let index = try GeoJSONTileIndex(try fromBytes.get(), options: .mapLibre())
        for id in [CanonicalTileID(0, 0, 0), CanonicalTileID(12, 2048, 2047)] { checkTile(index.vectorTile(id)) }
    }

    /// Every coordinate of a tile lies within its buffered square.
    static func checkTile(_ data: VectorTileData?) {
        guard let data else { return }
        for layer in data.layers.values {
            for f in layer.features {
                for ring in f.geometry {
                    check(ring.allSatisfy { $0.x >= -2050 && $0.x <= 8192 + 2050 && $0.y >= -2050 && $0.y <= 8192 + 2050 },
                          "a tile coordinate lies outside the buffered tile")
                }
            }
        }
    }

    /// Inflates bytes when they are gzip/zlib (under a 4 MiB limit) and decodes them as a Mapbox
    /// Vector Tile, with and without a `promoteId`; checks that features keep increasing indices
    /// and a known geometry type, and that the two decodings agree on everything but ids.
    public static func vectorTile(_ bytes: [UInt8]) throws {
        guard bytes.count <= maxInputSize else { return }
        let raw = (try? Decompression.inflateIfCompressed(bytes, limit: 4 << 20)) ?? bytes
        let plain = try VectorTileDecoder.decode(raw)
        let promoted = try VectorTileDecoder.decode(raw, promoteId: .property("id"))
        check(plain.data.layers.keys.sorted() == promoted.data.layers.keys.sorted(), "promoteId changed the layers")
        for (name, layer) in plain.data.layers {
            var last = -1
            for f in layer.features {
                check(f.index > last, "feature indices of layer \(name) do not increase")
                last = f.index
                check(f.type == .point || f.type == .lineString || f.type == .polygon, "a feature of unknown type was kept")
            }
            check(promoted.data.layers[name]?.features.map(\.index) == layer.features.map(\.index), "promoteId changed the features")
        }
    }

    /// Parses and validates a style; when all its sources are inline, loads them, evaluates the
    /// layers at three zooms and tessellates them, checking the bucket invariants.
    public static func style(_ bytes: [UInt8]) throws {
        guard bytes.count <= maxInputSize else { return }
        let document = try StyleDocument.parse(bytes, file: nil)
        // File references could name anything on this machine (/dev/zero); only inline data is loaded.
        for source in document.sources.values {
            guard case .inline = source.data else { return }
        }
        let scene = try Scene(style: document)
        for zoom in [0, document.zoom, 14.5] {
            let camera = Camera(longitude: document.center.lon, latitude: document.center.lat, zoom: zoom)
            checkPlan(scene.framePlan(view: ViewTransform(camera: camera, width: 256, height: 256)))
        }
    }

    /// Every tile bucket of a plan keeps the bucket invariants.
    static func checkPlan(_ plan: FramePlan) {
        for layer in plan.layers {
            guard case .tiled(_, _, let buckets) = layer else { continue }
            for b in buckets { checkBucket(b.bucket) }
        }
    }

    /// Decodes bytes as a glyph range PBF; when it decodes, checks that every bitmap matches its
    /// metrics, that re-encoding and decoding gives the same glyphs, and packs them into an atlas.
    public static func glyphPBF(_ bytes: [UInt8]) throws {
        guard bytes.count <= maxInputSize else { return }
        let glyphs = try GlyphPBF.decode(bytes)
        for g in glyphs {
            check(g.bitmap.width == Int(g.metrics.width) + 6 && g.bitmap.height == Int(g.metrics.height) + 6,
                  "a glyph's bitmap does not match its metrics")
        }
        // The writer clamps metrics to 32 bits; compare where the reader's values fit.
        let fits = glyphs.allSatisfy { g in
            [g.metrics.left, g.metrics.top, g.metrics.advance].allSatisfy { $0 >= -2_147_483_648 && $0 <= 2_147_483_647 }
        }
        let again = try GlyphPBF.decode(GlyphPBF.encode(fontStack: "fuzz", rangeStart: 0, glyphs: glyphs))
        check(!fits || again == glyphs, "a written glyph range does not decode to the same glyphs")
        var map = GlyphMap()
        map.set(Dictionary(glyphs.prefix(512).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }), for: "fuzz")
        let atlas = GlyphAtlas(glyphs: map)
        check(atlas.image.pixels.count == atlas.image.width * atlas.image.height, "glyph atlas size")
    }

    /// Parses bytes as JSON, compiles it as an expression for several property types and as a
    /// filter, and evaluates each against fixed features and zooms.
    public static func expression(_ bytes: [UInt8]) throws {
        guard bytes.count <= maxInputSize else { return }
        let json = try JSONParser.parse(bytes)
        for spec in expressionSpecs {
            guard case .success(let e) = StyleExpression.compile(json, spec: spec) else { continue }
            for context in evaluationContexts { _ = try? e.evaluate(context) }
        }
        if case .success(let filter) = FeatureFilter.compile(json) {
            for context in evaluationContexts { _ = filter.evaluate(context) }
        }
    }

    /// Reads polygons and polylines from text (see `TessellationInput`), triangulates them with
    /// earcut (both flavours), extrudes them with every join and cap, and tessellates them as fill and line
    /// buckets, checking that indices stay in range and no vertex is NaN.
    public static func tessellate(_ bytes: [UInt8]) {
        guard bytes.count <= maxInputSize else { return }
        let input = TessellationInput(bytes)
        let mapLibre = EarcutTriangulator(flavor: .mapLibre)
        for polygon in input.polygons {
            let n = UInt32(polygon.coords.count / 2)
            for triangles in [Earcut.triangulate(polygon.coords, holeIndices: polygon.holeIndices),
                              mapLibre.triangulate(polygon.coords, holeIndices: polygon.holeIndices)] {
                check(triangles.count % 3 == 0, "earcut returned a partial triangle")
                check(triangles.allSatisfy { $0 < n }, "earcut index >= vertex count")
            }
        }
        for join in GLMapTessellation.LineJoin.allCases {
            for cap in GLMapTessellation.LineCap.allCases {
                var tessellator = LineTessellator(join: join, cap: cap, miterLimit: input.miterLimit,
                                                  roundLimit: input.roundLimit, pixelsPerUnit: input.pixelsPerUnit)
                var geometry = LineGeometry()
                for polygon in input.polygons {
                    for ring in polygon.ringRanges {
                        let part = Array(polygon.coords[(2 * ring.lowerBound)..<(2 * ring.upperBound)])
                        tessellator.append(part, closed: input.closed, into: &geometry)
                    }
                }
                let count = UInt32(geometry.vertices.count)
                check(geometry.indices.count % 3 == 0, "line tessellator returned a partial triangle")
                check(geometry.indices.allSatisfy { $0 < count }, "line index >= vertex count (\(join), \(cap))")
                check(geometry.vertices.allSatisfy { v in
                    !(v.x.isNaN || v.y.isNaN || v.ex.isNaN || v.ey.isNaN || v.nx.isNaN || v.ny.isNaN
                      || v.distance.isNaN || v.direction.isNaN)
                }, "NaN in a line vertex (\(join), \(cap))")
            }
        }
        // The production path: GeoJSON model → tiles → style evaluation per tile → buckets.
        var features: [GLMapGeoJSON.Feature] = []
        for (i, polygon) in input.polygons.enumerated() {
            let rings = polygon.ringRanges.map { r in
                stride(from: 2 * r.lowerBound, to: 2 * r.upperBound, by: 2).map {
                    Position(polygon.coords[$0], polygon.coords[$0 + 1])
                }
            }
            guard rings.allSatisfy({ $0.allSatisfy { $0.lon.isFinite && $0.lat.isFinite && abs($0.lon) <= 1e6 } }) else { continue }
            let properties = JSONObject([("w", .number(Double(i % 7))), ("i", .number(Double(i)))])
            features.append(GLMapGeoJSON.Feature(properties: properties, geometry: .polygon(rings)))
            features.append(GLMapGeoJSON.Feature(properties: properties, geometry: .multiLineString(rings)))
        }
        guard !features.isEmpty, let index = try? GeoJSONTileIndex(GLMapGeoJSON.FeatureCollection(features: features), options: .mapLibre()) else { return }
        for zoom in [0, 7, 18] {
            let n = 1 << zoom
            let tile = OverscaledTileID(CanonicalTileID(zoom, n / 2, n / 2))
            guard let data = index.vectorTile(tile.canonical), let layerData = data.layer(nil) else { continue }
            let evaluator = StyleEvaluator(zoom: Double(zoom) + 0.5)
            for layer in bucketStyle.layers {
                checkBucket(Bucket.make(evaluator.evaluate(layer, tile: tile, features: layerData.features)))
            }
        }
    }

    // MARK: - Invariants

    /// Traps with a message naming the violated invariant.
    @inline(__always)
    /// A private folder with a small style (inline point, line and polygon), an invalid style,
    /// and `cwd/` where the command runs; made once per process.
    static let workspace: String = {
        let dir = NSTemporaryDirectory() + "glmap-fuzz-cli-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir + "/cwd", withIntermediateDirectories: true)
        let style = ##"{"version": 8, "center": [0, 0], "zoom": 1, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"k": 1}, "geometry": {"type": "Polygon", "coordinates": [[[-20, -20], [20, -20], [20, 20], [-20, -20]]]}}, {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-30, 0], [30, 10]]}}, {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [5, 5]}}]}}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#eee"}}, {"id": "f", "type": "fill", "source": "s", "paint": {"fill-color": "#0a0"}}, {"id": "l", "type": "line", "source": "s", "paint": {"line-width": 3}}, {"id": "c", "type": "circle", "source": "s"}, {"id": "t", "type": "symbol", "source": "s"}]}"##
        // A workspace that cannot be set up would make every run meaningless: trap (the fuzzer reports it).
        precondition(FileManager.default.createFile(atPath: dir + "/style.json", contents: Data(style.utf8)), "fuzz workspace: cannot write style.json")
        precondition(FileManager.default.createFile(atPath: dir + "/bad.json", contents: Data(#"{"version": 8, "sources": {}, "layers": [{"id": "x", "type": "fill", "source": "nope", "filter": 0}]}"#.utf8)), "fuzz workspace: cannot write bad.json")
        atexit { try? FileManager.default.removeItem(atPath: FuzzEntryPoints.workspace) }   // libFuzzer ends jobs with exit()
        return dir
    }()

    /// Runs the `glmap` command line on an argument vector and frames file decoded from the bytes
    /// (`CommandLineInput`), on the CPU, inside a private workspace. Checks: the exit code is 0, 1
    /// or 2; a failure says why on stderr, prefixed "glmap: "; no temporary file is left behind.
    public static func commandLine(_ bytes: [UInt8]) {
        guard bytes.count <= 1 << 16 else { return }
        let ws = workspace
        let input = CommandLineInput(bytes, workspace: ws)
        guard !input.args.isEmpty else { return }
        precondition(FileManager.default.createFile(atPath: ws + "/frames.jsonl", contents: Data(input.frames)), "fuzz workspace: cannot write frames.jsonl")
        let cwd = ws + "/cwd"
        try? FileManager.default.removeItem(atPath: cwd)
        try? FileManager.default.createDirectory(atPath: cwd, withIntermediateDirectories: true)
        let previous = FileManager.default.currentDirectoryPath
        precondition(FileManager.default.changeCurrentDirectoryPath(cwd), "fuzz workspace: cannot enter \(cwd)")
        defer { precondition(FileManager.default.changeCurrentDirectoryPath(previous), "fuzz workspace: cannot return to \(previous)") }
        var stderr = ""
        let io = CommandIO(readStdin: { input.frames }, writeStdout: { _ in }, writeStderr: { stderr += $0 })
        let code = GLMapCommand.run(input.args, io: io)
        check([0, 1, 2].contains(code), "exit code \(code) for \(input.args)")
        if code != 0 {
            check(stderr.hasPrefix("glmap: "), "exit \(code) without a message for \(input.args): \(stderr.prefix(200))")
        }
        let left = (FileManager.default.enumerator(atPath: cwd)?.allObjects as? [String] ?? []).filter { $0.contains(".tmp-") }
        check(left.isEmpty, "temporary files left behind by \(input.args): \(left)")
    }

    static func check(_ condition: Bool, _ what: @autoclosure () -> String) {
        if !condition { preconditionFailure("fuzz invariant violated: \(what())") }
    }

    /// Every index of a bucket is below its vertex count and no vertex component is NaN.
    static func checkBucket(_ bucket: Bucket) {
        func buffers(_ name: String, _ vertices: [Float], _ layout: Int, _ indices: [UInt32]) {
            check(vertices.count % layout == 0, "\(name): vertex buffer is not whole vertices")
            let n = UInt32(vertices.count / layout)
            check(indices.allSatisfy { $0 < n }, "\(name): index >= vertex count")
            check(!vertices.contains { $0.isNaN }, "\(name): NaN in a vertex")
        }
        switch bucket {
        case .background: break
        case .fill(let f):
            buffers("fill", f.vertices, f.stride, f.indices)
            buffers("fill outline", f.outlineVertices, f.outlineStride, f.outlineIndices)
        case .line(let l):
            buffers("line", l.vertices, l.stride, l.indices)
            if !l.fxVertices.isEmpty {
                buffers("line fx", l.fxVertices, LineBucket.fxLayout, [])
                check(l.fxVertices.count / LineBucket.fxLayout == l.vertices.count / l.stride,
                      "line fx: vertex count differs from the line vertices")
            }
        case .circle(let c):
            buffers("circle", c.instances, c.stride, [])
        case .fillExtrusion(let x):
            buffers("fill-extrusion", x.vertices, x.stride, x.indices)
            if !x.patternVertices.isEmpty {
                check(x.patternVertices.count / VertexLayout.pattern == x.vertices.count / x.stride,
                      "fill-extrusion pattern: vertex count differs from the extrusion vertices")
            }
        case .heatmap(let h):
            buffers("heatmap", h.instances, h.stride, [])
        case .symbol(let s):
            buffers("symbol text", s.textVertices, s.textStride, [])
            buffers("symbol icon", s.iconVertices, s.iconStride, [])
        }
    }

    // MARK: - Fixed inputs

    /// Property types expressions are compiled for (nil = no expected type).
    static let expressionSpecs: [PropertySpec?] = [
        nil,
        PropertySpec(type: .number),
        PropertySpec(type: .string),
        PropertySpec(type: .boolean),
        PropertySpec(type: .color),
        PropertySpec(type: .array(.number, length: 2)),
        PropertySpec(type: .enum(["butt", "round", "square"]), kind: .dataConstant),
        PropertySpec(type: .color, kind: .colorRamp, zoomAllowed: false, featureAllowed: false,
                     lineProgressAllowed: true),
    ]

    /// Features, zooms and state expressions and filters are evaluated against.
    static let evaluationContexts: [EvaluationContext] = {
        let point = Geometry.point(Position(24.94, 60.17))
        let line = Geometry.lineString([Position(0, 0), Position(10, 5), Position(-3, 80)])
        let polygon = Geometry.polygon([[Position(0, 0), Position(10, 0), Position(10, 10), Position(0, 0)],
                                        [Position(2, 2), Position(3, 2), Position(3, 3), Position(2, 2)]])
        let features = [
            FeatureContext(id: .number(1), properties: JSONObject([("name", "Helsinki"), ("pop", 650_000), ("x", -2.5), ("flag", true)]),
                           geometryType: point.typeName, geometry: point),
            FeatureContext(id: .string("road"), properties: JSONObject([("class", "primary"), ("width", 1e308), ("list", [1, nil])]),
                           geometryType: line.typeName, geometry: line),
            FeatureContext(properties: JSONObject([("nested", ["a": -0.0]), ("s", "")]),
                           geometryType: polygon.typeName, geometry: polygon),
        ]
        let state = JSONObject([("mode", "dark"), ("scale", 2)])
        var contexts: [EvaluationContext] = []
        for zoom in [0, 7.25, 22] {
            for f in features {
                contexts.append(EvaluationContext(zoom: zoom, feature: f, globalState: state, lineProgress: 0.5))
            }
        }
        contexts.append(EvaluationContext())
        return contexts
    }()

    /// Fill and line layers (each join and cap, a dashed one, a gradient one) the tessellation
    /// target builds buckets for.
    static let bucketStyle: StyleDocument = {
        let text = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}, "lineMetrics": true}},
         "layers": [
          {"id": "f", "type": "fill", "source": "s", "paint": {"fill-color": ["rgba", ["*", 30, ["get", "w"]], 0, 0, 0.5]}},
          {"id": "f2", "type": "fill", "source": "s", "paint": {"fill-antialias": false, "fill-opacity": 0.5}},
          {"id": "l1", "type": "line", "source": "s", "layout": {"line-join": "miter", "line-cap": "butt", "line-miter-limit": 10}, "paint": {"line-width": ["get", "w"]}},
          {"id": "l2", "type": "line", "source": "s", "layout": {"line-join": "bevel", "line-cap": "square"}, "paint": {"line-gap-width": 2, "line-offset": -3}},
          {"id": "l3", "type": "line", "source": "s", "layout": {"line-join": "round", "line-cap": "round"}, "paint": {"line-dasharray": [2, 1, 0, 3], "line-width": 4}},
          {"id": "l4", "type": "line", "source": "s", "paint": {"line-gradient": ["interpolate", ["linear"], ["line-progress"], 0, "red", 1, "blue"], "line-width": 3}}
         ]}
        """
        do {
            return try StyleDocument.parse(Array(text.utf8))
        } catch {
            preconditionFailure("FuzzEntryPoints.bucketStyle is invalid: \(error)")
        }
    }()
}
