import Foundation
import GLMapCore
import GLMapGeoJSON
import GLMapTestSupport
import Testing
@testable import GLMapTiles

/// Properties of the GeoJSON tiler over the repository's real data: the six scenes, the render
/// suites' GeoJSON files and every inline GeoJSON source of the render tests, each tiled with
/// GL JS's options (and its own, for inline sources) down a sample of tiles to maxZoom.
@Suite struct GeoJSONTileRealDataTests {
    struct Source: CustomStringConvertible {
        var name: String
        var collection: FeatureCollection
        var options: GeoJSONTileOptions
        var description: String { name }
    }

    /// Every source the shared folder holds (files that do not decode are the suites' invalid-input cases).
    static func sources() throws -> [Source] {
        var out: [Source] = []
        var files: [String] = []
        let fm = FileManager.default
        for dir in [SharedData.scenes.appendingPathComponent("data"), SharedData.renderTests,
                    SharedData.root.appendingPathComponent("render-suite/data")] {
            guard let e = fm.enumerator(atPath: dir.path) else { continue }
            for case let f as String in e where f.hasSuffix(".geojson") { files.append(dir.appendingPathComponent(f).path) }
        }
        for file in files.sorted() {
            guard let data = fm.contents(atPath: file), let fc = try? GeoJSONDecoder.decode([UInt8](data), file: file) else { continue }
            out.append(Source(name: (file as NSString).lastPathComponent, collection: fc, options: GeoJSONTileOptions()))
        }
        let cases = SharedData.renderTests.appendingPathComponent("cases")
        if let e = fm.enumerator(atPath: cases.path) {
            for case let f as String in e where f.hasSuffix("style.json") {
                guard let bytes = fm.contents(atPath: cases.appendingPathComponent(f).path),
                      let style = try? JSONParser.parse([UInt8](bytes)), let sources = style["sources"]?.objectValue else { continue }
                for (id, src) in sources.pairs where src["type"] == "geojson" {
                    guard let data = src["data"], data.objectValue != nil, src["cluster"]?.boolValue != true,
                          let fc = try? GeoJSONDecoder.decode(data, path: "data") else { continue }
                    let options = GeoJSONTileOptions.mapLibre(maxzoom: src["maxzoom"]?.numberValue, buffer: src["buffer"]?.numberValue,
                                                              tolerance: src["tolerance"]?.numberValue,
                                                              lineMetrics: src["lineMetrics"]?.boolValue ?? false,
                                                              generateId: src["generateId"]?.boolValue ?? false)
                    guard (0...24).contains(options.maxZoom) else { continue }
                    out.append(Source(name: "\(f) \(id)", collection: fc, options: options))
                }
            }
        }
        return out
    }

    /// z0 and, zoom by zoom to maxZoom, the children of up to `cap` non-empty tiles of the zoom above.
    static func sampleTiles(_ index: GeoJSONTileIndex, cap: Int = 6) -> [(CanonicalTileID, GeoJSONTile?)] {
        var out: [(CanonicalTileID, GeoJSONTile?)] = [(CanonicalTileID(0, 0, 0), index.tile(CanonicalTileID(0, 0, 0)))]
        var keep = [CanonicalTileID(0, 0, 0)]
        for _ in 0..<index.options.maxZoom where !keep.isEmpty {
            let candidates = keep.flatMap { $0.children! }
            var nonEmpty: [CanonicalTileID] = []
            for id in candidates {
                let t = index.tile(id)
                out.append((id, t))
                if let t, !t.features.isEmpty { nonEmpty.append(id) }
            }
            keep = (0..<min(cap, nonEmpty.count)).map { nonEmpty[$0 * nonEmpty.count / min(cap, nonEmpty.count)] }
        }
        return out
    }

    @Test func tilesStayInTheBufferedSquareRingsCloseAndNothingPastMaxZoom() throws {
        try SharedData.require("the scenes", at: SharedData.scenes)
        try SharedData.require("the render tests", at: SharedData.renderTests)
        let sources = try Self.sources()
        #expect(sources.count > 100, "expected the scenes, data files and inline sources of the render tests")
        var tilesChecked = 0, ringsChecked = 0, coordinates = 0
        for source in sources {
            let index = try GeoJSONTileIndex(source.collection, options: source.options)
            let lo = -Int(source.options.buffer.rounded(.up)), hi = source.options.extent + Int(source.options.buffer.rounded(.up))
            for (id, tile) in Self.sampleTiles(index) {
                guard let tile else { continue }
                tilesChecked += 1
                for f in tile.features {
                    for ring in f.geometry {
                        for p in ring {
                            coordinates += 1
                            guard p.x >= lo && p.x <= hi && p.y >= lo && p.y <= hi else {
                                Issue.record("\(source) \(id): \(p) outside \(lo)…\(hi)")
                                return
                            }
                        }
                    }
                    if f.type == .polygon {
                        for ring in f.geometry where ring.count >= 2 {
                            ringsChecked += 1
                            #expect(ring.first == ring.last, "\(source) \(id): ring of \(ring.count) points not closed")
                        }
                    }
                }
            }
            #expect(index.builtTiles.allSatisfy { $0.z <= source.options.maxZoom }, "\(source): a tile past maxZoom was built")
            if source.options.maxZoom < CanonicalTileID.maxZoom {
                #expect(index.tile(CanonicalTileID(source.options.maxZoom + 1, 0, 0)) == nil)
            }
        }
        #expect(tilesChecked > 1000 && ringsChecked > 1000 && coordinates > 100_000)
        print("GeoJSONTileRealData: \(sources.count) sources, \(tilesChecked) tiles, \(ringsChecked) rings, \(coordinates) coordinates checked")
    }

    /// geojson-vt's up-front index goes to indexMaxZoom while a tile holds more than indexMaxPoints
    /// points, past a lower maxZoom; here it stops at maxZoom, with the same tiles there.
    @Test func theUpFrontIndexStopsAtMaxZoom() throws {
        let file = SharedData.scenes.appendingPathComponent("data/us_states.geojson")
        try SharedData.require("the us_states scene", at: file)
        let fc = try GeoJSONDecoder.decode([UInt8](try Data(contentsOf: file)))
        let shallow = try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 2, indexMaxZoom: 5, indexMaxPoints: 100))
        #expect(shallow.builtTiles.contains { $0.z == 2 })
        #expect(shallow.builtTiles.allSatisfy { $0.z <= 2 })
        let lazy = try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 2, indexMaxZoom: 0))
        for y in 0..<4 {
            for x in 0..<4 {
                let id = CanonicalTileID(2, x, y)
                #expect(Self.text(shallow.tile(id)) == Self.text(lazy.tile(id)), "tile \(id)")
            }
        }
    }

    /// Scenes drill down from z0 (`GeoJSONSourceIndex` builds no index up front): the tiles are
    /// geojson-vt's with GL JS's up-front index, on every scene down a sample to maxZoom 14.
    @Test func noIndexUpFrontGivesTheSameTiles() throws {
        try SharedData.require("the scenes", at: SharedData.scenes)
        for name in ["us_states", "nyc_boroughs", "world", "montreal"] {
            let file = SharedData.scenes.appendingPathComponent("data/\(name).geojson")
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            let fc = try GeoJSONDecoder.decode([UInt8](data))
            var eager = GeoJSONTileOptions.mapLibre(maxzoom: 14), lazy = eager
            eager.indexMaxPoints = 1_000   // split up front where GL JS would on larger data
            lazy.indexMaxZoom = 0
            let a = try GeoJSONTileIndex(fc, options: eager), b = try GeoJSONTileIndex(fc, options: lazy)
            #expect(a.builtTiles.count > b.builtTiles.count, "\(name): the eager index splits up front")
            for (id, tile) in Self.sampleTiles(a, cap: 4) {
                #expect(Self.text(b.tile(id)) == Self.text(tile), "\(name) tile \(id)")
            }
        }
    }

    /// A drill-down cuts only the tiles on its path (geojson-vt cuts all four children at each
    /// level); the siblings asked for afterwards are the ones an index that cut them all gives.
    @Test func aDrillDownCutsOnlyItsPathAndSiblingsComeOutTheSame() throws {
        let file = SharedData.scenes.appendingPathComponent("data/nyc_boroughs.geojson")
        try SharedData.require("the nyc_boroughs scene", at: file)
        let fc = try GeoJSONDecoder.decode([UInt8](try Data(contentsOf: file)))
        var options = GeoJSONTileOptions(maxZoom: 14)
        options.indexMaxZoom = 0
        let lazy = try GeoJSONTileIndex(fc, options: options)
        // Manhattan at z12 (x 1206, y 1539): the path from z0, one tile a zoom.
        let target = CanonicalTileID(12, 1206, 1539)
        #expect(lazy.tile(target) != nil)
        #expect(lazy.builtTiles.count == 13, "built \(lazy.builtTiles.count) tiles for one z12 tile")
        #expect(Set(lazy.builtTiles.map(\.z)) == Set(0...12))
        // Every sibling of every tile on the path, against an index that cuts all four each time
        // (the up-front split to z5 with no point limit, then drill-downs from there).
        options.indexMaxZoom = 5
        options.indexMaxPoints = 0
        let eager = try GeoJSONTileIndex(fc, options: options)
        var asked = 0
        for z in 1...12 {
            let parent = CanonicalTileID(z - 1, target.x >> (13 - z), target.y >> (13 - z))
            for child in parent.children! {
                #expect(Self.text(lazy.tile(child)) == Self.text(eager.tile(child)), "tile \(child)")
                asked += 1
            }
        }
        #expect(asked == 48)
    }

    /// The same tiles whatever order they are asked in (deepest first here, shallowest first there).
    @Test func tilesDoNotDependOnTheOrderOfRequests() throws {
        let file = SharedData.scenes.appendingPathComponent("data/nyc_boroughs.geojson")
        try SharedData.require("the nyc_boroughs scene", at: file)
        let fc = try GeoJSONDecoder.decode([UInt8](try Data(contentsOf: file)))
        let first = try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 12))
        let sampled = Self.sampleTiles(first, cap: 4)
        let second = try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 12))
        for (id, tile) in sampled.reversed() {
            #expect(Self.text(second.tile(id)) == Self.text(tile), "tile \(id)")
        }
    }

    /// `vectorTile(id)`, made straight from the tile's features, is what `tile(id)?.vectorTileData()`
    /// gives — over every real source, on a second index so neither path sees the other's work.
    @Test func vectorTilesMadeDirectlyMatchTheGeoJSONVTTiles() throws {
        try SharedData.require("the scenes", at: SharedData.scenes)
        try SharedData.require("the render tests", at: SharedData.renderTests)
        var compared = 0
        for source in try Self.sources() {
            let viaTile = try GeoJSONTileIndex(source.collection, options: source.options)
            let direct = try GeoJSONTileIndex(source.collection, options: source.options)
            for (id, tile) in Self.sampleTiles(viaTile, cap: 3) {
                let want = Self.text(tile?.vectorTileData()), got = Self.text(direct.vectorTile(id))
                #expect(got == want, "\(source.name) tile \(id)")
                compared += 1
            }
        }
        #expect(compared > 1_000)
    }

    static func text(_ data: VectorTileData?) -> String {
        guard let data else { return "null" }
        return data.layers.keys.sorted().map { name in
            name + ":\n" + data.layers[name]!.features.map { f in
                "\(f.index) \(f.type) \(f.id.map { $0.jsonText } ?? "-") \(JSONValue.object(f.properties).jsonText) \(f.geometry.map { $0.map { "\($0.x),\($0.y)" } })"
            }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    static func text(_ tile: GeoJSONTile?) -> String {
        guard let tile else { return "null" }
        return tile.features.map { f in "\(f.type) \(f.id.map { $0.jsonText } ?? "-") \(JSONValue.object(f.tags).jsonText) \(f.geometry)" }.joined(separator: "\n")
    }
}
